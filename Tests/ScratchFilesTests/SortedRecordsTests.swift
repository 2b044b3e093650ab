import Foundation
import ScratchFiles
import Testing

/// A record of any length, as findings are: a key to sort by, the order it was made in (to see
/// that equal keys keep it), and text of 0 to 300 bytes.
private struct Item: ScratchRecord, Equatable {
    var key: Int
    var made: Int
    var text: String

    func encode(into bytes: inout [UInt8]) {
        withUnsafeBytes(of: Int64(key).littleEndian) { bytes.append(contentsOf: $0) }
        withUnsafeBytes(of: Int64(made).littleEndian) { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: text.utf8)
    }

    init?(decoding bytes: UnsafeRawBufferPointer) {
        guard bytes.count >= 16 else { return nil }
        key = Int(Int64(littleEndian: bytes.loadUnaligned(fromByteOffset: 0, as: Int64.self)))
        made = Int(Int64(littleEndian: bytes.loadUnaligned(fromByteOffset: 8, as: Int64.self)))
        text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[16...]), as: UTF8.self)
    }

    init(key: Int, made: Int, text: String) {
        self.key = key
        self.made = made
        self.text = text
    }
}

/// Records of any length on disk: the list a run's findings are read back from
/// (``RecordFile``), and the sort that puts them in the report's order (``SortedRecords``).
struct SortedRecordsTests {
    private static func items(_ n: Int) -> [Item] {
        var generator = SystemRandomNumberGenerator()
        return (0..<n).map { i in
            Item(key: Int.random(in: 0...200, using: &generator), made: i,  // many alike
                 text: String(repeating: "é", count: Int.random(in: 0...150, using: &generator)))
        }
    }

    /// Every record comes back by index and in order, from the file and the write buffer, in
    /// chunks of 1 to more than the list; with no folder, or one that does not exist, they are held.
    @Test func recordsComeBackByIndexAndInOrder() {
        let items = Self.items(3_000)
        let cases: [(directory: String?, chunk: Int, spills: Bool)] = [
            (NSTemporaryDirectory(), 64, true), (NSTemporaryDirectory(), 1, true), (NSTemporaryDirectory(), 7, true),
            (NSTemporaryDirectory(), 5_000, true), (nil, 64, false), ("/nonexistent-livelint-\(UUID().uuidString)", 64, false),
        ]
        for c in cases {
            let file = RecordFile<Item>(in: c.directory, prefix: "livelint-test", chunk: c.chunk)
            for item in items { file.append(item) }
            #expect(file.spills == c.spills && file.count == items.count, "chunk \(c.chunk)")
            var inOrder: [Item] = []
            file.forEach { inOrder.append($0) }
            #expect(inOrder == items, "chunk \(c.chunk)")
            // Out of order: every chunk read again, some more than once.
            for i in stride(from: items.count - 1, through: 0, by: -97) { #expect(file[i] == items[i]) }
            #expect((0..<items.count).allSatisfy { file[$0] == items[$0] })
            let k = min(c.chunk, items.count) == items.count ? 0 : 1
            #expect(file.records(inChunk: k) == Array(items[(k * c.chunk)..<min(items.count, (k + 1) * c.chunk)]))
        }
        let empty = RecordFile<Item>(in: NSTemporaryDirectory(), prefix: "livelint-test")
        var any = false
        empty.forEach { _ in any = true }
        #expect(!any && empty.isEmptyList)
    }

    /// The sort is stable, held or merged from runs of any size: what `Array.sort` gives.
    @Test func recordsComeBackInStableOrder() {
        let items = Self.items(5_000)
        var expected = items
        expected.sort { $0.key < $1.key }
        #expect(zip(expected, expected.dropFirst()).allSatisfy { $0.key < $1.key || $0.made < $1.made }, "Array.sort is stable")
        let cases: [(run: Int?, directory: String?, spills: Bool)] = [
            (1, NSTemporaryDirectory(), true), (3, NSTemporaryDirectory(), true), (1_000, NSTemporaryDirectory(), true),
            (4_999, NSTemporaryDirectory(), true), (5_000, NSTemporaryDirectory(), true), (5_001, NSTemporaryDirectory(), false),
            (nil, NSTemporaryDirectory(), items.count > SortedRecords<Item>.defaultRunSize), (3, nil, false), (3, "/nonexistent-livelint-\(UUID().uuidString)", false),
        ]
        for c in cases {
            let sorted = SortedRecords<Item>(spillingIn: c.directory, prefix: "livelint-test", runSize: c.run) { $0.key < $1.key }
            sorted.append(contentsOf: items)
            #expect(sorted.count == items.count && sorted.spills == c.spills, "runs of \(String(describing: c.run))")
            var out: [Item] = []
            sorted.forEachInOrder { out.append($0) }
            #expect(out == expected, "runs of \(String(describing: c.run)): \(out.count) records")
        }
    }

    /// The temporary files are unlinked as soon as they are made: nothing is left in their folder.
    @Test func nothingIsLeftBehind() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("livelint-records-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let sorted = SortedRecords<Item>(spillingIn: dir.path, prefix: "livelint-test", runSize: 10) { $0.key < $1.key }
        sorted.append(contentsOf: Self.items(100))
        let file = RecordFile<Item>(in: dir.path, prefix: "livelint-test")
        sorted.forEachInOrder { file.append($0) }
        #expect(file.spills && file.count == 100)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
    }
}

private extension RecordFile {
    var isEmptyList: Bool { count == 0 }
}
