import Foundation
import ISOBMFF
import LiveModel
import LiveReaders
import Testing
@testable import LiveWriters

/// Replaces every occurrence of `old` with `new` (same length) in `bytes`; returns how many.
func replaceAll(_ old: String, _ new: String, in bytes: inout [UInt8]) -> Int {
    let o = Array(old.utf8), n = Array(new.utf8)
    precondition(o.count == n.count)
    var count = 0
    var i = 0
    while i + o.count <= bytes.count {
        if bytes[i] == o[0] && bytes[i..<(i + o.count)].elementsEqual(o) {
            bytes.replaceSubrange(i..<(i + o.count), with: n)
            count += 1
            i += o.count
        } else {
            i += 1
        }
    }
    return count
}

struct MakeFromPlainMediaTests {
    static let id = "0A1B2C3D-4E5F-4061-8272-839495A6B7C8"

    @Test(arguments: ["h264.mov", "h264.mp4", "hevc.mov", "hevc-hev1.mov"])
    func plainStillAndMovieBecomeALivePhoto(movieName: String) throws {
        let dir = try W.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let still = W.base("still.jpg"), movie = W.base(movieName)
        let source = try FileByteSource(path: movie)
        let info = try #require(W.movie(movie))
        let edit = LivePhotoMovieEdit(contentIdentifier: Self.id, stillImageTime: 1.2,
                                      videoSampleEntryFormat: info.video?.codec == "hev1" ? "hvc1" : nil)
        let request = PairWriteRequest(stillSource: still, movieSource: movie, stillTarget: dir + "/IMG.JPG", movieTarget: dir + "/IMG.MOV",
                                       identifier: Self.id, editStill: true, movieEdit: edit, quickTime: true, copyUnchanged: true)
        let result = try LivePhotoPairWriter.write(request)
        #expect(result.written == [dir + "/IMG.JPG", dir + "/IMG.MOV"])
        #expect(result.stillMethod == .createdMakerNote)

        #expect(StillReader.read(path: dir + "/IMG.JPG").still?.contentIdentifier == Self.id)
        let out = try #require(W.movie(dir + "/IMG.MOV"))
        #expect(out.contentIdentifier == Self.id)
        #expect(out.majorBrand == "qt  ")
        #expect(out.video?.codec == (info.video?.codec == "hev1" ? "hvc1" : info.video?.codec))
        let sit = try #require(out.stillImageTime)
        #expect(sit.value == -1 && sit.dataType == 65 && sit.isInsideMovie)
        #expect(abs((sit.presentationTime ?? -1) - 1.2) < 0.01)
        let sitTrack = try #require(out.tracks.first { $0.id == sit.trackID })
        #expect(sitTrack.references["cdsc"] == [out.video?.trackID ?? 0])
        // Every original track's samples, byte for byte.
        let before = try MediaDigest.tracks(of: source), after = try W.digests(dir + "/IMG.MOV")
        for t in before { #expect(after.contains(t), "\(t)") }
        #expect(after.count == before.count + 1)
        // The JPEG's image data is untouched.
        #expect(MediaDigest.jpegImageData(try W.bytes(still)) == MediaDigest.jpegImageData(try W.bytes(dir + "/IMG.JPG")))
        #expect(W.leftovers(dir).isEmpty)
    }

    @Test func existingTargetsAreNeverOverwritten() throws {
        let dir = try W.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try W.write([1, 2, 3], dir + "/IMG.MOV")
        let request = PairWriteRequest(stillSource: W.base("still.jpg"), movieSource: W.base("h264.mov"), stillTarget: dir + "/IMG.JPG",
                                       movieTarget: dir + "/IMG.MOV", identifier: Self.id, editStill: true,
                                       movieEdit: LivePhotoMovieEdit(contentIdentifier: Self.id, stillImageTime: 1), copyUnchanged: true)
        #expect(throws: LivePhotoWriteError.self) { _ = try LivePhotoPairWriter.write(request) }
        #expect(try W.bytes(dir + "/IMG.MOV") == [1, 2, 3])
        #expect(!FileManager.default.fileExists(atPath: dir + "/IMG.JPG"))
    }

    @Test func rebrandingKeepsEveryLaterByteInPlace() throws {
        let mp4 = try W.bytes(W.base("h264.mp4"))
        var qt = mp4
        try LivePhotoEdits.rebrandAsQuickTime(&qt)
        #expect(qt.count == mp4.count)
        #expect(Array(qt[8..<12]) == Array("qt  ".utf8))
        let ftypSize = Int(mp4[3]) | Int(mp4[2]) << 8
        #expect(qt[ftypSize...] == mp4[ftypSize...])
        #expect(Sniffer.sniff(Array(qt.prefix(256))) == .quicktime)
        let scan = TopLevel.scan(MemoryByteSource(qt))
        #expect(scan.error == nil && scan.warnings.isEmpty)
    }

    @Test func verificationCatchesChangedSamplesAndWrongIdentifiers() throws {
        let movie = W.base("h264.mov")
        var digests = try W.digests(movie)
        digests[0].sha256 = String(repeating: "0", count: 64)
        #expect(throws: LivePhotoWriteError.self) {
            try LivePhotoVerifier.verifyMovie(at: movie, identifier: "X", original: digests, replacedTrackIDs: [], expectStillImageTime: false, videoFormat: nil)
        }
        let pair = W.fixtures.appendingPathComponent("pair/IMG_0001.MOV").path
        let good = try W.digests(pair)
        try LivePhotoVerifier.verifyMovie(at: pair, identifier: "6E1F7C2A-3B4D-4E5F-8A9B-0C1D2E3F4A5B", original: good,
                                          replacedTrackIDs: [], expectStillImageTime: true, videoFormat: nil)
        var bad = good
        bad[0].sha256 = String(repeating: "f", count: 64)
        #expect(throws: LivePhotoWriteError.self) {
            try LivePhotoVerifier.verifyMovie(at: pair, identifier: "6E1F7C2A-3B4D-4E5F-8A9B-0C1D2E3F4A5B", original: bad,
                                              replacedTrackIDs: [], expectStillImageTime: true, videoFormat: nil)
        }
        #expect(throws: LivePhotoWriteError.self) {
            try LivePhotoVerifier.verifyMovie(at: pair, identifier: "6E1F7C2A-3B4D-4E5F-8A9B-0C1D2E3F4A5C", original: good,
                                              replacedTrackIDs: [], expectStillImageTime: true, videoFormat: nil)
        }
    }

    @Test func digestsFailCleanlyOnBrokenMovies() throws {
        var bytes = try W.bytes(W.base("h264.mov"))
        // Cut the file inside mdat: the chunk tables now point past the end.
        let mdat = try #require(TopLevel.scan(MemoryByteSource(bytes)).first("mdat"))
        let moov = try #require(TopLevel.scan(MemoryByteSource(bytes)).first("moov"))
        if moov.offset < mdat.offset {
            bytes = Array(bytes[0..<Int(mdat.offset + 20)])
            #expect(throws: BoxError.self) { _ = try MediaDigest.tracks(of: MemoryByteSource(bytes)) }
        }
        #expect(throws: BoxError.self) { _ = try MediaDigest.tracks(of: MemoryByteSource([0, 0, 0, 8, 0x66, 0x72, 0x65, 0x65])) }
    }
}

/// Round trips on the real device pairs (skipped without ../shared/corpus), on copies.
@Suite(.enabled(if: W.corpusPresent, "needs ../shared/corpus"))
struct CorpusRepairTests {
    static let pairs = W.corpusPairs()

    /// The movie loses its identifier key and its still-image-time key (renamed in place); the
    /// repair must give both back, leave every track's samples alone, and keep the still.
    @Test(arguments: pairs.map(\.id))
    func movieStrippedOfIdentifierAndStillImageTime(id: String) throws {
        let pair = try #require(Self.pairs.first { $0.id == id })
        let dir = try W.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var movie = try W.bytes(pair.movie)
        #expect(replaceAll("com.apple.quicktime.content.identifier", "com.apple.quicktime.content.identifiex", in: &movie) >= 1)
        #expect(replaceAll("com.apple.quicktime.still-image-time", "com.apple.quicktime.still-image-timx", in: &movie) >= 1)
        let moviePath = dir + "/in.MOV"
        try W.write(movie, moviePath)
        let stillFile = MediaInspector.inspect(path: pair.still, options: .lint)
        let movieFile = MediaInspector.inspect(path: moviePath, options: .lint)
        #expect(movieFile.movie?.contentIdentifier == nil)
        #expect(movieFile.movie?.stillImageTime == nil)
        let plan = Planning.plan(still: stillFile, movie: movieFile)
        #expect(plan.identifierSource == .still)
        #expect(plan.movieEdit?.stillImageTime != nil)
        #expect(!plan.editStill)
        let result = try LivePhotoPairWriter.write(PairWriteRequest(
            stillSource: pair.still, movieSource: moviePath, stillTarget: dir + "/out.still", movieTarget: dir + "/out.MOV",
            identifier: plan.identifier, editStill: plan.editStill, movieEdit: plan.movieEdit, copyUnchanged: true))
        #expect(result.written.count == 2)
        let out = try #require(W.movie(dir + "/out.MOV"))
        #expect(out.contentIdentifier == stillFile.contentIdentifier)
        #expect(out.stillImageTime?.isInsideMovie == true)
        let before = try W.digests(moviePath), after = try W.digests(dir + "/out.MOV")
        for t in before { #expect(after.contains(t), "\(t)") }
        #expect(try W.bytes(dir + "/out.still") == W.bytes(pair.still))
    }

    /// The still's identifier is garbled (same length, not a UUID): the movie's wins and the still
    /// is rewritten (JPEG through exiv2, HEIC in place), its image data untouched.
    @Test(arguments: pairs.map(\.id))
    func stillWithAGarbledIdentifier(id: String) throws {
        let pair = try #require(Self.pairs.first { $0.id == id })
        let dir = try W.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let original = MediaInspector.inspect(path: pair.still, options: .lint)
        let uuid = try #require(original.contentIdentifier)
        var still = try W.bytes(pair.still)
        let garbled = "NOT-A-UUID-" + String(repeating: "X", count: uuid.utf8.count - 11)
        #expect(replaceAll(uuid, garbled, in: &still) >= 1)
        let stillPath = dir + "/in.still"
        try W.write(still, stillPath)
        let stillFile = MediaInspector.inspect(path: stillPath, options: .lint)
        #expect(stillFile.contentIdentifier == garbled)
        let movieFile = MediaInspector.inspect(path: pair.movie, options: .lint)
        let plan = Planning.plan(still: stillFile, movie: movieFile)
        #expect(plan.identifierSource == .movie)
        #expect(plan.editStill)
        #expect(plan.movieEdit == nil)
        let target = dir + "/out.still"
        let result = try LivePhotoPairWriter.write(PairWriteRequest(
            stillSource: stillPath, movieSource: pair.movie, stillTarget: target, movieTarget: dir + "/out.MOV",
            identifier: plan.identifier, editStill: true, movieEdit: nil, copyUnchanged: true))
        #expect(result.stillMethod == (stillFile.format == .jpeg ? .rekeyedMakerNote : .heicInPlace))
        #expect(StillReader.read(path: target).still?.contentIdentifier == uuid)
        if stillFile.format == .jpeg {
            #expect(MediaDigest.jpegImageData(still) == MediaDigest.jpegImageData(try W.bytes(target)))
            // Every other makernote tag survives.
            let before = StillReader.read(path: pair.still).still?.makerNote?.tags.map(\.tag)
            #expect(StillReader.read(path: target).still?.makerNote?.tags.map(\.tag) == before)
        } else {
            #expect(try W.bytes(target) == W.bytes(pair.still))  // in place: exactly the original back
        }
        #expect(try W.bytes(dir + "/out.MOV") == W.bytes(pair.movie))
    }
}
