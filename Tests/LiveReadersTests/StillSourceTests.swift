import Foundation
import ISOBMFF
import LiveModel
import LiveReaders
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
