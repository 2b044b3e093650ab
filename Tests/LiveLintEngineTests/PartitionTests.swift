import Foundation
@testable import LiveLintEngine
import LiveModel
import Rules
import TestSupport
import Testing

/// The engine's buckets (issue 13): files that pairing or a scan rule could weigh against one
/// another share a bucket, and a run that works bucket by bucket gives the whole run's result.
@Suite struct PartitionTests {
    static let upper = "5C1F8D2A-0B7E-4F4C-9A61-3D2E8C7B9F10"
    static let lower = "5c1f8d2a-0b7e-4f4c-9a61-3d2e8c7b9f10"
    static let mixed = "5c1F8D2A-0B7E-4F4C-9A61-3D2E8C7B9F10"
    /// Canonically equal, upper-cased to different scalars.
    static let (greekA, greekB) = ("\u{3B1}\u{345}\u{301}", "\u{3B1}\u{301}\u{345}")

    /// Files that must share a bucket, each set of them in folders of their own, so that only
    /// what is named here ties them.
    static let tied: [[MediaFile]] = [
        // One folder.
        [.jpeg("f1/IMG_1.JPG", id: nil), .mov("f1/IMG_2.MOV", id: nil)],
        // A folder spelt in NFC and in NFD: one folder to `Pairing.split`'s `==`.
        [.jpeg("caf\u{E9}/IMG_1.JPG", id: nil), .mov("cafe\u{301}/IMG_1.MOV", id: nil)],
        // One identifier in two cases; and as text of mixed case, which upper-cases to it.
        [.jpeg("i1/IMG_1.JPG", id: upper), .mov("i2/IMG_9.MOV", id: lower), .mov("i3/X.MOV", id: mixed)],
        // Text identifiers equal ignoring case, and texts `==` that upper-case apart.
        [.jpeg("t1/IMG_1.JPG", id: "abc-1"), .mov("t2/IMG_1.MOV", id: "ABC-1")],
        [.jpeg("g1/IMG_1.JPG", id: greekA), .mov("g2/IMG_1.MOV", id: greekB)],
        // A name whose `/` takes a combining mark is split as a bare name: tied to the bare names,
        // and to the files at the root of the file system, whose folder `Pairing.split` gives as "".
        [.jpeg("n1/\u{301}x.JPG", id: nil), .mov("x.MOV", id: nil), .jpeg("/IMG_1.JPG", id: nil), .mov("/K.MOV", id: nil)],
        // An archive, by its member's identifier, and by its members' folder (`l3/c.livp!`), which
        // a loose file named with a `!` (`c.livp!IMG_6.MOV` in `l3`) shares.
        [.livp("l1/b.livp", members: [.jpeg("IMG_5.JPG", id: "6C1F8D2A-0B7E-4F4C-9A61-3D2E8C7B9F10")]),
         .mov("l2/IMG_5.MOV", id: "6c1f8d2a-0b7e-4f4c-9a61-3d2e8c7b9f10")],
        [.livp("l3/c.livp", members: [.jpeg("IMG_6.JPG", id: nil)]), .mov("l3/c.livp!IMG_6.MOV", id: nil)],
    ]

    @Test func bucketsHoldEveryFileATieReaches() {
        // Each set after unrelated files, so that a bucket of one file never holds two by chance.
        var files: [MediaFile] = []
        var sets: [[String]] = []
        for (k, set) in Self.tied.enumerated() {
            files.append(.jpeg("alone\(k)/IMG_1.JPG", id: nil))
            files += set
            sets.append(set.map(\.path))
        }
        let summaries = FileList(files).summaries
        let partition = Partition(summaries, target: 1)
        func bucket(_ path: String) -> Int32? {
            summaries.firstIndex { $0.path == path }.map { partition.bucketOf[$0] }
        }
        for set in sets {
            let buckets = Set(set.map { bucket($0) })
            #expect(buckets.count == 1 && !buckets.contains(nil), "\(set)")
        }
        // What nothing ties is alone: every set, and every lone file, a bucket of its own.
        #expect(partition.count == 2 * sets.count)
        #expect(Set(sets.map { bucket($0[0]) }).count == sets.count)
        // Buckets fill in order, a group at a time, up to the target.
        let all = Partition(summaries, target: summaries.count)
        #expect(all.count == 1 && all.bucketOf.allSatisfy { $0 == 0 })
        for target in [2, 3, 5] {
            let part = Partition(summaries, target: target)
            let firsts = (0..<part.count).map { b in part.bucketOf.firstIndex(of: Int32(b)) ?? -1 }
            #expect(firsts == firsts.sorted() && !firsts.contains(-1), "target \(target)")
            // Each set follows a lone file: a bucket of 3 holds both where the set has two files.
            if target >= 3 { #expect(part.count < partition.count, "target \(target)") }
        }
        #expect(Partition([], target: 4).count == 0)
        // The UUIDs met sorted on disk, in runs of any size, tie the same files.
        for target in [1, 3, summaries.count] {
            for run in [1, 2, 7, 1_000] {
                var builder = PartitionBuilder(spillingIn: NSTemporaryDirectory(), runSize: run)
                for summary in summaries { builder.add(summary) }
                #expect(builder.mapsGroups)
                let expected = Partition(summaries, target: target).bucketOf
                #expect(builder.partition(target: target).bucketOf == expected, "run \(run)")
                // File by file, as the stored run takes them: from the mapped file and held.
                for directory in [NSTemporaryDirectory(), nil] {
                    var again = PartitionBuilder(capacity: run, spillingIn: directory, runSize: run)
                    for summary in summaries { again.add(summary) }
                    var seen: [Int32] = []
                    again.forEachBucket(target: target) { i, bucket in
                        #expect(i == seen.count)
                        seen.append(bucket)
                    }
                    #expect(seen == expected, "run \(run), \(directory ?? "held")")
                }
            }
        }
    }

    /// Files of every kind of tie, by identifier and by name, with conflicts, duplicates, edits,
    /// archives and Takeout names.
    static var library: [MediaFile] {
        var files = tied.flatMap { $0 }
        files += [
            .jpeg("a/PXL_20231105_123456789.jpg", id: Sample.uuidA), .mov("a/PXL_20231105_123456789.MOV", id: Sample.uuidA),
            .jpeg("a/PXL_20231105_123456789(1).jpg", id: Sample.uuidA), .jpeg("a/IMG_E0001.JPG", id: nil),
            .jpeg("a/IMG_0001.JPG", id: nil), .mov("a/IMG_0001.MOV", id: nil), .mov("b/IMG_0769(1).mp4", id: nil),
            .heic("b/IMG_0769.HEIC", id: nil), .jpeg("c/IMG_0002.JPG", id: Sample.uuidB), .mov("c/IMG_0002.MOV", id: Sample.uuidC),
            .mov("d/IMG_0003.MOV", id: Sample.uuidB), .mov("e/IMG_0004.MOV", id: "orphan-id"), .jpeg("e/IMG_0005.JPG", id: "ORPHAN-ID"),
            .jpeg("f/IMG_0006.JPG", id: Self.upper), .mov("f/IMG_0006.MOV", id: Self.lower),
            .livp("g/IMG_0007.livp", members: [.jpeg("IMG_0007.JPG", id: Sample.uuidC), .mov("IMG_0007.MOV", id: Sample.uuidC)]),
            .jpeg("h/\u{424}\u{43E}\u{442}\u{43E}.JPG", id: nil), .mov("h/\u{424}\u{43E}\u{442}\u{43E}.MOV", id: nil),
            .jpeg("IMG_bare.JPG", id: nil), .mov("IMG_bare.MOV", id: "7C1F8D2A-0B7E-4F4C-9A61-3D2E8C7B9F10"),
            .jpeg("/IMG_0010.JPG", id: nil), .mov("IMG_0010.MOV", id: nil), .jpeg("/IMG_E0011.JPG", id: nil), .jpeg("IMG_0011.JPG", id: nil),
            .jpeg("/K.JPG", id: nil), .mov("/\u{212A}.MOV", id: nil),
            .mov("o/IMG_0008.MOV", id: "8C1F8D2A-0B7E-4F4C-9A61-3D2E8C7B9F10"),
            .jpeg("p/IMG_0009.JPG", id: "9C1F8D2A-0B7E-4F4C-9A61-3D2E8C7B9F10"), .mov("p/IMG_0009.MOV", id: "9D1F8D2A-0B7E-4F4C-9A61-3D2E8C7B9F10"),
        ]
        return files
    }

    /// `engine` with its scan and pair rules on three threads, however few pairs.
    static func threaded(_ engine: LintEngine) -> LintEngine {
        var threaded = engine
        threaded.pairWorkers = 3
        threaded.pairsPerWorker = 1
        return threaded
    }

    /// The whole result (pairs, findings, files, summary, the consumers' verdicts) whatever the
    /// buckets' size, for files in walk order and in any other.
    @Test(arguments: [1, 2, 3, 5, 8, 1_000])
    func aRunByBucketsIsTheWholeRun(target: Int) throws {
        let engine = try LintEngine(rules: builtinRules, configuration: Configuration(consumers: ["all"]))
        let sorted = Self.library.sorted { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }
        for files in [sorted, Self.library, sorted.reversed()] {
            let list = FileList(files)
            let whole = engine.run(summaries: list.summaries, store: list, root: "scan")
            let parts = engine.run(summaries: list.summaries, store: list, root: "scan", partition: target)
            #expect(parts == whole)
            #expect(Array(parts.pairs.map(\.consumers)) == Array(whole.pairs.map(\.consumers)))
            // The buckets' scan rules (and the pair rules) on three threads: the same.
            let threaded = Self.threaded(engine).run(summaries: list.summaries, store: list, root: "scan", partition: target)
            #expect(threaded == whole)
            #expect(Array(threaded.pairs.map(\.consumers)) == Array(whole.pairs.map(\.consumers)))
            #expect(!whole.pairs.allSatisfy { $0.consumers.isEmpty })
            let rules = Set(whole.findings.map(\.ruleID))
            #expect(rules.isSuperset(of: ["duplicate-identifier", "name-identifier-conflict", "edited-version", "orphan-movie",
                                          "identifier-case-mismatch", "identifier-mismatch"]), "\(rules)")
        }
    }

    /// Random libraries drawn from few folders, names and identifiers (so that ties cross: one
    /// identifier in several folders and cases, one name in several folders, edits, Takeout
    /// names, archives, bare names and files at the root of the file system), linted by buckets
    /// of 1 to 4 files and whole: the same result, every time.
    @Test(arguments: Array(1...12) as [UInt64])
    func randomLibrariesLintAsAWhole(seed: UInt64) throws {
        var rng = SplitMix(seed: seed)
        // Enough folders and identifiers that most groups are small and a few cross.
        let folders = ["a/", "b/", "caf\u{E9}/", "cafe\u{301}/", "", "/", "a/b/", "n/\u{301}"] + (0..<40).map { "f\($0)/" }
        let stems = ["IMG_0001", "IMG_E0001", "IMG_0001(1)", "IMG_0002", "PXL_20231105_123456789", "K", "\u{212A}"]
        let uuids = (10..<50).map { "\($0)1F8D2A-0B7E-4F4C-9A61-3D2E8C7B9F10" }
        let ids: [String?] = Array(repeating: nil, count: 60) + [Self.upper, Self.lower, Self.mixed, "abc-1", "ABC-1", Self.greekA, Self.greekB]
            + uuids + uuids.prefix(4).map { $0.lowercased() } + (0..<6).map { "text-\($0)" }
        func pick<T>(_ list: [T]) -> T { list[Int(rng.next() % UInt64(list.count))] }
        var files: [MediaFile] = []
        var paths = Set<String>()
        for _ in 0..<(40 + Int(rng.next() % 40)) {
            let base = pick(folders) + pick(stems)
            let file: MediaFile
            switch rng.next() % 7 {
            case 0: file = .livp(base + ".livp", members: [.jpeg("IMG_9.JPG", id: pick(ids)), .mov("IMG_9.MOV", id: pick(ids))])
            case 1, 2: file = .mov(base + ".MOV", id: pick(ids))
            case 3: file = .heic(base + ".HEIC", id: pick(ids))
            default: file = .jpeg(base + ".JPG", id: pick(ids))
            }
            if paths.insert(file.path).inserted { files.append(file) }
        }
        let engine = try LintEngine(rules: builtinRules, configuration: Configuration(consumers: ["all"]))
        let list = FileList(files)
        // Not one group: the buckets are many.
        #expect(Partition(list.summaries, target: 1).count > files.count / 4, "seed \(seed)")
        let whole = engine.run(summaries: list.summaries, store: list, root: "scan")
        for target in [1, 2, 4] {
            let parts = engine.run(summaries: list.summaries, store: list, root: "scan", partition: target)
            #expect(parts == whole, "seed \(seed), buckets of \(target)")
            #expect(Array(parts.pairs.map(\.consumers)) == Array(whole.pairs.map(\.consumers)))
            let threaded = Self.threaded(engine).run(summaries: list.summaries, store: list, root: "scan", partition: target)
            #expect(threaded == whole, "seed \(seed), buckets of \(target) on threads")
        }
        #expect(whole.findings.count > 5)
    }
}
