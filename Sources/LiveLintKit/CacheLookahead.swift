import Foundation
import LiveLintEngine
import LiveModel
import LiveReaders

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
    /// A file's answer, in a batch.
    struct Item {
        /// The display path's bytes in the batch's ``Batch/bytes``.
        var displayPath: Range<Int>
        var answer: Answer
    }

    enum Answer {
        /// Unchanged, with its facts: its record's bytes at `record` in the batch (cut when the
        /// run draws no timeline).
        case facts(CachedFacts, record: Range<Int>)
        /// Unchanged, without facts of this run's signature: decoded (``ScanCache/Hit/file(_:bytes:checksum:tracks:)``).
        case file(MediaFile, bytes: [UInt8]?, checksum: Int64, tracks: Range<Int>?, job: LibraryReader.Job)
        /// Changed, new, or not answered: to be read.
        case miss(LibraryReader.Job)
    }

    /// Files' answers, in order, and the bytes they point into.
    final class Batch {
        var items: [Item] = []
        var bytes: [UInt8] = []
    }

    /// Batches looked up and waiting, at most (about 200 KiB each of 512 small files); with the
    /// one being delivered, four at most are held (one is filled only while fewer wait).
    static var batchesAhead: Int { 3 }
    /// Files a batch holds (``LibraryReader/lookaheadBatch``).
    private let batchFiles: Int

    private var entries: Entries
    private let total: Int
    private let cache: ScanCache
    private let sidecars: SidecarIndex
    /// ``CachedFacts/rulesSignature(_:build:)``: facts are asked for only with it.
    private let rulesSignature: UInt64?
    private let droppingTracks: Bool

    private let condition = NSCondition()
    /// Guarded by `condition`: batches looked up, in order; emptied ones to reuse; whether the
    /// thread is done.
    private var ready: [Batch] = []
    private var spare: [Batch] = []
    private var done = false
    /// The delivering task's batch and place in it (that task alone).
    private var current: Batch?
    private var position = 0

    /// Starts looking up `entries` in `cache` (which must be usable), asking for facts under
    /// `rulesSignature` (for a file no sidecar may describe), the records cut of their tracks
    /// when `droppingTracks`, `batchFiles` files a batch.
    init(_ entries: consuming Entries, cache: ScanCache, sidecars: SidecarIndex, rulesSignature: UInt64?,
         droppingTracks: Bool, batchFiles: Int) {
        self.batchFiles = max(1, batchFiles)
        self.entries = entries
        total = self.entries.count
        self.cache = cache
        self.sidecars = sidecars
        self.rulesSignature = rulesSignature
        self.droppingTracks = droppingTracks
        let thread = Thread { [self] in run() }
        thread.name = "livelint cache lookahead"
        // As large as the main thread's and libdispatch's workers' on Linux (8 MiB): a record
        // without facts is decoded here, as it is there.
        thread.stackSize = 8 << 20
        thread.start()
    }

    /// The next file's answer and the batch whose bytes it points into (valid until the next
    /// call). Called once for each file, in order.
    func next() -> (batch: Batch, item: Item) {
        if let current, position < current.items.count {
            position += 1
            return (current, current.items[position - 1])
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
        return (batch, batch.items[0])
    }

    /// Waits until every file is looked up: the thread makes no more calls to the cache, which
    /// is then the caller's alone (the thread returns right after).
    func finish() {
        condition.lock()
        while !done { condition.wait() }
        condition.unlock()
    }

    private func run() {
        var index = 0
        while index < total {
            condition.lock()
            while ready.count >= Self.batchesAhead { condition.wait() }
            let batch = spare.popLast() ?? Batch()
            condition.unlock()
            batch.items.removeAll(keepingCapacity: true)
            batch.bytes.removeAll(keepingCapacity: true)
            let end = min(total, index + batchFiles)
            while index < end {
                let entry = entries[index]
                index += 1
                entries.release(below: index)
                batch.items.append(lookUp(entry, index: index - 1, into: batch))
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

    /// `entry`'s answer, its display path and record put in `batch`'s bytes.
    private func lookUp(_ entry: LibraryWalker.Entry, index: Int, into batch: Batch) -> Item {
        let start = batch.bytes.count
        var displayPath = entry.displayPath
        displayPath.withUTF8 { batch.bytes.append(contentsOf: $0) }
        let path = start..<batch.bytes.count
        let sidecar = sidecars.matching(entry)
        // A cache that stopped working (a disk filled on a write) keeps no more: the file is read
        // as without one (no key, stamp or facts made for it).
        guard cache.isUsable else {
            return Item(displayPath: path, answer: .miss(LibraryReader.Job(index: index, entry: entry, key: nil, stamp: nil,
                                                                           signature: nil, sidecar: sidecar)))
        }
        let key = cache.key(for: entry.path)
        let stamp = entry.stat ?? FileStamp(path: entry.path)
        // Facts serve a file no Takeout sidecar may describe (sidecars are read fresh).
        let signature = sidecar == nil ? rulesSignature.map { CachedFacts.signature(rules: $0, displayPath: entry.displayPath) } : nil
        let job = { LibraryReader.Job(index: index, entry: entry, key: key, stamp: stamp, signature: signature, sidecar: sidecar) }
        guard let stamp, let hit = cache.lookup(key: key, displayPath: entry.displayPath, stamp: stamp,
                                                droppingTracks: droppingTracks, facts: signature, appendingTo: &batch.bytes)
        else { return Item(displayPath: path, answer: .miss(job())) }
        switch hit {
        case .factsAppended(let facts, let record):
            return Item(displayPath: path, answer: .facts(facts, record: record))
        case .file(let file, let bytes, let checksum, let tracks):
            return Item(displayPath: path, answer: .file(file, bytes: bytes, checksum: checksum, tracks: tracks, job: job()))
        case .facts:
            preconditionFailure("a lookup appending to a buffer answers facts there")
        }
    }
}
