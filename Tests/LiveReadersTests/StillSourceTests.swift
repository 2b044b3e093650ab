import Foundation
import ISOBMFF
import LiveModel
@testable import LiveReaders
import Testing
import TestSupport

/// exiv2 reading through the descriptor the file is already open on (``StillReader/read(source:options:)``,
/// which reading by path now goes through) gives what reading the same bytes from memory gives,
/// good files and bad, and leaves the descriptor open and usable.
@Suite struct StillSourceTests {
    static func stills() -> [String] {
        var paths: [String] = []
        let fixtures = TestPaths.fixtures.appendingPathComponent("library").path
        for folder in [fixtures, TestPaths.corpusPresent ? TestPaths.corpus.path : nil].compactMap({ $0 }) {
            let files = FileManager.default.enumerator(atPath: folder)?.compactMap { $0 as? String } ?? []
            paths += files.filter { ["jpg", "jpeg", "heic"].contains(($0 as NSString).pathExtension.lowercased()) }
                .sorted().prefix(40).map { folder + "/" + $0 }
        }
        return paths
    }

    @Test func theSameAsByPath() throws {
        let paths = Self.stills()
        #expect(paths.count >= 10)
        for path in paths {
            let source = try FileByteSource(path: path)
            let viaSource = StillReader.read(source: source)
            let viaPath = StillReader.read(path: path)
            #expect(String(reflecting: viaSource.still) == String(reflecting: viaPath.still), "\(path)")
            // And what exiv2 reads from the bytes in memory, a route of its own (`MemIo`).
            let bytes = try source.read(at: 0, count: Int(source.size))
            #expect(String(reflecting: viaSource.still) == String(reflecting: StillReader.read(bytes: bytes).still), "\(path)")
            #expect(viaSource.still != nil || viaSource.error != nil, "\(path)")
            #expect(viaSource.error == viaPath.error, "\(path)")
            // Still open, and read from the start: exiv2 neither closed it nor moved it.
            #expect(try source.read(at: 0, count: 2) == [0xFF, 0xD8] || source.size > 12, "\(path)")
        }
    }

    /// exiv2 starting from the bytes the source read when it opened the file (its first read-ahead
    /// window) reads what it reads through the descriptor alone: whole stills, and stills cut
    /// just before, at and after the end of that window, and one byte short.
    @Test func fromTheHeadTheSameAsThroughTheDescriptor() throws {
        let head = FileByteSource.headLength
        let paths = Self.stills()
        #expect(paths.count >= 10)
        var cut = 0
        for path in paths {
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            var lengths = [bytes.count]
            if bytes.count > head + 1 {
                lengths += [head - 1, head, head + 1, bytes.count - 1]
                cut += 1
            }
            for length in lengths {
                let url = FileManager.default.temporaryDirectory.appendingPathComponent("livelint-head-\(UUID().uuidString)")
                try Data(bytes.prefix(length)).write(to: url)
                defer { try? FileManager.default.removeItem(at: url) }
                let source = try FileByteSource(path: url.path)
                let fromHead = StillReader.read(source: source, options: .init(), fromHead: true)
                let throughDescriptor = StillReader.read(source: source, options: .init(), fromHead: false)
                #expect(String(reflecting: fromHead.still) == String(reflecting: throughDescriptor.still), "\(path) \(length)")
                #expect(fromHead.error == throughDescriptor.error, "\(path) \(length)")
                #expect(fromHead.warnings == throughDescriptor.warnings, "\(path) \(length)")
            }
        }
        #expect(cut > 0, "no still larger than the head to cut")
    }

    /// exiv2 maps a TIFF whole, at the size the source saw when it opened the file. One cut
    /// shorter since is refused with an error on that file, never mapped past its end (touching
    /// a page there would be SIGBUS, the end of the whole scan).
    @Test func aTIFFCutShorterAfterItWasOpenedIsAnErrorNotACrash() throws {
        // Little-endian TIFF header whose first IFD (one entry, ImageWidth) sits 96 KiB in.
        let ifd = 96 * 1024
        var bytes: [UInt8] = [0x49, 0x49, 0x2A, 0x00] + withUnsafeBytes(of: UInt32(ifd).littleEndian, Array.init)
        bytes += [UInt8](repeating: 0, count: ifd - bytes.count)
        bytes += [1, 0, 0x00, 0x01, 3, 0, 1, 0, 0, 0, 64, 0, 0, 0] + [0, 0, 0, 0]
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("livelint-cut-\(UUID().uuidString).tif")
        try Data(bytes).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let whole = StillReader.read(source: try FileByteSource(path: url.path))
        #expect(whole.error == nil, "\(String(describing: whole.error))")
        let source = try FileByteSource(path: url.path)
        #expect(truncate(url.path, 4096) == 0)
        let cut = StillReader.read(source: source)
        #expect(cut.still == nil)
        #expect(cut.error?.message.contains("changed while it was read") == true, "\(String(describing: cut.error))")
    }

    @Test(arguments: StillErrorTests.cases)
    func badFilesGiveTheSameError(_ c: StillErrorTests.Case) throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("livelint-still-\(UUID().uuidString)")
        try Data(c.bytes).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        guard !c.bytes.isEmpty else { return }  // an empty file never reaches the still reader
        let source = try FileByteSource(path: url.path)
        let viaSource = StillReader.read(source: source)
        #expect(viaSource.error == StillReader.read(path: url.path).error)
        #expect(viaSource.error.map { c.categories.contains($0.category) } == true, "\(String(describing: viaSource.error))")
        #expect(try source.read(at: 0, count: min(4, c.bytes.count)) == Array(c.bytes.prefix(4)))
    }
}
