import Foundation
import LiveLintEngine
import LiveModel
import LiveReaders
import Rules

/// Where a scan's configuration comes from.
public enum ConfigurationSource: Sendable, Hashable {
    /// `.livelint.yml` found from the scanned root upward; the built-in defaults when there is none.
    case discover
    /// This file, which must exist.
    case file(String)
    /// The built-in defaults; any `.livelint.yml` is ignored.
    case defaults
}

/// What to lint and how: a plain value (the CLI fills it from `lint`'s options).
public struct LintOptions: Sendable {
    /// Folders, files or `.livp` archives; each must exist.
    public var paths: [String]
    public var configuration: ConfigurationSource
    /// A baseline file whose findings are dropped.
    public var baseline: String?
    /// Also read files and folders whose names start with a dot.
    public var includeHidden: Bool
    /// Files read at once (at least 1); also the threads that stat a large folder's files
    /// (``LibraryWalker/statThreads``), run the scan and pair rules (``LintEngine/pairWorkers``).
    public var jobs: Int
    /// Lint only this shard of the library (every file is still read, to learn its identifier).
    public var shard: Shard?
    /// Also write every content identifier read (``IdentifierList``, JSON Lines) to this file.
    public var identifierList: String?
    /// The rules the engine may run (configuration turns them on and off).
    public var rules: [any Rule.Type]
    /// Fill each pair record's ``PairRecord/media`` (identifiers, the movie's timeline), for
    /// reports that draw pairs (HTML). Off by default: other reports do not need it.
    public var pairMedia: Bool = false
    /// The photo apps whose verdicts each pair gets (``Consumers``; `all` for every one),
    /// overriding the configuration's `consumers`; nil keeps the configuration's.
    public var consumers: [String]?
    /// Severities tuned to one consumer (``Profile``, by consumer id), overriding the
    /// configuration's `profile`; nil keeps the configuration's.
    public var profile: String?
    /// The profiles ``profile`` names.
    public var profiles: [Profile] = builtinProfiles
    /// The lint cache (``CacheSetting``): off unless asked for (the CLI turns it on by default).
    public var cache: CacheSetting = .off
    /// A scan of more files than this keeps each file's full record in a temporary file
    /// (``ScanRecords``) rather than in memory, and decodes it again when its pair's rules run:
    /// below it, the records take little memory and decoding them again would only cost time.
    public var spillAbove: Int = LintOptions.defaultSpillAbove

    /// A scan of more files than this keeps the walk's listing and, working by buckets
    /// (``partition``), its file summaries in temporary files too (``SummaryFile``), reading each
    /// bucket's summaries back for the engine and each file's for the report: what grew with the
    /// library, about 80 bytes a file, leaves memory (docs/flat-memory.md). Nil: never. The report
    /// is the same either way; below it, the few megabytes are not worth the time reading back.
    public var diskAbove: Int? = LintOptions.defaultDiskAbove
    /// For the tests: values a run of the scan's temporary files sorted on disk holds (the UUID
    /// ties, the buckets, the pairs); nil: 1 MiB of them.
    var scratchRun: Int?
    /// For the tests: pairs a thread must have for the pair rules to run on several
    /// (``LintEngine/pairWorkers``); nil: the engine's own.
    var pairsPerWorker: Int?
    /// For the tests: the most findings a bucket whose outcome the cache keeps may have
    /// (``BucketOutcomes/findingsLimit``); nil: the default.
    var outcomeFindingsLimit: Int?
    /// The default for ``diskAbove``: 100,000 files (about 28 MiB at the peak held in memory).
    public static let defaultDiskAbove = 100_000

    /// The default for ``spillAbove``: 10,000 files (about 8 MiB of full records).
    public static let defaultSpillAbove = 10_000
    /// Pairing, the scan rules and the consumers' facts work on buckets of about this many files,
    /// each of whole groups of files tied by a folder or an identifier (``LintEngine/run(summaries:store:root:fileFindings:onPair:afterPhase:partition:media:)``);
    /// nil: on the whole library at once. The report is the same either way.
    public var partition: Int? = LintOptions.defaultPartition
    /// The default for ``partition``: 16,384 files.
    public static let defaultPartition = 16_384

    public init(paths: [String], configuration: ConfigurationSource = .discover, baseline: String? = nil,
                includeHidden: Bool = false, jobs: Int = LintOptions.defaultJobs, shard: Shard? = nil,
                identifierList: String? = nil, rules: [any Rule.Type] = builtinRules) {
        self.paths = paths
        self.configuration = configuration
        self.baseline = baseline
        self.includeHidden = includeHidden
        self.jobs = jobs
        self.shard = shard
        self.identifierList = identifierList
        self.rules = rules
    }

    /// The default for ``jobs``: the number of cores, at least 2 (I/O overlaps with parsing).
    public static var defaultJobs: Int { max(2, ProcessInfo.processInfo.activeProcessorCount) }
}

/// What a scan reports while it runs, in order, from the task that runs it. Each is computed
/// where the pipeline has the data anyway: a file's count when its file rules ran (as it was
/// read), a pair when pairing formed it, the totals from the result.
public enum ScanEvent: Sendable, Hashable {
    /// The walk is done: this many files will be read (with a shard too: every file is read to
    /// learn its identifier).
    case walked(files: Int)
    /// One file was read. `findings`: what the enabled file rules found on it and its `.livp`
    /// members, baseline applied (0 for a file of another shard, which is dropped).
    case fileRead(path: String, inShard: Bool, findings: Int)
    /// Pairing tied a still and a movie together (lone halves are not reported). The pairs of a
    /// part of the library the cache answered come as ``pairsFromCache(_:)`` instead.
    case pairFormed(PairRecord)
    /// The scan is done; the summary of its result.
    case finished(LintSummary)
    /// This many complete pairs were formed by a part of the library none of whose files changed
    /// since the cache kept its outcome (in place of a ``pairFormed(_:)`` for each).
    case pairsFromCache(Int)
    /// One file was taken from the cache instead of being read (in place of ``fileRead``, with
    /// the same meaning otherwise).
    case fileFromCache(path: String, inShard: Bool, findings: Int)
    /// Something the user should know that does not stop the scan (the cache cannot be used).
    /// At most one per scan, before ``finished``.
    case warning(String)
}

/// Lints a library: walks the paths, reads every file concurrently (a bounded number at a time),
/// cuts each down to what the enabled rules read as soon as it is read and runs the file rules on
/// it, keeps one shard, writes the identifier list, pairs, runs the pair and scan rules, and
/// returns the result for a reporter (``LintReport``). Memory holds a summary of each file
/// (``FileSummary``) and, up to ``LintOptions/spillAbove`` files, its slim record; past that the
/// slim records wait in a temporary file (``ScanRecords``) and are decoded pair by pair. The
/// result is the same, byte for byte, whatever ``LintOptions/jobs`` is, and with or without
/// ``LintOptions/cache`` (files unchanged since they were recorded come from it instead of being
/// read: ``ScanEvent/fileFromCache(path:inShard:findings:)``; a cache that cannot be used gives one
/// ``ScanEvent/warning(_:)``).
///
/// ```swift
/// let scan = try LibraryScan(LintOptions(paths: ["Photos"]))
/// let result = try await scan.run { event in … }
/// LintReport(format: .json, failOn: scan.failOn(nil), rules: scan.ruleSummaries).write(result) { print($0, terminator: "") }
/// ```
public struct LibraryScan: Sendable {
    public let options: LintOptions
    /// The display name of what is scanned (the one folder given, or ".").
    public let root: String
    public let configuration: Configuration
    public let engine: LintEngine

    /// Checks the paths, loads the configuration and the baseline, builds the engine; throws
    /// what a user must fix first (a path that does not exist, a bad configuration or baseline).
    public init(_ options: LintOptions) throws(PipelineError) {
        // Paths that do not exist are a usage error, not a finding: the user mistyped.
        for path in options.paths where !FileManager.default.fileExists(atPath: path) {
            throw PipelineError("no such file or folder: \(path)")
        }
        let root = LibraryWalker.root(for: options.paths)
        var configuration = try Self.loadConfiguration(options.configuration, root: root, rules: options.rules)
        if let names = options.consumers {
            do { configuration.consumers = try Consumers.named(names).map(\.id) } catch {
                throw PipelineError("--consumers: \(error.description)")
            }
        }
        if let name = options.profile ?? configuration.profile {
            guard let profile = options.profiles.first(where: { $0.id == name }) else {
                throw PipelineError("unknown profile '\(name)' (known: \(options.profiles.map(\.id).joined(separator: ", ")))")
            }
            configuration = configuration.applying(profile)
        }
        let baseline: Baseline?
        do { baseline = try options.baseline.map { path throws(BaselineError) in try Baseline.load(from: path, scratch: ScanRecords.temporaryDirectory, runSize: options.scratchRun) } } catch {
            throw PipelineError("bad baseline \(error)")
        }
        do {
            var made = try LintEngine(rules: options.rules, configuration: configuration, baseline: baseline)
            // The pair rules on as many threads as files are read with (a library-sized bucket's).
            made.pairWorkers = options.jobs
            if let n = options.pairsPerWorker { made.pairsPerWorker = n }
            engine = made
        } catch {
            throw PipelineError(String(describing: error))
        }
        self.options = options
        self.root = root
        self.configuration = configuration
    }

    static func loadConfiguration(_ source: ConfigurationSource, root: String,
                                  rules: [any Rule.Type]) throws(PipelineError) -> Configuration {
        do {
            switch source {
            case .defaults:
                return .default
            case .file(let path):
                guard FileManager.default.fileExists(atPath: path) else {
                    throw PipelineError("no such configuration file: \(path)")
                }
                return try Configuration.load(from: path, rules: rules)
            case .discover:
                return try Configuration.discover(startingAt: root, rules: rules) ?? .default
            }
        } catch let error as ConfigurationError {
            throw PipelineError("bad configuration: \(error.description)")
        } catch let error as PipelineError {
            throw error
        } catch {
            throw PipelineError(String(describing: error))
        }
    }

    /// The severity at or above which a finding fails the run: `override`, else the
    /// configuration's `fail-on`, else `error`.
    public func failOn(_ override: Severity?) -> Severity { override ?? configuration.failOn ?? .error }

    /// Every rule the scan could run, for reports that describe them (SARIF).
    public var ruleSummaries: [RuleSummary] { RuleRegistry(options.rules).summaries }

    /// Runs the scan. `progress`, when given, sees each ``ScanEvent`` in order.
    ///
    /// The files read go out of scope here, so only the result outlives the scan.
    public func run(progress: ((ScanEvent) -> Void)? = nil) async throws(PipelineError) -> LintResult {
        var library = await read(progress: progress)
        let shard = options.shard
        if let path = options.identifierList {
            let summaries: any Sequence<FileSummary> = if let stored = library.stored {
                (0..<stored.count).lazy.map { stored.summary($0) }
            } else {
                library.summaries
            }
            do {
                try ReportWriter.write(to: path) { sink in
                    IdentifierList.write(summaries, shard: shard?.description ?? "1/1", scratch: ScanRecords.temporaryDirectory,
                                         runSize: options.scratchRun, to: sink)
                }
            } catch {
                throw PipelineError("cannot write the identifier list to \(path): \(error.localizedDescription)")
            }
        }
        let onPair = { (pair: LivePair, _: [Finding]) in
            if pair.isComplete { progress?(.pairFormed(pair.record)) }
        }
        let result = library.check(with: engine, root: root, onPair: onPair, onCachedPairs: { progress?(.pairsFromCache($0)) },
                                   partition: options.partition, spillAbove: options.spillAbove,
                                   scratchRun: options.scratchRun, media: options.pairMedia)
        library.outcomes?.finish()
        progress?(.finished(result.summary))
        return result
    }

    /// Whether the folder `directory` is, or would be made, in one of the folders `paths` names
    /// (or is one), links resolved.
    static func `is`(_ directory: String, inside paths: [String]) -> Bool {
        let folder = resolved(directory)
        return paths.filter(isFolder).contains { path in
            let root = resolved(path)
            return folder == root || folder.hasPrefix(root.hasSuffix("/") ? root : root + "/")
        }
    }

    /// `path` absolute, with links resolved as far as it exists (the rest as written).
    static func resolved(_ path: String) -> String {
        var head = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        var tail: [String] = []
        while true {
            if let real = realpath(head, nil) {
                defer { free(real) }
                return ([String(cString: real)] + tail).joined(separator: "/")
            }
            let parent = PathText.parent(of: head)
            guard !parent.isEmpty, parent != head else { return ([head] + tail).joined(separator: "/") }
            tail.insert(String(head.dropFirst(parent.count).drop { $0 == "/" }), at: 0)
            head = parent
        }
    }

    static func isFolder(_ path: String) -> Bool {
        var folder: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &folder) && folder.boolValue
    }

    /// Walks and reads the library (slimmed, sharded, checked by the file rules), plus a record
    /// for each path that could not be listed. The walker's listing ends here, before the engine
    /// runs (it holds every display path: ~40 bytes a file at the scan's memory peak otherwise).
    func read(progress: ((ScanEvent) -> Void)?) async -> LibraryReader.Library {
        // The cache is opened beside the walk (SQLite's checks take a millisecond or so of the
        // core the walk leaves), and what the opening noted is shown after the walk, as before;
        // after the walk when it is in a scanned folder, whose listing its files would change.
        let openCache = { @Sendable [engine, options] (directory: String) in
            ScanCache(directory: directory, metadataKeys: engine.metadataKeys, roots: options.paths.filter(Self.isFolder),
                      includeHidden: options.includeHidden)
        }
        let opening: Task<ScanCache, Never>? = switch options.cache {
        case .directory(let directory) where !Self.is(directory, inside: options.paths): Task { openCache(directory) }
        case .off, .directory: nil
        }
        // With the cache on, the walk's stat of each file is its cache stamp: one `stat` a file.
        var walker = LibraryWalker(includeHidden: options.includeHidden)
        walker.statThreads = options.jobs
        let (entries, problems) = walker
            .files(in: options.paths, keepingStats: options.cache != .off,
                   spillingAbove: options.diskAbove, spillDirectory: ScanRecords.temporaryDirectory)
        progress?(.walked(files: entries.count + problems.count))
        let shard = options.shard
        let cache: ScanCache? = switch options.cache {
        case .off: nil
        case .directory(let directory): if let opening { await opening.value } else { openCache(directory) }
        }
        cache?.handOverWarning(to: { progress?(.warning($0)) })
        // The listing goes to the read, which frees it as it goes.
        let sidecars = SidecarIndex(entries)
        let spill = entries.count + problems.count > options.spillAbove
        // A spilling scan with a working cache keeps its buckets' outcomes there (``OutcomeCache``) when
        // the build is known: its summaries are stored, with their files' keys.
        let keepsOutcomes = cache?.isUsable == true && spill && options.partition != nil && CachedFacts.buildIdentity != nil
        let storeSummaries = options.partition != nil
            && (options.diskAbove.map { entries.count + problems.count > $0 } == true || keepsOutcomes)
        var library = await LibraryReader.read(
            consume entries, options: .lint, jobs: options.jobs, shard: shard, engine: engine, cache: cache,
            sidecars: sidecars, keepTimeline: options.pairMedia, countKept: progress != nil, spill: spill,
            storeSummaries: storeSummaries, scratchRun: options.scratchRun, keyFiles: keepsOutcomes,
            onRead: { read in
                progress?(read.fromCache
                    ? .fileFromCache(path: read.displayPath, inShard: read.inShard, findings: read.kept)
                    : .fileRead(path: read.displayPath, inShard: read.inShard, findings: read.kept))
            })
        // A path that could not even be listed is a file that does not read, kept after the others:
        // not in the paths' order that summaries on disk must keep, so they come back into memory.
        if problems.contains(where: { shard?.contains(path: $0.path) ?? true }) { library.holdSummaries() }
        if keepsOutcomes, let cache, library.stored != nil, !cache.hasWarned {
            library.outcomes = OutcomeCache.opened(beside: cache, engine: engine, keepTimeline: options.pairMedia,
                                                   includeHidden: options.includeHidden, shard: shard,
                                                   findingsLimit: options.outcomeFindingsLimit ?? BucketOutcome.findingsLimit,
                                                   warn: { progress?(.warning($0)) })
        }
        for problem in problems {
            guard shard?.contains(path: problem.path) ?? true else {
                progress?(.fileRead(path: problem.path, inShard: false, findings: 0))
                continue
            }
            let file = MediaFile(path: problem.path, kind: .unknown, format: .unknown, error: ReadIssue(.io, problem.message))
            let findings = engine.fileFindings(file)
            library.summaries.append(FileSummary(file, slot: library.records.append(file, encoded: nil)))
            library.fileFindings.append(contentsOf: findings)
            progress?(.fileRead(path: problem.path, inShard: true,
                                findings: progress == nil ? 0 : engine.countAfterBaseline(findings)))
        }
        return library
    }
}
