import Foundation
import ScratchFiles
import Testing

/// Values sorted on disk in runs and merged: the order the walk finds files met twice by, and the
/// partition its shared UUIDs by.
struct SortedRunsTests {
    /// Every value comes back once, in order, whatever the run's size (one value, a few, a
    /// run of the whole), held or on disk, and where no temporary file can be made.
    @Test func valuesComeBackInOrder() {
        var generator = SystemRandomNumberGenerator()
        let values = (0..<5_000).map { _ in UInt64.random(in: 0...2_000, using: &generator) }  // many alike
        let expected = values.sorted()
        let cases: [(run: Int, above: Int?, directory: String, spills: Bool)] = [
            (1, 0, NSTemporaryDirectory(), true), (3, 0, NSTemporaryDirectory(), true), (1_000, 0, NSTemporaryDirectory(), true),
            (1_000, 4_500, NSTemporaryDirectory(), true), (1_000, 5_000, NSTemporaryDirectory(), false),
            (5_000, 0, NSTemporaryDirectory(), true), (6_000, 0, NSTemporaryDirectory(), false), (1_000, nil, NSTemporaryDirectory(), false),
            (10, 0, "/nonexistent-livelint-\(UUID().uuidString)", false),
        ]
        for c in cases {
            let runs = SortedRuns<UInt64>(spillingAbove: c.above, in: c.directory, prefix: "livelint-test", runSize: c.run)
            for v in values { runs.append(v) }
            #expect(runs.count == values.count)
            #expect(runs.spills == c.spills, "run \(c.run) above \(String(describing: c.above)) in \(c.directory)")
            var out: [UInt64] = []
            out.reserveCapacity(values.count)
            runs.forEachInOrder { out.append($0) }
            #expect(out == expected, "run \(c.run) above \(String(describing: c.above)): \(out.count) values")
        }
    }

    /// Values of a type of more than one word (as the walk's 16-byte records) come back whole;
    /// none at all gives nothing.
    @Test func wideValuesAndNone() {
        struct Pair: Comparable, BitwiseCopyable, Sendable {
            var a: UInt64
            var b: UInt32
            static func < (x: Pair, y: Pair) -> Bool { (x.a, x.b) < (y.a, y.b) }
        }
        let pairs = (0..<3_000).map { Pair(a: UInt64(($0 * 7_919) % 3_000), b: UInt32($0)) }
        let runs = SortedRuns<Pair>(spillingAbove: 0, in: NSTemporaryDirectory(), prefix: "livelint-test", runSize: 128)
        for p in pairs { runs.append(p) }
        #expect(runs.spills)
        var out: [Pair] = []
        runs.forEachInOrder { out.append($0) }
        #expect(out == pairs.sorted())
        let none = SortedRuns<UInt64>(spillingAbove: 0, in: NSTemporaryDirectory(), prefix: "livelint-test", runSize: 1)
        var any = false
        none.forEachInOrder { _ in any = true }
        #expect(!any)
    }

    /// The temporary file is unlinked as soon as it is made: nothing is left in its folder.
    @Test func nothingIsLeftBehind() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("livelint-runs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let runs = SortedRuns<UInt64>(spillingAbove: 0, in: dir.path, prefix: "livelint-test", runSize: 10)
        for v in (0..<100).reversed() { runs.append(UInt64(v)) }
        #expect(runs.spills)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
        var out: [UInt64] = []
        runs.forEachInOrder { out.append($0) }
        #expect(out == (0..<100).map(UInt64.init))
    }
}
