import Foundation
import ISOBMFF
import LiveLintEngine
import LiveModel
import LiveReaders
import LiveWriters
import Rules
import TestSupport
import Testing

/// Round trips on every corpus pair: Live Photo → motion photo → Live Photo, checked by our own
/// readers (and, with LIVELINT_SLOW_TESTS=1, by exiftool and ffprobe).
@Suite("convert: round trips on the corpus pairs", .enabled(if: CLI.corpusPresent, "needs ../shared/corpus"))
struct MotionPhotoConvertTests {
    struct Pair: CustomTestStringConvertible, Sendable {
        var id: String
        var still: String
        var movie: String
        var testDescription: String { id }
    }

    static let pairs: [Pair] = {
        let entries = CorpusEntry.load()
        return entries.filter { $0.category == "pair-still" }.compactMap { s -> Pair? in
            guard let pair = s.raw["pair"] as? String,
                  let m = entries.first(where: { $0.category == "pair-movie" && $0.raw["pair"] as? String == pair }) else { return nil }
            return Pair(id: pair, still: s.url.path, movie: m.url.path)
        }.sorted { $0.id < $1.id }
    }()

    /// Video and audio tracks' sample digests (the still-image-time track is rebuilt on the way back).
    static func mediaDigests(_ source: some ByteSource) throws -> [UInt32: String] {
        var out: [UInt32: String] = [:]
        for t in try MediaDigest.tracks(of: source) where t.handler == "vide" || t.handler == "soun" { out[t.trackID] = t.sha256 }
        return out
    }

    struct RoundTrip {
        var directory: URL
        var motionPhoto: String
        var motion: MotionPhotoInfo
        var back: MotionPhotoConversion
        var format: ContainerFormat
    }

    static func roundTrip(_ pair: Pair) throws -> RoundTrip {
        let dir = try CLI.temporaryDirectory()
        let stillFormat = MediaInspector.inspect(path: pair.still, options: .lint).format
        let motionPath = dir.appendingPathComponent(pair.id + (stillFormat == .jpeg ? ".MP.jpg" : ".MP.HEIC")).path
        _ = try MotionPhotoConverter.toMotionPhoto(still: pair.still, movie: pair.movie, output: motionPath)
        let file = MediaInspector.inspect(path: motionPath, options: .dump)
        let motion = try #require(file.still?.motionPhoto, "\(pair.id): no motion photo read back")
        let back = try MotionPhotoConverter.toLivePhoto(motionPhoto: motionPath, directory: dir.appendingPathComponent("live").path)
        return RoundTrip(directory: dir, motionPhoto: motionPath, motion: motion, back: back, format: stillFormat)
    }

    @Test(arguments: pairs)
    func pairToMotionPhotoAndBack(_ pair: Pair) throws {
        let trip = try Self.roundTrip(pair)
        defer { try? FileManager.default.removeItem(at: trip.directory) }
        let source = try FileByteSource(path: pair.movie)
        let original = try #require(MovieReader.read(source).movie)
        let sourceDigests = try Self.mediaDigests(source)
        #expect(!sourceDigests.isEmpty)

        // The motion photo: the video where the claims say, every sample byte the source movie's.
        let m = trip.motion
        let offset = try #require(m.videoOffset), length = try #require(m.videoLength)
        #expect(m.videoError == nil)
        #expect(m.video?.majorBrand == "mp42", "\(pair.id): re-muxed as MP4")
        let whole = try FileByteSource(path: trip.motionPhoto)
        #expect(try Self.mediaDigests(SliceByteSource(whole, offset: offset, size: length)) == sourceDigests)
        #expect(m.video?.video?.codec == original.video?.codec)
        #expect(m.video?.video?.frameCount == original.video?.frameCount)
        #expect(m.duration == original.duration)
        // The same box types, in the same order, after the ftyp (a classic movie without ftyp gets one first).
        #expect(m.video?.topLevelBoxes.map(\.type).filter { $0 != "ftyp" } == original.topLevelBoxes.map(\.type).filter { $0 != "ftyp" })
        let stillTime = try #require(original.stillImageTime?.presentationTime)
        // JPEG: XMP segment + appended MP4; HEIC: XMP item + 'mpvd'. Both Motion Photo 1.0.
        #expect(m.container == (trip.format == .jpeg ? .appended : .mpvd))
        #expect(m.format == .googleMotionPhoto)
        #expect(m.declaredVideoOffset == offset && m.declaredVideoLength == length, "\(pair.id): the directory describes the video")
        #expect(m.declared.presentationTimestampUs == Int64((stillTime * 1_000_000).rounded()))
        #expect(m.declared.items.first?.semantic == "Primary")
        // The motion photo lints clean, alone (no orphan: it is a complete unit).
        let engine = try LintEngine(rules: builtinRules)
        let motionFile = MediaInspector.inspect(path: trip.motionPhoto, options: .lint)
        let lone = engine.run(files: [motionFile.slimmedForLint(keeping: engine.metadataKeys)], root: ".").findings
        #expect(lone.isEmpty, "\(pair.id): \(lone.map { "\($0.ruleID): \($0.message)" })")

        // Back to a Live Photo: the halves carry one identifier, the samples are the source's.
        let written = trip.back.written
        #expect(written.count == 2)
        let movieBack = try #require(written.first { $0.hasSuffix(".MOV") })
        let stillBack = try #require(written.first { !$0.hasSuffix(".MOV") })
        let backSource = try FileByteSource(path: movieBack)
        #expect(try Self.mediaDigests(backSource) == sourceDigests)
        let files = [stillBack, movieBack].map { MediaInspector.inspect(path: $0, options: .lint) }
        #expect(files[0].contentIdentifier == trip.back.identifier && files[1].contentIdentifier == trip.back.identifier)
        #expect(files[1].format == .quicktime)
        let sit = try #require(files[1].movie?.stillImageTime)
        #expect(sit.isInsideMovie)
        #expect(abs((sit.presentationTime ?? -1) - stillTime) < 0.002, "\(pair.id): the still-image-time comes back")
        #expect(files[0].still?.motionPhoto == nil, "\(pair.id): the trailer and the motion tags are gone")
        let findings = engine.run(files: files.map { $0.slimmedForLint(keeping: engine.metadataKeys) }, root: ".").findings
        #expect(findings.filter { $0.severity == .error }.isEmpty, "\(pair.id): \(findings.map { "\($0.ruleID): \($0.message)" })")
    }

    /// Independent oracles: exiftool reads the XMP directory (and, for HEIC, extracts the `mpvd`
    /// video with -ee), ffprobe sees the same codec, frame count and duration as in the source movie.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["LIVELINT_SLOW_TESTS"] == "1", "set LIVELINT_SLOW_TESTS=1"),
          .enabled(if: TestTools.which("exiftool") != nil && TestTools.which("ffprobe") != nil, "needs exiftool and ffprobe"),
          arguments: pairs)
    func oraclesAgree(_ pair: Pair) throws {
        let trip = try Self.roundTrip(pair)
        defer { try? FileManager.default.removeItem(at: trip.directory) }
        let exiftool = try #require(TestTools.which("exiftool")), ffprobe = try #require(TestTools.which("ffprobe"))
        let size = try #require(FileManager.default.attributesOfItem(atPath: trip.motionPhoto)[.size] as? Int)
        let bytes = try #require(FileManager.default.contents(atPath: trip.motionPhoto))
        let offset = try #require(trip.motion.videoOffset.map(Int.init)), length = try #require(trip.motion.videoLength.map(Int.init))
        let run = try TestTools.run(exiftool, ["-j", "-n", "-ee", "-G1", "-struct", trip.motionPhoto])
        let tags = try #require((try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [[String: Any]])?.first)
        do {
            #expect(tags["XMP-GCamera:MotionPhoto"] as? Int == 1)
            let directory = try #require(tags["XMP-Container:Directory"] as? [[String: Any]])
            let items = directory.compactMap { $0["Item"] as? [String: Any] }
            #expect(items.first?["Semantic"] as? String == "Primary")
            let video = try #require(items.last)
            #expect(video["Semantic"] as? String == "MotionPhoto" && video["Mime"] as? String == "video/mp4")
            // The directory is consistent: the video item's Length, counted from the end, starts at an ftyp.
            let declared = try #require(video["Length"] as? Int)
            #expect(declared == length && size - declared == offset)
            #expect(bytes[(offset + 4)..<(offset + 8)] == Data("ftyp".utf8))
        }
        if trip.format != .jpeg {
            // exiftool -ee extracts the mpvd payload as MotionPhotoVideo.
            let out = trip.directory.appendingPathComponent("extracted.mp4").path
            let extracted = try TestTools.run(exiftool, ["-b", "-MotionPhotoVideo", "-w", "%0f" + out, trip.motionPhoto])
            #expect(extracted.status == 0)
            #expect((try? FileManager.default.attributesOfItem(atPath: out)[.size] as? Int) == length)
        }
        let embedded = trip.directory.appendingPathComponent("embedded.mp4")
        try bytes[offset..<(offset + length)].write(to: embedded)
        func probe(_ path: String) throws -> [String] {
            let r = try TestTools.run(ffprobe, ["-v", "error", "-select_streams", "v:0", "-count_packets", "-show_entries",
                                                "stream=codec_name,nb_read_packets,duration", "-of", "csv=p=0", path])
            #expect(r.status == 0, "\(r.err)")
            return r.out.split(separator: "\n").map(String.init)
        }
        let source = try probe(pair.movie)
        #expect(!source.isEmpty)
        #expect(try probe(embedded.path) == source, "\(pair.id): the embedded MP4")
        let movieBack = try #require(trip.back.written.first { $0.hasSuffix(".MOV") })
        #expect(try probe(movieBack) == source, "\(pair.id): the movie back")
    }

    /// The corpus Samsung HEIC (MP1) to a Live Photo: its `mpvd` video becomes the movie, its
    /// motion tags are blanked in place (exiv2 cannot write HEIC), its out-of-range timestamp is
    /// replaced by the middle of the video, and the pair lints clean.
    @Test func samsungHEICToLivePhoto() throws {
        let entry = try #require(CorpusEntry.load().first { $0.id == "MP1" })
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try MotionPhotoConverter.toLivePhoto(motionPhoto: entry.url.path, directory: dir.path)
        #expect(result.notes.contains { $0.contains("outside") } && result.notes.contains { $0.contains("spaces") })
        let original = try [UInt8](Data(contentsOf: entry.url))
        let motion = try #require(MediaInspector.inspect(path: entry.url.path, options: .lint).still?.motionPhoto)
        let stillPath = try #require(result.written.first { $0.hasSuffix(".HEIC") })
        let moviePath = try #require(result.written.first { $0.hasSuffix(".MOV") })
        let still = MediaInspector.inspect(path: stillPath, options: .dump)
        #expect(still.still?.motionPhoto == nil && still.contentIdentifier == result.identifier)
        #expect(!(still.still?.properties.contains { $0.key.hasPrefix("Xmp.GCamera.") || $0.key.hasPrefix("Xmp.Container.") } ?? true))
        // The primary image's boxes are the original's up to the mpvd box (the Exif rewrite appends).
        let written = try [UInt8](Data(contentsOf: URL(fileURLWithPath: stillPath)))
        let primaryEnd = Int(try #require(motion.primaryImageEnd))
        let differing = (0..<primaryEnd).filter { written[$0] != original[$0] }
        let notBlanked = differing.filter { written[$0] != UInt8(ascii: " ") }
        #expect(!differing.isEmpty && notBlanked.count <= 16, "only XMP blanked and the Exif item's 'iloc' entry: \(notBlanked.count) other bytes")
        let movie = MediaInspector.inspect(path: moviePath, options: .lint)
        #expect(movie.movie?.stillImageTime?.isInsideMovie == true && movie.contentIdentifier == result.identifier)
        let embedded = SliceByteSource(try FileByteSource(path: entry.url.path), offset: try #require(motion.videoOffset),
                                       size: try #require(motion.videoLength))
        #expect(try Self.mediaDigests(FileByteSource(path: moviePath)) == Self.mediaDigests(embedded))
        let engine = try LintEngine(rules: builtinRules)
        let findings = engine.run(files: [still, movie].map { $0.slimmedForLint(keeping: engine.metadataKeys) }, root: ".").findings
        #expect(findings.isEmpty, "\(findings.map { "\($0.ruleID): \($0.message)" })")
    }

    /// A HEIC without an XMP item (the corpus still's item renamed away) gets one added: `meta`
    /// grows, the media after it moves, and every image item still reads the same bytes.
    @Test func heicWithoutXMPGetsAnXMPItem() throws {
        let entry = try #require(CorpusEntry.load().first { $0.id == "S2" })
        var bytes = try [UInt8](Data(contentsOf: entry.url))
        let marker = Array("mime\u{0}application/rdf+xml".utf8)
        let at = try #require((0...(bytes.count - marker.count)).first { Array(bytes[$0..<($0 + marker.count)]) == marker })
        bytes[at + 3] = UInt8(ascii: "x")  // 'mimx': an item of a type nobody reads as XMP
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let still = dir.appendingPathComponent("S2.HEIC")
        try Data(bytes).write(to: still)
        #expect(MediaInspector.inspect(path: still.path, options: .lint).still?.property("Xmp.GCamera.MotionPhoto") == nil)
        let out = dir.appendingPathComponent("S2.MP.HEIC").path
        let movie = CLI.fixtures.appendingPathComponent("pair/IMG_0001.MOV").path
        let result = try MotionPhotoConverter.toMotionPhoto(still: still.path, movie: movie, output: out)
        #expect(!result.notes.contains { $0.contains("no motion-photo XMP") }, "\(result.notes)")
        let file = MediaInspector.inspect(path: out, options: .dump)
        #expect(file.error == nil && file.still?.width == MediaInspector.inspect(path: still.path, options: .dump).still?.width)
        let m = try #require(file.still?.motionPhoto)
        #expect(m.format == .googleMotionPhoto && m.container == .mpvd)
        #expect(m.declaredVideoOffset == m.videoOffset && m.declaredVideoLength == m.videoLength)
        #expect(file.contentIdentifier == entry.still?["content_identifier_0x0011"] as? String, "the Exif item moved with the media")
    }

    /// The command line, both ways, with its output for people.
    @Test(.enabled(if: CLI.binary != nil, "needs the built livelint"))
    func commandLineBothWays() throws {
        let pair = try #require(Self.pairs.first)
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let motion = dir.appendingPathComponent("X.MP.jpg").path
        let to = try CLI.run(["convert", pair.still, pair.movie, "--to", "motion-photo", "--output", motion])
        #expect(to.status == 0, "\(to.stderr)")
        #expect(to.stdout.contains("made \(motion)") && to.stdout.contains("verified unchanged"))
        let again = try CLI.run(["convert", pair.still, pair.movie, "--to", "motion-photo", "--output", motion])
        #expect(again.status == 2 && again.stderr.contains("already exists"), "never overwrites")
        let id = "6E1F7C2A-3B4D-4E5F-8A9B-0C1D2E3F4A5B"
        let back = try CLI.run(["convert", motion, "--to", "live-photo", "--output", dir.appendingPathComponent("live").path, "--identifier", id])
        #expect(back.status == 0, "\(back.stderr)")
        #expect(back.stdout.contains(id))
        let lint = try CLI.run(["lint", "--no-config", "--format", "json", dir.path])
        #expect(lint.status == 0, "\(lint.stdout)")
        let usage = try CLI.run(["convert", motion, "--to", "motion-photo", "--output", motion])
        #expect(usage.status == 2 && usage.stderr.contains("takes a still and a movie"))
    }
}

/// The round trip on the fixture pair, so it runs without the corpus too.
@Test func fixturePairToMotionPhotoAndBack() throws {
    let still = CLI.fixtures.appendingPathComponent("pair/IMG_0001.JPG").path
    let movie = CLI.fixtures.appendingPathComponent("pair/IMG_0001.MOV").path
    let dir = try CLI.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let motionPath = dir.appendingPathComponent("IMG_0001.MP.jpg").path
    let to = try MotionPhotoConverter.toMotionPhoto(still: still, movie: movie, output: motionPath)
    let motion = try #require(MediaInspector.inspect(path: motionPath, options: .dump).still?.motionPhoto)
    #expect(motion.format == .googleMotionPhoto && motion.videoOffset == motion.declaredVideoOffset)
    #expect(motion.declared.presentationTimestampUs == to.presentationTimestampUs)
    let source = try FileByteSource(path: movie)
    let digests = try MotionPhotoConvertTests.mediaDigests(source)
    let embedded = SliceByteSource(try FileByteSource(path: motionPath), offset: try #require(motion.videoOffset), size: try #require(motion.videoLength))
    #expect(try MotionPhotoConvertTests.mediaDigests(embedded) == digests)
    let back = try MotionPhotoConverter.toLivePhoto(motionPhoto: motionPath, directory: dir.appendingPathComponent("live").path)
    let movieBack = try #require(back.written.first { $0.hasSuffix(".MOV") })
    #expect(try MotionPhotoConvertTests.mediaDigests(FileByteSource(path: movieBack)) == digests)
    let original = try #require(MovieReader.read(source).movie?.stillImageTime?.presentationTime)
    let again = try #require(MovieReader.read(path: movieBack).movie?.stillImageTime?.presentationTime)
    #expect(abs(original - again) < 0.002)
    // The still comes back without its trailer and its motion tags.
    let stillBack = try #require(back.written.first { !$0.hasSuffix(".MOV") })
    #expect(MediaInspector.inspect(path: stillBack, options: .lint).still?.motionPhoto == nil)
}

/// An Ultra HDR JPEG (a gain map after the primary image, listed in the directory): it is no
/// motion photo by itself; made one, its gain map and its directory item stay; made a Live Photo
/// again, the gain map and its item are still there and the MotionPhoto item is gone.
@Test func ultraHDRGainMapSurvivesBothWays() throws {
    let jpeg = try [UInt8](Data(contentsOf: CLI.fixtures.appendingPathComponent("pair/IMG_0001.JPG")))
    let gainMap = jpeg  // any JPEG stands for the gain map image
    let container = MotionPhotoXMP.containerNamespace, item = MotionPhotoXMP.itemNamespace
    let description = "<rdf:Description rdf:about=\"\" xmlns:Container=\"\(container)\" xmlns:Item=\"\(item)\"><Container:Directory><rdf:Seq>"
        + "<rdf:li rdf:parseType=\"Resource\"><Container:Item Item:Mime=\"image/jpeg\" Item:Semantic=\"Primary\"/></rdf:li>"
        + "<rdf:li rdf:parseType=\"Resource\"><Container:Item Item:Mime=\"image/jpeg\" Item:Semantic=\"GainMap\" Item:Length=\"\(gainMap.count)\"/></rdf:li>"
        + "</rdf:Seq></Container:Directory></rdf:Description>"
    let ultraHDR = try JPEGXMPEditor.settingMotionPhoto(jpeg, description: description) + gainMap
    let dir = try CLI.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let stillPath = dir.appendingPathComponent("HDR.jpg").path
    try Data(ultraHDR).write(to: URL(fileURLWithPath: stillPath))
    #expect(MediaInspector.inspect(path: stillPath, options: .dump).still?.motionPhoto == nil, "a gain map alone promises no video")

    let motionPath = dir.appendingPathComponent("HDR.MP.jpg").path
    _ = try MotionPhotoConverter.toMotionPhoto(still: stillPath, movie: CLI.fixtures.appendingPathComponent("pair/IMG_0001.MOV").path, output: motionPath)
    let m = try #require(MediaInspector.inspect(path: motionPath, options: .dump).still?.motionPhoto)
    #expect(m.declared.items.map(\.semantic) == ["Primary", "GainMap", "MotionPhoto"])
    #expect(m.videoOffset == m.declaredVideoOffset && m.videoLength == m.declaredVideoLength)
    let written = try [UInt8](Data(contentsOf: URL(fileURLWithPath: motionPath)))
    let videoAt = Int(try #require(m.videoOffset))
    #expect(Array(written[(videoAt - gainMap.count)..<videoAt]) == gainMap, "the gain map stays right before the video")

    let back = try MotionPhotoConverter.toLivePhoto(motionPhoto: motionPath, directory: dir.appendingPathComponent("live").path)
    let stillBack = try #require(back.written.first { !$0.hasSuffix(".MOV") })
    let file = MediaInspector.inspect(path: stillBack, options: .dump)
    #expect(file.still?.motionPhoto == nil)
    let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: stillBack)))
    #expect(Array(bytes.suffix(gainMap.count)) == gainMap, "the gain map is still the file's tail")
    let semantics = file.still?.properties.filter { $0.key.hasSuffix("Item:Semantic") }.compactMap(\.value.stringValue)
    #expect(semantics == ["Primary", "GainMap"])
}
