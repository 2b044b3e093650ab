import Foundation
import ScratchFiles
import Testing

/// A list read and written in place through a shared map, its pages let go as it goes: the
/// partition's union-find for a library-sized scan.
struct MappedArrayTests {
    /// Values appended past the room asked for (the file grows and is mapped again), changed
    /// anywhere, and let go from the resident set, come back as they were written.
    @Test func valuesSurviveGrowthAndRelease() throws {
        let list = try #require(MappedArray<Int32>(capacity: 10, in: NSTemporaryDirectory(), prefix: "livelint-test"))
        let n = 3 * MappedArray<Int32>.releaseEvery + 17
        for i in 0..<n { #expect(list.append(Int32(i))) }
        #expect(list.count == n)
        for i in stride(from: 0, to: n, by: 7) { list[i] = -Int32(i) }
        list.release()
        #expect((0..<n).allSatisfy { list[$0] == ($0 % 7 == 0 ? -Int32($0) : Int32($0)) })
        let sum = list.withUnsafeMutableBufferPointer { p in
            p[1] = 41
            return p.reduce(0) { $0 + Int($1) }
        }
        list.release()
        #expect(list[1] == 41)
        #expect(sum == (0..<n).reduce(0) { $0 + ($1 % 7 == 0 ? -$1 : ($1 == 1 ? 41 : $1)) })
    }

    /// Where no temporary file can be made there is no list: the caller holds its own.
    @Test func noFolderNoList() {
        #expect(MappedArray<Int32>(capacity: 10, in: "/nonexistent-livelint-\(UUID().uuidString)", prefix: "livelint-test") == nil)
    }

    /// The file is unlinked as soon as it is made.
    @Test func nothingIsLeftBehind() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("livelint-mapped-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let list = try #require(MappedArray<UInt64>(capacity: 100, in: dir.path, prefix: "livelint-test"))
        list.append(7)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
        #expect(list[0] == 7)
    }
}
