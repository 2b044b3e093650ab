import Foundation
import LiveLintEngine
import LiveModel
import LiveReaders
import LiveWriters
import Rules
import ScratchFiles

/// What to repair and where the repaired files go: a plain value (the CLI fills it from `fix`'s
/// options).
public struct RepairOptions: Sendable {
    /// Where a repaired pair is written.
    public enum Destination: Sendable, Hashable {
        /// Beside the originals, as a complete new pair: `IMG_0001.JPG` → `IMG_0001-fixed.JPG`
        /// (the half that needed nothing is copied).
        case besideOriginals
        /// Under this folder, with the names and sub-folders they have under the scanned paths.
        case folder(String)
        /// Over the halves that change, keeping their permissions and modification time.
        case inPlace
    }

    /// Folders or files holding the pairs; each must exist.
    public var paths: [String]
    public var destination: Destination
    /// Plan only; write nothing.
    public var dryRun: Bool
    /// Also read files and folders whose names start with a dot.
    public var includeHidden: Bool
    /// Files read at once.
    public var jobs: Int
    /// Past this many files, each file's full record waits in a temporary file (as `lint` keeps
    /// them: ``LintOptions/spillAbove``).
    public var spillAbove: Int = LintOptions.defaultSpillAbove
    /// Past this many files (nil: never), the walk's listing and each file's summary wait in
    /// temporary files too, and the library is paired and checked bucket by bucket, as `lint`
    /// does (``LintOptions/diskAbove``).
    public var diskAbove: Int? = LintOptions.defaultDiskAbove
    /// Files a bucket holds, about (``LintOptions/partition``), past ``diskAbove``.
    public var partition: Int = LintOptions.defaultPartition
    /// For the tests: records a run of the temporary files sorted on disk holds (the pairs to
    /// plan, as ``LintOptions/scratchRun``); nil: the default.
    var scratchRun: Int?
    /// Pairs planned at a time: what their plans read is gathered for them in one pass over the
    /// scan's lists on disk (about 3 KiB a pair while the batch lasts, its record included:
    /// 8,192 pairs about 27 MiB; changed by the tests).
    var planBatch = 8_192

    public init(paths: [String], destination: Destination = .besideOriginals, dryRun: Bool = false,
                includeHidden: Bool = false, jobs: Int = LintOptions.defaultJobs) {
        self.paths = paths
        self.destination = destination
        self.dryRun = dryRun
        self.includeHidden = includeHidden
        self.jobs = jobs
    }
}

/// One pair a repair is about, as display paths, with the rules that flagged either half (sorted).
public struct RepairSubject: Sendable, Hashable {
    public var still: String
    public var movie: String
    public var rules: [String]

    /// `still + movie`.
    public var label: String { "\(still) + \(movie)" }
    /// The label with the rules that flagged the pair: `a.JPG + a.MOV [identifier-mismatch]`.
    public var header: String { label + (rules.isEmpty ? "" : " [\(rules.joined(separator: ", "))]") }
}

/// What happened to one pair, in the order the pipeline decides and does it.
public enum RepairEvent: Sendable, Hashable {
    /// A path the walk could not read (`message`: a folder that cannot be listed, a dangling
    /// link, a folder nested too deep): the pairs in it, if any, were not looked at. Reported
    /// before any pair's outcome.
    case unread(path: String, message: String)
    /// A broken pair inside a `.livp` archive (`archive`: its path), left alone.
    case insideArchive(RepairSubject, archive: String?)
    /// A broken pair the plan cannot mend (its `blockers`), left alone.
    case unrepairable(RepairSubject, blockers: [String])
    /// The plan for a pair about to be written (or that would be, in a dry run): why the
    /// identifier was chosen, one line per change, and the targets.
    case planned(RepairSubject, reason: String?, actions: [String], stillTarget: String, movieTarget: String)
    /// What the planned repair changes in the photo apps' verdicts (`lint --consumers`): one entry
    /// per app whose outcome changes (empty: none does). Follows `.planned`.
    case verdicts(RepairSubject, changes: [RepairPrediction.Change])
    /// The target folder could not be made (`message`); nothing written.
    case folderFailed(RepairSubject, message: String)
    /// The pair was written and verified: the files written, how the still was edited, how many
    /// tracks were verified unchanged.
    case written(RepairSubject, files: [String], stillMethod: String?, verifiedTracks: Int)
    /// Writing or verifying failed (`message`); the targets are as they were.
    case failed(RepairSubject, message: String)
}

/// The counts of a repair run.
public struct RepairSummary: Sendable, Hashable {
    /// Pairs repaired (or that would be, in a dry run).
    public var repaired = 0
    public var alreadyFine = 0
    /// Pairs that could not be repaired (blocked, or the write failed).
    public var failed = 0
    /// Broken pairs inside archives, left alone.
    public var skippedInArchives = 0
    /// Paths the walk could not read (``RepairEvent/unread(path:message:)``).
    public var unread = 0

    public init() {}

    /// True when every broken pair found was repaired and every path could be read.
    public var allRepaired: Bool { failed == 0 && skippedInArchives == 0 && unread == 0 }
}

/// Repairs Live Photo pairs: reads and pairs the files as `lint` does, plans each pair's repair
/// (``RepairPlanner``), writes it through the safe-write path (``LivePhotoPairWriter``:
/// temporary file, synced, read back and verified, renamed) and reports each outcome.
///
/// ```swift
/// let repair = try PairRepair(RepairOptions(paths: ["Photos"], dryRun: true))
/// let summary = await repair.run { event in … }
/// ```
public struct PairRepair: Sendable {
    public let options: RepairOptions

    /// Checks that the paths exist and that a destination folder is not a file.
    public init(_ options: RepairOptions) throws(PipelineError) {
        for path in options.paths where !FileManager.default.fileExists(atPath: path) {
            throw PipelineError("no such file or folder: \(path)")
        }
        if case .folder(let output) = options.destination {
            var isDir: ObjCBool = false
            if FileManager.default.fileExists(atPath: output, isDirectory: &isDir), !isDir.boolValue {
                throw PipelineError("--output \(output) is a file, not a folder")
            }
        }
        self.options = options
    }

    /// Runs the repair; `report` sees each pair's outcome in order. `progress`, when given, sees
    /// the scan's events as `lint` gives them (``ScanEvent``: the files walked, each file read,
    /// each pair formed), ending with ``ScanEvent/finished(_:)`` before the first pair's outcome.
    public func run(report: (RepairEvent) -> Void, progress: ((ScanEvent) -> Void)? = nil) async throws(PipelineError) -> RepairSummary {
        var walker = LibraryWalker(includeHidden: options.includeHidden)
        walker.statThreads = options.jobs
        let (entries, problems) = walker
            .files(in: options.paths, spillingAbove: options.includeHidden ? nil : options.diskAbove,
                   spillDirectory: ScanRecords.temporaryDirectory)
        // Our own temporary files from an interrupted run are hidden (their names start with a
        // dot): only a walk that lists hidden files meets them, and skips them here. Otherwise the
        // walk's listing is read as it is (a file's paths in a few bytes, not two strings).
        guard options.includeHidden else { return try await run(entries, unread: problems, report: report, progress: progress) }
        return try await run(entries.filter { !(($0.path as NSString).lastPathComponent.hasPrefix(".") && $0.path.contains(".livelint-")) },
                             unread: problems, report: report, progress: progress)
    }

    private func run(_ wanted: some LibraryWalker.Entries, unread: [LibraryWalker.Problem], report: (RepairEvent) -> Void,
                     progress: ((ScanEvent) -> Void)?) async throws(PipelineError) -> RepairSummary {
        let root = LibraryWalker.root(for: options.paths)
        var engine: LintEngine
        do { engine = try LintEngine(rules: builtinRules) } catch { throw PipelineError(String(describing: error)) }
        engine.pairWorkers = options.jobs
        progress?(.walked(files: wanted.count))
        // The full records on disk past a lint's spilling size and the summaries past its disk
        // size, as `lint` keeps them.
        let storeSummaries = options.diskAbove.map { wanted.count > $0 } == true
        // The files whose file rules attached a repair, as they are read (none of today's do).
        var repairable = Set<String>()
        // The identifiers the file rules' repairs offer (none of today's do): every batch of
        // planned pairs asks the facts about them (``identifiers(of:repairs:)``).
        var offeredByFiles = Set<String>()
        var read = await LibraryReader.read(wanted, options: .lint, jobs: options.jobs, engine: engine,
                                            countKept: progress != nil, spill: wanted.count > options.spillAbove,
                                            storeSummaries: storeSummaries,
                                            onRead: { read in
                                                for f in read.findings where f.repair != nil {
                                                    repairable.formUnion(f.files)
                                                    offeredByFiles.formUnion(f.repair?.offeredIdentifiers ?? [])
                                                }
                                                progress?(.fileRead(path: read.displayPath, inShard: read.inShard, findings: read.kept))
                                            })
        // A pair is kept only when its repair plan may not be clean: a half that does not read, or
        // a repair the rules attach (scan rules attach none, so the file rules on its halves, as
        // they were read, and the pair rules on it, as the engine ran them, tell; issue 13: every
        // pair was kept with its full halves, 46 MiB for 100,000 pairs). A
        // pair let go had a clean plan: already fine, unless in an archive (counted nowhere). What
        // the library's facts count (each half's path and identifier, for the verdicts'
        // predictions) waits in a temporary file, read back only when a pair is planned, and then
        // only what the planned pairs' verdicts ask about.
        let factsHalves = RecordFile<FactsHalf>(in: ScanRecords.temporaryDirectory, prefix: "livelint-fix-halves")
        // The kept pairs wait as records (their halves in the cache's coding), sorted into
        // pairing's order (the result's, as a scan in memory gives them: by still path, then
        // movie path; on a tie, in the order they came) on disk past a run's worth (issue 13: a
        // library whose every pair is broken held them all, about 4.5 KiB a pair).
        let pairs = SortedRecords<KeptPair>(spillingIn: ScanRecords.temporaryDirectory, prefix: "livelint-fix-pairs",
                                            runSize: options.scratchRun) {
            Pairing.orderKey(still: $0.still, movie: $0.movie) < Pairing.orderKey(still: $1.still, movie: $1.movie)
        }
        // A pair whose halves have no record (a field the coding does not carry) is held as it is.
        var heldPairs: [LivePair] = []
        var fine = 0
        let onPair = { (pair: LivePair, found: [Finding]) in
            LibraryFacts.forEachHalf(of: pair) { factsHalves.append(FactsHalf(path: $0, identifier: $1, still: $2)) }
            if pair.isComplete { progress?(.pairFormed(pair.record)) }
            guard let still = pair.still, let movie = pair.movie else { return }
            if still.error == nil, movie.error == nil, !repairable.contains(still.path), !repairable.contains(movie.path),
               !found.contains(where: { $0.repair != nil }) {
                if pair.archive == nil { fine += 1 }
            } else {
                pairs.append(KeptPair(pair, asked: Self.identifiers(of: pair, repairs: found.compactMap(\.repair)), held: &heldPairs))
            }
        }
        // Bucket by bucket past `diskAbove`: the pairs come in buckets' order, each bucket's in
        // pairing order (the facts' keys, an identifier or a folder's name, are each within one bucket).
        var scanned: LintResult? = read.check(with: engine, root: root, onPair: onPair, partition: options.partition,
                                              spillAbove: options.spillAbove, scratchRun: options.scratchRun, media: false)
        // Only the findings outlive the scan (its pairs and files hold every file's summary).
        let findings = scanned?.findings ?? Findings([])
        if let summary = scanned?.summary { progress?(.finished(summary)) }
        scanned = nil
        var summary = RepairSummary()
        summary.alreadyFine = fine
        // What could not be read comes first: `lint` reports each as a file that does not read;
        // here no pair in it was looked at, so the run cannot say every broken pair was repaired.
        for problem in unread {
            summary.unread += 1
            report(.unread(path: problem.path, message: problem.message))
        }
        // The kept pairs in pairing order, a batch at a time: what a batch's plans read (the
        // facts their verdicts ask about, the findings about their halves, where the halves are)
        // is gathered for it in one pass over each list on disk and let go after it (issue 13: a
        // library whose every pair is broken held that for all of them, about 2 KiB a pair). A
        // library with fewer pairs to plan than a batch reads each list once, as before.
        var ordered = pairs.inOrder()
        let names = RecordCodec.Names()
        var batch: [KeptPair] = []
        while true {
            batch.removeAll(keepingCapacity: true)
            while batch.count < max(1, options.planBatch), let record = ordered.next() { batch.append(record) }
            guard !batch.isEmpty else { break }
            let known = BatchFacts(batch, offered: offeredByFiles, facts: factsHalves, findings: findings, listing: wanted)
            for record in batch { plan(record, names: names, held: heldPairs, known: known, summary: &summary, report: report) }
        }
        return summary
    }

    /// Plans the kept pair `record` and, unless in a dry run, writes it: `known` says what was
    /// found about its halves, where they are and what its verdicts ask; each outcome counted in
    /// `summary` and reported.
    private func plan(_ record: KeptPair, names: RecordCodec.Names, held heldPairs: [LivePair], known: BatchFacts,
                      summary: inout RepairSummary, report: (RepairEvent) -> Void) {
        let halves = known.halves, taken = known.taken
        // A kept pair that cannot be planned is counted and said, never dropped in silence.
        func failed(_ message: String) {
            summary.failed += 1
            report(.failed(RepairSubject(still: record.still, movie: record.movie, rules: []), message: message))
        }
        guard let pair = record.pair(names: names, held: heldPairs) else {
            failed("livelint could not read back its temporary record of this pair (in \(ScanRecords.temporaryDirectory))")
            return
        }
        // Only pairs with both halves are kept (`onPair`), each half listed by the walk.
        guard let still = pair.still, let movie = pair.movie else {
            failed("livelint lost a half of this pair between its scan and its plan (a bug: please report it)")
            return
        }
        // Each finding once, in the scan's order, with how many of its files are this pair's halves.
        var inPair: [Int: Int] = [:]
        for i in (halves[still.path]?.findings ?? []) + (movie.path == still.path ? [] : halves[movie.path]?.findings ?? []) {
            inPair[i, default: 0] += 1
        }
        let about = inPair.keys.sorted().compactMap { i in taken[i].map { (finding: $0, onlyThisPair: inPair[i] == $0.files) } }
        func flagged() -> RepairSubject {
            RepairSubject(still: still.path, movie: movie.path, rules: Set(about.map(\.finding.ruleID)).sorted())
        }
        // The repairs the enabled rules attached to what they found on this pair (the file
        // rules on either half, the pair rules on both): fix mends exactly what lint reports
        // as repairable, nothing it detects on its own.
        let repairs = LintEngine.repairs(from: about.lazy.filter(\.onlyThisPair).map(\.finding.asFinding))
        let plan = RepairPlanner.plan(still: still, movie: movie, repairs: repairs)
        if pair.archive != nil {
            if !plan.isClean {
                summary.skippedInArchives += 1
                report(.insideArchive(RepairSubject(still: still.path, movie: movie.path, rules: []), archive: pair.archive))
            }
            return
        }
        if plan.isClean {
            summary.alreadyFine += 1
            return
        }
        let subject = flagged()
        if !plan.blockers.isEmpty {
            summary.failed += 1
            report(.unrepairable(subject, blockers: plan.blockers))
            return
        }
        guard let stillSource = halves[still.path]?.path, let movieSource = halves[movie.path]?.path else {
            failed("livelint lost where a half of this pair is between its scan and its plan (a bug: please report it)")
            return
        }
        let stillTarget = target(for: stillSource, display: still.path)
        let movieTarget = target(for: movieSource, display: movie.path)
        report(.planned(subject, reason: plan.reason, actions: plan.actions, stillTarget: stillTarget, movieTarget: movieTarget))
        report(.verdicts(subject, changes: RepairPrediction.changes(pair: pair, plan: plan, library: known.library)))
        if options.dryRun {
            summary.repaired += 1
            return
        }
        do {
            for folder in Set([stillTarget, movieTarget].map { PathText.parent(of: $0) }) where !folder.isEmpty {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            }
        } catch {
            summary.failed += 1
            report(.folderFailed(subject, message: error.localizedDescription))
            return
        }
        let inPlace = options.destination == .inPlace
        let request = PairWriteRequest(
            stillSource: stillSource, movieSource: movieSource, stillTarget: stillTarget, movieTarget: movieTarget,
            identifier: plan.identifier, editStill: plan.editStill, movieEdit: plan.movieEdit,
            copyUnchanged: !inPlace, preserveAttributes: inPlace, overwrite: inPlace)
        do {
            let result = try LivePhotoPairWriter.write(request)
            summary.repaired += 1
            report(.written(subject, files: result.written, stillMethod: result.stillMethod?.rawValue,
                            verifiedTracks: result.trackDigests.count))
        } catch {
            summary.failed += 1
            report(.failed(subject, message: String(describing: error)))
        }
    }

    /// The identifiers the verdicts on `pair`, as it is and as its plan leaves it, ask the
    /// library's facts about: its halves' (``LibraryFacts/identifiersAsked(about:)``), and those
    /// the pair rules' `repairs` offer (the plan picks one of them, or makes a fresh one).
    static func identifiers(of pair: LivePair, repairs: [Repair]) -> [String] {
        var ids = LibraryFacts.identifiersAsked(about: pair)
        ids += repairs.flatMap(\.offeredIdentifiers)
        // Each once (a still's identifier is its makernote's: the same one twice, most often).
        var seen = Set<String>()
        return ids.filter { seen.insert($0).inserted }
    }

    /// Where the repaired copy of `source` goes (see ``RepairOptions/Destination``).
    func target(for source: String, display: String) -> String {
        let name = (source as NSString).lastPathComponent
        switch options.destination {
        case .inPlace:
            return source
        case .folder(let output):
            let relative = display.hasPrefix("/") || display.split(separator: "/").contains("..") ? name : display
            return (output as NSString).appendingPathComponent(relative)
        case .besideOriginals:
            let folder = PathText.parent(of: source)
            let ext = (name as NSString).pathExtension
            let stem = (name as NSString).deletingPathExtension
            let fixedName = ext.isEmpty ? stem + "-fixed" : stem + "-fixed." + ext
            return folder.isEmpty ? fixedName : (folder as NSString).appendingPathComponent(fixedName)
        }
    }
}

/// A pair `fix` plans, as it waits for the scan to end (``SortedRecords``): its halves' display
/// paths (its place in pairing's order), how it was paired, its archive, the identifiers its
/// verdicts ask the facts about (``PairRepair/identifiers(of:repairs:)``), and its halves'
/// records (``RecordCodec``); or, for a pair whose halves have none, its place among the pairs held.
struct KeptPair: ScratchRecord {
    var still: String
    var movie: String
    var pairedBy: PairingMethod
    var archive: String?
    var asked: [String]
    var halves: Halves

    /// Where the pair's halves are: their records, or its place among the pairs held.
    enum Halves {
        case records(still: [UInt8], movie: [UInt8])
        case held(Int)
    }

    /// Its place among the pairs held, when it is held.
    var held: Int? {
        if case .held(let index) = halves { return index }
        return nil
    }

    /// `pair` (complete) as a record, asking about `asked`; held in `heldPairs` when a half has no record.
    init(_ pair: LivePair, asked: [String], held heldPairs: inout [LivePair]) {
        still = pair.still?.path ?? ""
        movie = pair.movie?.path ?? ""
        pairedBy = pair.pairedBy
        archive = pair.archive
        self.asked = asked
        if let s = pair.still.flatMap(RecordCodec.encode), let m = pair.movie.flatMap(RecordCodec.encode) {
            halves = .records(still: s, movie: m)
        } else {
            halves = .held(heldPairs.count)
            heldPairs.append(pair)
        }
    }

    /// The pair again (nil when a record does not decode).
    func pair(names: RecordCodec.Names, held heldPairs: [LivePair]) -> LivePair? {
        switch halves {
        case .held(let index):
            return heldPairs[index]
        case let .records(stillRecord, movieRecord):
            guard let s = stillRecord.withUnsafeBytes({ RecordCodec.decode($0, path: still, names: names) }),
                  let m = movieRecord.withUnsafeBytes({ RecordCodec.decode($0, path: movie, names: names) }) else { return nil }
            return LivePair(still: s, movie: m, pairedBy: pairedBy, archive: archive)
        }
    }

    func encode(into bytes: inout [UInt8]) {
        var w = RecordWriter(bytes: consume bytes)
        w.string(still)
        w.string(movie)
        w.string(pairedBy.rawValue)
        w.optional(archive)
        w.count(asked.count)
        for id in asked { w.string(id) }
        switch halves {
        case let .records(stillRecord, movieRecord):
            w.byte(1)
            w.blob(stillRecord)
            w.blob(movieRecord)
        case .held(let index):
            w.byte(0)
            w.number(UInt64(index))
        }
        bytes = w.bytes
    }

    init?(decoding bytes: UnsafeRawBufferPointer) {
        var r = RecordReader(bytes: bytes)
        guard let still = r.string(), let movie = r.string(), let method = r.string().flatMap(PairingMethod.init(rawValue:)),
              let archive = r.optionalString() else { return nil }
        self.still = still
        self.movie = movie
        pairedBy = method
        self.archive = archive
        guard let n = r.count() else { return nil }
        asked = []
        for _ in 0..<n {
            guard let id = r.string() else { return nil }
            asked.append(id)
        }
        switch r.byte() {
        case 1:
            guard let s = r.blob(), let m = r.blob() else { return nil }
            halves = .records(still: s, movie: m)
        case 0:
            // A place in the list held, not a length: any size (`count()` refuses one past the record's).
            guard let index = r.number().flatMap({ Int(exactly: $0) }) else { return nil }
            halves = .held(index)
        default:
            return nil
        }
        guard r.atEnd else { return nil }
    }
}

/// What the plans of a batch of pairs `fix` plans read, gathered in one pass over each list on
/// disk: the facts their verdicts ask about, the findings about their halves and where the halves
/// are.
struct BatchFacts {
    var halves: [String: KeptHalf] = [:]
    var taken: [Int: TakenFinding] = [:]
    var library: LibraryFacts

    /// For `batch`: the facts of the identifiers its pairs ask about (and those the file rules
    /// offer, `offered`) and of their halves' stems, counted from `facts`; the findings naming
    /// its halves, each found once (the scan ran every rule already) and taken in one pass over
    /// `findings` (looked up again pair by pair in a list on disk, a finding naming every half, one
    /// identifier on every file, was read back whole for each pair: 22 s of the system's time on
    /// 20,000 pairs), only what a plan reads of each (``TakenFinding``: with its message,
    /// documentation and files, a kilobyte a pair where every pair is broken); and where each half
    /// is, from the walk's `listing`.
    init(_ batch: [KeptPair], offered: Set<String>, facts: RecordFile<FactsHalf>, findings: Findings,
         listing: some LibraryWalker.Entries) {
        var asked = offered
        for record in batch {
            asked.formUnion(record.asked)
            halves[record.still] = KeptHalf()
            halves[record.movie] = KeptHalf()
        }
        library = LibraryFacts(answering: asked, stemsOf: halves.keys)
        facts.forEach { library.add(path: $0.path, identifier: $0.identifier, still: $0.still) }
        var ruleIDs: [String: String] = [:]
        for (i, f) in findings.enumerated() {
            for file in f.files where halves[file] != nil {
                halves[file]?.findings.append(i)
                if taken[i] == nil {
                    let rule = ruleIDs[f.ruleID] ?? f.ruleID
                    ruleIDs[rule] = rule
                    taken[i] = TakenFinding(ruleID: rule, repair: f.repair, files: f.files.count)
                }
            }
        }
        for entry in listing where halves[entry.displayPath].map({ $0.path == nil }) == true {
            halves[entry.displayPath]?.path = entry.path
        }
    }
}

/// What a plan reads of a finding about a half of a pair `fix` plans: its rule (the pair's
/// header names it), its repair, and how many files it names (a plan takes the repairs of the
/// findings about its halves alone).
struct TakenFinding {
    var ruleID: String
    var repair: Repair?
    var files: Int

    /// As a finding for ``LintEngine/repairs(from:)`` (which reads the rule and the repair).
    var asFinding: Finding { Finding(ruleID: ruleID, severity: .info, message: "", files: [], documentation: "", repair: repair) }
}

/// A half of a pair `fix` plans, as its plan needs it: the findings naming it (their places in
/// the scan's findings) and where it is (the file, by the path it is shown with).
struct KeptHalf {
    var findings: [Int] = []
    var path: String?
}

/// A half as the library's facts count it (``LibraryFacts/add(path:identifier:still:)``), kept in
/// `fix`'s temporary file until a pair is planned.
struct FactsHalf: ScratchRecord {
    var path: String
    var identifier: String?
    var still: Bool

    init(path: String, identifier: String?, still: Bool) {
        self.path = path
        self.identifier = identifier
        self.still = still
    }

    func encode(into bytes: inout [UInt8]) {
        var w = RecordWriter(bytes: consume bytes)
        w.string(path)
        w.optional(identifier)
        w.byte(still ? 1 : 0)
        bytes = w.bytes
    }

    init?(decoding bytes: UnsafeRawBufferPointer) {
        var r = RecordReader(bytes: bytes)
        guard let path = r.string(), let identifier = r.optionalString(), let still = r.byte(), still <= 1, r.atEnd else { return nil }
        self.init(path: path, identifier: identifier, still: still == 1)
    }
}
