import Foundation
import LiveReaders
import Testing

/// The folder walk behind `livelint lint`: recursive, sorted, hidden entries skipped unless asked,
/// symlinks followed but link loops entered once only.
struct LibraryWalkerTests {
    func makeTree() throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("livelint-walk-\(UUID().uuidString)")
        let fm = FileManager.default
        try fm.createDirectory(at: root.appendingPathComponent("2024/05"), withIntermediateDirectories: true)
        try fm.createDirectory(at: root.appendingPathComponent(".thumbnails"), withIntermediateDirectories: true)
        for path in ["2024/05/IMG_2.JPG", "2024/05/IMG_1.MOV", "top.JPG", ".hidden.JPG", ".thumbnails/t.JPG"] {
            try Data([0xFF, 0xD8, 0xFF]).write(to: root.appendingPathComponent(path))
        }
        // A loop: 2024/05/back -> the root; and a dangling link.
        try fm.createSymbolicLink(atPath: root.appendingPathComponent("2024/05/back").path, withDestinationPath: root.path)
        try fm.createSymbolicLink(atPath: root.appendingPathComponent("dangling.JPG").path, withDestinationPath: "/no/such/target")
        return root
    }

    @Test func walksRecursivelySortedSkippingHiddenAndSurvivingLoops() throws {
        let root = try makeTree()
        defer { try? FileManager.default.removeItem(at: root) }
        let (entries, problems) = LibraryWalker().files(in: [root.path])
        #expect(entries.map(\.displayPath) == ["2024/05/IMG_1.MOV", "2024/05/IMG_2.JPG", "top.JPG"])
        #expect(problems.map(\.path) == ["dangling.JPG"])
        #expect(LibraryWalker.root(for: [root.path]) == root.path)
    }

    @Test func includeHiddenReadsDotFilesAndFolders() throws {
        let root = try makeTree()
        defer { try? FileManager.default.removeItem(at: root) }
        let (entries, _) = LibraryWalker(includeHidden: true).files(in: [root.path])
        #expect(entries.map(\.displayPath).contains(".hidden.JPG"))
        #expect(entries.map(\.displayPath).contains(".thumbnails/t.JPG"))
    }

    @Test func severalPathsKeepTheirOwnPrefixes() throws {
        let root = try makeTree()
        defer { try? FileManager.default.removeItem(at: root) }
        let file = root.appendingPathComponent("top.JPG").path
        let folder = root.appendingPathComponent("2024").path
        let (entries, problems) = LibraryWalker().files(in: [file, folder])
        #expect(problems.isEmpty)
        #expect(Set(entries.map(\.displayPath)) == [file, folder + "/05/IMG_1.MOV", folder + "/05/IMG_2.JPG"])
        #expect(LibraryWalker.root(for: [file, folder]) == ".")
    }
}
