import Foundation
@testable import ScratchFiles
import Testing
import TestSupport

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
    private static func items(_ n: Int, seed: UInt64 = 13) -> [Item] {
        var generator = SplitMix(seed: seed)
        return (0..<n).map { i in
            Item(key: Int.random(in: 0...200, using: &generator), made: i,  // many alike
                 text: String(repeating: "é", count: Int.random(in: 0...150, using: &generator)))
        }
    }

    /// Every record comes back by index and in order, from the file and the write buffer, in
    /// chunks of 1 to more than the list, appended as a value or as its bytes; with no folder, or
    /// one that does not exist, they are held.
    @Test func recordsComeBackByIndexAndInOrder() {
        let items = Self.items(3_000)
        let cases: [(directory: String?, chunk: Int, spills: Bool)] = [
            (NSTemporaryDirectory(), 64, true), (NSTemporaryDirectory(), 1, true), (NSTemporaryDirectory(), 7, true),
            (NSTemporaryDirectory(), 5_000, true), (nil, 64, false), ("/nonexistent-livelint-\(UUID().uuidString)", 64, false),
        ]
        for c in cases {
            let file = RecordFile<Item>(in: c.directory, prefix: "livelint-test", chunk: c.chunk)
            // Every other record given as its bytes (moved from another list), the rest as values.
            for (i, item) in items.enumerated() {
                if i % 2 == 0 {
                    file.append(item)
                } else {
                    var bytes: [UInt8] = []
                    item.encode(into: &bytes)
                    file.append(encoded: bytes)
                }
            }
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
        #expect(!any && empty.count == 0)
    }

    /// A disk that refuses a write keeps that buffer and every record after it in memory: each
    /// record still comes back, a chunk that starts in the file and ends in the buffer too.
    @Test func aRefusedWriteKeepsTheRestInMemory() {
        let items = Self.items(3_000, seed: 7)
        for limit in [Int64(0), 100_000, 300_000] {
            let file = RecordFile<Item>(in: NSTemporaryDirectory(), prefix: "livelint-test", chunk: 64)
            file.writeLimit = limit
            for item in items { file.append(item) }
            #expect(file.spills && file.count == items.count)
            var inOrder: [Item] = []
            file.forEach { inOrder.append($0) }
            #expect(inOrder == items, "limit \(limit)")
            #expect((0..<items.count).reversed().allSatisfy { file[$0] == items[$0] }, "limit \(limit)")
        }
    }

    /// Readers on several threads at once, each at its own place in the list (the JSON report's
    /// shares), each get their records: the chunks read last are kept a few at a time, so that
    /// they do not take turns decoding each other's.
    @Test func readersOnSeveralThreadsGetTheirRecords() {
        let items = Self.items(3_000, seed: 5)
        let file = RecordFile<Item>(in: NSTemporaryDirectory(), prefix: "livelint-test", chunk: 16)
        for item in items { file.append(item) }
        #expect(file.spills)
        let wrong = Slots<Int>(count: 5)
        DispatchQueue.concurrentPerform(iterations: 5) { t in
            let share = items.count * t / 5..<items.count * (t + 1) / 5
            wrong.put(share.filter { file[$0] != items[$0] }.count, at: t)
        }
        #expect((0..<5).map { wrong.take($0) } == [0, 0, 0, 0, 0])
    }

    /// A record read, then more appended to its chunk: the later ones come back too (the chunk
    /// read before is not taken for the whole chunk).
    @Test func recordsAppendedAfterAReadComeBack() {
        let items = Self.items(200, seed: 11)
        for directory in [NSTemporaryDirectory(), nil] {
            let file = RecordFile<Item>(in: directory, prefix: "livelint-test", chunk: 64)
            for (i, item) in items.enumerated() {
                file.append(item)
                #expect(file[i] == item && file[i / 2] == items[i / 2], "record \(i)")
            }
        }
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

    /// Merged 2 or 3 runs at a time, in passes through longer runs, the order is the same.
    @Test func narrowMergesTakePasses() {
        let items = Self.items(2_000, seed: 5)
        var expected = items
        expected.sort { $0.key < $1.key }
        for (run, width) in [(1, 2), (3, 3), (10, 2), (100, 3)] {
            let sorted = SortedRecords<Item>(spillingIn: NSTemporaryDirectory(), prefix: "livelint-test", runSize: run) { $0.key < $1.key }
            sorted.mergeWidth = width
            sorted.append(contentsOf: items)
            var out: [Item] = []
            sorted.forEachInOrder { out.append($0) }
            #expect(out == expected, "runs of \(run), \(width) at a time")
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
