import AppleMakerNote
import Foundation
import ISOBMFF
import LiveWriters
import ZIPFoundation

/// Builds the committed fixtures from `Fixtures/base` (media made once with ffmpeg; see
/// Fixtures/README.md). Every identifier, makernote, `moov/meta` key and still-image-time track
/// is written here by livelint's own writers.
struct FixtureBuilder {
    static let outputFolders = ["pair", "library"]

    let stillJPEG: [UInt8]
    let portraitJPEG: [UInt8]
    let movies: [String: [UInt8]]

    init(base: URL) throws {
        func load(_ name: String) throws -> [UInt8] {
            [UInt8](try Data(contentsOf: base.appendingPathComponent(name)))
        }
        stillJPEG = try load("still.jpg")
        portraitJPEG = try load("still-portrait.jpg")
        var movies: [String: [UInt8]] = [:]
        for name in ["h264.mov", "hevc.mov", "hevc-hev1.mov", "hevc-422-10bit.mov", "h264.mp4"] {
            movies[name] = try load(name)
        }
        self.movies = movies
    }

    /// One still (and usually one movie) to write.
    struct Spec {
        var folder: String
        var still: String?
        var movie: String?
        /// nil: no makernote at all (a plain JPEG).
        var stillID: String?
        /// nil: no content identifier key.
        var movieID: String?
        var baseMovie = "h264.mov"
        /// Seconds; nil: no still-image-time track.
        var stillTime: Double? = 1.5
        /// Use the 72×96 portrait still instead of the 96×72 one.
        var portrait = false
        /// The still-image-time key's data type (65, int8, is right).
        var stillTimeDataType: UInt32 = 65
        var why: String
    }

    static let good1 = "6E1F7C2A-3B4D-4E5F-8A9B-0C1D2E3F4A5B"
    static let good2 = "0D9C8B7A-6F5E-4D3C-9B2A-1F0E9D8C7B6A"
    static let good3 = "A1B2C3D4-E5F6-4A7B-8C9D-0E1F2A3B4C5D"

    /// The sample library: good pairs, then one broken variant per rule.
    static let library: [Spec] = [
        Spec(folder: "2024/05", still: "IMG_0001.JPG", movie: "IMG_0001.MOV", stillID: good1, movieID: good1,
             why: "good H.264 pair"),
        Spec(folder: "2024/05", still: "IMG_0002.JPG", movie: "IMG_0002.MOV", stillID: good2, movieID: good2,
             baseMovie: "hevc.mov", stillTime: 0.9, why: "good HEVC (hvc1) pair"),
        Spec(folder: "2024/06", still: "IMG_0003.JPG", movie: "IMG_0003_HEVC.MOV", stillID: good3, movieID: good3,
             baseMovie: "hevc.mov", why: "good pair with the icloudpd `_HEVC` stem"),
        Spec(folder: "broken/identifier-mismatch", still: "IMG_0101.JPG", movie: "IMG_0101.MOV",
             stillID: "11111111-2222-4333-8444-555555555555", movieID: "99999999-8888-4777-8666-555555555555",
             why: "paired by name; the identifiers differ"),
        Spec(folder: "broken/still-missing-identifier", still: "IMG_0102.JPG", movie: "IMG_0102.MOV",
             stillID: nil, movieID: "22222222-3333-4444-8555-666666666666",
             why: "the still has no Apple makernote (a converter dropped it)"),
        Spec(folder: "broken/movie-missing-identifier", still: "IMG_0103.JPG", movie: "IMG_0103.MOV",
             stillID: "33333333-4444-4555-8666-777777777777", movieID: nil,
             why: "the movie has no content identifier key"),
        Spec(folder: "broken/missing-still-image-time", still: "IMG_0104.JPG", movie: "IMG_0104.MOV",
             stillID: "44444444-5555-4666-8777-888888888888", movieID: "44444444-5555-4666-8777-888888888888",
             stillTime: nil, why: "the movie has no still-image-time track"),
        Spec(folder: "broken/still-image-time-out-of-range", still: "IMG_0105.JPG", movie: "IMG_0105.MOV",
             stillID: "55555555-6666-4777-8888-999999999999", movieID: "55555555-6666-4777-8888-999999999999",
             stillTime: 5.0, why: "the still-image-time is at 5 s in a 3 s movie"),
        Spec(folder: "broken/video-codec", still: "IMG_0106.JPG", movie: "IMG_0106.MOV",
             stillID: "66666666-7777-4888-8999-AAAAAAAAAAAA", movieID: "66666666-7777-4888-8999-AAAAAAAAAAAA",
             baseMovie: "hevc-hev1.mov", why: "HEVC tagged hev1, which Apple players refuse"),
        Spec(folder: "broken/video-pixel-format", still: "IMG_0107.JPG", movie: "IMG_0107.MOV",
             stillID: "77777777-8888-4999-8AAA-BBBBBBBBBBBB", movieID: "77777777-8888-4999-8AAA-BBBBBBBBBBBB",
             baseMovie: "hevc-422-10bit.mov", why: "10-bit 4:2:2 video"),
        Spec(folder: "broken/identifier-case-mismatch", still: "IMG_0108.JPG", movie: "IMG_0108.MOV",
             stillID: "88888888-9999-4AAA-8BBB-CCCCCCCCCCCC", movieID: "88888888-9999-4aaa-8bbb-cccccccccccc",
             why: "identifiers equal but for case"),
        Spec(folder: "broken/identifier-not-uuid", still: "IMG_0109.JPG", movie: "IMG_0109.MOV",
             stillID: "not-a-uuid", movieID: "not-a-uuid", why: "the identifier is not a UUID"),
        Spec(folder: "broken/orphans", still: "IMG_0110.JPG", movie: nil,
             stillID: "AAAAAAAA-BBBB-4CCC-8DDD-EEEEEEEEEEEE", movieID: nil, why: "a still whose movie is missing"),
        Spec(folder: "broken/orphans", still: nil, movie: "IMG_0111.MOV",
             stillID: nil, movieID: "BBBBBBBB-CCCC-4DDD-8EEE-FFFFFFFFFFFF", why: "a movie whose still is missing"),
        Spec(folder: "broken/duplicate-identifier", still: "IMG_0112.JPG", movie: "IMG_0112.MOV",
             stillID: "CCCCCCCC-DDDD-4EEE-8FFF-000000000000", movieID: "CCCCCCCC-DDDD-4EEE-8FFF-000000000000",
             why: "two stills carry the same identifier (with IMG_0112 copy.JPG)"),
        Spec(folder: "broken/duplicate-identifier", still: "IMG_0112 copy.JPG", movie: nil,
             stillID: "CCCCCCCC-DDDD-4EEE-8FFF-000000000000", movieID: nil, why: "the duplicate still"),
        Spec(folder: "broken/movie-not-quicktime", still: "IMG_0113.JPG", movie: "IMG_0113.MP4",
             stillID: "DDDDDDDD-EEEE-4FFF-8000-111111111111", movieID: "DDDDDDDD-EEEE-4FFF-8000-111111111111",
             baseMovie: "h264.mp4", why: "the movie is an ISO MP4, not QuickTime"),
        Spec(folder: "broken/extension-mismatch", still: "IMG_0114.HEIC", movie: "IMG_0114.MOV",
             stillID: "EEEEEEEE-FFFF-4000-8111-222222222222", movieID: "EEEEEEEE-FFFF-4000-8111-222222222222",
             why: "a JPEG named .HEIC"),
        Spec(folder: "broken/geometry-mismatch", still: "IMG_0115.JPG", movie: "IMG_0115.MOV",
             stillID: "FFFFFFFF-0000-4111-8222-333333333333", movieID: "FFFFFFFF-0000-4111-8222-333333333333",
             portrait: true, why: "a portrait still with a landscape movie (rule off by default; on in the library's .livelint.yml)"),
        Spec(folder: "broken/still-image-time-type", still: "IMG_0116.JPG", movie: "IMG_0116.MOV",
             stillID: "01234567-89AB-4CDE-8F01-23456789ABCD", movieID: "01234567-89AB-4CDE-8F01-23456789ABCD",
             stillTimeDataType: 66, why: "the still-image-time key is typed int16 (66), not int8"),
    ]

    static let libraryConfiguration = """
        # livelint configuration for the sample library (see README "Configuration").
        version: 1
        rules:
          # Off by default (the evidence is thin); on here so the sample shows it.
          geometry-mismatch: { enabled: true, tolerance: 0.02 }

        """

    /// The README's pair: the one complete Live Photo `livelint dump` is first shown on.
    static let pair = Spec(folder: "", still: "IMG_0001.JPG", movie: "IMG_0001.MOV", stillID: good1, movieID: good1,
                           why: "complete Live Photo pair")

    /// Fixed for reproducible archives.
    static let archiveDate = Date(timeIntervalSince1970: 1_714_564_800)  // 2024-05-01 12:00 UTC

    func build(into root: URL) throws {
        try write(Self.pair, under: root.appendingPathComponent("pair"))
        let library = root.appendingPathComponent("library")
        for spec in Self.library { try write(spec, under: library) }

        // A .livp (what cloud drives export): a ZIP holding a stored still and movie.
        let livpID = "F0E1D2C3-B4A5-4968-8776-655443322110"
        let livpStill = try still(id: livpID)
        let livpMovie = try movie(Spec(folder: "", still: nil, movie: nil, stillID: nil, movieID: livpID, why: ""))
        // Written as `livelint pack` writes it: the layout Baidu and Aliyun accept (livp-layout).
        try save(LivpArchive.buildLivp(still: ("IMG_0200.JPG.jpeg", livpStill, .jpeg), movie: ("IMG_0200.JPG.mov", livpMovie)),
                 to: library.appendingPathComponent("2024/07/IMG_0200.livp"))

        // The same kind of pair zipped by another writer (ZIPFoundation, deflated, no comment):
        // what iCloud-style downloads look like to Baidu-style consumers.
        let deflatedID = "5D6E7F80-9A1B-4C2D-8E3F-405162738495"
        try writeArchive(library.appendingPathComponent("broken/livp-layout/IMG_0202.livp"),
                         members: [("IMG_0202.JPG.jpeg", try still(id: deflatedID)),
                                   ("IMG_0202.JPG.mov", try movie(Spec(folder: "", still: nil, movie: nil, stillID: nil, movieID: deflatedID, why: "")))],
                         compression: .deflate)

        // A .livp holding a still and no movie.
        let loneID = "0A1B2C3D-4E5F-4061-8728-394A5B6C7D8E"
        try writeArchive(library.appendingPathComponent("broken/livp-not-single-pair/IMG_0201.livp"),
                         members: [("IMG_0201.JPG.jpeg", try still(id: loneID))])

        // The library's configuration turns on a rule that is off by default, as a user would.
        try save(Array(Self.libraryConfiguration.utf8), to: library.appendingPathComponent(".livelint.yml"))

        // Damage: a truncated still (a half-synced download) and a file that is not media at all.
        let truncated = try still(id: "12121212-3434-4565-8787-909090909090")
        // Cut inside the Exif segment, as a download that stopped after a few dozen bytes.
        try save(Array(truncated.prefix(60)), to: library.appendingPathComponent("broken/unreadable/IMG_0300.JPG"))
        try save(Array("This is not a photo.\n".utf8), to: library.appendingPathComponent("broken/unreadable/notes.txt"))
    }

    func write(_ spec: Spec, under dir: URL) throws {
        let folder = spec.folder.isEmpty ? dir : dir.appendingPathComponent(spec.folder)
        if let name = spec.still {
            let base = spec.portrait ? portraitJPEG : stillJPEG
            let bytes = try spec.stillID.map { try still(id: $0, base: base) } ?? base
            try save(bytes, to: folder.appendingPathComponent(name))
        }
        if let name = spec.movie {
            try save(try movie(spec), to: folder.appendingPathComponent(name))
        }
    }

    /// The base JPEG with an Apple makernote carrying `id` (tag 0x0011), as an iPhone writes it.
    func still(id: String, base: [UInt8]? = nil) throws -> [UInt8] {
        let makerNote = try AppleMakerNoteEncoder.makerNote(contentIdentifier: id)
        return try JPEGExifWriter.withAppleMakerNote(jpeg: base ?? stillJPEG, makerNote: makerNote, make: "Apple",
                                                     model: "livelint fixture", dateTimeOriginal: "2024:05:01 12:00:00")
    }

    func movie(_ spec: Spec) throws -> [UInt8] {
        guard let base = movies[spec.baseMovie] else { throw FixtureError("no base movie \(spec.baseMovie)") }
        var edit = LivePhotoMovieEdit()
        edit.contentIdentifier = spec.movieID
        edit.stillImageTime = spec.stillTime
        edit.stillImageTimeDataType = spec.stillTimeDataType
        return try QuickTimeWriter.apply(edit, to: MemoryByteSource(base))
    }

    func writeArchive(_ url: URL, members: [(String, [UInt8])], compression: CompressionMethod = .none) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? FileManager.default.removeItem(at: url)
        let archive = try Archive(url: url, accessMode: .create)
        for (name, bytes) in members {
            let data = Data(bytes)
            try archive.addEntry(with: name, type: .file, uncompressedSize: Int64(data.count),
                                 modificationDate: Self.archiveDate, compressionMethod: compression) { position, size in
                data.subdata(in: Int(position)..<Int(position) + size)
            }
        }
    }

    func save(_ bytes: [UInt8], to url: URL) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: url, options: .atomic)
    }

    /// Paths (relative to `prefix`) whose bytes differ between two trees, or exist in one only.
    static func compare(_ fresh: URL, _ committed: URL, prefix: String) throws -> [String] {
        func list(_ root: URL) -> [String: Data] {
            var out: [String: Data] = [:]
            guard let e = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey]) else { return out }
            for case let url as URL in e where (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
                let rel = String(url.standardizedFileURL.path.dropFirst(root.standardizedFileURL.path.count + 1))
                out[rel] = try? Data(contentsOf: url)
            }
            return out
        }
        let a = list(fresh), b = list(committed)
        return Set(a.keys).union(b.keys).sorted().compactMap { key in
            a[key] == b[key] ? nil : "\(prefix)/\(key)" + (a[key] == nil ? " (not built any more)" : b[key] == nil ? " (missing)" : " (differs)")
        }
    }
}

struct FixtureError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
