import Foundation
import LiveLintEngine
import LiveModel
import LiveReaders

/// Reads every file of a scan concurrently, a bounded number at a time, and returns them in
/// display-path order whatever the scheduling.
///
/// Each file is slimmed (``MediaFile/slimmedForLint(keeping:)``, keeping what the engine's rules
/// read) and checked by the engine's file rules (``LintEngine/fileFindings(_:)``) inside the
/// task that read it (a few files a task), right after it is read, so memory holds at most `jobs`
/// fully-read files (and up to ``largestBatch`` slim ones a task, waiting for its batch) plus, per file
/// kept, a summary and its slim record (or, with `spill`, the record's place in a temporary file:
/// ``ScanRecords``), and the file rules run once per file, in parallel; with a `shard`, files
/// of other shards are dropped there too. A Takeout sidecar matching a file (``SidecarIndex``) is
/// read and attached to it before the file rules run. Without `keepTimeline` (only the HTML report
/// draws it) the video track kept for the timeline is dropped once the cache has its record.
enum LibraryReader {
    /// How far past the first file not yet delivered the cache's answers are handed over while a
    /// read runs (a few hundred KiB of waiting summaries at most).
    static let deliveryWindow = 4096
    /// Files a batch of the cache's lookahead holds (``CacheLookahead``).
    static let lookaheadBatch = 512
    /// How many summaries come between two calls to `FileSummary.holdNames`: the long names of
    /// at most that many are held as strings of their own at a time.
    static let holdNamesEvery = 4_096

    /// One file read, as the consumer of `read` sees it.
    struct Read {
        var displayPath: String
        /// Nil when the file belongs to another shard.
        var file: MediaFile?
        var findings: [Finding]
        /// `findings.count` after the baseline, when asked for (`countKept`), else 0.
        var kept: Int
        /// True when the file came from the cache rather than being read.
        var fromCache = false
        /// The file's record for a spilling ``ScanRecords`` (``RecordCodec``), made in its task.
        var encoded: [UInt8]?
        /// What the cache kept of an unchanged file, used instead of `file` (not decoded then):
        /// its summary and file findings (its record is handed to the delivery where it lies).
        var facts: CachedFacts?
        /// What the file brings to its bucket's key: its record's checksum as the cache keeps it and
        /// its display path (``FileKey/of(pathHash:checksum:sidecar:)``), made where the checksum is
        /// known: the cache's lookup, the read, or the delivery of a record decoded for want of facts.
        var key = FileKey.unknown

        /// False for a file of another shard.
        var inShard: Bool { file != nil || facts != nil }
    }

    /// What a scan read: a summary of each file kept (display-path order), the full records they
    /// point into, and what the file rules found (in the same order).
    struct Library {
        /// The summaries, when they are held in memory (``stored`` nil).
        var summaries: [FileSummary]
        var records: ScanRecords
        /// What the file rules found, in walk order (to be sorted with the rest).
        var fileFindings: FindingSorter
        /// The most summaries that waited at once for an earlier file's read (for the tests: the
        /// delivery window bounds it).
        var mostWaiting = 0
        /// True when the cache was looked up on a thread of its own (``CacheLookahead``; for the tests).
        var lookedAhead = false
        /// The summaries, when they wait in a temporary file instead (`storeSummaries`), with
        /// what ties them (``PartitionBuilder``).
        var stored: SummaryFile?
        var ties = PartitionBuilder()
        /// Where the engine keeps each bucket's outcome, for summaries stored with their keys
        /// (a scan with a cache that worked: ``OutcomeCache``).
        var outcomes: OutcomeCache?

        /// The summaries in memory from here on (for what must add to them: call it first), their
        /// long names held by their folders as the read holds them. While ``stored`` is set,
        /// ``summaries`` is empty.
        mutating func holdSummaries() {
            guard let stored else { return }
            summaries = (0..<stored.count).map { stored.summary($0) }
            FileSummary.holdNames(in: &summaries, from: 0)
            self.stored = nil
            ties = PartitionBuilder()
            outcomes = nil
        }

        /// The full records, in display-path order (for callers that want them all at once).
        var files: [MediaFile] { summaries.map { records.file($0) } }
    }

    /// Reads `entries`; returns the files kept (summaries in display-path order, full records in
    /// ``ScanRecords``, spilled to a temporary file when `spill`), and what the file rules found
    /// on them (in the same order). `onRead` is called once per entry, in completion order, from the calling
    /// task; `countKept` asks for the baseline-filtered count of each file's findings (a progress
    /// display shows it; nothing else needs the extra work).
    ///
    /// With a `cache`, each file is stat'ed first and its record taken from the cache when still
    /// valid (the slim file, checked by the file rules like a read one); every file read is
    /// recorded in it (before the shard is applied: every shard reads every file). A spilling
    /// scan takes an unchanged file's summary and file findings from the facts kept with its record
    /// (``CachedFacts``) and spills the record as it is, without decoding or checking the file;
    /// when there are none under this run's file rules and display path, it keeps its own.
    /// With `keyFiles` (and `storeSummaries`), each stored summary is tied with its file's key
    /// (``FileKey``), for the engine to keep its bucket's outcome (``OutcomeCache``).
    ///
    /// Each entry is asked for once, in order, and released once taken: a walk's listing frees
    /// its chunks as the read goes (issue 13).
    static func read<Entries: LibraryWalker.Entries>(
        _ entries: consuming Entries, options: InspectOptions, jobs: Int, shard: Shard? = nil, engine: LintEngine,
        cache: ScanCache? = nil, sidecars: SidecarIndex = SidecarIndex(), keepTimeline: Bool = true,
        countKept: Bool = false, spill: Bool = false, storeSummaries: Bool = false, scratchRun: Int? = nil,
        deliveryWindow: Int = LibraryReader.deliveryWindow, lookaheadBatch: Int = LibraryReader.lookaheadBatch,
        keyFiles: Bool = false, onRead: (Read) -> Void = { _ in }
    ) async -> Library {
        // Optional so that the cache's lookahead can take them (``CacheLookahead``).
        var entries: Entries? = consume entries
        // Read once: `entries.count` in the loop below copied the listing out of the variable
        // the loop captures, a file (a retain and a release of each of its buffers).
        let total = entries!.count
        var scanOptions = options
        if !options.everything, options.stillKeyPrefixes == nil { scanOptions.stillKeyPrefixes = stillKeyPrefixes(for: engine) }
        let options = scanOptions
        // The summaries in walk order, appended as they come: a read that finishes before an
        // earlier one waits in `waiting` (a few: what the tasks running at once read), so the scan holds
        // one array of them, of the exact size, not a list by index and its compacted copy
        // (issue 13: a library-sized scan's summaries are its largest array).
        var summaries: [FileSummary] = []
        // With `storeSummaries`, they go to a temporary file instead, as long as each path comes
        // after the one before it (what the engine reading them back relies on; otherwise they
        // are read back into memory at the end), each tied to what it shares (``Partition``).
        let stored = storeSummaries ? SummaryFile() : nil
        var ties = PartitionBuilder()
        var lastStored: FileSummary?
        var storedInOrder = true
        // A shard's share of the files, with room for the hash's spread (a few standard deviations).
        let expected = shard.map { s in
            let share = total / max(1, s.count)
            return share + 4 * Int(Double(share).squareRoot()) + 16
        } ?? total
        if stored == nil {
            summaries.reserveCapacity(expected)
        } else {
            // With `keyFiles`, each file's key too: the buckets' outcomes can be kept (``BucketOutcomes``).
            ties = PartitionBuilder(capacity: expected, spillingIn: ScanRecords.temporaryDirectory, runSize: scratchRun,
                                    keyed: keyFiles)
        }
        func keep(_ summary: FileSummary, key: FileKey) {
            guard let stored else {
                summaries.append(summary)
                return
            }
            if storedInOrder, let lastStored, FileSummary.comparePaths(lastStored, summary) >= 0 { storedInOrder = false }
            stored.append(summary)
            ties.add(summary, key: key)
            lastStored = summary
        }
        // With each, its file findings (in walk order in `found`, so that findings the report's
        // order ties stay in the order they always had).
        var waiting: [Int: (summary: FileSummary?, key: FileKey, findings: [Finding])] = [:]
        var mostWaiting = 0
        var nextIndex = 0
        // A scan that stores its summaries is library-sized: the records' slots go to disk too.
        let records = ScanRecords(spill: spill, metadataKeys: engine.metadataKeys, capacity: total, slotsOnDisk: storeSummaries)
        // Facts serve only a spilling scan with a cache (the build's ID is read only then).
        let rulesSignature = spill && cache?.isUsable == true ? CachedFacts.rulesSignature(engine) : nil
        // Past a run's worth, in runs on disk (a library with a finding on every file: issue 13).
        let found = FindingSorter(spillingIn: ScanRecords.temporaryDirectory, runSize: scratchRun)
        let limit = max(1, jobs)
        let started = ScanClock.now()

        /// A file as this run holds it, whether read or taken from the cache: its Takeout sidecar
        /// attached (read fresh, never cached), and without the timeline when no report draws it
        /// (the cache keeps it for the runs that do).
        @Sendable func prepare(_ file: inout MediaFile, _ entry: LibraryWalker.Entry, _ sidecar: SidecarIndex.Match?) {
            if !keepTimeline { dropTimeline(&file) }
            if file.kind != .unknown { file.sidecar = sidecars.sidecar(for: entry, matching: sidecar) }
        }

        /// What a spilling store keeps for the file `read` kept: `record`, its record as read or
        /// cached and as this run holds it (without the tracks `prepare` drops), else the file
        /// encoded anew; nil (held in memory) without spilling, for a file of another shard, and
        /// for a file with a sidecar, which records do not carry.
        @Sendable func spillRecord(_ read: Read, record: @autoclosure () -> [UInt8]?) -> [UInt8]? {
            guard spill, let file = read.file, file.sidecar == nil else { return nil }
            return record() ?? RecordCodec.encode(file)
        }

        // The folders of the last few files delivered, shared by the next files in them.
        var folders = RecentFolders()
        // The summaries before this one have their long names held by their folders.
        var namesHeld = 0

        /// `record`: the record of a file the cache's facts stand for (``Read/facts``), where it lies.
        func deliver(_ index: Int, _ read: Read, record: UnsafeRawBufferPointer? = nil) {
            let summary: FileSummary?
            if let facts = read.facts, let record {
                let slot = records.append(path: read.displayPath, kind: facts.kind, format: facts.format, encoded: record)
                summary = facts.summary(path: read.displayPath, slot: slot, folders: &folders)
            } else {
                summary = read.file.map { FileSummary($0, slot: records.append($0, encoded: read.encoded), folders: &folders) }
            }
            if index == nextIndex {
                if let summary { keep(summary, key: read.key) }
                found.append(contentsOf: read.findings)
                nextIndex += 1
                while let next = waiting.removeValue(forKey: nextIndex) {
                    if let summary = next.summary { keep(summary, key: next.key) }
                    found.append(contentsOf: next.findings)
                    nextIndex += 1
                }
                if summaries.count - namesHeld >= Self.holdNamesEvery {
                    FileSummary.holdNames(in: &summaries, from: namesHeld)
                    namesHeld = summaries.count
                }
            } else {
                waiting[index] = (summary, read.key, read.findings)
                mostWaiting = max(mostWaiting, waiting.count)
            }
            onRead(read)
        }

        /// Delivers a file the cache answered with its record, decoded (`file`; no facts of this
        /// run's signature were kept with it): checked like a file read, and its facts stored.
        func deliverCached(_ file: MediaFile, bytes: [UInt8]?, checksum: Int64, tracks: Range<Int>?, job: Job) {
            var file = file
            prepare(&file, job.entry, job.sidecar)
            var read = check(file, displayPath: job.entry.displayPath, shard: shard, engine: engine, countKept: countKept)
            read.fromCache = true
            read.key = FileKey.of(pathHash: job.pathHash, checksum: checksum, sidecar: read.file?.sidecar != nil)
            read.encoded = spillRecord(read, record: bytes)
            if let signature = job.signature, let key = job.key, let kept = read.file,
               let facts = CachedFacts(kept, findings: read.findings, tracks: tracks, signature: signature, recordChecksum: checksum) {
                cache?.store(ScanCache.FactsUpdate(key: key, checksum: checksum, facts: facts.encoded))
            }
            deliver(job.index, read)
        }

        // Facts serve a scan whose records wait outside memory, as bytes (no rules' signature
        // otherwise): such a scan looks its files up on the lookahead's thread, so the files
        // looked up here never ask for facts.
        let asking = CacheLookup.Asking(cache: cache, sidecars: sidecars, rulesSignature: records.isSpilling ? rulesSignature : nil,
                                        keepingBytes: spill, droppingTracks: !keepTimeline, keyingFiles: keyFiles && stored != nil)
        // A library-sized scan looks its files up on a thread of its own, ahead of this task;
        // a smaller one here, a file at a time, into one batch.
        let lookahead: CacheLookahead<Entries>? = if let cache, spill, records.isSpilling, cache.isUsable {
            CacheLookahead(entries.take()!, asking: asking, batchFiles: lookaheadBatch)
        } else {
            nil
        }
        let here = CacheLookup.Batch()

        @Sendable func readJob(_ job: Job) -> (Int, Read, ScanCache.Record?) {
            let entry = job.entry
            let file = MediaInspector.inspect(path: entry.path, displayPath: entry.displayPath, options: options)
            var slim = file.slimmedForLint(keeping: engine.metadataKeys)
            // A file the system would not hand over (gone, refused, an I/O error) is not
            // kept: its stamp is the walk's, and what made the read fail (a folder above it
            // renamed or locked meanwhile) leaves the file's own stamp as it was.
            var encoded: RecordCodec.Encoded?
            var toStore: ScanCache.Record?
            if let key = job.key, let stamp = job.stamp, slim.error?.category != .io, let record = RecordCodec.encodeNotingTracks(slim) {
                encoded = record
                toStore = ScanCache.Record(key: key, stamp: stamp, bytes: record.bytes)
            }
            // After the record is made: what `prepare` changes is never cached.
            prepare(&slim, entry, job.sidecar)
            var read = check(slim, displayPath: entry.displayPath, shard: shard, engine: engine, countKept: countKept)
            read.key = FileKey.of(pathHash: job.pathHash, checksum: toStore?.checksum, sidecar: read.file?.sidecar != nil)
            read.encoded = spillRecord(read, record: encoded.map { keepTimeline ? $0.bytes : $0.withoutTracks })
            // Its facts (made after `prepare`: a file given a sidecar gets none).
            if let signature = job.signature, let kept = read.file, let checksum = toStore?.checksum {
                toStore?.facts = CachedFacts(kept, findings: read.findings, tracks: encoded?.tracks, signature: signature,
                                             recordChecksum: checksum)?.encoded
            }
            return (job.index, read, toStore)
        }

        await withTaskGroup(of: [(Int, Read, ScanCache.Record?)].self) { group in
            var next = 0
            var running = 0
            /// Starts the next reads, a few files in one task (``batchSize(remaining:jobs:)``; files
            /// in a row that the cache does not answer: a changed file among unchanged ones is read
            /// in a task of its own, beside the next), delivering on the way the files the cache
            /// answers; false when none was started.
            /// While reads run, it hands over no file more than ``deliveryWindow`` past the first
            /// one not yet delivered: files the cache answers behind a slow read wait in
            /// `waiting`, and that stays small.
            func submit() -> Bool {
                var batch: [Job] = []
                let size = Self.batchSize(remaining: total - next, jobs: limit)
                while next < total, batch.count < size {
                    if running > 0 || !batch.isEmpty, next - nextIndex >= deliveryWindow { break }
                    let index = next
                    next += 1
                    let (held, answer): (CacheLookup.Batch, CacheLookup.Answer)
                    if let lookahead {
                        (held, answer) = lookahead.next()
                    } else {
                        let entry = entries![index]
                        entries!.release(below: next)
                        here.empty()
                        (held, answer) = (here, CacheLookup.answer(entry, index: index, asking: asking, into: here))
                    }
                    // A warning the lookup made, shown from here (the progress display's task).
                    cache?.handOverWarning()
                    switch answer {
                    case .miss(let job):
                        batch.append(job)
                        continue
                    case .facts(let facts, let displayPath, let record, let key):
                        var read = checked(facts, displayPath: String(decoding: held.bytes[displayPath], as: UTF8.self), shard: shard,
                                           engine: engine, countKept: countKept)
                        read.key = key
                        held.bytes.withUnsafeBytes { deliver(index, read, record: UnsafeRawBufferPointer(rebasing: $0[record])) }
                    case .file(let file, let bytes, let checksum, let tracks, let job):
                        deliverCached(file, bytes: bytes, checksum: checksum, tracks: tracks, job: job)
                    }
                    // A file the cache answers ends a batch of reads (it is not read beside them).
                    if batch.isEmpty { continue } else { break }
                }
                guard !batch.isEmpty else { return false }
                group.addTask { [batch] in batch.map(readJob) }
                running += 1
                return true
            }
            while running < limit, submit() {}
            while let reads = await group.next() {
                running -= 1
                for (index, read, toStore) in reads {
                    if let toStore { cache?.store(toStore, now: started) }
                    deliver(index, read)
                }
                while running < limit, submit() {}
            }
        }
        lookahead?.finish()
        cache?.finish()
        assert(waiting.isEmpty, "every file is delivered, by the cache or by its read")
        FileSummary.holdNames(in: &summaries, from: namesHeld)
        var library = Library(summaries: summaries, records: records, fileFindings: found, mostWaiting: mostWaiting,
                              lookedAhead: lookahead != nil)
        if let stored {
            lastStored = nil
            stored.finish()
            library.stored = stored
            library.ties = ties
            if !storedInOrder { library.holdSummaries() }
        }
        return library
    }

    /// A file to read, with what its read needs from the walk and the cache.
    struct Job: Sendable {
        let index: Int
        let entry: LibraryWalker.Entry
        let key: String?
        let stamp: FileStamp?
        let signature: UInt64?
        let sidecar: SidecarIndex.Match?
        /// ``CachedFacts/pathHash(_:)`` of its display path, when the cache asks for facts or
        /// bucket keys.
        let pathHash: UInt64?
    }

    /// The files one read task takes: up to ``largestBatch`` while many are left, fewer towards
    /// the end so that `jobs` tasks still share the last files evenly. A task a file, created,
    /// woken and awaited for each, cost about 6 % of an uncached lint's CPU on small files (issue
    /// 13); a real movie takes long enough that a batch of them balances as well.
    static func batchSize(remaining: Int, jobs: Int) -> Int {
        max(1, min(largestBatch, remaining / (4 * max(1, jobs))))
    }

    /// The most files one read task takes.
    static let largestBatch = 8

    /// Drops the video track slimming keeps for the HTML report's timeline (``PairMedia``; no rule
    /// reads it): about 160 bytes a movie whose edit list does more than show the whole track.
    private static func dropTimeline(_ file: inout MediaFile) {
        guard file.movie?.tracks.isEmpty == false else { return }
        file.movie?.tracks = []
    }

    /// The exiv2 entries a still is read for under `engine`: the makernote (the identifier, and
    /// whether it is Apple's) and the exiv2 keys its enabled rules declare, in table order; the
    /// other entries of `MetadataKey.table` (XMP groups no enabled rule reads, say) are not asked for.
    static func stillKeyPrefixes(for engine: LintEngine) -> [String] {
        // The motion photo reader works from the XMP claims exiv2 hands back.
        let claims: Set<MetadataKey> = engine.metadataKeys.contains(MetadataKey.motionPhoto.key)
            ? Set(MetadataKey.motionPhotoClaims) : []
        return MetadataKey.table.filter { key in
            key.reader == .exiv2 && (key == .makerNote || key == .makerNoteGroup || engine.metadataKeys.contains(key.key)
                                     || claims.contains(key))
        }.map(\.key)
    }

    /// An unchanged file as its cached facts give it: dropped when of another shard, else with the
    /// file findings kept with the facts.
    private static func checked(_ facts: CachedFacts, displayPath: String, shard: Shard?, engine: LintEngine,
                                countKept: Bool) -> Read {
        if let shard, !shard.contains(kind: facts.kind, identifier: facts.identifier.string, path: displayPath) {
            return Read(displayPath: displayPath, file: nil, findings: [], kept: 0, fromCache: true)
        }
        let kept = countKept ? engine.countAfterBaseline(facts.findings) : 0
        return Read(displayPath: displayPath, file: nil, findings: facts.findings, kept: kept, fromCache: true, facts: facts)
    }

    /// A slim file as the scan keeps it: dropped when of another shard, else with its file findings.
    private static func check(_ slim: MediaFile, displayPath: String, shard: Shard?, engine: LintEngine, countKept: Bool) -> Read {
        if let shard, !shard.contains(slim) {
            return Read(displayPath: displayPath, file: nil, findings: [], kept: 0)
        }
        let findings = engine.fileFindings(slim)
        let kept = countKept ? engine.countAfterBaseline(findings) : 0
        return Read(displayPath: displayPath, file: slim, findings: findings, kept: kept)
    }
}

/// The wall clock in nanoseconds since 1970, as file timestamps count.
enum ScanClock {
    static func now() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
    }
}

extension LibraryReader.Library {
    /// Pairs and checks what was read with `engine` (`lint` and `fix` alike): bucket by bucket from
    /// the stored summaries, with `partition` (``LintEngine/run(stored:ties:store:root:fileFindings:onPair:afterPhase:partition:scratch:runSize:media:bucketOutcomes:onCachedPairs:)``,
    /// the stored summaries let go once the buckets are done), else from the summaries held, which
    /// go into the engine's pairs (the only copy while it runs). Past `spillAbove` files held, the
    /// pages pairing and the scan rules freed go back to the system as each ends (a small scan's few
    /// pages are not worth the call).
    mutating func check(with engine: LintEngine, root: String, onPair: @escaping (LivePair, [Finding]) -> Void,
                        onCachedPairs: ((Int) -> Void)? = nil, partition: Int?, spillAbove: Int, scratchRun: Int?,
                        media: Bool) -> LintResult {
        if let stored, let partition {
            assert(summaries.isEmpty, "summaries are held or stored, never both (holdSummaries)")
            let ties = ties
            self.ties = PartitionBuilder()
            defer { self.stored = nil }
            return engine.run(stored: stored, ties: ties, store: records, root: root, fileFindings: fileFindings,
                              onPair: onPair, afterPhase: { HeapTrim.returnFreedPages() }, partition: partition,
                              scratch: ScanRecords.temporaryDirectory, runSize: scratchRun, media: media,
                              bucketOutcomes: outcomes, onCachedPairs: onCachedPairs)
        }
        holdSummaries()
        let held = summaries
        summaries = []
        let trims = held.count > spillAbove
        return engine.run(summaries: consume held, store: records, root: root, fileFindings: fileFindings,
                          onPair: onPair, afterPhase: trims ? { HeapTrim.returnFreedPages() } : nil, partition: partition,
                          media: media)
    }
}

extension FileKey {
    /// The key a file brings to its bucket: its record's `checksum` and its display path (whose
    /// ``CachedFacts/pathHash(_:)`` is `pathHash`); unknown without a checksum, or with a Takeout
    /// `sidecar` (which records do not carry), its mark the path's still; unknown altogether
    /// without a path hash (the scan keys no file).
    static func of(pathHash: UInt64?, checksum: Int64?, sidecar: Bool) -> FileKey {
        guard let pathHash else { return .unknown }
        let mark = UInt32(truncatingIfNeeded: pathHash >> 32)
        guard let checksum, !sidecar else { return FileKey(key: 0, mark: mark) }
        let key = Mix.combine(UInt64(bitPattern: checksum), pathHash)
        return FileKey(key: key == 0 ? 1 : key, mark: mark)
    }
}
