import LiveLintEngine
import LiveModel
import Rules
import Testing

/// A scan's result reads its files and pair records from its pairs (``PairList``) instead of
/// holding a list of each (issue 13). These tests hold what it reads to what the lists held:
/// the files sorted as before, each pair's record, and the values set on a record afterwards.
@Suite struct ResultListTests {
    /// Files of every kind: loose pairs, a lone half, an archive with members, an unreadable file,
    /// a file that is not media, and paths Swift holds equal but spelt in other bytes.
    static let scan: [MediaFile] = [
        { var still = MediaFile.jpeg("b/IMG_2.JPG", id: "B"); still.sidecar = TakeoutSidecar(path: "b/IMG_2.JPG.json"); return still }(), .mov("b/IMG_2.MOV", id: "B"), .jpeg("a/IMG_1.JPG", id: "A"), .mov("c/IMG_1.MOV", id: "A"),
        .livp("d/IMG_5.livp", members: [.jpeg("IMG_5.JPG.jpeg", id: "L"), .mov("IMG_5.JPG.mov", id: "L")]),
        .unreadable("d/IMG_6.JPG", format: .jpeg, error: "truncated", location: "APP1", offset: 2),
        .notMedia("d/notes.txt"), .mov("e/lone.mov", id: nil),
        .jpeg("Cafe\u{301}.JPG", id: nil), .jpeg("Caf\u{E9}.JPG", id: nil),
    ]

    /// What the result listed before: every file and archive member, sorted by path, kind and
    /// format, then by the path's bytes.
    static func listed(_ files: [MediaFile]) -> [ScannedFile] {
        let all = files.flatMap { [$0] + ($0.members ?? []) }
        return all.map { ScannedFile(path: $0.path, kind: $0.kind, format: $0.format, error: $0.error?.description, sidecar: $0.sidecar?.path) }
            .sorted { a, b in
                if a.path != b.path { return a.path < b.path }
                if a.kind != b.kind { return a.kind.rawValue < b.kind.rawValue }
                if a.format != b.format { return a.format.rawValue < b.format.rawValue }
                return a.path.utf8.lexicographicallyPrecedes(b.path.utf8)
            }
    }

    @Test func filesAndRecordsAreWhatTheListsHeld() throws {
        let engine = try LintEngine(rules: builtinRules)
        for order in [Self.scan, Self.scan.reversed()] {
            let result = engine.run(files: order, root: ".")
            #expect(Array(result.files) == Self.listed(order))
            #expect(result.files.count == 12 && result.summary.files == 12)
            #expect(Array(result.pairs) == Pairing.pair(order).map(\.record))
            #expect(result.pairs.contains { $0.pairedBy == .archive })
            // The paths in other bytes come in byte order (NFD's "e" before NFC's "é").
            let cafe = result.files.map(\.path).filter { $0.hasPrefix("Caf") }
            #expect(cafe.map { Array($0.utf8) } == [Array("Cafe\u{301}.JPG".utf8), Array("Caf\u{E9}.JPG".utf8)])
            // Equal, and hashed alike, to the same lists held as arrays.
            let held = LintResult(root: ".", files: Array(result.files), pairs: Array(result.pairs), findings: Array(result.findings), summary: result.summary)
            #expect(held == result && held.hashValue == result.hashValue)
        }
    }

    /// A scan with no archive whose files come in order already (as a walk of one folder lists
    /// them) keeps no order of its own, and lists what a sort would: in order, reversed, and with
    /// one pair of neighbours swapped (the paths Swift holds equal, in byte order or not).
    @Test func filesInOrderAlreadyAreListedAsSorted() throws {
        let engine = try LintEngine(rules: builtinRules)
        let loose = Self.scan.filter { $0.members == nil }
        let sorted = Self.listed(loose).map { file in loose.first { $0.path == file.path && $0.kind == file.kind }! }
        let cafe = try #require(sorted.firstIndex { $0.path.hasPrefix("Caf") })
        var swapped = sorted
        swapped.swapAt(cafe, cafe + 1)
        var late = sorted
        late.append(late.removeFirst())
        for order in [sorted, Array(sorted.reversed()), swapped, late] {
            let result = engine.run(files: order, root: ".")
            #expect(Array(result.files) == Self.listed(order))
            #expect(result.files.count == loose.count)
        }
    }

    @Test func consumerVerdictsAreKeptBesideThePairs() throws {
        let engine = try LintEngine(rules: builtinRules, configuration: Configuration(consumers: Consumers.ids))
        let result = engine.run(files: Self.scan, root: ".")
        #expect(result.pairs.allSatisfy { $0.consumers.count == Consumers.ids.count })
        // The summary's counts are the records' verdicts, counted.
        var counted: [String: [ConsumerOutcome: Int]] = [:]
        for record in result.pairs {
            for (id, verdict) in record.consumers { counted[id, default: [:]][verdict.outcome, default: 0] += 1 }
        }
        #expect(counted == result.summary.consumers)
        #expect(Array(result.pairs).map { $0.consumers.isEmpty } == Array(repeating: false, count: result.pairs.count))
    }

    /// A value set on a record (as the HTML report sets media) reads back, and leaves the other
    /// records as they were; a record that no longer matches its pair is kept as it is.
    @Test func aRecordSetAfterTheScanReadsBack() throws {
        let engine = try LintEngine(rules: builtinRules)
        var result = engine.run(files: Self.scan, root: ".")
        let before = Array(result.pairs)
        result.pairs[1].sidecar = "Caf\u{E9}.JPG.json"
        #expect(result.pairs[1].sidecar == "Caf\u{E9}.JPG.json")
        var expected = before
        expected[1].sidecar = "Caf\u{E9}.JPG.json"
        #expect(Array(result.pairs) == expected)
        // A pair's own sidecar taken away: kept as set, not read back from the pair.
        let withSidecar = try #require(result.pairs.firstIndex { $0.still == "b/IMG_2.JPG" })
        #expect(result.pairs[withSidecar].sidecar == "b/IMG_2.JPG.json")
        result.pairs[withSidecar].sidecar = nil
        expected[withSidecar].sidecar = nil
        #expect(result.pairs[withSidecar].sidecar == nil)
        #expect(Array(result.pairs) == expected)
        result.pairs[0].still = "elsewhere/IMG_1.JPG"
        expected[0].still = "elsewhere/IMG_1.JPG"
        #expect(Array(result.pairs) == expected)
        #expect(result.pairs == PairRecords(expected))
    }

    /// A pair list made from pairs hands back the same pairs, and its per-half reads agree with
    /// the pairs it builds.
    @Test func aPairListHoldsThePairsItIsGiven() {
        let pairs = Pairing.pair(Self.scan)
        let summaries = Pairing.pair(FileList(Self.scan).summaries)
        let list = PairList(summaries)
        #expect(list.map(\.record) == pairs.map(\.record))
        #expect(list.map(\.archive) == summaries.map(\.archive))
        for i in list.indices {
            #expect(list.stillPath(i) == summaries[i].still?.path && list.moviePath(i) == summaries[i].movie?.path)
            #expect(list.stillIdentifier(i) == summaries[i].still?.contentIdentifier)
            #expect(list.movieIdentifier(i) == summaries[i].movie?.contentIdentifier)
            #expect(list.isComplete(i) == summaries[i].isComplete)
        }
        #expect(Pairing.pairList(FileList(Self.scan).summaries).map(\.record) == pairs.map(\.record))
    }
}
