import Dispatch
import Foundation
import LiveModel
import ScratchFiles

/// The rules a run can use, looked up by id (or alias), in id order.
/// The `Rules` module provides the built-in list; the engine never imports it.
public struct RuleRegistry: Sendable {
    /// Every rule, sorted by identifier. When two rules share an identifier the first given wins.
    public let rules: [any Rule.Type]
    private let byName: [String: any Rule.Type]

    public init(_ rules: [any Rule.Type]) {
        var byName: [String: any Rule.Type] = [:]
        var unique: [any Rule.Type] = []
        for rule in rules where byName[rule.description.identifier] == nil {
            byName[rule.description.identifier] = rule
            unique.append(rule)
        }
        for rule in unique {
            for alias in rule.description.aliases where byName[alias] == nil { byName[alias] = rule }
        }
        self.rules = unique.sorted { $0.description.identifier < $1.description.identifier }
        self.byName = byName
    }

    /// The rule with this identifier or alias.
    public func rule(_ id: String) -> (any Rule.Type)? { byName[id] }

    public var descriptions: [RuleDescription] { rules.map { $0.description } }

    /// What reporters need (SARIF rule metadata, legends), in id order.
    public var summaries: [RuleSummary] { rules.map { $0.description.ruleSummary } }
}

/// Runs rules over a scan: pairs the halves, asks every enabled rule, turns what they say into
/// sorted ``Finding``s, drops baselined ones and counts the rest.
///
/// ```swift
/// let engine = try LintEngine(rules: builtinRules, configuration: config, baseline: baseline)
/// let result = engine.run(files: mediaFiles, root: "Photos")
/// ```
public struct LintEngine: Sendable {
    private struct Active {
        var id: String
        var severity: Severity
        var documentation: String
        var rule: any Rule

        /// What the rule said, as findings (its id, configured severity and documentation added).
        func findings(_ violations: [Violation]) -> [Finding] {
            violations.map { v in
                Finding(ruleID: id, severity: severity, message: v.message, files: Array(Set(v.files)).sorted(),
                        fixHint: v.fixHint, documentation: documentation, repair: v.repair)
            }
        }
    }

    private let active: [Active]
    /// The enabled rules of each scope, sorted out once (``Rule/asFileRule``): a scan runs the file rules on every file as it
    /// is read, the pair rules on every pair, the scan rules once.
    private let fileRules: Scope<any FileRule>
    private let pairRules: Scope<any PairRule>
    private let scanRules: Scope<any ScanRule>

    /// The enabled rules of one scope, as that scope's rules, beside their entries (two lists, so asking a rule
    /// copies the rule alone, not its id and documentation with it).
    private struct Scope<R: Sendable>: Sendable {
        let rules: [R]
        let entries: [Active]

        /// The rules of `active` that `scope` gives as `R` (``Rule/asFileRule`` and the others).
        init(_ active: [Active], _ scope: (any Rule) -> R?) {
            var rules: [R] = [], entries: [Active] = []
            for a in active {
                guard let r = scope(a.rule) else { continue }
                rules.append(r)
                entries.append(a)
            }
            (self.rules, self.entries) = (rules, entries)
        }

        var isEmpty: Bool { rules.isEmpty }
    }
    /// The metadata keys the enabled rules read (``RuleDescription/readsMetadata``): what
    /// ``MediaFile/slimmedForLint(keeping:)`` must keep for this engine.
    public let metadataKeys: Set<String>
    public let configuration: Configuration
    public let baseline: Baseline?
    /// The enabled file rules with their severities and options, one line each: two engines with
    /// the same signature (and the same livelint) find the same on a file (``fileFindings(_:)``),
    /// so a cache may keep what one found for the other.
    public let fileRulesSignature: String
    /// Every enabled rule with its severity and options, and the consumers: what a bucket's
    /// outcome depends on besides its files (``BucketOutcomes``).
    public let outcomeSignature: String
    /// The consumers whose verdicts each pair gets (``Configuration/consumers``).
    public let consumers: [any Consumer]
    /// Threads the pair rules (with the full records they read, and the consumers' verdicts) run
    /// on, for a store that can be read by several at once (``FileStore/concurrentReaders(_:)``)
    /// and a bucket of more than ``pairsPerWorker`` pairs a thread; 1 (the default): one. With
    /// more than one, the scan rules also run on that many buckets at once (summaries held), and
    /// the next bucket is made ready on a thread of its own (summaries stored).
    public var pairWorkers = 1
    /// Pairs a thread must have for the pair rules to run on several (changed by the tests).
    package var pairsPerWorker = 256

    /// Builds the engine: each rule is on or off per its default, unless the configuration mentions
    /// it (mentioning a rule turns it on, unless it says `off` / `enabled: false`), at its default
    /// severity unless overridden, with its declared options overlaid by configured ones.
    /// Throws when the configuration names a rule or option that `rules` does not have.
    public init(rules: [any Rule.Type], configuration: Configuration = .default, baseline: Baseline? = nil) throws(ConfigurationError) {
        let registry = RuleRegistry(rules)
        try configuration.validate(against: registry.rules)
        var active: [Active] = []
        var keys = Set<String>()
        var signature = ""
        var outcomeSignature = ""
        for type in registry.rules {
            let d = type.description
            let setting = configuration.rules[d.identifier]
            let enabled = setting.map { $0.enabled ?? true } ?? d.enabledByDefault
            guard enabled else { continue }
            var options = d.defaultOptions
            for (name, value) in setting?.options ?? [:] { options.values[name] = value }
            var rule = type.init()
            rule.apply(options: options)
            let severity = setting?.severity ?? d.defaultSeverity
            var line = "\(d.identifier) \(severity.rawValue)"
            for (name, value) in options.values.sorted(by: { $0.key < $1.key }) {
                line += " \(name)=\(value.typedDescription)"
            }
            line += "\n"
            if rule.asFileRule != nil { signature += line }
            outcomeSignature += line
            active.append(Active(id: d.identifier, severity: severity, documentation: d.documentation, rule: rule))
            keys.formUnion(d.readsMetadata.map(\.key))
        }
        self.active = active
        self.fileRules = Scope(active) { $0.asFileRule }
        self.pairRules = Scope(active) { $0.asPairRule }
        self.scanRules = Scope(active) { $0.asScanRule }
        self.metadataKeys = keys
        self.fileRulesSignature = signature
        self.consumers = try Consumers.named(configuration.consumers)
        self.outcomeSignature = outcomeSignature + "consumers: " + self.consumers.map(\.id).joined(separator: ",") + "\n"
        self.configuration = configuration
        self.baseline = baseline
    }

    /// The identifiers of the rules this engine runs, sorted.
    public var enabledRuleIDs: [String] { active.map(\.id) }

    /// Lints one scan. `files` are the readers' output with paths relative to the scanned root;
    /// `root` is only the display name carried into the result.
    ///
    /// The result's `files` lists every file and every `.livp` member (sorted by path);
    /// `summary.files` is that count, and `summary.pairs` counts complete pairs (lone halves are
    /// in `pairs` as `.unpaired` but not counted). Findings are sorted by first file, rule id,
    /// message. Files that are not media at all are listed with their error and are not findings.
    ///
    /// A pipeline that ran the file rules already, on each file as it was read
    /// (``fileFindings(_:)``), passes what they found as `fileFindings` so they are not run again;
    /// `onPair` sees every pair (complete or not), in pairing order, with what its pair rules found
    /// on it (before the baseline).
    public func run(files: [MediaFile], root: String, fileFindings: [Finding]? = nil,
                    onPair: ((LivePair, [Finding]) -> Void)? = nil) -> LintResult {
        let list = FileList(files)
        let found = fileFindings.map { found in
            let sorter = FindingSorter()
            sorter.append(contentsOf: found)
            return sorter
        }
        return run(summaries: list.summaries, store: list, root: root, fileFindings: found, onPair: onPair)
    }

    /// ``run(files:root:fileFindings:onPair:)`` on what a library-sized scan holds: a summary of
    /// each file (``FileSummary``, its ``FileSummary/slot`` in `store`) in memory, the full
    /// records in `store`. Pairing and the scan rules work on the summaries; each pair's full
    /// halves are taken from the store only while its pair rules and consumers look at it, so
    /// at most one full pair is decoded at a time (issue 13). The result is the same as
    /// `run(files:)` on the full records, byte for byte.
    ///
    /// `afterPhase` is called when pairing is done and again when the scan rules are, their
    /// working lists freed: a library-sized scan hands the freed pages back to the system there
    /// (`HeapTrim`), as the allocator keeps them resident otherwise (issue 13: on a million
    /// files, 10 MiB through the pair rules and the report).
    ///
    /// With `partition`, the files are cut into buckets of about that many files, each of whole
    /// groups of files tied by a folder or an identifier (``Partition``), and pairing, the scan
    /// rules and the consumers' library facts work on one bucket at a time (the scan rules on up
    /// to ``pairWorkers`` buckets at once, each with its own): their working lists and indexes
    /// then cover a bucket, not the library (issue 13). The result is the same; with
    /// consumers, `onPair` then sees the pairs bucket by bucket (each bucket's in pairing order).
    ///
    /// With `media`, each pair's record keeps what its halves carry (``PairRecord/media``, what
    /// the HTML report draws).
    public func run(summaries: consuming [FileSummary], store: some FileStore, root: String,
                    fileFindings: FindingSorter? = nil, onPair: ((LivePair, [Finding]) -> Void)? = nil,
                    afterPhase: (() -> Void)? = nil, partition: Int? = nil, media: Bool = false) -> LintResult {
        let summaries = consume summaries
        var buckets = partition.flatMap { summaries.count > $0 ? Partition(summaries, target: max(1, $0)) : nil }
            .flatMap { $0.count > 1 ? $0 : nil }
        // The pairs hold the summaries; the result's files and records are read from them
        // (issue 13: no second list of either beside the pairs).
        let pairs = Pairing.pairList(consume summaries, partition: buckets)
        afterPhase?()
        let findings = fileFindings ?? allFileFindings(store)
        // The scan rules first: their indexes and working lists are gone before the pair loop
        // (a scan's peak memory, issue 13).
        /// `body` on each bucket's pairs with their indices in `pairs`, or on `pairs` whole.
        func forEachPart(_ body: (PairList, [Int32]?) -> Void) {
            if let buckets { pairs.forEachBucket(of: buckets) { body($0, $1) } } else { body(pairs, nil) }
        }
        if !scanRules.isEmpty {
            // The buckets are independent: on ``pairWorkers`` threads, as many at a time (each
            // its own scan context), their findings appended in bucket order as one by one.
            var waiting: [PairList] = []
            func checkWaiting() {
                for found in scanFindings(waiting) { findings.append(contentsOf: found) }
                waiting.removeAll()
            }
            forEachPart { list, _ in
                waiting.append(list)
                if waiting.count >= pairWorkers { checkWaiting() }
            }
            checkWaiting()
        }
        // Only the consumers' facts need buckets from here: without them, the pairs go through
        // their rules in order, in one run, and the bucket list is let go.
        if consumers.isEmpty { buckets = nil }
        afterPhase?()
        // Pair by pair: the full halves, the pair rules, the consumers' verdicts and the media
        // (what a record holds beyond its pair, kept as `extras`, by pair index).
        let keepsExtras = !consumers.isEmpty || media
        var extras: [Boxed<PairRecord.Rare>?] = keepsExtras ? Array(repeating: nil, count: pairs.count) : []
        let needsFull = !pairRules.isEmpty || keepsExtras || onPair != nil
        var complete = 0
        for i in pairs.indices where pairs.isComplete(i) { complete += 1 }
        var outcomes = OutcomeCounts()
        if needsFull {
            forEachPart { list, indices in
                checkPairs(list, store: store, found: findings.append(contentsOf:), onPair: onPair, media: media, outcomes: &outcomes) { k, extra in
                    extras[indices.map { Int($0[k]) } ?? k] = extra
                }
            }
        }
        return result(root: root, findings: findings, files: ScannedFiles(scanOf: pairs), pairs: PairRecords(pairs: pairs, extras: extras),
                      complete: complete, outcomes: outcomes)
    }

    /// ``run(summaries:store:root:fileFindings:onPair:afterPhase:partition:media:)`` on summaries kept
    /// outside memory (`stored`, in the scan's order, each path ordered after the one before it
    /// as ``FileSummary/comparePaths(_:_:)`` orders them: a walk's order), with what ties them
    /// (`ties`, gathered as they were stored): each bucket's summaries are read back, paired and
    /// checked by the scan rules, its pairs by the pair rules and the consumers, and let go; what
    /// stays is each pair's halves as indices into `stored` (12 bytes a pair) and the result reads
    /// the summaries back from there (docs/flat-memory.md, step 2). The result is the same,
    /// byte for byte. `onPair` sees the pairs bucket by bucket. What the records hold beyond
    /// their pairs (the consumers' verdicts, the `media`) waits on disk too, beside the pairs.
    ///
    /// With `bucketOutcomes` and the files' keys (a `keyed` ``PartitionBuilder``), each bucket's
    /// outcome is kept there, and a bucket whose outcome is found is not read back, paired or
    /// checked: its pairs and findings are taken as they were (``BucketOutcomes``), and
    /// `onCachedPairs` is told how many complete pairs it holds (`onPair` sees none of them).
    public func run(stored: some SummaryStore, ties: consuming PartitionBuilder, store: some FileStore, root: String,
                    fileFindings: FindingSorter? = nil, onPair: ((LivePair, [Finding]) -> Void)? = nil,
                    afterPhase: (() -> Void)? = nil, partition target: Int, scratch directory: String? = nil,
                    runSize: Int? = nil, media: Bool = false, bucketOutcomes: (any BucketOutcomes)? = nil,
                    onCachedPairs: ((Int) -> Void)? = nil) -> LintResult {
        let n = stored.count
        precondition(ties.count == n, "every stored summary was tied")
        let findings = fileFindings ?? allFileFindings(store, spillingIn: directory, runSize: runSize)
        let keepsExtras = !consumers.isEmpty || media
        let keyed = ties.keys.flatMap { keys in bucketOutcomes.map { (keys: keys, kept: $0) } }
        let findingsLimit = keyed?.kept.findingsLimit ?? 0
        // The buckets' files in order: each file's bucket beside its index, sorted (on disk in
        // `directory`, the bucket list let go once they are in).
        let byBucket = SortedRuns<UInt64>(spillingIn: directory, prefix: "livelint-buckets", runSize: runSize)
        ties.forEachBucket(target: target) { i, bucket in byBucket.append(UInt64(UInt32(bitPattern: bucket)) << 32 | UInt64(i)) }
        // What each bucket's pairs are, as indices into `stored` (sorted by their first halves,
        // on disk in `directory`; archives' pairs with copies of their members), and what their
        // records hold beyond them (sorted the same way, on disk too).
        let made = SortedRuns<StoredPairs.Made>(spillingIn: directory, prefix: "livelint-made", runSize: runSize)
        let madeExtras = SortedRecords<StoredPairs.MadeExtra>(spillingIn: directory, prefix: "livelint-made-extras",
                                                              runSize: runSize) { $0.first < $1.first }
        var archived: [(pair: PairSummary, file: Int32, extra: Boxed<PairRecord.Rare>?)] = []
        // Every `.livp` member, with its archive's index (for the result's files).
        var memberFiles: [(file: Int32, member: ScannedFile)] = []
        let needsFull = !pairRules.isEmpty || keepsExtras || onPair != nil
        var complete = 0
        var outcomes = OutcomeCounts()
        /// A bucket made ready: its summaries read back and paired, the scan rules run.
        let scanRules = self.scanRules
        @Sendable func prepare(_ indices: [Int32]) -> PreparedBucket {
            var local: [FileSummary] = []
            local.reserveCapacity(indices.count)
            var members: [(file: Int32, member: ScannedFile)] = []
            for i in indices {
                let summary = stored.summary(Int(i))
                for member in summary.members ?? [] { members.append((i, member.scanned)) }
                local.append(summary)
            }
            let list = Pairing.pairList(local)
            local = []
            let found = scanRules.isEmpty ? [] : Self.scanFindings(scanRules, in: list)
            return PreparedBucket(indices: indices, list: list, members: members, scanFindings: found)
        }
        /// `indices`' pair made of the bucket's `span` (places among them), added to the pairs
        /// kept, with what its record holds beyond it (`extra`, a ``PairExtras/Entry``'s bytes).
        func keep(_ span: PairList.Span, of indices: [Int32], extra: [UInt8]?) {
            func global(_ half: Int32) -> Int32 { half < 0 ? -1 : indices[Int(half)] }
            let pair = StoredPairs.Made(PairList.Span(still: global(span.still), movie: global(span.movie), method: span.method))
            made.append(pair)
            if let extra { madeExtras.append(StoredPairs.MadeExtra(first: pair.first, entry: extra)) }
        }
        /// Adds a bucket's verdicts, counted, to the run's.
        func count(_ verdicts: OutcomeCounts) {
            for (id, counts) in verdicts {
                for (verdict, n) in counts { outcomes[id, default: [:]][verdict, default: 0] += n }
            }
        }
        /// A bucket made ready, checked: its pairs' rules, and its pairs kept; with `key`, its
        /// outcome too (unless it holds a `.livp` archive).
        func check(_ prepared: PreparedBucket, key: BucketKey?) {
            let (indices, list) = (prepared.indices, prepared.list)
            memberFiles += prepared.members
            findings.append(contentsOf: prepared.scanFindings)
            var outcome = key != nil && prepared.members.isEmpty ? BucketOutcome() : nil
            // An outcome past the limits is let go as soon as it is (not held to the bucket's end).
            func fits() { if outcome?.fits(findings: findingsLimit) == false { outcome = nil } }
            outcome?.findings = prepared.scanFindings
            fits()
            var extras: [Boxed<PairRecord.Rare>?] = keepsExtras ? Array(repeating: nil, count: list.count) : []
            var verdicts = OutcomeCounts()
            if needsFull {
                checkPairs(list, store: store, found: { found in
                    findings.append(contentsOf: found)
                    outcome?.findings += found
                    fits()
                }, onPair: onPair, media: media, outcomes: &verdicts) { extras[$0] = $1 }
            }
            count(verdicts)
            outcome?.verdicts = verdicts
            for k in list.indices {
                if list.isComplete(k) { complete += 1 }
                let extra = extras.isEmpty ? nil : extras[k]
                if let archive = list.archive(k) {
                    archived.append((list[k], indices[Int(archive.file)], extra))
                    outcome = nil
                    continue
                }
                let span = list.span(k)
                let entry = extra.map { PairExtras.Entry.encoded($0) }
                keep(span, of: indices, extra: entry)
                if let entry, let pair = outcome?.spans.count {
                    outcome?.extras.append((pair, entry))
                    outcome?.extrasBytes += entry.count
                }
                outcome?.spans.append(span)
                fits()
            }
            // A key is made only where the outcomes are kept (``key(of:)``).
            if let key, let outcome { bucketOutcomes?.keep(outcome.encoded(files: indices.count), under: key) }
        }
        /// The key of the bucket of `indices`, when its outcome may be kept.
        /// The keys' pages it touched let go (mapped, 16 bytes a file: all of them stayed resident,
        /// 11 MiB more at the peak on a million files).
        func key(of indices: [Int32]) -> BucketKey? {
            guard let (keys, kept) = keyed else { return nil }
            defer { keys.release() }
            return BucketKey.of(indices.lazy.map { keys[Int($0)] }, seed: kept.seed)
        }
        /// The bucket of `indices` as its kept outcome has it, if one is kept under `key`.
        func kept(_ indices: [Int32], key: BucketKey?) -> BucketOutcome? {
            guard let key, let (_, kept) = keyed, let bytes = kept.outcome(under: key) else { return nil }
            return bytes.withUnsafeBytes { BucketOutcome(decoding: $0, files: indices.count) }
        }
        // With more than one of ``pairWorkers``, the next bucket is made ready on a thread of its
        // own while this one's pairs are checked (their rules on the other threads, their results
        // taken in order on this one, which left a core idle: issue 13); the buckets are checked
        // and kept in their order as one at a time. Two buckets are held at once then (three for
        // a moment: the next is started before the one made ready before it is taken).
        var ready: (bucket: Pending<PreparedBucket>, key: BucketKey?)?
        /// The bucket made ready, if any, checked.
        func checkReady() {
            if let ready { check(ready.bucket.value(), key: ready.key) }
            ready = nil
        }
        func bucket(_ indices: [Int32]) {
            let key = key(of: indices)
            if let outcome = kept(indices, key: key) {
                // Taken as it was, after the bucket before it (the order the pairs are kept in).
                checkReady()
                findings.append(contentsOf: outcome.findings)
                var extras = outcome.extras.makeIterator()
                var extra = extras.next()
                for (k, span) in outcome.spans.enumerated() {
                    if let (pair, entry) = extra, pair == k {
                        keep(span, of: indices, extra: entry)
                        extra = extras.next()
                    } else {
                        keep(span, of: indices, extra: nil)
                    }
                }
                count(outcome.verdicts)
                complete += outcome.complete
                onCachedPairs?(outcome.complete)
                return
            }
            guard pairWorkers > 1 else { return check(prepare(indices), key: key) }
            let next = Pending { prepare(indices) }
            checkReady()
            ready = (next, key)
        }
        var indices: [Int32] = []
        var current = UInt64.max
        byBucket.forEachInOrder { tied in
            if tied >> 32 != current, !indices.isEmpty {
                bucket(indices)
                indices.removeAll(keepingCapacity: true)
            }
            current = tied >> 32
            indices.append(Int32(truncatingIfNeeded: tied))
        }
        if !indices.isEmpty { bucket(indices) }
        checkReady()
        indices = []
        afterPhase?()
        let pairs = StoredPairs(stored, made: made, extras: madeExtras, archived: archived, scratch: directory)
        archived = []
        let files = ScannedFiles(stored: stored, members: memberFiles)
        memberFiles = []
        return result(root: root, findings: findings, files: files, pairs: PairRecords(stored: pairs),
                      complete: complete, outcomes: outcomes)
    }

    /// What the enabled file rules find on every file of `store` (for a pipeline that did not run
    /// them as it read).
    private func allFileFindings(_ store: some FileStore, spillingIn directory: String? = nil, runSize: Int? = nil) -> FindingSorter {
        let findings = FindingSorter(spillingIn: directory, runSize: runSize)
        if !fileRules.isEmpty {
            for slot in 0..<store.count { findings.append(contentsOf: self.fileFindings(store.file(atSlot: slot))) }
        }
        return findings
    }

    /// What the scan rules find in each of `parts` (buckets of whole groups), in order: on a
    /// thread each when there are several and ``pairWorkers`` allows, each one's scan context
    /// (its indexes) let go with it.
    private func scanFindings(_ parts: [PairList]) -> [[Finding]] {
        let rules = scanRules
        @Sendable func check(_ list: PairList) -> [Finding] { Self.scanFindings(rules, in: list) }
        guard parts.count > 1, pairWorkers > 1 else { return parts.map(check) }
        let found = Slots<[Finding]>(count: parts.count)
        DispatchQueue.concurrentPerform(iterations: parts.count) { found.put(check(parts[$0]), at: $0) }
        return parts.indices.map { found.take($0) }
    }

    /// What `rules` find in `list` (a bucket's pairs, or the library's), through one scan context.
    private static func scanFindings(_ rules: Scope<any ScanRule>, in list: PairList) -> [Finding] {
        let context = ScanContext(pairs: list)
        return collect(rules) { $0.check(scan: context) }
    }

    /// `list`'s pairs one by one, each with its full halves from `store`: the pair rules (what
    /// they find handed to `found`), `onPair` with what they found and, with consumers, their verdicts on it in `list`'s library, and with
    /// `media`, what its halves carry (what its record holds beyond the pair, handed to `extra`
    /// with the pair's index in `list`); each verdict counted in `outcomes` as it is given.
    private func checkPairs(_ list: PairList, store: some FileStore, found: ([Finding]) -> Void,
                            onPair: ((LivePair, [Finding]) -> Void)?, media: Bool, outcomes: inout OutcomeCounts,
                            extra: (Int, Boxed<PairRecord.Rare>?) -> Void) {
        let library = consumers.isEmpty ? nil : LibraryFacts(pairs: list)
        /// What a pair's check gives: its full halves, what the pair rules found, the verdicts.
        typealias Checked = (pair: LivePair, found: [Finding], verdicts: [String: ConsumerVerdict]?)
        @Sendable func check(_ k: Int, from store: any FileStore) -> Checked {
            let pair = list[k].full(from: store)
            return (pair, Self.collect(pairRules) { $0.check(pair: pair) },
                    library.map { Self.verdicts(on: pair, in: $0, consumers: consumers) })
        }
        /// In order: handed on, counted, and what its record holds beyond the pair kept.
        func deliver(_ k: Int, _ checked: Checked) {
            onPair?(checked.pair, checked.found)
            if !checked.found.isEmpty { found(checked.found) }
            guard library != nil || media else { return }
            var record = list[k].record
            if let verdicts = checked.verdicts {
                for (id, verdict) in verdicts { outcomes[id, default: [:]][verdict.outcome, default: 0] += 1 }
                record.consumers = verdicts
            }
            if media { record.media = checked.pair.media }
            extra(k, record.rare)
        }
        let workers = min(pairWorkers, list.count / max(1, pairsPerWorker))
        guard workers > 1, let readers = store.concurrentReaders(workers) else {
            for k in list.indices { deliver(k, check(k, from: store)) }
            return
        }
        // A block of pairs at a time, each thread taking every `workers`th, then delivered in
        // order: the pairs' full halves are held for one block only.
        let block = 1_024
        let checked = Slots<Checked>(count: block)
        var start = 0
        while start < list.count {
            let first = start, end = min(start + block, list.count)
            DispatchQueue.concurrentPerform(iterations: workers) { w in
                var k = first + w
                while k < end {
                    checked.put(check(k, from: readers[w]), at: k - first)
                    k += workers
                }
            }
            for k in start..<end { deliver(k, checked.take(k - start)) }
            start = end
        }
    }

    /// Per consumer id, how many pairs got each outcome, counted as the verdicts are given.
    typealias OutcomeCounts = [String: [ConsumerOutcome: Int]]

    /// The result of a run: `findings` sorted and baselined, the summary counted.
    private func result(root: String, findings sorter: FindingSorter, files scanned: ScannedFiles, pairs: PairRecords,
                        complete: Int, outcomes: OutcomeCounts) -> LintResult {
        let (findings, baselined) = sorter.sorted(baseline: baseline)
        var summary = LintSummary(
            files: scanned.count,
            pairs: complete,
            errors: findings.count(of: .error),
            warnings: findings.count(of: .warning),
            infos: findings.count(of: .info),
            baselined: baselined)
        if !consumers.isEmpty {
            for consumer in consumers { summary.consumers[consumer.id] = outcomes[consumer.id] ?? [:] }
        }
        return LintResult(root: root, files: scanned, pairs: pairs, findings: findings, summary: summary)
    }

    /// The findings the enabled file rules make on `file` and its `.livp` members (the files
    /// ``run(files:root:fileFindings:onPair:)`` visits), before the baseline: what a scan computes
    /// once per file as soon as it is read, and hands to `run` (pair and scan rules need every
    /// file first).
    public func fileFindings(_ file: MediaFile) -> [Finding] {
        Self.collect(fileRules) { rule in
            var violations = rule.check(file: file)
            for member in file.members ?? [] { violations += rule.check(file: member) }
            return violations
        }
    }

    /// Asks each of `rules` with `check` and returns what they found. A rule's id, severity and
    /// documentation are read only when it found something: most files are clean, and copying
    /// each rule's entry with it to ask it cost a fifth of the file rules' time on a cached scan
    /// (issue 13).
    private static func collect<R>(_ scope: Scope<R>, _ check: (R) -> [Violation]) -> [Finding] {
        var findings: [Finding] = []
        for i in scope.rules.indices {
            let violations = check(scope.rules[i])
            if !violations.isEmpty { findings += scope.entries[i].findings(violations) }
        }
        return findings
    }

    /// How many of `findings` (one file's ``fileFindings(_:)``) the baseline keeps: a file rule's
    /// findings name only that file, so counting file by file adds up to the run's own count.
    public func countAfterBaseline(_ findings: [Finding]) -> Int {
        guard let baseline, !findings.isEmpty else { return findings.count }
        return findings.count - baseline.countAccepted(findings)
    }

    /// The repairs the enabled rules attach to what they find on `pair` (``Violation/repair``):
    /// the pair rules on the pair, the file rules on each half, gathered by
    /// ``repairs(from:)``; empty for a clean pair. This is what `livelint fix` applies, so a rule
    /// that is switched off gets nothing repaired. Scan rules are not asked (they need the whole
    /// scan, and none attaches a repair); the baseline does not apply.
    public func repairs(for pair: LivePair) -> [Repair] {
        var findings: [Finding] = []
        for rule in active {
            if let r = rule.rule.asFileRule {
                if let still = pair.still { findings += rule.findings(r.check(file: still)) }
                if let movie = pair.movie { findings += rule.findings(r.check(file: movie)) }
            } else if let r = rule.rule.asPairRule {
                findings += rule.findings(r.check(pair: pair))
            }
        }
        return Self.repairs(from: findings)
    }

    /// The repairs `findings` carry, each distinct one once, in rule id order: what a pipeline
    /// that already ran the rules (a scan's findings about one pair) hands to the repair planner,
    /// instead of running them again.
    public static func repairs(from findings: some Sequence<Finding>) -> [Repair] {
        var repairs: [Repair] = []
        let carrying = findings.filter { $0.repair != nil }
        for f in carrying.enumerated().sorted(by: { ($0.element.ruleID, $0.offset) < ($1.element.ruleID, $1.offset) }) {
            if let r = f.element.repair, !repairs.contains(r) { repairs.append(r) }
        }
        return repairs
    }

    /// The order of findings: first file, rule id, message, then the remaining files and severity.
    public static func findingOrder(_ a: Finding, _ b: Finding) -> Bool {
        let fa = a.files.first ?? "", fb = b.files.first ?? ""
        if fa != fb { return fa < fb }
        if a.ruleID != b.ruleID { return a.ruleID < b.ruleID }
        if a.message != b.message { return a.message < b.message }
        if a.files != b.files { return a.files.lexicographicallyPrecedes(b.files) }
        return a.severity < b.severity
    }
}

extension RuleExample {
    /// Runs `rule` alone on this example, switched on whatever its default, with the example's
    /// options, on the files cut down as `lint` cuts them (so a rule that reads a key it does not
    /// declare in ``RuleDescription/readsMetadata`` fails its own examples); returns its findings.
    public func run(_ rule: any Rule.Type) throws(ConfigurationError) -> [Finding] {
        let config = Configuration(rules: [rule.description.identifier: RuleSetting(enabled: true, options: options)])
        let engine = try LintEngine(rules: [rule], configuration: config)
        return Array(engine.run(files: files.map { $0.slimmedForLint(keeping: engine.metadataKeys) }, root: ".").findings)
    }
}

/// A bucket of stored summaries made ready for its pairs to be checked (``LintEngine``): its
/// files' indices, their pairs, the `.livp` members among them and what the scan rules found.
private struct PreparedBucket: Sendable {
    var indices: [Int32]
    var list: PairList
    var members: [(file: Int32, member: ScannedFile)]
    var scanFindings: [Finding]
}

/// A value made on a thread of its own from the moment this is made; ``value()`` waits for it.
/// A thread, not a dispatch queue: the caller blocks in ``value()``, and a queue's pool may have
/// no thread free to make it until its overseer notices (Linux's libdispatch).
private final class Pending<Value: Sendable>: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var made: Value?

    init(_ make: @escaping @Sendable () -> Value) {
        let thread = Thread { [self] in
            made = make()
            done.signal()
        }
        // The usual default (`ulimit -s`, 8 MiB), as the main thread and libdispatch's workers
        // have on Linux: pairing and the scan rules run here as they do there (a stored bucket's `prepare`).
        thread.stackSize = 8 << 20
        thread.start()
    }

    /// The value, once made (call once).
    func value() -> Value {
        done.wait()
        defer { made = nil }
        return made!
    }
}
