import Foundation
@testable import LiveLintEngine
@testable import LiveLintKit
import LiveModel
import Reporters
import Rules
import TestSupport
import Testing

/// The scan pipeline, called as a library (no CLI, no process): what it pairs and finds on the
/// sample library, and that its progress events add up to the result it returns.
@Suite struct LibraryScanTests {
    static let library = TestPaths.fixtures.appendingPathComponent("library").path

    /// The rules that check one file at a time: their findings are the ones counted per file read.
    static let fileRuleIDs: Set<String> = Set(builtinRules.filter { $0.init() is any FileRule }.map { $0.description.identifier })

    /// Runs a scan and keeps every event it reported.
    static func scan(_ options: LintOptions) async throws -> (LintResult, [ScanEvent]) {
        let events = EventLog()
        let result = try await LibraryScan(options).run { events.append($0) }
        return (result, events.events)
    }

    @Test func pairsAndFindingsOfTheSampleLibrary() async throws {
        let (result, _) = try await Self.scan(LintOptions(paths: [Self.library], configuration: .defaults))
        #expect(result.root == Self.library)
        let good = result.pairs.first { $0.still == "2024/05/IMG_0001.JPG" }
        #expect(good?.movie == "2024/05/IMG_0001.MOV")
        #expect(result.findings.allSatisfy { !$0.files.contains { $0.hasPrefix("2024/") } }, "findings on good pairs")
        func rules(_ prefix: String) -> Set<String> {
            Set(result.findings.filter { $0.files.contains { $0.hasPrefix(prefix) } }.map(\.ruleID))
        }
        #expect(rules("broken/identifier-mismatch/").contains("identifier-mismatch"))
        #expect(rules("broken/orphans/IMG_0110.JPG") == ["orphan-still"])
        #expect(rules("broken/unreadable/IMG_0300.JPG") == ["unreadable-file"])
        #expect(result.summary.pairs == result.pairs.filter { $0.still != nil && $0.movie != nil }.count)
        #expect(result.exitCode(failOn: .error) == 1)
    }

    @Test func progressEventsAddUpToTheResult() async throws {
        let (result, events) = try await Self.scan(LintOptions(paths: [Self.library], configuration: .defaults, jobs: 3))
        guard case .walked(let total)? = events.first else { Issue.record("first event is not walked"); return }
        guard case .finished(let summary)? = events.last else { Issue.record("last event is not finished"); return }
        #expect(summary == result.summary)

        var read: [String] = [], fileFindings = 0, pairs: [PairRecord] = []
        for event in events {
            switch event {
            case let .fileRead(path, inShard, findings):
                #expect(inShard)
                read.append(path)
                fileFindings += findings
            case let .pairFormed(pair): pairs.append(pair)
            default: continue
            }
        }
        #expect(read.count == total)
        #expect(Set(read).count == read.count, "a file reported twice")
        // Every top-level file is read once (a .livp's members, `archive!member`, are inside it).
        #expect(Set(read) == Set(result.files.map(\.path)).filter { !$0.contains(".livp!") })
        // The file rules' findings counted while reading are the report's, no more, no less.
        #expect(fileFindings == result.findings.filter { Self.fileRuleIDs.contains($0.ruleID) }.count)
        #expect(fileFindings > 0)
        // Pairs formed are the report's complete pairs, in the report's order.
        #expect(pairs == result.pairs.filter { $0.still != nil && $0.movie != nil })
        #expect(pairs.count == result.summary.pairs)
    }

    @Test func theResultDoesNotDependOnTheNumberOfJobs() async throws {
        let (one, _) = try await Self.scan(LintOptions(paths: [Self.library], jobs: 1))
        for jobs in [2, 7] {
            let (many, _) = try await Self.scan(LintOptions(paths: [Self.library], jobs: jobs))
            #expect(many == one, "jobs \(jobs)")
        }
        // And no progress callback changes nothing either.
        let quiet = try await LibraryScan(LintOptions(paths: [Self.library], jobs: 2)).run()
        #expect(quiet == one)
    }

    /// Pairing and the scan rules by buckets of whole groups (as a library of more than
    /// ``LintOptions/defaultPartition`` files is read) give the result of a run on the whole, the
    /// consumers' verdicts included.
    @Test func bucketsOfTheLibraryGiveTheWholeResult() async throws {
        var options = LintOptions(paths: [Self.library], configuration: .defaults)
        options.consumers = ["all"]
        options.partition = nil
        let (whole, _) = try await Self.scan(options)
        #expect(whole.pairs.contains { !$0.consumers.isEmpty } && whole.findings.count > 10)
        for size in [1, 4, 16] {
            options.partition = size
            let (parts, _) = try await Self.scan(options)
            #expect(parts == whole, "buckets of \(size)")
            #expect(Array(parts.pairs.map(\.consumers)) == Array(whole.pairs.map(\.consumers)))
        }
    }

    /// The same on the real device files of `../shared/corpus` (stills and movies of many cameras
    /// and apps, motion photos, `.livp` archives), with the sample library beside them.
    @Test(.enabled(if: TestPaths.corpusPresent, "needs ../shared/corpus"))
    func bucketsOfTheCorpusGiveTheWholeResult() async throws {
        var options = LintOptions(paths: [TestPaths.corpus.path, Self.library], configuration: .defaults)
        options.consumers = ["all"]
        options.partition = nil
        let (whole, _) = try await Self.scan(options)
        #expect(whole.summary.pairs > 10)
        for size in [1, 7] {
            options.partition = size
            let (parts, _) = try await Self.scan(options)
            #expect(parts == whole, "buckets of \(size)")
            #expect(Array(parts.pairs.map(\.consumers)) == Array(whole.pairs.map(\.consumers)))
        }
    }

    /// Summaries kept in a temporary file (as a library of more than ``LintOptions/diskAbove``
    /// files is read), read back bucket by bucket for the engine
    /// and file by file for the report, give the result of a scan holding them in memory: the
    /// pairs in order, the files with the `.livp` members among them, the consumers' verdicts,
    /// the findings, the identifier list; with a shard and with the cache too.
    @Test func summariesOnDiskGiveTheWholeResult() async throws {
        try await Self.expectSummariesOnDiskGiveTheWholeResult([Self.library], sizes: [1, 4, 16, 100_000])
    }

    /// The same on the real device files of `../shared/corpus`, with the sample library beside them.
    @Test(.enabled(if: TestPaths.corpusPresent, "needs ../shared/corpus"))
    func summariesOnDiskGiveTheWholeResultOnTheCorpus() async throws {
        try await Self.expectSummariesOnDiskGiveTheWholeResult([TestPaths.corpus.path, Self.library], sizes: [1, 7])
    }

    /// Paths Swift holds equal (a folder spelt NFC and NFD) are not in the order the engine reading
    /// summaries back by index relies on: the summaries come back into memory, and the result is
    /// the one a scan holding them gives.
    @Test func pathsOutOfOrderKeepTheSummariesInMemory() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("livelint-kit-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let pair = TestPaths.fixtures.appendingPathComponent("pair")
        // The walk lists `cafe\u{301}/IMG_0001.JPG` (its bytes first) and then `caf\u{E9}/IMG_0001.JPG`:
        // two paths Swift holds equal, one after the other.
        for (folder, names) in [("caf\u{E9}", ["IMG_0001.JPG", "IMG_0001.MOV"]), ("cafe\u{301}", ["IMG_0001.JPG"]),
                                ("a", ["IMG_0001.JPG", "IMG_0001.MOV"])] {
            let to = dir.appendingPathComponent(folder)
            try FileManager.default.createDirectory(at: to, withIntermediateDirectories: true)
            for name in names {
                try FileManager.default.copyItem(at: pair.appendingPathComponent(name), to: to.appendingPathComponent(name))
            }
        }
        var options = LintOptions(paths: [dir.path], configuration: .defaults)
        options.spillAbove = 0
        options.partition = 1
        options.diskAbove = nil
        let (held, _) = try await Self.scan(options)
        #expect(held.summary.files == 5 && held.findings.contains { $0.ruleID == "duplicate-identifier" })
        options.diskAbove = 0
        let library = await (try LibraryScan(options)).read(progress: nil)
        #expect(library.stored == nil && library.summaries.count == 5)
        let stored = try await Self.scan(options).0
        #expect(stored == held && Self.reports(stored) == Self.reports(held))
    }

    /// A path the walk could not even list (here a link to nowhere) is reported after the files
    /// read, out of the paths' order: the summaries come back into memory, and the result is the
    /// one a scan holding them gives, the problem reported as an unreadable file.
    @Test func aPathThatCannotBeListedKeepsTheSummariesInMemory() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("livelint-kit-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let pair = TestPaths.fixtures.appendingPathComponent("pair")
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("a"), withIntermediateDirectories: true)
        for name in ["IMG_0001.JPG", "IMG_0001.MOV"] {
            try FileManager.default.copyItem(at: pair.appendingPathComponent(name), to: dir.appendingPathComponent("a/" + name))
        }
        try FileManager.default.createSymbolicLink(atPath: dir.appendingPathComponent("a/IMG_0000.JPG").path,
                                                   withDestinationPath: "/no/such/file")
        var options = LintOptions(paths: [dir.path], configuration: .defaults)
        options.spillAbove = 0
        options.partition = 1
        options.diskAbove = nil
        let (held, _) = try await Self.scan(options)
        #expect(held.summary.files == 3 && held.findings.contains { $0.ruleID == "unreadable-file" && $0.files == ["a/IMG_0000.JPG"] })
        options.diskAbove = 0
        let library = await (try LibraryScan(options)).read(progress: nil)
        #expect(library.stored == nil && library.summaries.count == 3)
        let stored = try await Self.scan(options).0
        #expect(stored == held && Self.reports(stored) == Self.reports(held))
    }

    /// The JSON, text and SARIF reports of `result`, as bytes (`==` on strings would equate NFC and
    /// NFD spellings, which a report does not), and the JSON written on three threads, three files
    /// or pairs a share (the files and pairs read back from disk on several threads at once): the
    /// same as on one.
    static func reports(_ result: LintResult) -> [[UInt8]] {
        let reports = [LintReportFormat.json, .text, .sarif].map {
            Array(LintReport(format: $0, rules: RuleRegistry(builtinRules).summaries).render(result).utf8)
        }
        var threaded = ""
        LintJSONReporter.write(result, toolVersion: livelintVersion, threads: 3, share: 3) { threaded += $0 }
        #expect(Array(threaded.utf8) == reports[0], "the JSON report on three threads")
        return reports
    }

    static func expectSummariesOnDiskGiveTheWholeResult(_ paths: [String], sizes: [Int]) async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("livelint-kit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        var options = LintOptions(paths: paths, configuration: .defaults)
        options.consumers = ["all"]
        options.pairMedia = true
        options.spillAbove = 0
        options.diskAbove = nil
        options.identifierList = dir.appendingPathComponent("held.jsonl").path
        let (whole, _) = try await Self.scan(options)
        let heldList = try String(contentsOfFile: options.identifierList!, encoding: .utf8)
        #expect(whole.pairs.contains { !$0.consumers.isEmpty } && whole.findings.count > 10 && !heldList.isEmpty)
        #expect(whole.pairs.allSatisfy { $0.media != nil } && whole.pairs.contains { $0.media?.edits.isEmpty == false })
        // The summary's outcomes are the pairs' verdicts counted.
        var outcomes: [String: [ConsumerOutcome: Int]] = [:]
        for pair in whole.pairs { for (id, verdict) in pair.consumers { outcomes[id, default: [:]][verdict.outcome, default: 0] += 1 } }
        #expect(whole.summary.consumers == outcomes && outcomes.count == Consumers.ids.count)
        #expect(whole.files.contains { $0.path.contains(".livp!") }, "the members are among the files")
        options.diskAbove = 0
        options.identifierList = dir.appendingPathComponent("stored.jsonl").path
        for size in sizes {
            options.partition = size
            // Every list sorted on disk in runs of 3 (their default, 1 MiB, is past these libraries).
            options.scratchRun = size < 100_000 ? 3 : nil
            // The summaries did go to the file (the walk lists paths in order).
            let library = await (try LibraryScan(options)).read(progress: nil)
            #expect(library.stored != nil && library.summaries.isEmpty, "buckets of \(size)")
            let (stored, events) = try await Self.scan(options)
            #expect(stored == whole, "buckets of \(size)")
            #expect(stored.findings.spills == (size < 100_000), "findings sorted on disk in runs of 3")
            #expect(Self.reports(stored) == Self.reports(whole), "buckets of \(size)")
            #expect(Array(stored.files) == Array(whole.files) && Array(stored.pairs) == Array(whole.pairs))
            #expect(Array(stored.pairs.map(\.consumers)) == Array(whole.pairs.map(\.consumers)))
            #expect(Array(stored.pairs.map(\.media)) == Array(whole.pairs.map(\.media)))
            #expect(stored.pairs.extras.spills, "what the records hold beyond their pairs is on disk")
            let lone = whole.pairs.filter { $0.pairedBy == .unpaired }.count
            #expect(lone > 0 && stored.pairs.count(pairedBy: .unpaired) == lone && whole.pairs.count(pairedBy: .unpaired) == lone)
            #expect(try String(contentsOfFile: options.identifierList!, encoding: .utf8) == heldList)
            // Every complete pair is reported formed, once.
            let formed = events.compactMap { if case .pairFormed(let pair) = $0 { pair } else { nil } }
            let complete = whole.pairs.filter { $0.still != nil && $0.movie != nil }
            #expect(formed.count == whole.summary.pairs
                    && Set(formed.map { "\($0.still!)\u{0}\($0.movie!)" }) == Set(complete.map { "\($0.still!)\u{0}\($0.movie!)" }))
        }
        options.identifierList = nil
        options.partition = LintOptions.defaultPartition
        let shard = try #require(Shard(index: 2, count: 3))
        options.shard = shard
        options.diskAbove = nil
        let (heldShard, _) = try await Self.scan(options)
        options.diskAbove = 0
        #expect(try await Self.scan(options).0 == heldShard, "shard \(shard)")
        options.shard = nil
        options.cache = .directory(dir.appendingPathComponent("cache").path)
        for _ in 0..<2 { #expect(try await Self.scan(options).0 == whole, "cached") }
    }

    /// A baseline given to a scan is read, sorted and joined on disk (runs of 3) and filters as the
    /// held one does, and as the filter on the whole result says: some entries exact, some with
    /// their message changed (issue 13: `--baseline` held every entry).
    @Test func aBaselineOnDiskFiltersAsAHeldOne() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("livelint-kit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        var options = LintOptions(paths: [Self.library], configuration: .defaults)
        let (whole, _) = try await Self.scan(options)
        let accepted = whole.findings.enumerated().filter { $0.offset % 2 == 0 }.map { e -> Finding in
            var f = e.element
            if e.offset % 4 == 0 { f.message += " (then)" }
            return f
        }
        #expect(accepted.count > 6)
        let path = dir.appendingPathComponent("baseline.json").path
        try Baseline(findings: accepted).write(to: path)
        options.baseline = path
        let (held, _) = try await Self.scan(options)
        let expected = Baseline(findings: accepted).filter(Array(whole.findings))
        #expect(Array(held.findings) == expected.kept && held.summary.baselined == expected.baselined && expected.baselined == accepted.count)
        options.spillAbove = 0
        options.diskAbove = 0
        options.scratchRun = 3
        let (onDisk, _) = try await Self.scan(options)
        #expect(onDisk == held && onDisk.findings.spills)
    }

    @Test func shardsSplitTheLibraryAndEveryShardReadsEveryFile() async throws {
        let (whole, wholeEvents) = try await Self.scan(LintOptions(paths: [Self.library], configuration: .defaults))
        var findings: [Finding] = []
        for k in 1...3 {
            let shard = try #require(Shard(index: k, count: 3))
            let (part, events) = try await Self.scan(LintOptions(paths: [Self.library], configuration: .defaults, shard: shard))
            #expect(events.filter { if case .fileRead = $0 { true } else { false } }.count
                    == wholeEvents.filter { if case .fileRead = $0 { true } else { false } }.count)
            let kept = events.filter { if case .fileRead(_, true, _) = $0 { true } else { false } }.count
            #expect(kept == part.files.filter { !$0.path.contains(".livp!") }.count)
            findings += part.findings
        }
        let key = { (f: Finding) in "\(f.ruleID)\u{0}\(f.files)\u{0}\(f.message)" }
        #expect(Set(findings.map(key)) == Set(whole.findings.map(key)))
    }

    @Test func writesTheIdentifierList() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("livelint-kit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let list = dir.appendingPathComponent("ids.jsonl").path
        _ = try await LibraryScan(LintOptions(paths: [Self.library], identifierList: list)).run()
        let lines = try String(contentsOfFile: list, encoding: .utf8).split(separator: "\n")
        #expect(!lines.isEmpty)
        #expect(lines.allSatisfy { $0.hasPrefix("{\"id\":") && $0.hasSuffix("\"shard\":\"1/1\",\"type\":\"identifier\"}") })
    }

    @Test func reportsWhatAUserMustFixFirst() async throws {
        #expect(throws: PipelineError.self) { try LibraryScan(LintOptions(paths: ["/no/such/folder"])) }
        do {
            _ = try LibraryScan(LintOptions(paths: [Self.library], configuration: .file("/no/such.yml")))
            Issue.record("a missing configuration file was accepted")
        } catch {
            #expect(error.description == "no such configuration file: /no/such.yml")
        }
    }

    @Test func theConfigurationFoundBesideTheLibraryApplies() throws {
        let discovered = try LibraryScan(LintOptions(paths: [Self.library]))
        let defaults = try LibraryScan(LintOptions(paths: [Self.library], configuration: .defaults))
        #expect(discovered.configuration != defaults.configuration)
        #expect(defaults.failOn(nil) == .error)
        #expect(defaults.failOn(.info) == .info)
    }
}

/// Collects events (the pipeline reports them in order, from the task that runs it).
final class EventLog: @unchecked Sendable {
    private(set) var events: [ScanEvent] = []
    func append(_ event: ScanEvent) { events.append(event) }
}
