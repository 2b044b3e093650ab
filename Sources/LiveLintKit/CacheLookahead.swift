import Foundation
import LiveLintEngine
import LiveModel
import LiveReaders

/// What the cache says of each file of a scan, asked in the listing's order (the cache's cursor
/// steps through its rows in that order): by ``CacheLookahead``'s thread in a library-sized scan,
/// else by the task delivering the files, one at a time.
enum CacheLookup {
    enum Answer {
        /// Unchanged, with its facts: its display path's and its record's bytes at `displayPath`
        /// and `record` in the batch (the record cut when the run draws no timeline), and the key
        /// it brings to its bucket.
        case facts(CachedFacts, displayPath: Range<Int>, record: Range<Int>, key: FileKey)
        /// Unchanged, without facts of this run's signature: decoded (``ScanCache/Hit/file(_:bytes:checksum:tracks:)``).
        case file(MediaFile, bytes: [UInt8]?, checksum: Int64, tracks: Range<Int>?, job: LibraryReader.Job)
        /// Changed, new, not answered, or no cache: to be read.
        case miss(LibraryReader.Job)
    }

    /// Files' answers, in order, and the bytes they point into.
    final class Batch {
        var answers: [Answer] = []
        var bytes: [UInt8] = []

        func empty() {
            answers.removeAll(keepingCapacity: true)
            bytes.removeAll(keepingCapacity: true)
        }
    }

    /// How a scan asks: its cache (nil: none), the Takeout sidecars, ``CachedFacts/rulesSignature(_:build:)``
    /// when facts are asked for (for a file no sidecar may describe), whether a record's bytes
    /// are kept (a spilling scan) and cut of their tracks (a run that draws no timeline), and
    /// whether each file's bucket key is made (``FileKey``).
    struct Asking: Sendable {
        let cache: ScanCache?
        let sidecars: SidecarIndex
        let rulesSignature: UInt64?
        let keepingBytes: Bool
        let droppingTracks: Bool
        let keyingFiles: Bool
    }

    /// `entry`'s answer (file `index` of the scan), what it points into put in `batch`'s bytes.
    /// A cache that stopped working (a disk filled on a write) keeps no more: the file is read as
    /// without one (no key, stamp or facts made for it).
    static func answer(_ entry: LibraryWalker.Entry, index: Int, asking: Asking, into batch: Batch) -> Answer {
        // Its Takeout sidecar's name, matched once (most libraries have none).
        let sidecar = asking.sidecars.matching(entry)
        // The display path hashed once, for the facts' signature and the bucket key (whose mark,
        // where a bucket may end, is the path's alone: made when the cache stopped working too).
        let pathHash = asking.rulesSignature != nil || asking.keyingFiles ? CachedFacts.pathHash(entry.displayPath) : nil
        guard let cache = asking.cache, cache.isUsable else {
            return .miss(LibraryReader.Job(index: index, entry: entry, key: nil, stamp: nil, signature: nil, sidecar: sidecar,
                                           pathHash: asking.keyingFiles ? pathHash : nil))
        }
        let key = cache.key(for: entry.path)
        let stamp = entry.stat ?? FileStamp(path: entry.path)
        // Facts serve a file no Takeout sidecar may describe (sidecars are read fresh).
        let signature = sidecar == nil ? asking.rulesSignature.flatMap { rules in pathHash.map { CachedFacts.signature(rules: rules, pathHash: $0) } } : nil
        let job = { LibraryReader.Job(index: index, entry: entry, key: key, stamp: stamp, signature: signature, sidecar: sidecar,
                                      pathHash: pathHash) }
        guard let stamp, let hit = cache.lookup(key: key, displayPath: entry.displayPath, stamp: stamp, keepingBytes: asking.keepingBytes,
                                                droppingTracks: asking.droppingTracks, facts: signature, appendingTo: &batch.bytes)
        else { return .miss(job()) }
        switch hit {
        case .facts(let facts, let record):
            let start = batch.bytes.count
            var displayPath = entry.displayPath
            displayPath.withUTF8 { batch.bytes.append(contentsOf: $0) }
            return .facts(facts, displayPath: start..<batch.bytes.count, record: record,
                          key: FileKey.of(pathHash: pathHash, checksum: facts.recordChecksum, sidecar: false))
        case .file(let file, let bytes, let checksum, let tracks):
            return .file(file, bytes: bytes, checksum: checksum, tracks: tracks, job: job())
        }
    }
}

/// A library-sized scan's files looked up in the cache on a thread of their own, a few batches
/// ahead of the task that delivers them (``LibraryReader``).
///
/// On a cached run, the task delivering the cache's answers was the run's one busy core for a
/// third of its time (issue 13: 400 of 1,150 ms on 100,000 fixture pairs), half of it taking
/// each file from the walk's listing and looking it up. This thread does that part: it takes
/// each file from the listing (and frees the listing's chunks as it goes), finds its Takeout
/// sidecar's name, stats it when the walk did not, and looks it up, in the listing's order (the
/// cache's cursor steps through its rows in that order). What crosses to the delivering task is
/// laid out so that the one thread seldom frees what the other made (a lookahead that handed
/// each answer's memory over, tried before, lost its gain to the allocator's locks): a batch's
/// display paths and records are bytes in one buffer of the batch, its facts are values, and the
/// batches go back and forth, reused. What crosses with memory of its own: a file the cache does
/// not answer (a read is made for it, from its entry), one it answers without facts (decoded
/// here), and the findings and error text of a file that has any.
///
/// Facts are asked for as long as the cache answers, even once the scan's records stopped going
/// to disk (a write refused): the delivering task then decodes such a record and holds it, with
/// the summary and findings its facts give, which are those the file would give.
final class CacheLookahead<Entries: LibraryWalker.Entries>: @unchecked Sendable {
    /// Batches looked up and waiting, at most (about 200 KiB each of 512 small files); with the
    /// one being delivered, four at most are held (one is filled only while fewer wait).
    static var batchesAhead: Int { 3 }
    /// Files a batch holds (``LibraryReader/lookaheadBatch``).
    private let batchFiles: Int

    /// Until the thread takes them (``run()``): read from a property, every entry copied the
    /// whole listing out of it first (issue 13).
    private var entries: Entries?
    private let total: Int
    private let asking: CacheLookup.Asking

    private let condition = NSCondition()
    /// Guarded by `condition`: batches looked up, in order; emptied ones to reuse; whether the
    /// thread is done.
    private var ready: [CacheLookup.Batch] = []
    private var spare: [CacheLookup.Batch] = []
    private var done = false
    /// The delivering task's batch and place in it (that task alone).
    private var current: CacheLookup.Batch?
    private var position = 0

    /// Starts looking up `entries` as `asking` says, `batchFiles` files a batch.
    init(_ entries: consuming Entries, asking: CacheLookup.Asking, batchFiles: Int) {
        self.batchFiles = max(1, batchFiles)
        total = entries.count
        self.entries = consume entries
        self.asking = asking
        let thread = Thread { [self] in run() }
        thread.name = "livelint cache lookahead"
        // As large as the main thread's and libdispatch's workers' on Linux (8 MiB): a record
        // without facts is decoded here, as it is there.
        thread.stackSize = 8 << 20
        thread.start()
    }

    /// The next file's answer and the batch whose bytes it points into (valid until the next
    /// call). Called once for each file, in order.
    func next() -> (batch: CacheLookup.Batch, answer: CacheLookup.Answer) {
        if let current, position < current.answers.count {
            position += 1
            return (current, current.answers[position - 1])
        }
        condition.lock()
        if let current { spare.append(current) }
        current = nil
        condition.broadcast()
        while ready.isEmpty {
            precondition(!done, "every file is asked for once (CacheLookahead.next)")
            condition.wait()
        }
        let batch = ready.removeFirst()
        condition.unlock()
        current = batch
        position = 1
        return (batch, batch.answers[0])
    }

    /// Waits until every file is looked up: the thread makes no more calls to the cache, which
    /// is then the caller's alone (the thread returns right after).
    func finish() {
        condition.lock()
        while !done { condition.wait() }
        condition.unlock()
    }

    private func run() {
        var entries = entries.take()!
        var index = 0
        while index < total {
            condition.lock()
            while ready.count >= Self.batchesAhead { condition.wait() }
            let batch = spare.popLast() ?? CacheLookup.Batch()
            condition.unlock()
            batch.empty()
            let end = min(total, index + batchFiles)
            while index < end {
                let entry = entries[index]
                index += 1
                entries.release(below: index)
                batch.answers.append(CacheLookup.answer(entry, index: index - 1, asking: asking, into: batch))
            }
            condition.lock()
            ready.append(batch)
            condition.broadcast()
            condition.unlock()
        }
        condition.lock()
        done = true
        condition.broadcast()
        condition.unlock()
    }
}
