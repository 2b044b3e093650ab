import Foundation
import LiveLintEngine
@testable import LiveLintKit
import LiveModel
import LiveReaders
import Rules
import TestSupport
import Testing

/// The lint cache (issue 13), called as a library: which files it answers, which it reads again,
/// and that a report from it is the report without it, byte for byte. Every test uses a cache
/// folder of its own under the temporary folder, never `~/.cache`.
@Suite struct ScanCacheTests {
    /// A fresh folder holding a copy of the sample library, and a cache folder beside it. Returns
    /// once the copies are older than the cache's settle time (records of files changed in the
    /// last second are not kept).
    static func workspace() throws -> (library: String, cache: String, remove: () -> Void) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("livelint-cache-\(UUID().uuidString)")
        let library = root.appendingPathComponent("library")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: TestPaths.fixtures.appendingPathComponent("library"), to: library)
        Thread.sleep(forTimeInterval: Double(ScanCache.settleNanoseconds) / 1e9 + 0.1)
        return (library.path, root.appendingPathComponent("cache").path, { try? FileManager.default.removeItem(at: root) })
    }

    struct Outcome {
        var report: String
        var read: [String]
        var fromCache: [String]
        var warnings: [String]
        /// Complete pairs of buckets the cache's outcomes gave (``ScanEvent/pairsFromCache(_:)``).
        var cachedPairs = 0
    }

    /// Lints `library` (defaults, JSON report) with `cache`, and sorts the events out.
    static func lint(_ library: String, cache: CacheSetting, shard: Shard? = nil, spillAbove: Int = LintOptions.defaultSpillAbove,
                     configuration: ConfigurationSource = .defaults) async throws -> Outcome {
        var options = LintOptions(paths: [library], configuration: configuration, shard: shard)
        options.cache = cache
        options.spillAbove = spillAbove
        return try await lint(options)
    }

    /// Lints with `options` (JSON report; with ``LintOptions/pairMedia``, each pair's media
    /// after it, which the JSON report leaves out), and sorts the events out.
    static func lint(_ options: LintOptions) async throws -> Outcome {
        let scan = try LibraryScan(options)
        let events = EventLog()
        let result = try await scan.run { events.append($0) }
        var report = ""
        LintReport(format: .json, failOn: scan.failOn(nil), rules: scan.ruleSummaries).write(result) { report += $0 }
        if options.pairMedia { report += "\n" + result.pairs.map { String(describing: $0.media) }.joined(separator: "\n") }
        var outcome = Outcome(report: report, read: [], fromCache: [], warnings: [])
        for event in events.events {
            switch event {
            case .fileRead(let path, _, _): outcome.read.append(path)
            case .fileFromCache(let path, _, _): outcome.fromCache.append(path)
            case .warning(let text): outcome.warnings.append(text)
            case .pairsFromCache(let n): outcome.cachedPairs += n
            default: break
            }
        }
        return outcome
    }

    @Test func secondRunComesFromTheCacheWithTheSameReport() async throws {
        let (library, cache, remove) = try Self.workspace()
        defer { remove() }
        let plain = try await Self.lint(library, cache: .off)
        let first = try await Self.lint(library, cache: .directory(cache))
        let second = try await Self.lint(library, cache: .directory(cache))
        #expect(first.report == plain.report)
        #expect(second.report == plain.report)
        #expect(first.fromCache.isEmpty && !first.read.isEmpty)
        // Everything that reads is cached (a path that cannot be listed is never read at all).
        #expect(second.read.isEmpty, "read again: \(second.read)")
        #expect(second.fromCache.count == first.read.count)
        #expect(first.warnings.isEmpty && second.warnings.isEmpty, "\(first.warnings + second.warnings)")
        #expect(LintCache.stats(directory: cache).records == first.read.count)
        // A shard of a cached library is the shard of the uncached one.
        let shard = try #require(Shard("2/3"))
        #expect(try await Self.lint(library, cache: .directory(cache), shard: shard).report
                == (try await Self.lint(library, cache: .off, shard: shard)).report)
    }

    /// A cache folder in the scanned folder is opened after the walk, as before the cache was
    /// opened beside it: a first run lists the library as it was (not the cache it makes meanwhile,
    /// which the walk, coming to `cache` last, would meet), and the next lists the cache's file.
    @Test func aCacheInTheLibraryIsOpenedAfterTheWalk() async throws {
        let (library, _, remove) = try Self.workspace()
        defer { remove() }
        let inside = library + "/cache"
        let plain = try await Self.lint(library, cache: .off)
        for _ in 0..<3 {
            try? FileManager.default.removeItem(atPath: inside)
            let first = try await Self.lint(library, cache: .directory(inside))
            #expect(first.report == plain.report)
            #expect(!first.read.contains { $0.hasPrefix("cache/") }, "\(first.read.filter { $0.hasPrefix("cache/") })")
        }
        let next = try await Self.lint(library, cache: .directory(inside))
        #expect(next.read.contains("cache/lint-cache.sqlite3"))
        #expect(LibraryScan.is(inside, inside: [library]) && LibraryScan.is(library, inside: [library]))
        #expect(LibraryScan.is(inside + "/not/made/yet", inside: [library + "/"]))
        #expect(!LibraryScan.is(library + "-other", inside: [library]) && !LibraryScan.is(library, inside: [inside]))
    }

    /// The facts of the file at `path` (a key) as the cache keeps them, and the signature they
    /// were kept under (read from the bytes, as only the scan that made them knows it).
    static func facts(of path: String, in cache: String) throws -> CachedFacts? {
        let db = try SQLiteDatabase(path: LintCache.databasePath(in: cache), create: false)
        defer { db.close() }
        let select = try db.prepare("SELECT facts, checksum FROM files WHERE path = ?")
        select.bind(1, path)
        guard try select.step(), !select.isNull(0) else { return nil }
        let record = select.int64(1)
        return select.withBlob(0) { bytes in
            let signature = (0..<8).reduce(UInt64(0)) { $0 | UInt64(bytes[8 + $1]) << (8 * UInt64($1)) }
            return CachedFacts.decode(bytes, signature: signature, record: record, names: RecordCodec.Names())
        }
    }

    /// Keeps `facts` as the facts of the file at `path` (a key).
    static func setFacts(_ facts: CachedFacts, of path: String, in cache: String) throws {
        let db = try SQLiteDatabase(path: LintCache.databasePath(in: cache), create: false)
        defer { db.close() }
        let update = try db.prepare("UPDATE files SET facts = ? WHERE path = ?")
        update.bind(1, facts.encoded)
        update.bind(2, path)
        try update.step()
    }

    /// On a run whose records wait outside memory, an unchanged file's summary and file findings
    /// are the facts kept with its record: a finding changed there shows in the report, so they
    /// were used rather than the file decoded and checked again. Facts made under other file
    /// rules (a severity changed) or for another display path (the scan started lower) are not
    /// used, and a run that finds them so keeps its own.
    @Test func factsStandInForUnchangedFilesUnderTheirRulesAndPathOnly() async throws {
        let (library, cache, remove) = try Self.workspace()
        defer { remove() }
        let plain = try await Self.lint(library, cache: .off, spillAbove: 0)
        let first = try await Self.lint(library, cache: .directory(cache), spillAbove: 0)
        #expect(first.report == plain.report)
        // Every record but those of the `.livp` archives keeps facts.
        let stats = LintCache.stats(directory: cache)
        #expect(stats.withFacts > 0 && stats.withFacts == stats.records - first.read.filter { $0.hasSuffix(".livp") }.count,
                "\(stats.withFacts) of \(stats.records)")
        let key = library + "/broken/identifier-not-uuid/IMG_0109.JPG"
        var facts = try #require(try Self.facts(of: key, in: cache))
        #expect(facts.identifier.string == "not-a-uuid" && facts.kind == .still && facts.format == .jpeg)
        let message = try #require(facts.findings.first { $0.ruleID == "identifier-not-uuid" }?.message)
        #expect(plain.report.contains(message))
        func tamper() throws {
            for i in facts.findings.indices where facts.findings[i].ruleID == "identifier-not-uuid" {
                facts.findings[i].message = "kept with the record"
            }
            try Self.setFacts(facts, of: key, in: cache)
        }
        try tamper()

        let second = try await Self.lint(library, cache: .directory(cache), spillAbove: 0)
        #expect(second.read.isEmpty && second.fromCache.count == first.read.count)
        #expect(second.report != plain.report)
        #expect(second.report.replacingOccurrences(of: "kept with the record", with: message) == plain.report)
        // Facts signed by another build (same rules, same path) are not used.
        var otherBuild = facts
        otherBuild.signature = CachedFacts.signature(
            rules: try #require(CachedFacts.rulesSignature(try LintEngine(rules: builtinRules), build: "another build")),
            pathHash: CachedFacts.pathHash("broken/identifier-not-uuid/IMG_0109.JPG"))
        try Self.setFacts(otherBuild, of: key, in: cache)
        #expect(try await Self.lint(library, cache: .directory(cache), spillAbove: 0).report == plain.report)
        #expect(try Self.facts(of: key, in: cache)?.signature == facts.signature)
        try Self.setFacts(facts, of: key, in: cache)
        #expect(try await Self.lint(library, cache: .directory(cache), spillAbove: 0).report == second.report)
        // Held in memory (no spilling), records are decoded: the facts are not used.
        #expect(try await Self.lint(library, cache: .directory(cache)).report == plain.report)

        // Another severity for a file rule: other facts; the run keeps its own.
        let config = library + "/../severity.yml"
        try "version: 1\nrules:\n  identifier-not-uuid: info\n".write(toFile: config, atomically: true, encoding: .utf8)
        let severe = try await Self.lint(library, cache: .directory(cache), spillAbove: 0, configuration: .file(config))
        #expect(severe.report == (try await Self.lint(library, cache: .off, spillAbove: 0, configuration: .file(config))).report)
        #expect(severe.report.contains(message))
        #expect(try Self.facts(of: key, in: cache)?.findings.first?.severity == .info)
        #expect(try await Self.lint(library, cache: .directory(cache), spillAbove: 0).report == plain.report)

        // The same files under another display path (`identifier-not-uuid/IMG_0109.JPG`).
        try tamper()
        let lower = try await Self.lint(library + "/broken", cache: .directory(cache), spillAbove: 0)
        #expect(lower.read.isEmpty)
        #expect(lower.report == (try await Self.lint(library + "/broken", cache: .off, spillAbove: 0)).report)
    }

    /// A shard of a spilling cached run is the shard of the uncached one, whether its files come
    /// from facts or not; and a file whose Takeout sidecar appears after its facts were kept is
    /// checked with it (its facts are set aside: the sidecar is read fresh).
    @Test func factsServeShardsAndGiveWayToANewSidecar() async throws {
        let (library, cache, remove) = try Self.workspace()
        defer { remove() }
        for shard in [try #require(Shard("2/3")), try #require(Shard("1/3"))] {
            let plain = try await Self.lint(library, cache: .off, shard: shard, spillAbove: 0)
            for _ in 0..<2 {
                #expect(try await Self.lint(library, cache: .directory(cache), shard: shard, spillAbove: 0).report == plain.report)
            }
        }
        _ = try await Self.lint(library, cache: .directory(cache), spillAbove: 0)
        #expect(try Self.facts(of: library + "/2024/05/IMG_0001.JPG", in: cache) != nil)
        try Data(#"{"title": "IMG_0001.JPG", "photoTakenTime": {"timesta"#.utf8)
            .write(to: URL(fileURLWithPath: library + "/2024/05/IMG_0001.JPG.json"))
        let plain = try await Self.lint(library, cache: .off, spillAbove: 0)
        #expect(plain.report.contains("unreadable-sidecar"))
        #expect(try await Self.lint(library, cache: .directory(cache), spillAbove: 0).report == plain.report)
    }

    /// Damaged facts (a flipped byte) are not trusted: the record is decoded, the report is the
    /// same, and the run keeps facts anew. Facts made from a record are kept only while the row
    /// still holds that record (another run may have replaced it meanwhile).
    @Test func damagedOrOutdatedFactsAreNotUsed() async throws {
        let (library, cache, remove) = try Self.workspace()
        defer { remove() }
        let plain = try await Self.lint(library, cache: .off, spillAbove: 0)
        _ = try await Self.lint(library, cache: .directory(cache), spillAbove: 0)
        let key = library + "/broken/identifier-not-uuid/IMG_0109.JPG"
        let kept = try #require(try Self.facts(of: key, in: cache))
        var bytes = kept.encoded
        bytes[bytes.count / 2] ^= 0x40
        func decoded(_ bytes: [UInt8], signature: UInt64 = kept.signature, record: Int64 = kept.recordChecksum) -> CachedFacts? {
            bytes.withUnsafeBytes { CachedFacts.decode($0, signature: signature, record: record, names: RecordCodec.Names()) }
        }
        #expect(decoded(kept.encoded) != nil)
        #expect(decoded(bytes) == nil)
        #expect(decoded(kept.encoded, signature: kept.signature &+ 1) == nil)
        // Facts of another record (the row's record replaced, the facts left) are not used.
        #expect(decoded(kept.encoded, record: kept.recordChecksum &+ 1) == nil)
        let db = try SQLiteDatabase(path: LintCache.databasePath(in: cache), create: false)
        let update = try db.prepare("UPDATE files SET facts = ? WHERE path = ?")
        update.bind(1, bytes)
        update.bind(2, key)
        try update.step()
        db.close()
        let again = try await Self.lint(library, cache: .directory(cache), spillAbove: 0)
        #expect(again.read.isEmpty && again.report == plain.report)
        #expect(try Self.facts(of: key, in: cache)?.encoded == kept.encoded)

        // An update made from a record the row no longer holds is not written; one made from the
        // record it holds is.
        let keys = try LintEngine(rules: builtinRules).metadataKeys
        var warnings: [String] = []
        var changed = kept
        changed.findings = []
        let other = ScanCache(directory: cache, metadataKeys: keys, warn: { warnings.append($0) })
        other.store(ScanCache.FactsUpdate(key: key, checksum: kept.recordChecksum &+ 1, facts: changed.encoded))
        other.finish()
        #expect(try Self.facts(of: key, in: cache)?.findings == kept.findings)
        let same = ScanCache(directory: cache, metadataKeys: keys, warn: { warnings.append($0) })
        same.store(ScanCache.FactsUpdate(key: key, checksum: kept.recordChecksum, facts: changed.encoded))
        same.finish()
        #expect(try Self.facts(of: key, in: cache)?.findings == [])
        #expect(warnings.isEmpty, "\(warnings)")
    }

    /// A run holds the write lock only while it writes its waiting records, never while it reads
    /// files: a second run on the same cache opens it and writes at once. (When the lock was held
    /// from a run's first record to its 2,000th, a second run waited out the 10-second busy
    /// timeout on a slow scan and ran without the cache: 4 shards at once under AddressSanitizer.)
    @Test func aRunHoldsNoWriteLockBetweenItsRecords() throws {
        let (library, cache, remove) = try Self.workspace()
        defer { remove() }
        let warnings = Warnings()
        let first = ScanCache(directory: cache, metadataKeys: [], warn: { warnings.add($0) })
        let still = library + "/2024/05/IMG_0001.JPG", movie = library + "/2024/05/IMG_0001.MOV"
        let stillStamp = try #require(FileStamp(path: still)), movieStamp = try #require(FileStamp(path: movie))
        first.store(ScanCache.Record(key: first.key(for: still), stamp: stillStamp, bytes: [1, 2, 3]),
                    now: stillStamp.changed + ScanCache.settleNanoseconds)
        // The first run goes on reading; a second opens the cache and writes meanwhile.
        let started = ContinuousClock.now
        let second = ScanCache(directory: cache, metadataKeys: [], warn: { warnings.add($0) })
        #expect(second.isUsable)
        second.store(ScanCache.Record(key: second.key(for: movie), stamp: movieStamp, bytes: [4, 5, 6]),
                     now: movieStamp.changed + ScanCache.settleNanoseconds)
        second.finish()
        first.finish()
        #expect(ContinuousClock.now - started < .seconds(5))
        #expect(warnings.all.isEmpty, "\(warnings.all)")
        #expect(LintCache.stats(directory: cache).records == 2)
    }

    /// Warnings a cache gives, collected.
    final class Warnings: @unchecked Sendable {
        private var list: [String] = []
        private let lock = NSLock()
        func add(_ text: String) { lock.withLock { list.append(text) } }
        var all: [String] { lock.withLock { list } }
    }

    /// A file edited in place with its modification time put back (`touch -r`) has a new ctime:
    /// it is read again, and the report shows the edit.
    @Test func editWithRestoredModificationTimeIsReadAgain() async throws {
        let (library, cache, remove) = try Self.workspace()
        defer { remove() }
        _ = try await Self.lint(library, cache: .directory(cache))
        let movie = library + "/2024/05/IMG_0001.MOV"
        var st = stat()
        #expect(stat(movie, &st) == 0)
        let before = try #require(FileStamp(path: movie))
        // A different identifier of the same length, in place.
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: movie)))
        let id = try #require(Self.range(of: "-", after: Self.range(of: "com.apple.quicktime.content.identifier", in: bytes), in: bytes))
        bytes[id - 1] = bytes[id - 1] == UInt8(ascii: "0") ? UInt8(ascii: "1") : UInt8(ascii: "0")
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: movie))
        try handle.write(contentsOf: bytes)
        try handle.close()
        // `touch -r`: the access and modification times put back to the nanosecond (utimensat).
        var times = [st.st_atim, st.st_mtim]
        #expect(utimensat(AT_FDCWD, movie, &times, 0) == 0)
        let after = try #require(FileStamp(path: movie))
        #expect(after.modified == before.modified && after.size == before.size && after.inode == before.inode)
        #expect(after.changed != before.changed)

        let cached = try await Self.lint(library, cache: .directory(cache))
        #expect(cached.read == ["2024/05/IMG_0001.MOV"])
        #expect(cached.report == (try await Self.lint(library, cache: .off)).report)
        #expect(cached.report.contains("identifier-mismatch") && cached.report.contains("2024/05/IMG_0001.MOV"))
    }

    /// A file replaced by another (same name, size and mtime; a new inode) is read again.
    @Test func replacedFileIsReadAgain() async throws {
        let (library, cache, remove) = try Self.workspace()
        defer { remove() }
        _ = try await Self.lint(library, cache: .directory(cache))
        let still = library + "/2024/05/IMG_0001.JPG"
        let modified = try #require(try FileManager.default.attributesOfItem(atPath: still)[.modificationDate] as? Date)
        let replacement = still + ".new"
        try FileManager.default.copyItem(atPath: still, toPath: replacement)
        try FileManager.default.setAttributes([.modificationDate: modified], ofItemAtPath: replacement)
        #expect(rename(replacement, still) == 0)
        let cached = try await Self.lint(library, cache: .directory(cache))
        #expect(cached.read == ["2024/05/IMG_0001.JPG"])
        #expect(cached.fromCache.count > 10)
    }

    /// ``lint(_:)`` for a run whose buckets' outcomes the cache keeps (``OutcomeCache``):
    /// records on disk, which with a cache stores the summaries, and buckets of about
    /// `partition` files.
    static func bucketed(_ library: String, cache: CacheSetting, partition: Int = 6, consumers: [String]? = nil,
                         media: Bool = false, shard: Shard? = nil, findingsLimit: Int? = nil) async throws -> Outcome {
        var options = LintOptions(paths: [library], configuration: .defaults, shard: shard)
        options.outcomeFindingsLimit = findingsLimit
        options.cache = cache
        options.spillAbove = 0
        options.partition = partition
        options.consumers = consumers
        options.pairMedia = media
        return try await lint(options)
    }

    /// The bucket outcomes the cache keeps, as `livelint cache stats` counts them.
    static func bucketRows(in cache: String) throws -> Int {
        let stats = LintCache.stats(directory: cache)
        #expect(stats.problem == nil)
        return stats.buckets
    }

    /// A bucket none of whose files changed is taken from the cache as it was (its pairs and the
    /// pair and scan rules' findings), the report the same byte for byte; a file edited in place
    /// gives its bucket a new outcome, and the old one is dropped; files added in a folder of their
    /// own leave the other buckets' outcomes in use. Runs with consumers or media keep theirs.
    @Test func unchangedBucketsAreTakenFromTheCacheAsTheyWere() async throws {
        let (library, cache, remove) = try Self.workspace()
        defer { remove() }
        let plain = try await Self.bucketed(library, cache: .off)
        let first = try await Self.bucketed(library, cache: .directory(cache))
        #expect(first.report == plain.report)
        #expect(first.cachedPairs == 0 && first.warnings.isEmpty, "\(first.warnings)")
        let rows = try Self.bucketRows(in: cache)
        #expect(rows > 3, "buckets kept: \(rows)")

        let second = try await Self.bucketed(library, cache: .directory(cache))
        #expect(second.report == plain.report)
        #expect(second.read.isEmpty && second.warnings.isEmpty)
        // Every bucket but those with a `.livp` archive (which are not kept) comes from the cache.
        #expect(second.cachedPairs > 5, "\(second.cachedPairs)")
        #expect(try Self.bucketRows(in: cache) == rows)
        // Findings of every kind come back from the outcomes: pair rules and scan rules.
        for rule in ["identifier-mismatch", "duplicate-identifier", "orphan-still"] { #expect(second.report.contains(rule), "\(rule)") }

        // A movie's identifier changed in place: its bucket is checked again, the others are not.
        let movie = library + "/2024/05/IMG_0001.MOV"
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: movie)))
        let id = try #require(Self.range(of: "-", after: Self.range(of: "com.apple.quicktime.content.identifier", in: bytes), in: bytes))
        bytes[id - 1] = bytes[id - 1] == UInt8(ascii: "0") ? UInt8(ascii: "1") : UInt8(ascii: "0")
        try Data(bytes).write(to: URL(fileURLWithPath: movie))
        try await Task.sleep(nanoseconds: UInt64(ScanCache.settleNanoseconds) + 100_000_000)
        let edited = try await Self.bucketed(library, cache: .directory(cache))
        let editedPlain = try await Self.bucketed(library, cache: .off)
        #expect(edited.report == editedPlain.report)
        #expect(edited.report != plain.report)
        #expect(edited.read == ["2024/05/IMG_0001.MOV"])
        #expect(edited.cachedPairs > 0 && edited.cachedPairs < second.cachedPairs, "\(edited.cachedPairs) of \(second.cachedPairs)")
        // The changed bucket's outcome replaced (the old one dropped: the table does not grow).
        #expect(try Self.bucketRows(in: cache) == rows)
        let again = try await Self.bucketed(library, cache: .directory(cache))
        #expect(again.report == editedPlain.report && again.cachedPairs == second.cachedPairs)

        // A folder of new files before the others: the buckets after it still end where they did.
        try FileManager.default.copyItem(atPath: library + "/2024/06", toPath: library + "/2000")
        try await Task.sleep(nanoseconds: UInt64(ScanCache.settleNanoseconds) + 100_000_000)
        let added = try await Self.bucketed(library, cache: .directory(cache))
        #expect(added.report == (try await Self.bucketed(library, cache: .off)).report)
        #expect(added.cachedPairs > 0, "\(added.cachedPairs)")

        // With consumers, pairs carry their verdicts (counted in the summary too), and with the
        // HTML report's media, what their halves carry: kept with the outcome, under keys and in
        // a scope of their own (the configuration's), the second run taking them.
        let all = try await Self.bucketed(library, cache: .directory(cache)).cachedPairs
        for (consumers, media) in [(["all"], false), (nil, true), (["immich", "apple-photos"], true)] {
            let plain = try await Self.bucketed(library, cache: .off, consumers: consumers, media: media)
            let first = try await Self.bucketed(library, cache: .directory(cache), consumers: consumers, media: media)
            let second = try await Self.bucketed(library, cache: .directory(cache), consumers: consumers, media: media)
            #expect(first.report == plain.report && second.report == plain.report, "\(consumers ?? []) \(media)")
            #expect(first.cachedPairs == 0 && second.cachedPairs == all, "\(consumers ?? []) \(media)")
            #expect(consumers == nil || plain.report.contains("\"consumers\""))
            #expect(!media || plain.report.contains("stillImageTime"))
        }
        // Each configuration keeps its own: the first's still serve.
        #expect(try await Self.bucketed(library, cache: .directory(cache)).cachedPairs == all)
        // So does each shard (a bucket of the same files as one of the whole library's has its
        // key, and is taken from there), without dropping the whole library's.
        let shard = try #require(Shard("2/3"))
        let shardPlain = try await Self.bucketed(library, cache: .off, shard: shard)
        let shardFirst = try await Self.bucketed(library, cache: .directory(cache), shard: shard)
        let shardSecond = try await Self.bucketed(library, cache: .directory(cache), shard: shard)
        #expect(shardFirst.report == shardPlain.report && shardSecond.report == shardPlain.report)
        #expect(shardPlain.report != added.report)
        #expect(shardSecond.cachedPairs > 0 && shardSecond.cachedPairs >= shardFirst.cachedPairs)
        #expect(try await Self.bucketed(library, cache: .directory(cache)).cachedPairs == all)
    }

    /// A bucket outcomes table another build made with other columns is made anew, without a
    /// warning; an outcome whose bytes were damaged is not used (the bucket is checked again);
    /// rows no run used for 30 days go.
    @Test func outcomesOfAnotherLayoutOrDamagedAreNotUsed() async throws {
        let (library, cache, remove) = try Self.workspace()
        defer { remove() }
        let plain = try await Self.bucketed(library, cache: .off)
        _ = try await Self.bucketed(library, cache: .directory(cache))
        let db = try SQLiteDatabase(path: LintCache.databasePath(in: cache), create: false)
        try db.execute("UPDATE buckets SET outcome = substr(outcome, 1, length(outcome) - 1)")
        db.close()
        let damaged = try await Self.bucketed(library, cache: .directory(cache))
        #expect(damaged.report == plain.report)
        #expect(damaged.cachedPairs == 0 && damaged.warnings.isEmpty)
        // Kept anew by that run: the next takes them.
        #expect(try await Self.bucketed(library, cache: .directory(cache)).cachedPairs > 0)
        // One byte changed in each (past the checksum, the layout and the counts), which would
        // still decode: not used either.
        let flip = try SQLiteDatabase(path: LintCache.databasePath(in: cache), create: false)
        try flip.execute("UPDATE buckets SET outcome = substr(outcome, 1, 11) || "
                         + "(CASE WHEN substr(outcome, 12, 1) = x'00' THEN x'01' ELSE x'00' END) || substr(outcome, 13)")
        flip.close()
        let flipped = try await Self.bucketed(library, cache: .directory(cache))
        #expect(flipped.report == plain.report)
        #expect(flipped.cachedPairs == 0 && flipped.warnings.isEmpty)

        let other = try SQLiteDatabase(path: LintCache.databasePath(in: cache), create: false)
        try other.execute("DROP TABLE buckets")
        try other.execute("CREATE TABLE buckets(key BLOB PRIMARY KEY, outcome BLOB)")
        try other.execute("INSERT INTO buckets VALUES (x'00', x'01')")
        other.close()
        let rebuilt = try await Self.bucketed(library, cache: .directory(cache))
        #expect(rebuilt.report == plain.report && rebuilt.warnings.isEmpty, "\(rebuilt.warnings)")
        #expect(try Self.bucketRows(in: cache) > 3)
        #expect(try await Self.bucketed(library, cache: .directory(cache)).cachedPairs > 0)

        // Rows of another library: kept while used lately, dropped once unused for 30 days.
        let rows = try Self.bucketRows(in: cache)
        let aside = try SQLiteDatabase(path: LintCache.databasePath(in: cache), create: false)
        let now = Int64(Date().timeIntervalSince1970)
        try aside.execute("INSERT INTO buckets VALUES (x'01', 7, 1, \(now - 29 * 86_400), x'00')")
        try aside.execute("INSERT INTO buckets VALUES (x'02', 7, 1, \(now - 31 * 86_400), x'00')")
        aside.close()
        _ = try await Self.bucketed(library, cache: .directory(cache))
        let left = try SQLiteDatabase(path: LintCache.databasePath(in: cache), create: false)
        #expect(try left.text("SELECT group_concat(hex(key)) FROM buckets WHERE scope = 7") == "01")
        left.close()
        #expect(try Self.bucketRows(in: cache) == rows + 1)
    }

    /// A bucket with more findings than the limit keeps no outcome (its findings would be held
    /// while it is checked): it is checked every time, the others taken from the cache.
    @Test func aBucketWithManyFindingsKeepsNoOutcome() async throws {
        let (library, cache, remove) = try Self.workspace()
        defer { remove() }
        let plain = try await Self.bucketed(library, cache: .off)
        let all = try Self.workspace()
        defer { all.remove() }
        _ = try await Self.bucketed(all.library, cache: .directory(all.cache))
        let rows = try Self.bucketRows(in: all.cache)
        let cachedAll = try await Self.bucketed(all.library, cache: .directory(all.cache)).cachedPairs
        // None: only buckets without a finding keep theirs.
        _ = try await Self.bucketed(library, cache: .directory(cache), findingsLimit: 0)
        let fewer = try Self.bucketRows(in: cache)
        #expect(fewer > 0 && fewer < rows, "\(fewer) of \(rows)")
        let second = try await Self.bucketed(library, cache: .directory(cache), findingsLimit: 0)
        #expect(second.report == plain.report)
        #expect(second.cachedPairs > 0 && second.cachedPairs < cachedAll, "\(second.cachedPairs) of \(cachedAll)")
    }

    /// A run of another build (or one that finds nothing it kept) drops the rows of its scope it
    /// did not use when it finishes, and leaves other scopes' rows; a run that asked for none
    /// (its engine kept no outcome) drops nothing.
    @Test func aFinishedRunDropsTheRowsOfItsScopeItDidNotUse() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("livelint-outcomes-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        var warnings: [String] = []
        ScanCache(directory: root, metadataKeys: [], warn: { warnings.append($0) }).finish()
        let path = LintCache.databasePath(in: root)
        func opened(build: String, scope: UInt64) throws -> OutcomeCache {
            let seed = try #require(OutcomeCache.seed(configuration: "rules\n", build: build))
            return try #require(OutcomeCache(path: path, seed: seed, scope: scope, warn: { warnings.append($0) }))
        }
        let (a, b, c) = (BucketKey(high: 1, low: 1), BucketKey(high: 2, low: 2), BucketKey(high: 3, low: 3))
        let old = try opened(build: "old", scope: 1)
        old.keep([1, 2, 3], under: a)
        old.finish()
        let elsewhere = try opened(build: "old", scope: 2)
        elsewhere.keep([4], under: b)
        elsewhere.finish()
        #expect(try Self.bucketRows(in: root) == 2)
        // Asked for nothing: drops nothing.
        try opened(build: "new", scope: 1).finish()
        #expect(try Self.bucketRows(in: root) == 2)
        let new = try opened(build: "new", scope: 1)
        #expect(new.outcome(under: c) == nil)
        new.keep([5, 6], under: c)
        #expect(new.outcome(under: c) == [5, 6])
        new.finish()
        let db = try SQLiteDatabase(path: path, create: false)
        #expect(try db.text("SELECT group_concat(scope || ':' || hex(key), ' ') FROM (SELECT * FROM buckets ORDER BY key)")
                == "2:\(String(repeating: "0", count: 15))2\(String(repeating: "0", count: 15))2 1:\(String(repeating: "0", count: 15))3\(String(repeating: "0", count: 15))3")
        db.close()
        #expect(warnings.isEmpty, "\(warnings)")
    }

    /// Records of files that are gone (deleted between two listed files) are dropped; hidden
    /// files, which the walk does not list without --include-hidden, keep theirs.
    /// With records on disk (`spillAbove` 0), through the cache's lookahead (``CacheLookahead``) too.
    @Test(arguments: [LintOptions.defaultSpillAbove, 0])
    func recordsOfDeletedFilesAreDropped(spillAbove: Int) async throws {
        let (library, cache, remove) = try Self.workspace()
        defer { remove() }
        let hidden = library + "/2024/05/.IMG_9999.JPG"
        try FileManager.default.copyItem(atPath: library + "/2024/05/IMG_0001.JPG", toPath: hidden)
        try await Task.sleep(nanoseconds: UInt64(ScanCache.settleNanoseconds) + 100_000_000)
        var options = LintOptions(paths: [library], configuration: .defaults, includeHidden: true)
        options.cache = .directory(cache)
        options.spillAbove = spillAbove
        _ = try await LibraryScan(options).run()
        let before = LintCache.stats(directory: cache).records
        // Two files in the middle of the listing go away.
        try FileManager.default.removeItem(atPath: library + "/broken/orphans/IMG_0110.JPG")
        try FileManager.default.removeItem(atPath: library + "/broken/orphans/IMG_0111.MOV")
        let after = try await Self.lint(library, cache: .directory(cache), spillAbove: spillAbove)
        #expect(after.read.isEmpty)
        #expect(LintCache.stats(directory: cache).records == before - 2)
        let db = try SQLiteDatabase(path: LintCache.databasePath(in: cache), create: false)
        #expect(try db.text("SELECT count(*) FROM files WHERE path LIKE '%/.IMG_9999.JPG'") == "1")
        #expect(try db.text("SELECT count(*) FROM files WHERE path LIKE '%/orphans/%'") == "0")
        db.close()
    }

    /// A cache written by another livelint version (or record format) is rebuilt, with one warning.
    @Test func cacheOfAnotherVersionIsRebuilt() async throws {
        let (library, cache, remove) = try Self.workspace()
        defer { remove() }
        let first = try await Self.lint(library, cache: .directory(cache))
        let db = try SQLiteDatabase(path: LintCache.databasePath(in: cache), create: false)
        // An older livelint, whose table had other columns.
        try db.execute("""
            UPDATE meta SET value = '0.0.1' WHERE key = 'livelint';
            DROP TABLE files;
            CREATE TABLE files(path TEXT PRIMARY KEY, data BLOB);
            INSERT INTO files VALUES ('/x', x'00');
            """)
        db.close()
        #expect(LintCache.stats(directory: cache).writtenBy["livelint"] == "0.0.1")
        let rebuilt = try await Self.lint(library, cache: .directory(cache))
        #expect(rebuilt.warnings.count == 1 && rebuilt.warnings[0].contains("0.0.1"), "\(rebuilt.warnings)")
        #expect(rebuilt.fromCache.isEmpty)
        #expect(rebuilt.report == first.report)
        let again = try await Self.lint(library, cache: .directory(cache))
        #expect(again.read.isEmpty && again.warnings.isEmpty)
        #expect(LintCache.stats(directory: cache).writtenBy == ScanCache.identity)

        // A livelint from before the table's format rebuilt it its own way (no facts column) and
        // left this build's identity in place: the table's columns tell, and it is rebuilt.
        let older = try SQLiteDatabase(path: LintCache.databasePath(in: cache), create: false)
        try older.execute("""
            DROP TABLE files;
            CREATE TABLE files(path TEXT PRIMARY KEY, device INTEGER NOT NULL, inode INTEGER NOT NULL, size INTEGER NOT NULL,
                mtime INTEGER NOT NULL, ctime INTEGER NOT NULL, keys INTEGER NOT NULL, checksum INTEGER NOT NULL,
                record BLOB NOT NULL) WITHOUT ROWID;
            """)
        older.close()
        let olderStats = LintCache.stats(directory: cache)
        #expect(olderStats.writtenBy == ScanCache.identity && olderStats.problem == nil && olderStats.withFacts == 0
                && olderStats.records == 0, "\(olderStats)")
        let afterOlder = try await Self.lint(library, cache: .directory(cache))
        #expect(afterOlder.warnings.count == 1 && afterOlder.warnings[0].contains("a table another livelint made"),
                "\(afterOlder.warnings)")
        #expect(afterOlder.report == first.report)
        let settled = try await Self.lint(library, cache: .directory(cache))
        #expect(settled.read.isEmpty && settled.warnings.isEmpty, "\(settled.warnings)")
        // Rebuilt, the cache keeps no key of the older identity.
        let db2 = try SQLiteDatabase(path: LintCache.databasePath(in: cache), create: false)
        try db2.execute("INSERT INTO meta(key, value) VALUES ('stale', 'x'); UPDATE meta SET value = '0.0.2' WHERE key = 'livelint'")
        db2.close()
        _ = try await Self.lint(library, cache: .directory(cache))
        #expect(LintCache.stats(directory: cache).writtenBy == ScanCache.identity)
    }

    /// Damaged records (a flipped byte in a stored record) are not trusted: read again, same report.
    @Test func damagedRecordIsReadAgain() async throws {
        let (library, cache, remove) = try Self.workspace()
        defer { remove() }
        let first = try await Self.lint(library, cache: .directory(cache))
        let db = try SQLiteDatabase(path: LintCache.databasePath(in: cache), create: false)
        // Change one byte of the record of every still in 2024/05 (the blob's middle).
        try db.execute("""
            UPDATE files SET record = substr(record, 1, length(record) / 2) || x'00' || substr(record, length(record) / 2 + 2)
            WHERE path LIKE '%/2024/05/%.JPG'
            """)
        db.close()
        let again = try await Self.lint(library, cache: .directory(cache))
        #expect(!again.read.isEmpty && again.read.allSatisfy { $0.hasPrefix("2024/05/") && $0.hasSuffix(".JPG") }, "\(again.read)")
        #expect(again.report == first.report)
    }

    /// A lookup that finds the cache damaged (on the lookahead's thread, ``CacheLookahead``, or
    /// on the scan's task) holds its one warning until the scan's task hands it over: by a store,
    /// or by ``ScanCache/handOverWarning()``, which the scan calls after each file's lookup. The
    /// progress display that shows it is that task's alone. Either way, once.
    @Test(arguments: [true, false])
    func aWarningFromALookupWaitsForTheScansTask(byStore: Bool) async throws {
        let (library, cache, remove) = try Self.workspace()
        defer { remove() }
        _ = try await Self.lint(library, cache: .directory(cache))
        let engine = try LintEngine(rules: builtinRules)
        let entry = try #require(LibraryWalker().files(in: [library], keepingStats: true).entries.first)
        let stamp = try #require(entry.stat)
        let warnings = EventLog()
        let scanCache = ScanCache(directory: cache, metadataKeys: engine.metadataKeys, roots: [library],
                                  warn: { warnings.append(.warning($0)) })
        #expect(scanCache.isUsable && warnings.events.isEmpty)
        // Every page after the first (the schema, read on opening) overwritten: the first lookup
        // finds the table damaged.
        let path = LintCache.databasePath(in: cache)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        #expect(size > 8_192)
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.seek(toOffset: 4_096)
        try handle.write(contentsOf: [UInt8](repeating: 0xA5, count: size - 4_096))
        try handle.close()
        let key = scanCache.key(for: entry.path)
        var buffer: [UInt8] = []
        #expect(scanCache.lookup(key: key, displayPath: entry.displayPath, stamp: stamp, keepingBytes: true,
                                 droppingTracks: false, facts: nil, appendingTo: &buffer) == nil)
        #expect(warnings.events.isEmpty && buffer.isEmpty)
        if byStore {
            scanCache.store(ScanCache.FactsUpdate(key: key, checksum: 0, facts: []))
        } else {
            scanCache.handOverWarning()
        }
        #expect(warnings.events.count == 1)
        #expect(!scanCache.isUsable)
        scanCache.finish()
        guard case .warning(let text)? = warnings.events.first else { return }
        #expect(text.contains(path), "\(text)")
        #expect(warnings.events.count == 1)
    }

    /// A different set of enabled rules' metadata keys does not reuse the records.
    @Test func otherMetadataKeysReadAgain() async throws {
        let (library, cache, remove) = try Self.workspace()
        defer { remove() }
        _ = try await Self.lint(library, cache: .directory(cache))
        let keys = try LintEngine(rules: builtinRules).metadataKeys
        let other = ScanCache(directory: cache, metadataKeys: keys.union(["Exif.Image.Software"]), warn: { _ in })
        let file = library + "/2024/05/IMG_0001.JPG"
        #expect(other.record(key: file, displayPath: "x", stamp: try #require(FileStamp(path: file)))?.file == nil)
        other.finish()
        let same = ScanCache(directory: cache, metadataKeys: keys, warn: { _ in })
        #expect(same.record(key: file, displayPath: "x", stamp: try #require(FileStamp(path: file)))?.file.path == "x")
        same.finish()
    }

    static func range(of text: String, after start: Int = 0, in bytes: [UInt8]) -> Int? {
        let needle = Array(text.utf8)
        guard bytes.count >= needle.count, start <= bytes.count - needle.count else { return nil }
        for i in start...(bytes.count - needle.count) where bytes[i] == needle[0] && Array(bytes[i..<(i + needle.count)]) == needle {
            return i + needle.count
        }
        return nil
    }
    static func range(of text: String, after start: Int?, in bytes: [UInt8]) -> Int? {
        start.flatMap { range(of: text, after: $0, in: bytes) }
    }

    /// While a file is read, the files after it that the cache answers wait to be handed over in
    /// order, at most a window's worth past the first one not yet delivered (4,096 in a scan; 4
    /// here): a changed file near the top of a large cached library does not make the scan hold
    /// every later summary at once. The summaries still come in walk order, as an uncached read's,
    /// each once, whether only the first file changed or every third did (then the cache's
    /// answers fall between files read a few to a task: ``LibraryReader/batchSize``).
    /// With records on disk (`spill`), the cache is looked up on a thread of its own
    /// (``CacheLookahead``), here a few files a batch so that batches of answers and reads
    /// alternate and the thread waits for the delivering task: the same again.
    @Test(arguments: [(Int.max, false, 512), (3, false, 512), (Int.max, true, 5), (3, true, 5), (2, true, 1)])
    func filesTheCacheAnswersBehindAReadWaitWithinTheWindow(changedEvery: Int, spill: Bool, lookaheadBatch: Int) async throws {
        let (library, cache, remove) = try Self.workspace()
        defer { remove() }
        // Spilled, the first run keeps facts (what the lookahead hands over without decoding).
        _ = try await Self.lint(library, cache: .directory(cache), spillAbove: spill ? 0 : LintOptions.defaultSpillAbove)
        #expect((LintCache.stats(directory: cache).withFacts > 0) == spill)
        let engine = try LintEngine(rules: builtinRules)
        let listed = LibraryWalker().files(in: [library]).entries
        var changed = 0
        for (i, entry) in listed.enumerated() where i % changedEvery == 0 {
            #expect(utimensat(AT_FDCWD, entry.path, nil, 0) == 0)  // `touch`: a new ctime, a cache miss
            changed += 1
        }
        let entries = LibraryWalker().files(in: [library], keepingStats: true).entries
        let scanCache = ScanCache(directory: cache, metadataKeys: engine.metadataKeys, roots: [library], warn: { _ in })
        var fromCache = 0, delivered = 0
        let read = await LibraryReader.read(entries, options: .lint, jobs: 2, engine: engine, cache: scanCache, spill: spill,
                                            deliveryWindow: 4, lookaheadBatch: lookaheadBatch) {
            delivered += 1
            if $0.fromCache { fromCache += 1 }
        }
        scanCache.finish()
        #expect(delivered == entries.count)
        #expect(fromCache == entries.count - changed && changed > (changedEvery == 3 ? 10 : 0))
        #expect(read.mostWaiting > 0 && read.mostWaiting < 4, "\(read.mostWaiting)")
        #expect(read.lookedAhead == spill)
        let uncached = await LibraryReader.read(entries, options: .lint, jobs: 3, engine: engine)
        #expect(read.summaries.map(\.path) == uncached.summaries.map(\.path))
        #expect(read.files.map(RecordCodecTests.dumped) == uncached.files.map(RecordCodecTests.dumped))
        #expect(read.fileFindings.count == uncached.fileFindings.count && read.fileFindings.count > 0)
    }

    /// A read task takes up to 8 files while many are left, fewer towards the end, at least one.
    @Test func readsGoAFewFilesToATask() {
        #expect(LibraryReader.batchSize(remaining: 100_000, jobs: 2) == LibraryReader.largestBatch)
        #expect(LibraryReader.batchSize(remaining: 40, jobs: 2) == 5)
        #expect(LibraryReader.batchSize(remaining: 7, jobs: 2) == 1)
        #expect(LibraryReader.batchSize(remaining: 0, jobs: 0) == 1)
    }

    /// A file the walk listed but could not read (its folder renamed between the walk and the
    /// read) is not kept: the walk's stamp is still the file's, so a kept failure would be
    /// reported from the cache once the folder is back. The next run reads it instead.
    @Test func aReadThatFailedIsNotKept() async throws {
        let (library, cache, remove) = try Self.workspace()
        defer { remove() }
        let engine = try LintEngine(rules: builtinRules)
        let entries = LibraryWalker().files(in: [library], keepingStats: true).entries
        #expect(entries.allSatisfy { $0.stat != nil })
        try FileManager.default.moveItem(atPath: library + "/2024", toPath: library + "/2024.x")
        let scanCache = ScanCache(directory: cache, metadataKeys: engine.metadataKeys, roots: [library], warn: { _ in })
        let read = await LibraryReader.read(entries, options: .lint, jobs: 2, engine: engine, cache: scanCache)
        scanCache.finish()
        let moved = read.files.filter { $0.path.hasPrefix(library + "/2024/") || $0.path.hasPrefix("2024/") }
        #expect(!moved.isEmpty && moved.allSatisfy { $0.error?.category == .io }, "\(moved.map { $0.path })")
        #expect(LintCache.stats(directory: cache).records == entries.count - moved.count)
        try FileManager.default.moveItem(atPath: library + "/2024.x", toPath: library + "/2024")

        let again = try await Self.lint(library, cache: .directory(cache))
        #expect(again.report == (try await Self.lint(library, cache: .off)).report)
        #expect(again.read.sorted() == moved.map(\.path).map { $0.hasPrefix(library) ? String($0.dropFirst(library.count + 1)) : $0 }.sorted())
        #expect(again.fromCache.count == entries.count - moved.count)
    }
}

@Suite struct RecordCodecTests {
    static var files: [String] {
        var roots = [TestPaths.fixtures.path]
        if TestPaths.corpusPresent { roots.append(TestPaths.corpus.path) }
        var out: [String] = []
        for root in roots {
            let e = FileManager.default.enumerator(atPath: root)
            while let p = e?.nextObject() as? String {
                let full = root + "/" + p
                var dir: ObjCBool = false
                if FileManager.default.fileExists(atPath: full, isDirectory: &dir), !dir.boolValue, !p.hasSuffix(".md"), !p.hasSuffix(".json") {
                    out.append(full)
                }
            }
        }
        return out.sorted()
    }

    static func dumped(_ file: MediaFile) -> String {
        var text = ""
        dump(file, to: &text)
        return text
    }

    /// A number's tenth byte carries its 64th bit alone: one that says more is refused, as a
    /// longer run of bytes is, not read as another number.
    @Test func numbersPastSixtyFourBitsAreRefused() {
        func read(_ bytes: [UInt8]) -> UInt64? {
            bytes.withUnsafeBytes { raw in
                var reader = RecordCodec.Reader(bytes: raw, names: RecordCodec.Names())
                return reader.uint()
            }
        }
        var writer = RecordCodec.Writer()
        writer.uint(.max)
        #expect(writer.bytes.count == 10 && read(writer.bytes) == .max)
        #expect(read(Array(repeating: 0xFF, count: 9) + [0x01]) == .max)
        #expect(read(Array(repeating: 0xFF, count: 9) + [0x02]) == nil)
        #expect(read(Array(repeating: 0x80, count: 9) + [0x7F]) == nil)
        #expect(read(Array(repeating: 0x80, count: 10) + [0x00]) == nil)
        #expect(read([0x80, 0x01]) == 128 && read([0x80]) == nil)
    }

    @Test func everyFileRoundTrips() throws {
        let engineKeys = try LintEngine(rules: builtinRules).metadataKeys
        let allKeys = Set(MetadataKey.table.map(\.key))
        let files = Self.files
        #expect(files.count > 20)
        var encoded = 0, motionPhotos = 0
        for path in files {
            let read = MediaInspector.inspect(path: path, displayPath: "a/b.x", options: .lint)
            for keys in [engineKeys, allKeys] {
                let slim = read.slimmedForLint(keeping: keys)
                // A motion photo's record holds it too (since format 4).
                if slim.still?.motionPhoto != nil { motionPhotos += 1 }
                let record = try #require(RecordCodec.encode(slim), "\(path) not encodable")
                let back = record.withUnsafeBytes { RecordCodec.decode($0, path: "a/b.x", names: RecordCodec.Names(keys)) }
                #expect(back.map(Self.dumped) == Self.dumped(slim), "\(path)")
                encoded += 1
            }
        }
        #expect(encoded == 2 * files.count)
        if TestPaths.corpusPresent { #expect(motionPhotos >= 4, "the corpus's motion photos") }
    }

    /// Every kind of motion photo the rules' examples make (Google's directory, MicroVideo,
    /// Samsung's trailer, a bare MP4; its video found or not; also a Live Photo still), and one
    /// whose every place differs from every other (claimed, found, Samsung's, the primary image's
    /// end) with a directory count that is not its items', comes back from its record as it went
    /// in; no shorter run of the record's bytes, and no longer one, decodes.
    @Test func motionPhotosRoundTrip() throws {
        let keys = try LintEngine(rules: builtinRules).metadataKeys
        var files: [MediaFile] = []
        for kind in MotionPhotoInfo.Format.allCases {
            files.append(MediaFile.motionPhoto(kind: kind))
            files.append(MediaFile.motionPhoto("PXL_0002.MP.heic", format: .heif, id: "1F2E3D4C-0000-4000-8000-00000000ABCD", kind: kind,
                                               declaredLength: nil, videoOffset: nil))
        }
        var broken = MediaFile.motionPhoto(kind: .samsung, codec: nil)
        broken.still?.motionPhoto?.videoError = ReadIssue(.malformed, "no moov", location: "mpvd", offset: 12)
        broken.still?.motionPhoto?.issues = [ReadIssue(.unsupported, "two videos")]
        files.append(broken)
        var odd = MediaFile.motionPhoto(declaredLength: 900_000, videoOffset: 2_500_000, videoLength: 1_200_000)
        odd.still?.motionPhoto?.declared.items.insert(DirectoryItem(mime: "image/jpeg", semantic: "GainMap", length: 4_096, padding: 8), at: 1)
        odd.still?.motionPhoto?.declared.itemCount = 9
        odd.still?.motionPhoto?.declared.microVideo = 0
        odd.still?.motionPhoto?.declared.microVideoOffset = 17
        odd.still?.motionPhoto?.declared.samsungVideoOffset = 11
        odd.still?.motionPhoto?.declared.samsungVideoLength = 13
        odd.still?.motionPhoto?.primaryImageEnd = 2_400_000
        files.append(odd)
        for file in files {
            let slim = file.slimmedForLint(keeping: keys)
            #expect(slim.still?.motionPhoto != nil)
            let record = try #require(RecordCodec.encode(slim), "\(slim.path)")
            let back = record.withUnsafeBytes { RecordCodec.decode($0, path: slim.path, names: RecordCodec.Names()) }
            #expect(back.map(Self.dumped) == Self.dumped(slim))
            #expect(back?.still?.motionPhoto?.declaredVideoOffset == slim.still?.motionPhoto?.declaredVideoOffset)
            #expect(back?.still?.motionPhoto?.declared == slim.still?.motionPhoto?.declared)
            for cut in (0..<record.count).map({ Array(record.prefix($0)) }) + [record + [0]] {
                #expect(cut.withUnsafeBytes { RecordCodec.decode($0, path: slim.path, names: RecordCodec.Names()) } == nil)
            }
        }
        // The embedded movie as the reader leaves it (its brands listed) is not a slim record's.
        #expect(RecordCodec.encode(MediaFile.motionPhoto()) == nil)
    }

    /// Every fixture and corpus file's facts come back as written, and the summary made from them
    /// is the summary made from the file; a `.livp` (members) and a file with a Takeout sidecar get none.
    @Test func everyFilesFactsRoundTripToItsSummary() throws {
        let engine = try LintEngine(rules: builtinRules)
        let names = RecordCodec.Names()
        var made = 0, archives = 0
        var cut = 0
        for path in Self.files {
            let slim = MediaInspector.inspect(path: path, displayPath: "a/b.x", options: .lint).slimmedForLint(keeping: engine.metadataKeys)
            let findings = engine.fileFindings(slim)
            // The file rules find the same without the timeline's tracks (facts serve runs that
            // draw it and runs that do not).
            var untracked = slim
            if untracked.movie?.tracks.isEmpty == false { untracked.movie?.tracks = [] }
            #expect(engine.fileFindings(untracked) == findings, "\(path)")
            let record = RecordCodec.encodeNotingTracks(slim)
            let checksum = record.map { $0.bytes.withUnsafeBytes { ScanCache.checksum($0) } } ?? 0
            guard let facts = CachedFacts(slim, findings: findings, tracks: record?.tracks, signature: 42, recordChecksum: checksum) else {
                #expect(slim.members != nil, "\(path)")
                archives += 1
                continue
            }
            let back = try #require(facts.encoded.withUnsafeBytes { CachedFacts.decode($0, signature: 42, record: checksum, names: names) },
                                    "\(path)")
            #expect(back.findings == findings && back.tracks == record?.tracks, "\(path)")
            // The record cut where the facts say its tracks are is the record without them.
            if let record, let tracks = back.tracks {
                #expect(RecordCodec.cut(record.bytes, tracks: tracks) == RecordCodec.encode(untracked), "\(path)")
                cut += 1
            }
            var folders = RecentFolders(), others = RecentFolders()
            let summary = back.summary(path: "a/b.x", slot: 7, folders: &folders)
            let expected = FileSummary(slim, slot: 7, folders: &others)
            #expect(summary.path == expected.path && summary.kind == expected.kind && summary.format == expected.format
                    && summary.contentIdentifier == expected.contentIdentifier && summary.hasMotionVideo == expected.hasMotionVideo
                    && summary.error == expected.error && summary.sidecarPath == nil && summary.members == nil
                    && summary.slot == 7 && summary.member == expected.member, "\(path)")
            // Every stored field, a field added to the summary included (`dump` walks them all).
            var fromFacts = "", fromFile = ""
            dump(summary, to: &fromFacts)
            dump(expected, to: &fromFile)
            #expect(fromFacts == fromFile, "\(path)")
            made += 1
        }
        #expect(made > 20 && archives > 0 && cut > 0)
        var withSidecar = MediaInspector.inspect(path: Self.files[0], displayPath: "a/b.x", options: .lint)
        withSidecar.sidecar = TakeoutSidecar(path: "a/b.x.json")
        #expect(CachedFacts(withSidecar, findings: [], tracks: nil, signature: 1, recordChecksum: 0) == nil)
        // Facts are kept for one build (its file rules may word things otherwise) and one set of
        // file rules; none without a known build.
        let build = try #require(CachedFacts.buildIdentity)
        let severe = try LintEngine(rules: builtinRules, configuration: Configuration(rules: ["extension-mismatch": RuleSetting(severity: .info)]))
        let signatures = [CachedFacts.rulesSignature(engine), CachedFacts.rulesSignature(engine, build: build + "x"),
                          CachedFacts.rulesSignature(severe)]
        #expect(signatures[0] == CachedFacts.rulesSignature(engine, build: build) && Set(signatures).count == 3)
        #expect(CachedFacts.rulesSignature(engine, build: nil) == nil)
        // A key is read back only as `IdentifierKey(_:)` makes one.
        let uuid = IdentifierKey("0F0E0D0C-0B0A-0908-0706-050403020100").packed
        #expect(IdentifierKey(code: uuid.code, high: uuid.high, low: uuid.low, text: nil)?.string == "0F0E0D0C-0B0A-0908-0706-050403020100")
        #expect(IdentifierKey(code: IdentifierKey(nil).packed.code, high: 1, low: 0, text: nil) == nil)
        let text = IdentifierKey("not-a-uuid").packed
        #expect(IdentifierKey(code: text.code, high: 0, low: 0, text: "not-a-uuid")?.string == "not-a-uuid")
        #expect(IdentifierKey(code: text.code, high: 0, low: 0, text: "0F0E0D0C-0B0A-0908-0706-050403020100") == nil)
        #expect(IdentifierKey(code: text.code, high: 0, low: 7, text: "not-a-uuid") == nil)
        #expect(IdentifierKey(code: 9, high: 0, low: 0, text: nil) == nil)
        // A lower-case UUID has a letter: one of digits alone is held as upper case.
        let lower = IdentifierKey("0f0e0d0c-0b0a-0908-0706-050403020100").packed
        #expect(IdentifierKey(code: lower.code, high: lower.high, low: lower.low, text: nil)?.string == "0f0e0d0c-0b0a-0908-0706-050403020100")
        let digits = IdentifierKey("01234567-8901-2345-6789-012345678901").packed
        #expect(digits.code == uuid.code)
        #expect(IdentifierKey(code: lower.code, high: digits.high, low: digits.low, text: nil) == nil)
    }

    /// The build ID facts are kept under is the executable's (what `readelf -n` shows, when
    /// binutils is here), read from its ELF notes; notes without one, or cut short, give none.
    @Test func theBuildIsKnownByItsID() throws {
        let id = try #require(CachedFacts.buildIdentity)
        #expect(id.count >= 16 && id.allSatisfy(\.isHexDigit), "\(id)")
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/readelf") {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/readelf")
            process.arguments = ["-n", "/proc/\(getpid())/exe"]
            let pipe = Pipe()
            process.standardOutput = pipe
            try process.run()
            let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(text.contains("Build ID: \(id)"), "\(text)")
        }
        func note(_ name: String, type: UInt32, _ descriptor: [UInt8]) -> [UInt8] {
            func le(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> (8 * UInt32($0))) } }
            func padded(_ b: [UInt8]) -> [UInt8] { b + [UInt8](repeating: 0, count: (4 - b.count % 4) % 4) }
            let nameBytes = Array(name.utf8) + [0]
            return le(UInt32(nameBytes.count)) + le(UInt32(descriptor.count)) + le(type) + padded(nameBytes) + padded(descriptor)
        }
        let version = note("GNU", type: 1, [0, 0, 0, 0, 3, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0])
        let other = note("Go", type: 3, [9, 9, 9, 9])
        let build = note("GNU", type: 3, [0xDE, 0xAD, 0xBE, 0xEF, 1])
        #expect((version + other + build).withUnsafeBytes { CachedFacts.buildID(inNotes: $0) } == [0xDE, 0xAD, 0xBE, 0xEF, 1])
        #expect((version + other).withUnsafeBytes { CachedFacts.buildID(inNotes: $0) } == nil)
        #expect(Array((version + build).dropLast(4)).withUnsafeBytes { CachedFacts.buildID(inNotes: $0) } == nil)
        #expect(CachedFacts.buildID(elfHeader: Array(repeating: 0, count: 64), read: { _, _ in nil }) == nil)
    }

    /// A record's checksum changes with any bit of it flipped (each step of the hash maps the
    /// running value one to one), and with a byte added or cut.
    @Test func everyBitOfARecordCountsInItsChecksum() throws {
        let engine = try LintEngine(rules: builtinRules)
        let path = try #require(Self.files.first { $0.hasSuffix(".MOV") || $0.hasSuffix(".mov") })
        let record = try #require(RecordCodec.encode(MediaInspector.inspect(path: path, displayPath: "a/b.x", options: .lint)
            .slimmedForLint(keeping: engine.metadataKeys)))
        #expect(record.count > 40)
        let sum = record.withUnsafeBytes { ScanCache.checksum($0) }
        for i in record.indices {
            for bit in 0..<8 {
                var damaged = record
                damaged[i] ^= 1 << bit
                #expect(damaged.withUnsafeBytes { ScanCache.checksum($0) } != sum, "byte \(i), bit \(bit)")
            }
        }
        #expect((record + [0]).withUnsafeBytes { ScanCache.checksum($0) } != sum)
        #expect(record.dropLast().withUnsafeBytes { ScanCache.checksum($0) } != sum)
    }

    /// A file's kind and format are read back by their names' bytes: every pair of them comes
    /// back as written, and a name no case has (another case's prefix, another case) is damage.
    @Test func kindsAndFormatsComeBackByName() throws {
        for kind in FileKind.allCases {
            for format in ContainerFormat.allCases {
                let file = MediaFile(path: "a/b.x", kind: kind, format: format)
                let record = try #require(RecordCodec.encode(file))
                let back = record.withUnsafeBytes { RecordCodec.decode($0, path: "a/b.x", names: RecordCodec.Names()) }
                #expect(back?.kind == kind && back?.format == format, "\(kind) \(format)")
            }
        }
        // The record starts with the kind's name, then the format's, each after its length (one
        // byte here).
        let record = try #require(RecordCodec.encode(MediaFile(path: "a/b.x", kind: .movie, format: .heic)))
        #expect(Array(record.prefix(11)) == [5] + Array("movie".utf8) + [4] + Array("heic".utf8))
        func decoded(kind: String, format: String) -> MediaFile? {
            let bytes = [UInt8(kind.utf8.count)] + Array(kind.utf8) + [UInt8(format.utf8.count)] + Array(format.utf8) + record.dropFirst(11)
            return bytes.withUnsafeBytes { RecordCodec.decode($0, path: "a/b.x", names: RecordCodec.Names()) }
        }
        let other = decoded(kind: "still", format: "heif")
        #expect(other?.kind == .still && other?.format == .heif)
        // A prefix, a longer name, another case of a letter, no name: damage.
        for (kind, format) in [("movi", "heic"), ("movies", "heic"), ("Movie", "heic"), ("", "heic"),
                               ("movie", "hei"), ("movie", "heics"), ("movie", "HEIC"), ("movie", "")] {
            #expect(decoded(kind: kind, format: format) == nil, "\(kind) \(format)")
        }
    }

    /// A scan drops a movie's tracks (the timeline) from the record it has instead of encoding the
    /// file again: what it keeps must be what encoding the file without them writes, and the
    /// decoder must find the tracks where the encoder put them.
    @Test func droppingTracksFromARecordIsEncodingWithoutThem() throws {
        let keys = try LintEngine(rules: builtinRules).metadataKeys
        var withTracks = 0
        for path in Self.files {
            let slim = MediaInspector.inspect(path: path, displayPath: "a/b.x", options: .lint).slimmedForLint(keeping: keys)
            guard let record = RecordCodec.encodeNotingTracks(slim) else { continue }
            var bare = slim
            bare.movie?.tracks = []
            let expected = try #require(RecordCodec.encode(bare))
            #expect(record.withoutTracks == expected, "\(path)")
            #expect((record.tracks != nil) == (slim.movie?.tracks.isEmpty == false), "\(path)")
            let decoded = record.bytes.withUnsafeBytes { RecordCodec.decodeNotingTracks($0, path: "a/b.x", names: RecordCodec.Names(keys)) }
            #expect(decoded?.tracks == record.tracks, "\(path)")
            if record.tracks != nil {
                withTracks += 1
                // The bytes without tracks decode to the file without them.
                let back = record.withoutTracks.withUnsafeBytes { RecordCodec.decode($0, path: "a/b.x", names: RecordCodec.Names(keys)) }
                #expect(back.map(Self.dumped) == Self.dumped(bare), "\(path)")
            }
        }
        #expect(withTracks > 0)
    }

    /// Decoded records share one copy of each name they repeat, found by its bytes: the same
    /// bytes give the same storage, other bytes (a canonically equal spelling included) another
    /// name, and past the limits names are made but not kept.
    @Test func namesAreSharedByTheirBytes() {
        let key = "com.apple.quicktime.content.identifier"
        let names = RecordCodec.Names([key])
        func share(_ s: String) -> String { Array(s.utf8).withUnsafeBytes { names.shared($0) } }
        func storage(_ s: String) -> UInt {
            var s = s
            return s.withUTF8 { UInt(bitPattern: $0.baseAddress) }
        }
        let a = share(key), b = share(key)
        #expect(a == key && b == key)
        #expect(storage(a) == storage(b))
        let nfc = share("Caf\u{E9} is a name long enough to be stored"), nfd = share("Cafe\u{301} is a name long enough to be stored")
        #expect(Array(nfc.utf8) == Array("Caf\u{E9} is a name long enough to be stored".utf8))
        #expect(Array(nfd.utf8) == Array("Cafe\u{301} is a name long enough to be stored".utf8))
        #expect(storage(share("Cafe\u{301} is a name long enough to be stored")) == storage(nfd))
        let long = String(repeating: "x", count: RecordCodec.Names.longest + 1)
        let long1 = share(long), long2 = share(long)  // both held: a freed one's address comes back
        #expect(long1 == long && long2 == long)
        #expect(storage(long1) != storage(long2))
        #expect(share("") == "")
        // Bytes that are not UTF-8 make a name with replacement characters, never kept (it could
        // not be found again by its bytes).
        let invalid = [UInt8](repeating: 0xC3, count: 20) + Array(" and some more text".utf8)
        let bad1 = invalid.withUnsafeBytes { names.shared($0) }, bad2 = invalid.withUnsafeBytes { names.shared($0) }
        #expect(bad1 == bad2 && bad1.contains("\u{FFFD}"))
        #expect(storage(bad1) != storage(bad2))
        for i in 0..<RecordCodec.Names.limit { _ = share("name \(i), long enough to need storage") }
        let late = "one more name, long enough to need storage"
        let late1 = share(late), late2 = share(late)
        #expect(late1 == late && late2 == late)
        #expect(storage(late1) != storage(late2))
        #expect(storage(share(key)) == storage(a))
    }

    @Test func damagedRecordsDecodeToNilOrAFileWithoutTrapping() throws {
        let keys = try LintEngine(rules: builtinRules).metadataKeys
        let pair = TestPaths.fixtures.appendingPathComponent("pair")
        for name in ["IMG_0001.JPG", "IMG_0001.MOV"] {
            let slim = MediaInspector.inspect(path: pair.appendingPathComponent(name).path, options: .lint).slimmedForLint(keeping: keys)
            let record = try #require(RecordCodec.encode(slim))
            let names = RecordCodec.Names(keys)
            // Every truncation is damaged (the record must end exactly where it is read to).
            for n in 0..<record.count {
                #expect(Array(record.prefix(n)).withUnsafeBytes { RecordCodec.decode($0, path: "x", names: names) } == nil)
            }
            // Byte changes never trap (a change may still decode: the checksum catches those).
            var rng = SplitMix(seed: 13)
            for _ in 0..<500 {
                var bad = record
                bad[Int.random(in: 0..<bad.count, using: &rng)] = UInt8.random(in: 0...255, using: &rng)
                _ = bad.withUnsafeBytes { RecordCodec.decode($0, path: "x", names: names) }
            }
        }
    }

    /// A file holding what a slim record cannot (tracks, here) is not cached rather than cut.
    @Test func fileWithMoreThanASlimRecordIsNotEncoded() {
        let movie = TestPaths.fixtures.appendingPathComponent("pair/IMG_0001.MOV").path
        let full = MediaInspector.inspect(path: movie, options: .dump)
        #expect(RecordCodec.encode(full) == nil)
    }
}

/// Per-file cost (issue 13): a scan asks exiv2 only for the makernote and the keys its enabled
/// rules declare, and what it keeps of each file is the same as when every table key is read.
@Suite struct StillKeyPrefixTests {
    @Test func onlyTheEnabledRulesKeysAreRead() throws {
        let engine = try LintEngine(rules: builtinRules)
        let prefixes = LibraryReader.stillKeyPrefixes(for: engine)
        let declared = Set(MetadataKey.table.filter { $0.reader == .exiv2 && engine.metadataKeys.contains($0.key) }.map(\.key))
        // The motion-photo rules read the motion photo record, which is made from its XMP claims.
        #expect(engine.metadataKeys.contains(MetadataKey.motionPhoto.key))
        let claims = Set(MetadataKey.motionPhotoClaims.map(\.key))
        #expect(Set(prefixes) == declared.union([MetadataKey.makerNote.key, MetadataKey.makerNoteGroup.key]).union(claims))
        // Without a rule that reads motion photos or an XMP key, no XMP group is asked for.
        let noMotion = try LintEngine(rules: builtinRules.filter {
            !$0.description.readsMetadata.contains(.motionPhoto) && !$0.description.readsMetadata.contains(.xmpContentIdentifier)
        })
        #expect(!LibraryReader.stillKeyPrefixes(for: noMotion).contains { $0.hasPrefix("Xmp.") })
        let none = try LintEngine(rules: [])
        #expect(LibraryReader.stillKeyPrefixes(for: none) == [MetadataKey.makerNote.key, MetadataKey.makerNoteGroup.key])
    }

    @Test func slimFilesAreTheSameAsWithEveryKeyRead() async throws {
        let engine = try LintEngine(rules: builtinRules)
        var roots = [TestPaths.fixtures.appendingPathComponent("library").path]
        if TestPaths.corpusPresent { roots.append(TestPaths.corpus.path) }
        for root in roots {
            let entries = LibraryWalker().files(in: [root]).entries
            var every = InspectOptions.lint
            every.stillKeyPrefixes = StillReadOptions.lintKeyPrefixes
            let narrow = await LibraryReader.read(entries, options: .lint, jobs: 2, engine: engine)
            let wide = await LibraryReader.read(entries, options: every, jobs: 2, engine: engine)
            #expect(narrow.files.count == wide.files.count && !narrow.files.isEmpty)
            #expect(narrow.files.map(RecordCodecTests.dumped) == wide.files.map(RecordCodecTests.dumped), "\(root)")
        }
    }
}

extension ScanCache {
    /// The file's cached record, decoded, shown as `displayPath`, when it is still valid for
    /// `stamp` (``lookup(key:displayPath:stamp:keepingBytes:droppingTracks:facts:appendingTo:)``
    /// without facts), its warning handed over.
    func record(key: String, displayPath: String, stamp: FileStamp) -> (file: MediaFile, bytes: [UInt8]?)? {
        var unused: [UInt8] = []
        defer { handOverWarning() }
        guard case .file(let file, let bytes, _, _)? = lookup(key: key, displayPath: displayPath, stamp: stamp, keepingBytes: false,
                                                              droppingTracks: false, facts: nil, appendingTo: &unused)
        else { return nil }
        return (file, bytes)
    }
}
