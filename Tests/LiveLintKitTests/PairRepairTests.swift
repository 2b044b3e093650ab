import Foundation
import LiveLintEngine
@testable import LiveLintKit
import LiveModel
import LiveReaders
import LiveWriters
import Rules
import TestSupport
import Testing

/// The repair pipeline, called as a library: a copy of a broken fixture pair is planned, written
/// through the verified write path, and lints clean afterwards.
@Suite struct PairRepairTests {
    static let broken = TestPaths.fixtures.appendingPathComponent("library/broken/identifier-mismatch")

    /// A fresh folder holding a copy of the broken pair.
    static func brokenCopy() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("livelint-kit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        for name in ["IMG_0101.JPG", "IMG_0101.MOV"] {
            try FileManager.default.copyItem(at: broken.appendingPathComponent(name), to: dir.appendingPathComponent(name))
        }
        return dir
    }

    static func repair(_ options: RepairOptions) async throws -> (RepairSummary, [RepairEvent]) {
        var events: [RepairEvent] = []
        let summary = try await PairRepair(options).run { events.append($0) }
        return (summary, events)
    }

    /// A library past `diskAbove` and `spillAbove` (0 here) is listed, read, paired and checked
    /// on disk bucket by bucket, as `lint` does it, and the pairs to plan wait on disk too: every
    /// pair's outcome and the verdicts it predicts are those of the scan in memory, in the same
    /// order (issue 13: `fix` held every file's summary, then every pair it planned). The library: the fixtures, a pair whose movie does not read, a healthy pair
    /// carrying the identifier a broken one gets, and broken pairs in `.livp` archives.
    @Test func aLibraryOnDiskIsRepairedAsOneInMemory() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("livelint-kit-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let library = dir.appendingPathComponent("library")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: TestPaths.fixtures.appendingPathComponent("library"), to: library)
        let fixtures = TestPaths.fixtures.appendingPathComponent("library")
        func bytes(_ path: String) throws -> [UInt8] { Array(try Data(contentsOf: fixtures.appendingPathComponent(path))) }
        for folder in ["trunc", "arch", "other"] {
            try FileManager.default.createDirectory(at: library.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        try Data(bytes("2024/05/IMG_0001.JPG")).write(to: library.appendingPathComponent("trunc/IMG_0500.JPG"))
        try Data(bytes("2024/05/IMG_0001.MOV").prefix(3_000)).write(to: library.appendingPathComponent("trunc/IMG_0500.MOV"))
        for (rule, name) in [("identifier-mismatch", "IMG_0101"), ("video-codec", "IMG_0106")] {
            let livp = try LivpArchive.buildLivp(still: ("\(name).JPG.jpeg", try bytes("broken/\(rule)/\(name).JPG"), .jpeg),
                                                 movie: ("\(name).JPG.mov", try bytes("broken/\(rule)/\(name).MOV")))
            try Data(livp).write(to: library.appendingPathComponent("arch/\(name).livp"))
        }
        // The broken pair's still with a movie already carrying its identifier (the still's own).
        let (made, _) = try await Self.repair(RepairOptions(paths: [fixtures.appendingPathComponent("broken/identifier-mismatch").path],
                                                            destination: .folder(library.appendingPathComponent("other").path)))
        #expect(made.repaired == 1)
        // Four such pairs in four folders: the facts keep three paths of an identifier's carriers,
        // the first three in pairing order, whichever bucket each folder is in.
        for copy in ["other2", "other3", "other4"] {
            try FileManager.default.copyItem(at: library.appendingPathComponent("other"), to: library.appendingPathComponent(copy))
        }
        var options = RepairOptions(paths: [library.path], dryRun: true)
        options.diskAbove = nil
        let (held, heldEvents) = try await Self.repair(options)
        #expect(held.repaired == 8 && held.alreadyFine == 13 && held.failed == 1 && held.skippedInArchives == 2, "\(held)")
        #expect(heldEvents.contains { if case .verdicts(_, let changes) = $0 { changes.contains { $0.after == .ambiguous } } else { false } })
        // In the order `lint` lists the pairs.
        let planned = heldEvents.compactMap { if case .planned(let pair, _, _, _, _) = $0 { [pair.still, pair.movie] } else { nil } }
        let listed = try await LibraryScan(LintOptions(paths: [library.path], configuration: .defaults)).run().pairs
            .compactMap { p in p.still.flatMap { s in p.movie.map { [s, $0] } } }
        #expect(planned.count == 8 && planned == listed.filter(planned.contains), "\(planned)")
        options.diskAbove = 0
        options.spillAbove = 0
        // The pairs to plan wait on disk in runs of two (the 8 repaired, the one refused and the
        // 2 in archives: six runs merged back into pairing's order), planned three at a time.
        options.scratchRun = 2
        options.planBatch = 3
        // One bucket, then buckets of a few files: the pairs come bucket by bucket.
        for size in [LintOptions.defaultPartition, 3] {
            options.partition = size
            let (onDisk, diskEvents) = try await Self.repair(options)
            #expect(onDisk == held, "buckets of \(size)")
            #expect(diskEvents == heldEvents, "buckets of \(size)")
        }
    }

    /// A planned pair waits on disk as its halves' records, or, when a half has none (a movie
    /// with more than slimming leaves), as its place among the pairs held: any place, however short the
    /// record (a place written as a length was refused past the record's own size, ending the run).
    @Test func aPlannedPairComesBackFromItsRecord() throws {
        let fixtures = TestPaths.fixtures.appendingPathComponent("pair")
        let keys = try LintEngine(rules: builtinRules).metadataKeys
        // The halves as a scan keeps them (slimmed).
        func read(_ name: String) -> MediaFile {
            MediaInspector.inspect(path: fixtures.appendingPathComponent(name).path, displayPath: "a/" + name, options: .lint)
                .slimmedForLint(keeping: keys)
        }
        let still = read("IMG_0001.JPG"), movie = read("IMG_0001.MOV")
        let pair = LivePair(still: still, movie: movie, pairedBy: .contentIdentifier)
        var held = Array(repeating: LivePair(still: nil, movie: nil, pairedBy: .unpaired), count: 70_000)
        func roundTrip(_ kept: KeptPair) -> KeptPair? {
            var bytes: [UInt8] = []
            kept.encode(into: &bytes)
            return bytes.withUnsafeBytes { KeptPair(decoding: $0) }
        }
        let recorded = try #require(roundTrip(KeptPair(pair, asked: ["A", "B"], held: &held)))
        #expect(recorded.held == nil && held.count == 70_000 && recorded.asked == ["A", "B"])
        let back = try #require(recorded.pair(names: RecordCodec.Names(), held: held))
        #expect(back.still.map(RecordCodecTests.dumped) == RecordCodecTests.dumped(still) && back.movie.map(RecordCodecTests.dumped) == RecordCodecTests.dumped(movie))
        #expect(back.pairedBy == .contentIdentifier && back.archive == nil)
        // A still that is also a motion photo has a record since format 4: its pair waits on disk.
        var motion = still
        motion.still?.motionPhoto = MotionPhotoInfo(format: .googleMotionPhoto, declared: MotionPhotoClaims(motionPhoto: 1))
        let motionPair = try #require(roundTrip(KeptPair(LivePair(still: motion, movie: movie, pairedBy: .name), asked: [], held: &held)))
        #expect(motionPair.held == nil && held.count == 70_000)
        #expect(motionPair.pair(names: RecordCodec.Names(), held: held)?.still?.still?.motionPhoto?.declared.motionPhoto == 1)
        // A movie a slim record does not hold (its brands listed, as slimming never leaves it) is held.
        var full = movie
        full.movie?.compatibleBrands = ["qt  "]
        let heldPair = try #require(roundTrip(KeptPair(LivePair(still: still, movie: full, pairedBy: .name, archive: "x.livp"), asked: [], held: &held)))
        #expect(heldPair.held == 70_000 && heldPair.archive == "x.livp" && heldPair.pairedBy == .name)
        #expect(heldPair.pair(names: RecordCodec.Names(), held: held)?.movie?.movie?.compatibleBrands == ["qt  "])
    }

    @Test func repairsACopyIntoAnotherFolder() async throws {
        let dir = try Self.brokenCopy()
        defer { try? FileManager.default.removeItem(at: dir) }
        let source = dir.appendingPathComponent("in").path
        try FileManager.default.createDirectory(atPath: source, withIntermediateDirectories: true)
        for name in ["IMG_0101.JPG", "IMG_0101.MOV"] {
            try FileManager.default.moveItem(atPath: dir.appendingPathComponent(name).path, toPath: source + "/" + name)
        }
        let output = dir.appendingPathComponent("out").path
        let (summary, events) = try await Self.repair(RepairOptions(paths: [source], destination: .folder(output)))
        #expect(summary.repaired == 1 && summary.failed == 0 && summary.allRepaired)
        #expect(events.count == 3)
        // Different identifiers: every app that pairs by identifier splits the pair until the repair.
        guard case let .verdicts(_, changes) = events[1] else { Issue.record("no verdicts second: \(events)"); return }
        #expect(Set(changes.map(\.consumer)) == ["immich", "apple-photos", "iphone", "nextcloud-memories"], "\(changes)")
        #expect(changes.allSatisfy { $0.before == .split && $0.after == .live })
        #expect(changes.map(\.description).contains("Immich: split → live"))
        guard case let .planned(pair, reason, actions, stillTarget, movieTarget)? = events.first else {
            Issue.record("no plan first: \(events)"); return
        }
        #expect(pair.label == "IMG_0101.JPG + IMG_0101.MOV")
        #expect(pair.rules.contains("identifier-mismatch"))
        #expect(reason != nil && !actions.isEmpty)
        #expect(stillTarget == output + "/IMG_0101.JPG" && movieTarget == output + "/IMG_0101.MOV")
        guard case let .written(_, files, _, verifiedTracks)? = events.last else { Issue.record("not written: \(events)"); return }
        #expect(Set(files) == [stillTarget, movieTarget])
        #expect(verifiedTracks > 0)

        // The repaired pair lints clean of what fix repairs; the originals are untouched.
        let after = try await LibraryScan(LintOptions(paths: [output], configuration: .defaults)).run()
        #expect(after.summary.pairs == 1)
        #expect(!after.findings.contains { $0.ruleID == "identifier-mismatch" }, "\(after.findings)")
        let before = try await LibraryScan(LintOptions(paths: [source], configuration: .defaults)).run()
        #expect(before.findings.contains { $0.ruleID == "identifier-mismatch" })
    }

    @Test func aDryRunPlansAndWritesNothing() async throws {
        let dir = try Self.brokenCopy()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (summary, events) = try await Self.repair(RepairOptions(paths: [dir.path], dryRun: true))
        #expect(summary.repaired == 1)
        #expect(events.count == 2)
        guard case let .planned(_, _, _, stillTarget, movieTarget)? = events.first else { Issue.record("\(events)"); return }
        #expect(stillTarget.hasSuffix("IMG_0101-fixed.JPG") && movieTarget.hasSuffix("IMG_0101-fixed.MOV"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == ["IMG_0101.JPG", "IMG_0101.MOV"])
    }

    @Test func aCleanPairIsLeftAlone() async throws {
        let good = TestPaths.fixtures.appendingPathComponent("pair").path
        let (summary, events) = try await Self.repair(RepairOptions(paths: [good], dryRun: true))
        #expect(summary.alreadyFine >= 1 && summary.repaired == 0 && summary.allRepaired)
        #expect(events.isEmpty)
    }

    @Test func anOutputThatIsAFileIsRefused() throws {
        let file = TestPaths.fixtures.appendingPathComponent("pair/IMG_0001.JPG").path
        #expect(throws: PipelineError.self) {
            try PairRepair(RepairOptions(paths: [Self.broken.path], destination: .folder(file)))
        }
    }

    /// The verdict changes a plan predicts follow what it mends: a still-image-time track only
    /// matters to the iPhone; an identifier written where Apple reads it matters to Apple's apps.
    @Test(arguments: [
        ("no still-image-time", MediaFile.jpeg(), MediaFile.mov(stillImageTime: nil), ["iphone"]),
        ("identifier only in XMP", MediaFile.jpeg(makerNote: false, xmpID: Sample.uuidA), MediaFile.mov(), ["apple-photos", "iphone"]),
        ("lower-case movie identifier", MediaFile.jpeg(), MediaFile.mov(id: Sample.uuidA.lowercased()),
         ["immich", "apple-photos", "iphone", "nextcloud-memories"]),
    ])
    func predictedVerdictChanges(_ name: String, _ still: MediaFile, _ movie: MediaFile, _ expected: [String]) throws {
        let engine = try LintEngine(rules: builtinRules)
        let pair = LivePair(still: still, movie: movie, pairedBy: .name)
        let plan = RepairPlanner.plan(still: still, movie: movie, repairs: engine.repairs(for: pair))
        #expect(plan.isRepairable, "\(name): \(plan.blockers)")
        let changes = RepairPrediction.changes(pair: pair, plan: plan, library: LibraryFacts(pairs: [pair]))
        #expect(Set(changes.map(\.consumer)) == Set(expected), "\(name): \(changes)")
        #expect(changes.allSatisfy { $0.after == .live }, "\(name): \(changes)")
        // Applied to the model, the plan leaves nothing for the rules that attached it.
        let after = RepairPrediction.repaired(still: still, movie: movie, plan: plan)
        #expect(engine.repairs(for: LivePair(still: after.still, movie: after.movie, pairedBy: .name)).isEmpty, "\(name)")
    }
}
