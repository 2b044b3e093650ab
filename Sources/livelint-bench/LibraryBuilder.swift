import Foundation
import ISOBMFF
import LiveModel
import LiveReaders
import LiveWriters

/// Builds a benchmark library: N Live Photo pairs, byte copies of real pairs with a fresh UUID
/// written over the identifier in both halves, spread over `YYYY/MM/` folders.
///
/// The identifier is replaced in place, same length, inside the structure that holds it: in the
/// still, inside its Apple makernote (found with `StillReader.makerNoteBytes`, which works for
/// JPEG and HEIC alike, where exiv2 0.27 cannot rewrite a HEIC); in the movie, inside `moov`.
/// Every copy is read back with `MediaInspector` and must carry the new identifier.
struct LibraryBuilder {
    struct SourcePair {
        var still: String
        var movie: String
        var identifier: String
    }

    /// A pair read and patched once, copied N times with only the 36 identifier bytes changed.
    private struct Template {
        var still: [UInt8]
        var stillIDOffset: Int
        var stillExtension: String
        var movie: [UInt8]
        var movieIDOffsets: [Int]
        var movieExtension: String
    }

    let sources: [SourcePair]

    /// How the pairs' files are named.
    enum Naming: String, CaseIterable {
        /// An iPhone's: `IMG_00042.JPG` (13 bytes).
        case camera
        /// A Pixel's: `PXL_20231105_100000042.JPG` (26 bytes).
        case pixel

        func stem(_ i: Int) -> String {
            switch self {
            case .camera: String(format: "IMG_%05d", i)
            case .pixel: String(format: "PXL_20231105_1%08d", i)
            }
        }
    }

    /// The pairs of the real-device corpus (`manifest.json`: entries `pair-still` / `pair-movie`).
    static func corpus(at root: String) throws -> LibraryBuilder {
        let manifest = URL(fileURLWithPath: root).appendingPathComponent("manifest.json")
        let data = try Data(contentsOf: manifest)
        guard let entries = try JSONSerialization.jsonObject(with: data) as? [[String: Any]] else {
            throw BenchError("\(manifest.path): not a JSON array")
        }
        var halves: [String: (still: String?, movie: String?, id: String?)] = [:]
        for entry in entries {
            guard let pair = entry["pair"] as? String, let file = entry["file"] as? String,
                  let category = entry["category"] as? String else { continue }
            let path = URL(fileURLWithPath: root).appendingPathComponent(file).path
            if category == "pair-still" {
                halves[pair, default: (nil, nil, nil)].still = path
                halves[pair, default: (nil, nil, nil)].id = (entry["still"] as? [String: Any])?["content_identifier_0x0011"] as? String
            } else if category == "pair-movie" {
                halves[pair, default: (nil, nil, nil)].movie = path
            }
        }
        let pairs = halves.keys.sorted().compactMap { key -> SourcePair? in
            guard let h = halves[key], let s = h.still, let m = h.movie, let id = h.id else { return nil }
            return SourcePair(still: s, movie: m, identifier: id)
        }
        guard !pairs.isEmpty else { throw BenchError("no pairs in \(manifest.path)") }
        return LibraryBuilder(sources: pairs)
    }

    /// The project's own fixture pair (`Fixtures/pair/IMG_0001.*`), when the corpus is absent.
    static func fixtures(at root: String) throws -> LibraryBuilder {
        let still = URL(fileURLWithPath: root).appendingPathComponent("pair/IMG_0001.JPG").path
        let movie = URL(fileURLWithPath: root).appendingPathComponent("pair/IMG_0001.MOV").path
        guard let id = MediaInspector.inspect(path: still, options: .lint).contentIdentifier else {
            throw BenchError("\(still) has no content identifier")
        }
        return LibraryBuilder(sources: [SourcePair(still: still, movie: movie, identifier: id)])
    }

    /// Writes `count` pairs under `folder` (which must not exist yet). Returns the bytes written.
    /// With `broken`, each movie gets an identifier of its own (a fresh UUID): every pair is then
    /// paired by name with an `identifier-mismatch`, which `livelint fix` repairs (a library
    /// whose exporter broke every pair). With `motionPhotos`, each pair is one motion photo
    /// instead (``motionPhotoTemplate(_:scratch:)``), `STEM.MP.JPG`.
    @discardableResult
    func build(pairs count: Int, into folder: String, naming: Naming = .camera, broken: Bool = false,
               motionPhotos: Bool = false, verify: Bool = true) throws -> Int64 {
        let fm = FileManager.default
        guard !fm.fileExists(atPath: folder) else { throw BenchError("\(folder) already exists") }
        if motionPhotos { return try buildMotionPhotos(count, into: folder, naming: naming, verify: verify) }
        let templates = try sources.map(template)
        var written: Int64 = 0
        for i in 0..<count {
            let t = templates[i % templates.count]
            let dir = try Self.folder(i, in: folder)
            let id = Array(UUID().uuidString.uppercased().utf8)
            let movieID = broken ? Array(UUID().uuidString.uppercased().utf8) : id
            var still = t.still, movie = t.movie
            still.replaceSubrange(t.stillIDOffset..<(t.stillIDOffset + id.count), with: id)
            for offset in t.movieIDOffsets { movie.replaceSubrange(offset..<(offset + movieID.count), with: movieID) }
            let name = naming.stem(i)
            let stillPath = "\(dir)/\(name).\(t.stillExtension)", moviePath = "\(dir)/\(name).\(t.movieExtension)"
            try Data(still).write(to: URL(fileURLWithPath: stillPath))
            try Data(movie).write(to: URL(fileURLWithPath: moviePath))
            written += Int64(still.count + movie.count)
            if verify {
                for (path, given) in [(stillPath, id), (moviePath, movieID)] {
                    let expected = String(decoding: given, as: UTF8.self)
                    let read = MediaInspector.inspect(path: path, options: .lint).contentIdentifier
                    guard read == expected else {
                        throw BenchError("\(path): reads back identifier \(read ?? "none"), expected \(expected)")
                    }
                }
            }
        }
        return written
    }

    /// `count` motion photos under `folder`, each a copy of one made from a source pair with a
    /// fresh identifier written over every place its still and its embedded movie hold it.
    private func buildMotionPhotos(_ count: Int, into folder: String, naming: Naming, verify: Bool) throws -> Int64 {
        let fm = FileManager.default
        // Made before the library's folder, so that a source that cannot be converted leaves none.
        let scratch = NSTemporaryDirectory() + "livelint-bench-\(getpid())"
        try fm.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        defer { try? fm.removeItem(atPath: scratch) }
        let templates = try sources.map { try motionPhotoTemplate($0, scratch: scratch) }
        var written: Int64 = 0
        for i in 0..<count {
            let t = templates[i % templates.count]
            let dir = try Self.folder(i, in: folder)
            let id = Array(UUID().uuidString.uppercased().utf8)
            var bytes = t.bytes
            for offset in t.idOffsets { bytes.replaceSubrange(offset..<(offset + id.count), with: id) }
            let path = "\(dir)/\(naming.stem(i)).MP.\(t.stillExtension)"
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            written += Int64(bytes.count)
            if verify {
                let read = MediaInspector.inspect(path: path, options: .lint)
                let motion = read.still?.motionPhoto
                let expected = String(decoding: id, as: UTF8.self)
                guard read.contentIdentifier == expected, motion?.hasVideo == true, motion?.videoError == nil,
                      motion?.video?.contentIdentifier == expected else {
                    throw BenchError("\(path): reads back identifier \(read.contentIdentifier ?? "none"), its video's"
                                     + " \(motion?.video?.contentIdentifier ?? "none"), expected \(expected) in both")
                }
            }
        }
        return written
    }

    /// A source pair made into one motion photo (``MotionPhotoConverter``, through a file in
    /// `scratch`), with every place its identifier sits: in the still's makernote and in the
    /// embedded movie's keys.
    private func motionPhotoTemplate(_ pair: SourcePair, scratch: String) throws -> (bytes: [UInt8], idOffsets: [Int], stillExtension: String) {
        let old = try Self.identifierBytes(pair)
        let output = "\(scratch)/template.MP.\(Self.ext(pair.still))"
        do {
            _ = try MotionPhotoConverter.toMotionPhoto(still: pair.still, movie: pair.movie, output: output)
        } catch {
            throw BenchError("\(pair.still): cannot be made a motion photo: \(error)")
        }
        defer { try? FileManager.default.removeItem(atPath: output) }
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: output)))
        let offsets = Self.offsets(of: old, in: bytes[...])
        guard offsets.count >= 2 else {
            throw BenchError("\(output): identifier found \(offsets.count) times, where the still and its video each hold it")
        }
        return (bytes, offsets, Self.ext(pair.still))
    }

    /// The pair's identifier as bytes: 36 of them, what a fresh UUID is written over.
    private static func identifierBytes(_ pair: SourcePair) throws -> [UInt8] {
        let old = Array(pair.identifier.utf8)
        guard old.count == 36 else { throw BenchError("\(pair.still): identifier '\(pair.identifier)' is not 36 bytes long") }
        return old
    }

    /// The `YYYY/MM` folder of the `i`th pair under `root`, made.
    private static func folder(_ i: Int, in root: String) throws -> String {
        let dir = "\(root)/\(2015 + (i / 12) % 10)/\(String(format: "%02d", 1 + i % 12))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    /// Where each occurrence of `needle` in `haystack` starts, none overlapping.
    static func offsets(of needle: [UInt8], in haystack: ArraySlice<UInt8>) -> [Int] {
        var offsets: [Int] = []
        var from = haystack.startIndex
        while from < haystack.endIndex, let at = find(needle, in: haystack[from...]) {
            offsets.append(at)
            from = at + needle.count
        }
        return offsets
    }

    /// Reads a source pair and finds where its identifier sits in each half.
    private func template(_ pair: SourcePair) throws -> Template {
        let old = try Self.identifierBytes(pair)
        let still = try [UInt8](Data(contentsOf: URL(fileURLWithPath: pair.still)))
        guard let note = StillReader.makerNoteBytes(path: pair.still), let noteAt = Self.find(note, in: still[...]),
              let idInNote = Self.find(old, in: note[...]) else {
            throw BenchError("\(pair.still): identifier not found inside its makernote")
        }
        let movie = try [UInt8](Data(contentsOf: URL(fileURLWithPath: pair.movie)))
        let scan = TopLevel.scan(MemoryByteSource(movie))
        guard let moov = scan.first("moov"), let end = Int(exactly: moov.endOffset), end <= movie.count else {
            throw BenchError("\(pair.movie): no readable moov")
        }
        let offsets = Self.offsets(of: old, in: movie[Int(moov.offset)..<end])
        guard !offsets.isEmpty else { throw BenchError("\(pair.movie): identifier not found inside moov") }
        return Template(still: still, stillIDOffset: noteAt + idInNote, stillExtension: Self.ext(pair.still),
                        movie: movie, movieIDOffsets: offsets, movieExtension: Self.ext(pair.movie))
    }

    private static func ext(_ path: String) -> String { URL(fileURLWithPath: path).pathExtension }

    /// The absolute index of the first occurrence of `needle` in `haystack`.
    static func find(_ needle: [UInt8], in haystack: ArraySlice<UInt8>) -> Int? {
        guard let first = needle.first, needle.count <= haystack.count else { return nil }
        var i = haystack.startIndex
        let last = haystack.endIndex - needle.count
        while i <= last {
            if haystack[i] == first, haystack[i..<(i + needle.count)].elementsEqual(needle) { return i }
            i += 1
        }
        return nil
    }
}

struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
