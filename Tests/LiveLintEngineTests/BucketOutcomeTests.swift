import Foundation
@testable import LiveLintEngine
import LiveModel
import TestSupport
import Testing

/// What lets a bucket's outcome be kept (``BucketOutcomes``, issue 13): buckets cut where their
/// groups' first files' marks say, which stay put when files come and go elsewhere; the bucket's
/// key; the outcome's bytes, which decode to what was kept or to nothing.
@Suite struct BucketOutcomeTests {
    /// Each file's bucket (``Partition/assign(_:target:mark:release:)``) for groups of `sizes`
    /// files in a row, with each group's first file's mark from `marks` (a group's mark, by
    /// group); as each group's list of buckets' groups.
    static func buckets(sizes: [Int], marks: [UInt32], target: Int) -> [[Int]] {
        var p: [Int32] = []
        var fileMarks: [UInt32] = []
        var groupOf: [Int] = []
        for (g, size) in sizes.enumerated() {
            let first = Int32(p.count)
            for _ in 0..<size {
                p.append(first)
                fileMarks.append(marks[g])
                groupOf.append(g)
            }
        }
        let count = p.withUnsafeMutableBufferPointer { Partition.assign($0, target: target, mark: { fileMarks[$0] }) }
        var out = [[Int]](repeating: [], count: count)
        var seen = Set<Int>()
        for (i, bucket) in p.enumerated() where seen.insert(groupOf[i]).inserted { out[Int(bucket)].append(groupOf[i]) }
        return out
    }

    /// Buckets hold whole groups, at most `target` files unless a group alone is larger, about
    /// three quarters of it on average; with a group added or removed, the buckets away from it
    /// hold the same groups as before. Groups of mixed sizes and of one size (folders of a
    /// camera's months, say), where a cut by count would move every cut after a change.
    @Test(arguments: Array(1...8) as [UInt64], [false, true])
    func bucketsEndWhereTheyEndedWhenGroupsComeAndGo(seed: UInt64, evenly: Bool) {
        var rng = SplitMix(seed: seed)
        let target = 64
        let groups = 600
        let sizes = (0..<groups).map { _ in
            evenly ? 10 : rng.next() % 10 == 0 ? 20 + Int(rng.next() % 70) : 1 + Int(rng.next() % 12)
        }
        let marks = (0..<groups).map { _ in UInt32(truncatingIfNeeded: rng.next()) }
        let before = Self.buckets(sizes: sizes, marks: marks, target: target)
        #expect(before.flatMap { $0 } == Array(0..<groups), "every group once, in order")
        for bucket in before {
            let files = bucket.reduce(0) { $0 + sizes[$1] }
            #expect(files <= target || bucket.count == 1, "\(files) files in \(bucket.count) groups")
        }
        let average = Double(sizes.reduce(0, +)) / Double(before.count)
        #expect(average > Double(target) * 0.4 && average <= Double(target), "\(average) files a bucket")

        // A new group at the start, one in the middle, and a group gone: each bucket of the
        // library before is still one (its groups numbered as they were), but for a few by the change.
        let newMark = UInt32(truncatingIfNeeded: rng.next())
        let middle = groups / 2
        let changes: [(sizes: [Int], marks: [UInt32], renumber: (Int) -> Int?)] = [
            ([10] + sizes, [newMark] + marks, { $0 == 0 ? nil : $0 - 1 }),
            (Array(sizes[..<middle]) + [10] + sizes[middle...], Array(marks[..<middle]) + [newMark] + marks[middle...],
             { $0 == middle ? nil : $0 > middle ? $0 - 1 : $0 }),
            (Array(sizes[..<middle]) + sizes[(middle + 1)...], Array(marks[..<middle]) + marks[(middle + 1)...],
             { $0 >= middle ? $0 + 1 : $0 }),
        ]
        let kept = Set(before)
        for (k, change) in changes.enumerated() {
            let after = Self.buckets(sizes: change.sizes, marks: change.marks, target: target)
            let same = after.filter { kept.contains($0.compactMap(change.renumber)) && !$0.contains { change.renumber($0) == nil } }
            #expect(same.count >= before.count - 4, "change \(k): \(same.count) of \(before.count) buckets as they were")
        }
        guard evenly else { return }
        // Cut by count alone (no marks), a group added at the start moves every cut.
        func byCount(_ sizes: [Int]) -> [[Int]] {
            var p: [Int32] = [], groupOf: [Int] = []
            for (g, size) in sizes.enumerated() {
                let first = Int32(p.count)
                for _ in 0..<size { p.append(first); groupOf.append(g) }
            }
            let n = p.withUnsafeMutableBufferPointer { Partition.assign($0, target: target) }
            var out = [Set<Int>](repeating: [], count: n)
            for (i, b) in p.enumerated() { out[Int(b)].insert(groupOf[i]) }
            return out.map { $0.sorted() }
        }
        let countBefore = Set(byCount(sizes))
        let countAfter = byCount([10] + sizes).map { $0.compactMap { $0 == 0 ? nil : $0 - 1 } }
        #expect(countAfter.filter { countBefore.contains($0) }.count < 3)
    }

    /// A bucket's key changes with any file's key and with their order and count, never with
    /// nothing; a file whose key is unknown leaves the bucket without one.
    @Test func aBucketsKeyIsItsFilesKeys() {
        let files = (1...5).map { FileKey(key: UInt64($0) &* 0x1234_5678_9ABC_DEF1, mark: UInt32($0)) }
        let key = BucketKey.of(files, seed: 7)
        #expect(key != nil)
        #expect(BucketKey.of(files, seed: 7) == key)
        #expect(BucketKey.of(files, seed: 8) != key)
        #expect(BucketKey.of(files.reversed(), seed: 7) != key)
        #expect(BucketKey.of(files.dropLast(), seed: 7) != key)
        var changed = files
        changed[2].key ^= 1
        #expect(BucketKey.of(changed, seed: 7) != key)
        // The mark is the path's alone: the key already holds the path.
        var marked = files
        marked[2].mark ^= 1
        #expect(BucketKey.of(marked, seed: 7) == key)
        #expect(BucketKey.of(files + [.unknown], seed: 7) == nil)
    }

    static let finding = Finding(ruleID: "identifier-mismatch", severity: .error, message: "the halves' identifiers differ",
                                 files: ["a/IMG_1.JPG", "a/IMG_1.MOV"], fixHint: "livelint fix", documentation: "rules/identifier-mismatch.md")

    /// An outcome decodes to what was encoded, for a bucket of as many files; any other count,
    /// a half outside the bucket or in two pairs, an archive's pair, and every truncation decode
    /// to nothing.
    @Test func anOutcomeDecodesToWhatWasKeptOrToNothing() throws {
        var outcome = BucketOutcome()
        outcome.spans = [PairList.Span(still: 0, movie: 1, method: .contentIdentifier), PairList.Span(still: 2, movie: -1, method: .unpaired),
                         PairList.Span(still: -1, movie: 3, method: .unpaired), PairList.Span(still: 4, movie: 5, method: .name)]
        outcome.findings = [Self.finding, Finding(ruleID: "orphan-still", severity: .warning, message: "x", files: ["b"], documentation: "d")]
        let bytes = outcome.encoded(files: 6)
        let decoded = try #require(bytes.withUnsafeBytes { BucketOutcome(decoding: $0, files: 6) })
        #expect(decoded.complete == 2)
        #expect(decoded.spans.map { [$0.still, $0.movie] } == outcome.spans.map { [$0.still, $0.movie] })
        #expect(decoded.spans.map(\.method) == outcome.spans.map(\.method))
        #expect(decoded.findings == outcome.findings)
        #expect(bytes.withUnsafeBytes { BucketOutcome(decoding: $0, files: 7) } == nil)
        #expect(outcome.encoded(files: 5).withUnsafeBytes { BucketOutcome(decoding: $0, files: 5) } == nil, "a half past the bucket")
        var twice = outcome
        twice.spans.append(PairList.Span(still: -1, movie: 1, method: .unpaired))
        #expect(twice.encoded(files: 6).withUnsafeBytes { BucketOutcome(decoding: $0, files: 6) } == nil, "a half in two pairs")
        var archived = outcome
        archived.spans[3].method = .archive
        #expect(archived.encoded(files: 6).withUnsafeBytes { BucketOutcome(decoding: $0, files: 6) } == nil, "an archive's pair")
        for n in 0..<bytes.count {
            #expect(Array(bytes[..<n]).withUnsafeBytes { BucketOutcome(decoding: $0, files: 6) } == nil, "cut at \(n)")
        }
        #expect((bytes + [0]).withUnsafeBytes { BucketOutcome(decoding: $0, files: 6) } == nil)
        var other = bytes
        other[0] = BucketOutcome.format + 1
        #expect(other.withUnsafeBytes { BucketOutcome(decoding: $0, files: 6) } == nil)
    }

    /// What pairs carry beyond their halves (verdicts, media) and the verdicts counted come back
    /// as kept; an entry that does not decode, or decodes to nothing, an entry's pair out of
    /// order or past the pairs, a verdict counted twice, and every truncation decode to nothing.
    @Test func anOutcomesVerdictsAndMediaDecodeToWhatWasKeptOrToNothing() throws {
        var outcome = BucketOutcome()
        outcome.spans = [PairList.Span(still: 0, movie: 1, method: .contentIdentifier), PairList.Span(still: 2, movie: -1, method: .unpaired),
                         PairList.Span(still: 3, movie: 4, method: .name)]
        outcome.findings = [Self.finding]
        func entry(_ verdict: ConsumerOutcome, media: PairMedia? = nil) -> [UInt8] {
            PairExtras.Entry.encoded(PairRecord.Rare.boxed(media: media, consumers: ["immich": ConsumerVerdict(verdict, "why", fix: "fix")],
                                                           sidecar: nil))
        }
        var media = PairMedia()
        media.stillImageTime = 1.5
        outcome.extras = [(0, entry(.live, media: media)), (2, entry(.split))]
        outcome.verdicts = ["immich": [.live: 1, .split: 1], "photoprism": [.ambiguous: 2]]
        let bytes = outcome.encoded(files: 5)
        let decoded = try #require(bytes.withUnsafeBytes { BucketOutcome(decoding: $0, files: 5) })
        #expect(decoded.extras.map(\.pair) == [0, 2])
        #expect(decoded.extras.map(\.entry) == outcome.extras.map(\.entry))
        #expect(decoded.verdicts == outcome.verdicts)
        #expect(decoded.findings == outcome.findings && decoded.complete == 2)
        for n in 0..<bytes.count {
            #expect(Array(bytes[..<n]).withUnsafeBytes { BucketOutcome(decoding: $0, files: 5) } == nil, "cut at \(n)")
        }
        func refused(_ change: (inout BucketOutcome) -> Void, _ why: String) {
            var changed = outcome
            change(&changed)
            #expect(changed.encoded(files: 5).withUnsafeBytes { BucketOutcome(decoding: $0, files: 5) } == nil, "\(why)")
        }
        refused({ $0.extras[1].entry = [1, 2, 3] }, "an entry that does not decode")
        refused({ $0.extras[1].entry = PairExtras.Entry.encoded(nil) }, "an empty entry")
        refused({ $0.extras.reverse() }, "entries out of order")
        refused({ $0.extras[1].pair = 0 }, "two entries for one pair")
        refused({ $0.extras[1].pair = 3 }, "an entry past the pairs")
        // A verdict counted twice: the same consumer and outcome written again by hand.
        var twice = outcome
        twice.extras = []
        twice.verdicts = ["immich": [.live: 1]]
        var bytesTwice = twice.encoded(files: 5)
        let once = BucketOutcome.countedVerdict("immich", .live, 1)
        let at = try #require(Self.index(of: once, in: bytesTwice))
        bytesTwice[at - 1] = 2
        bytesTwice.insert(contentsOf: once, at: at)
        #expect(bytesTwice.withUnsafeBytes { BucketOutcome(decoding: $0, files: 5) } == nil, "a verdict counted twice")
    }

    static func index(of needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard needle.count <= haystack.count else { return nil }
        return (0...(haystack.count - needle.count)).first { Array(haystack[$0..<($0 + needle.count)]) == needle }
    }
}
