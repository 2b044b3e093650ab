#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import ISOBMFF
import LiveModel
import ScratchFiles

/// Finds the files to lint under the paths a user gave.
///
/// Folders are walked recursively in sorted order. Symbolic links are followed, but a folder is
/// entered once only and never one that contains a scanned folder (tracked by device and inode),
/// so link loops end and a link back up the tree does not escape it; a file reached twice (a
/// link, a hard link) is listed once, under the first name met, each folder's entries taken in
/// name order (`2023` before `2023-old`). Hidden entries (names starting
/// with `.`) are skipped unless asked for. Nothing is opened for reading here.
public struct LibraryWalker: Sendable {
    public struct Entry: Sendable, Hashable {
        /// Where to open the file.
        public var path: String
        /// How to show it: relative to the scanned root when one folder was given.
        public var displayPath: String
        /// What the walk's `stat` said of the file, when the walk was asked to keep it
        /// (``LibraryWalker/files(in:keepingStats:)``).
        public var stat: FileStat? = nil
    }

    /// What the walk's `stat` of a file said that the lint cache compares: device, inode, size,
    /// and the modification and status-change times in nanoseconds. A scan with the cache keeps
    /// it from the walk instead of asking the kernel a second time (issue 13: each `stat` was a
    /// tenth of a cached run).
    public struct FileStat: Sendable, Hashable {
        public var device: Int64
        public var inode: Int64
        public var size: Int64
        public var modified: Int64
        public var changed: Int64

        public init(device: Int64, inode: Int64, size: Int64, modified: Int64, changed: Int64) {
            self.device = device
            self.inode = inode
            self.size = size
            self.modified = modified
            self.changed = changed
        }

        /// The fields of `st`.
        public init(_ st: stat) {
            device = Int64(bitPattern: UInt64(st.st_dev))
            inode = Int64(bitPattern: UInt64(st.st_ino))
            size = Int64(st.st_size)
            #if canImport(Darwin)
            modified = Int64(st.st_mtimespec.tv_sec) * 1_000_000_000 + Int64(st.st_mtimespec.tv_nsec)
            changed = Int64(st.st_ctimespec.tv_sec) * 1_000_000_000 + Int64(st.st_ctimespec.tv_nsec)
            #else
            modified = Int64(st.st_mtim.tv_sec) * 1_000_000_000 + Int64(st.st_mtim.tv_nsec)
            changed = Int64(st.st_ctim.tv_sec) * 1_000_000_000 + Int64(st.st_ctim.tv_nsec)
            #endif
        }
    }

    /// The files a walk found, in display-path order (UTF-8 byte order), held compactly: every
    /// display path back to back, 4 bytes a file for where its path starts, and, when the walk
    /// keeps them, 32 bytes of stat; the root and the device, shared by runs of files, are held
    /// once a run. An ``Entry`` (two strings) is made only when one is asked for. With paths of
    /// 22 bytes, a file takes about 26 bytes, 58 with its stat (82 when each file had a 20-byte
    /// record and a 40-byte stat), where two `String`s each took about 290 (issue 4, issue 13:
    /// flat memory).
    ///
    /// The listing is kept in chunks of ``chunkSize`` files, each with its own paths and stats, so
    /// a read that is done with the files before one frees them as it goes (``release(below:)``):
    /// the listing is not held whole beside every file read (issue 13). A walk of one folder
    /// appends its files in order already (``LibraryWalker`` visits each folder's entries in the
    /// order of the paths they lead to), straight into the chunks; files appended out of order
    /// (several folders given, or a name followed by a sibling that sorts before its files) are
    /// sorted into new chunks, or, once chunks went to disk, merged there as runs in order
    /// (``mergeRuns()``, in passes past ``maxRuns``).
    public struct Listing: RandomAccessCollection, Sendable {
        /// Files per chunk.
        static let chunkSize = 4096
        /// The root of files given by name: their display path is the path to open.
        static let givenByName: UInt32 = 0
        /// Each root's open-path prefix (`Photos/`) and how many bytes of a display path are its
        /// display prefix: a path to open is the open prefix plus the display path with those
        /// bytes dropped. Root 0 (``givenByName``) opens the display path as it is.
        private var roots: [(open: String, displayPrefix: UInt32)] = [("", .max)]
        /// The files, ``chunkSize`` a chunk: in the order appended until sorted, then in order.
        private var chunks: [Chunk] = []
        private var total = 0
        /// Chunks before this one were released.
        private var released = 0
        /// Where each run of files in order begins after the first: each file whose display path
        /// does not come after the one appended before it, byte by byte (several folders given
        /// with the later-sorting one first; a name then a sibling that sorts before its files,
        /// `2023/…` then `2023-old`).
        private var breaks: [Int] = []
        /// True when the listing is to be sorted in memory (a merge left it out of order: a chunk
        /// could not be read back).
        private var sortsInMemory = false
        /// The most runs one pass of the merge takes at once (one chunk of each is held); more are
        /// merged in passes, ``maxRuns`` into one run at a time.
        static let maxRuns = 16
        /// True while every display path appended came after the one before, byte by byte.
        var inOrder: Bool { breaks.isEmpty && !sortsInMemory }
        private var isSorted = false
        /// Past this many files, full chunks go to a temporary file (``Spill``), in order or not
        /// (``sort()`` merges the runs); nil: never.
        private var spillAbove: Int?
        private var spillDirectory = ""
        private var spillMaps = true
        /// The chunks written out: chunk `c` below `spill.count` is read back from there.
        private var spill: Spill?

        /// True when chunks wait in a temporary file (for the tests).
        var spillsChunks: Bool { (spill?.count ?? 0) > 0 }

        /// A listing that, past `files` files, writes each full chunk to an unlinked temporary file
        /// in `directory` instead of holding it, while the walk appends in order; the read takes
        /// the chunks back one at a time (issue 13: a million files' listing, 55 MiB with stats,
        /// was a scan's peak at the walk's end). Where no file can be made or written, chunks are
        /// held as they are without it.
        /// (`maps` false, for the tests: the chunks are read back with `pread`, as when the file
        /// cannot be mapped.)
        init(spillingAbove files: Int, in directory: String, maps: Bool = true) {
            spillAbove = files
            spillDirectory = directory
            spillMaps = maps
        }

        /// Full chunks written to an unlinked temporary file (``TemporaryFile``), back to back, and
        /// read back one at a time through a read-only map (`pread` when it cannot be mapped), the
        /// last one read kept for the next file asked for and its pages let go. A chunk that does
        /// not read back whole and consistent (`pread` failing, damaged bytes) comes back as files
        /// with no name, each then reported as a file that cannot be read. (An I/O error under a
        /// map raises SIGBUS, as it does for the scan's other temporary files: the disk failing
        /// under a run is not input a run can report on.)
        private final class Spill: @unchecked Sendable {
            private let descriptor: Int32
            private var end: Int64 = 0
            /// Where each chunk written is: its offset, its size and how many files it holds.
            private var places: [(offset: Int64, size: Int, files: Int)] = []
            /// True when the chunks hold stats (a chunk read back that was lost gets empty ones).
            private let keepsStats: Bool
            /// The map of the file, made at the first read (the walk writes no chunk after it).
            private var mapping: UnsafeMutableRawPointer?
            private var mapped = 0
            private var mappingFailed = false
            /// The file read with `pread`, when it cannot be mapped.
            private var reader: FileByteSource?
            /// The chunk read last, and its index (-1: none).
            private var lastIndex = -1
            private var lastChunk: HeldChunk?
            /// A chunk read back, held where each file's entry borrows it (a chunk handed on
            /// from a variable is copied: a retain and a release of each of its seven arrays, a
            /// file; about 3 % of the samples of a cached run's delivering task in a profile: issue 13).
            final class HeldChunk: Sendable {
                let chunk: Chunk
                init(_ chunk: Chunk) { self.chunk = chunk }

                /// File `i`'s entry, read where the chunk is held (from here, not copied out).
                func entry(_ i: Int, roots: [(open: String, displayPrefix: UInt32)]) -> Entry {
                    Listing.entry(chunk, i, roots: roots)
                }
            }
            private let lock = NSLock()

            /// How many roots the listing has (a chunk read back names none past them).
            var roots = 0

            init?(in directory: String, keepsStats: Bool, maps: Bool) {
                descriptor = TemporaryFile.make(in: directory, prefix: "livelint-walk")
                guard descriptor >= 0 else { return nil }
                self.keepsStats = keepsStats
                mappingFailed = !maps
            }

            deinit {
                if let mapping { munmap(mapping, mapped) }
                close(descriptor)
            }

            var count: Int { places.count }

            /// Writes `chunk` as the next one; false when the disk refused it (the chunk then stays
            /// where it was, and nothing is counted as written).
            func write(_ chunk: Chunk) -> Bool {
                var out: [UInt8] = []
                func array<T>(_ values: [T]) {
                    withUnsafeBytes(of: UInt64(values.count).littleEndian) { out.append(contentsOf: $0) }
                    values.withUnsafeBytes { out.append(contentsOf: $0) }
                }
                array(chunk.bytes)
                array(chunk.starts)
                array(chunk.roots.firsts)
                array(chunk.roots.values)
                array(chunk.devices.firsts)
                array(chunk.devices.values)
                array(chunk.stats)
                guard out.withUnsafeBytes({ TemporaryFile.write(descriptor, $0, at: end) }) else { return false }
                places.append((end, out.count, chunk.count))
                end += Int64(out.count)
                return true
            }

            /// Chunk `index`, read back.
            func chunk(_ index: Int) -> Chunk { withChunk(index) { $0 } }

            /// `body` on chunk `index`, read back, where it is held.
            func withChunk<R>(_ index: Int, _ body: (borrowing Chunk) -> R) -> R {
                body(held(index).chunk)
            }

            /// Chunk `index`, read back (the last one read is kept for the next call).
            func held(_ index: Int) -> HeldChunk {
                lock.lock()
                if lastIndex != index {
                    lastChunk = nil
                    let place = places[index]
                    lastChunk = HeldChunk(read(place.offset, place.size).flatMap {
                        $0.isWhole(files: place.files, stats: keepsStats, roots: roots) ? $0 : nil
                    } ?? Chunk(lost: place.files, withStats: keepsStats))
                    lastIndex = index
                }
                // Read outside the lock: a chunk read back never changes.
                let held = lastChunk!
                lock.unlock()
                return held
            }

            /// Forgets the chunk kept from the last read.
            func drop() {
                lock.lock()
                lastIndex = -1
                lastChunk = nil
                lock.unlock()
            }

            /// How far around a chunk its pages are let go (the kernel's fault-around window).
            private static let around = 64 * 1024

            /// The chunk written at `offset`, `size` bytes; nil when it cannot be read back.
            private func read(_ offset: Int64, _ size: Int) -> Chunk? {
                if mapping == nil, !mappingFailed {
                    mapping = TemporaryFile.map(descriptor, count: Int(end))
                    mapped = mapping == nil ? 0 : Int(end)
                    mappingFailed = mapping == nil
                }
                if let mapping, offset + Int64(size) <= Int64(mapped) {
                    // Its pages let go once decoded, with those around it: a fault maps the pages
                    // of the 64 KiB around it (fault-around), the previous chunk's end among them.
                    defer {
                        let from = Swift.max(0, Int(offset) - Self.around), to = Swift.min(mapped, Int(offset) + size + Self.around)
                        TemporaryFile.release(mapping + from, count: to - from)
                    }
                    return Self.decode(UnsafeRawBufferPointer(start: mapping + Int(offset), count: size))
                }
                if reader == nil { reader = try? FileByteSource(duplicating: descriptor, path: "the walk's temporary file") }
                guard let bytes = try? reader?.read(at: offset, count: size) else { return nil }
                return bytes.withUnsafeBytes { Self.decode($0) }
            }

            /// The chunk `raw` holds (as ``write(_:)`` wrote it); nil when it does not hold one.
            private static func decode(_ raw: UnsafeRawBufferPointer) -> Chunk? {
                var at = 0
                func array<T>(_: T.Type) -> [T]? {
                    guard raw.count - at >= 8,
                          let count = Int(exactly: UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: at, as: UInt64.self))) else { return nil }
                    at += 8
                    let (length, overflow) = count.multipliedReportingOverflow(by: MemoryLayout<T>.stride)
                    guard !overflow, length <= raw.count - at else { return nil }
                    defer { at += length }
                    return [T](unsafeUninitializedCapacity: count) { buffer, initialized in
                        UnsafeMutableRawBufferPointer(buffer).copyMemory(from: UnsafeRawBufferPointer(rebasing: raw[at..<(at + length)]))
                        initialized = count
                    }
                }
                var chunk = Chunk()
                guard let bytes = array(UInt8.self), let starts = array(UInt32.self), let rootFirsts = array(UInt32.self),
                      let rootValues = array(UInt32.self), let deviceFirsts = array(UInt32.self),
                      let deviceValues = array(Int64.self), let stats = array(Stamp.self), at == raw.count else { return nil }
                chunk.bytes = bytes
                chunk.starts = starts
                chunk.roots = Runs(firsts: rootFirsts, values: rootValues)
                chunk.devices = Runs(firsts: deviceFirsts, values: deviceValues)
                chunk.stats = stats
                return chunk
            }
        }

        /// Files: their display paths back to back, where each starts (it ends where the next
        /// begins), their roots and devices by runs, and their stats (kept only while the files
        /// are read).
        private struct Chunk: Sendable {
            var bytes: [UInt8] = []
            var starts: [UInt32] = []
            var roots = Runs<UInt32>()
            var devices = Runs<Int64>()
            var stats: [Stamp] = []

            var count: Int { starts.count }

            init() {}

            /// True when the chunk holds `files` files whose paths lie in order inside its bytes,
            /// each with a root below `roots` and, with `stats`, a stat and a device: what a chunk
            /// read back must be before it is trusted.
            func isWhole(files: Int, stats withStats: Bool, roots rootCount: Int) -> Bool {
                guard starts.count == files, files > 0, stats.count == (withStats ? files : 0),
                      roots.isWhole(files: files), roots.values.allSatisfy({ Int($0) < rootCount }),
                      withStats ? devices.isWhole(files: files) : devices.firsts.isEmpty else { return false }
                var previous: UInt32 = 0
                for start in starts {
                    guard start >= previous, Int(start) <= bytes.count else { return false }
                    previous = start
                }
                return true
            }

            /// `files` files with no name (a chunk that could not be read back), with empty stats
            /// when the listing keeps them.
            init(lost files: Int, withStats: Bool) {
                starts = [UInt32](repeating: 0, count: files)
                roots.append(LibraryWalker.Listing.givenByName, at: 0)
                if withStats {
                    devices.append(0, at: 0)
                    stats = [Stamp](repeating: Stamp(inode: 0, size: 0, modified: 0, changed: 0), count: files)
                }
            }

            /// The bytes of file `i`'s display path.
            func withPath<R>(_ i: Int, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
                let start = Int(starts[i]), end = i + 1 < starts.count ? Int(starts[i + 1]) : bytes.count
                return bytes.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[start..<end])) }
            }

            /// File `i`'s stat, when the chunk keeps them.
            func stat(_ i: Int) -> FileStat? {
                guard !stats.isEmpty else { return nil }
                let s = stats[i]
                return FileStat(device: devices.value(at: i), inode: s.inode, size: s.size, modified: s.modified, changed: s.changed)
            }
        }

        /// A stat without its device (held by runs: the files of a walk nearly all share one).
        private struct Stamp: Sendable {
            var inode: Int64
            var size: Int64
            var modified: Int64
            var changed: Int64
        }

        /// A value that runs of consecutive files share: each run's first file and its value.
        private struct Runs<Value: Equatable & Sendable>: Sendable {
            private(set) var firsts: [UInt32] = []
            private(set) var values: [Value] = []

            init() {}

            init(firsts: [UInt32], values: [Value]) {
                self.firsts = firsts
                self.values = values
            }

            /// True when the runs cover `files` files: the first starts at file 0, each starts
            /// after the one before and below `files`, each with its value.
            func isWhole(files: Int) -> Bool {
                firsts.first == 0 && firsts.count == values.count && firsts.last.map({ Int($0) < files }) == true
                    && zip(firsts, firsts.dropFirst()).allSatisfy({ $0 < $1 })
            }

            /// Gives file `index` (the next one, in order) the value `value`.
            mutating func append(_ value: Value, at index: Int) {
                if values.last != value {
                    firsts.append(UInt32(index))
                    values.append(value)
                }
            }

            /// The value of file `index` (one given a value already).
            func value(at index: Int) -> Value {
                if firsts.count == 1 { return values[0] }
                // The last run starting at or before `index`.
                var low = 0, high = firsts.count
                while high - low > 1 {
                    let mid = (low + high) / 2
                    if Int(firsts[mid]) <= index { low = mid } else { high = mid }
                }
                return values[low]
            }
        }

        init() {}

        /// Registers a root: `open` is how its files are opened (`Photos/`), and a display path's
        /// first `displayPrefix` bytes are how the root is shown (none for the single scanned
        /// folder).
        mutating func addRoot(open: String, displayPrefix: Int) -> UInt32 {
            roots.append((open, UInt32(displayPrefix)))
            return UInt32(roots.count - 1)
        }

        mutating func append(display: String, root: UInt32, stat: FileStat? = nil) {
            var display = display
            display.withUTF8 { append(path: $0, root: root, stat: stat) }
        }

        /// Appends the file whose display path's UTF-8 is `path`.
        mutating func append(path: UnsafeBufferPointer<UInt8>, root: UInt32, stat: FileStat?) {
            precondition(!isSorted, "a listing takes no file once sorted")
            // The last chunk tells whether the listing keeps stats (a chunk is made with a file,
            // and the last is never written out).
            precondition(chunks.last.map { $0.stats.isEmpty == (stat == nil) } ?? true,
                         "a listing keeps the stats of all its files or of none")
            append(path, root: root, stat: stat)
        }

        /// Appends the file whose display path is `path`, noting whether the listing is still in order.
        private mutating func append(_ path: UnsafeBufferPointer<UInt8>, root: UInt32, stat: FileStat?) {
            // Read in place (a copy of the chunk would retain and release its seven arrays).
            if let last = chunks.indices.last, chunks[last].count > 0,
               chunks[last].withPath(chunks[last].count - 1, { PathText.compare($0, path) }) > 0 {
                breaks.append(total)
            }
            add(path, root: root, stat: stat)
        }

        /// Drops the entries `indices` gives (each once, in ascending order, through its callback),
        /// before the listing is sorted. Chunk by chunk: the entries of the chunk the indices are
        /// in are marked, and the chunk copied without them once they move past it, so that only
        /// one chunk's marks are held however many entries go (a hard-linked copy of a tree).
        mutating func remove(sortedIndices indices: ((Int) -> Void) -> Void) {
            precondition(!isSorted, "files are dropped before the listing is sorted")
            var kept = emptyCopy()
            var nextChunk = 0
            var marked = [Bool](repeating: false, count: Self.chunkSize)
            var markedChunk = -1
            /// Chunk `c` copied to `kept`, but for the marked entries when it is the marked chunk.
            func copy(_ c: Int) {
                func copy(_ chunk: borrowing Chunk) {
                    for i in 0..<chunk.count where c != markedChunk || !marked[i] {
                        chunk.withPath(i) { kept.append($0, root: chunk.roots.value(at: i), stat: chunk.stat(i)) }
                    }
                }
                if let spill, c < spill.count { spill.withChunk(c) { copy($0) } } else { copy(chunks[c]) }
                chunks[c] = Chunk()
            }
            indices { index in
                let c = index / Self.chunkSize
                if c != markedChunk {
                    if markedChunk >= 0 {
                        copy(markedChunk)
                        marked = [Bool](repeating: false, count: Self.chunkSize)
                    }
                    nextChunk = Swift.max(nextChunk, markedChunk + 1)
                    while nextChunk < c {
                        copy(nextChunk)
                        nextChunk += 1
                    }
                    markedChunk = c
                }
                marked[index - c * Self.chunkSize] = true
            }
            // Nothing dropped: the listing stays as it is.
            guard markedChunk >= 0 else { return }
            copy(markedChunk)
            for c in (markedChunk + 1)..<chunks.count { copy(c) }
            self = kept
        }

        /// Adds a file at the end of the last chunk (a new one when it is full).
        private mutating func add(_ path: UnsafeBufferPointer<UInt8>, root: UInt32, stat: FileStat?) {
            if chunks.isEmpty || chunks[chunks.count - 1].count >= Self.chunkSize {
                if !chunks.isEmpty {
                    trimLast()
                    spillFullChunks()
                }
                var chunk = Chunk()
                chunk.starts.reserveCapacity(Self.chunkSize)
                if stat != nil { chunk.stats.reserveCapacity(Self.chunkSize) }
                chunks.append(chunk)
            }
            let c = chunks.count - 1, index = chunks[c].count
            if Self.endsWithJSON(path) { jsonFiles.append(total) }
            chunks[c].starts.append(UInt32(chunks[c].bytes.count))
            chunks[c].bytes.append(contentsOf: path)
            chunks[c].roots.append(root, at: index)
            if let stat {
                chunks[c].devices.append(stat.device, at: index)
                chunks[c].stats.append(Stamp(inode: stat.inode, size: stat.size, modified: stat.modified, changed: stat.changed))
            }
            total += 1
        }

        /// Writes the chunks held (all full) to the temporary file, past ``spillAbove`` files
        /// (``sort()`` merges the runs in order from there).
        private mutating func spillFullChunks() {
            guard let spillAbove, !sortsInMemory, total > spillAbove else { return }
            if spill == nil {
                spill = Spill(in: spillDirectory, keepsStats: !(chunks.last?.stats.isEmpty ?? true), maps: spillMaps)
                if spill == nil {
                    self.spillAbove = nil
                    return
                }
            }
            guard let spill else { return }
            spill.roots = roots.count
            // Called as a new chunk is to be made: every chunk held is full.
            while spill.count < chunks.count {
                let c = spill.count
                guard spill.write(chunks[c]) else {
                    self.spillAbove = nil
                    return
                }
                chunks[c] = Chunk()
            }
        }

        /// A full chunk's paths moved to a buffer of their own size (appending grew it by
        /// doubling).
        private static func trim(_ chunk: inout Chunk) {
            chunk.bytes = chunk.bytes.withUnsafeBufferPointer { [UInt8]($0) }
        }

        /// The last chunk held trimmed (``trim(_:)``), once nothing more is appended to it.
        private mutating func trimLast() {
            if let end = chunks.indices.last { Self.trim(&chunks[end]) }
        }

        /// Puts the files in display-path order, byte by byte. A listing appended in order is
        /// sorted already; any other is copied into new chunks in order, the old ones then freed.
        mutating func sort() {
            precondition(!isSorted, "a listing is sorted once, when the walk is done")
            isSorted = true
            trimLast()
            guard !inOrder else { return }
            if !sortsInMemory, let spill, spill.count > 0 { return mergeRuns() }
            // A listing whose chunks were written out is sorted in memory only when a merge left
            // it out of order: they come back to be sorted with the rest.
            if let spill {
                for c in 0..<spill.count { chunks[c] = spill.chunk(c) }
                self.spill = nil
            }
            let old = chunks
            var order: [(chunk: UInt32, record: UInt32)] = []
            order.reserveCapacity(total)
            for (c, chunk) in old.enumerated() {
                for r in 0..<chunk.count { order.append((UInt32(c), UInt32(r))) }
            }
            // Stable: paths alike (one file given twice over) keep the order they came in.
            order.sort { x, y in
                let c = old[Int(x.chunk)].withPath(Int(x.record)) { a in old[Int(y.chunk)].withPath(Int(y.record)) { b in PathText.compare(a, b) } }
                return c != 0 ? c < 0 : (x.chunk, x.record) < (y.chunk, y.record)
            }
            chunks = []
            total = 0
            jsonFiles = []
            for at in order {
                let c = Int(at.chunk), r = Int(at.record)
                old[c].withPath(r) { add($0, root: old[c].roots.value(at: r), stat: old[c].stat(r)) }
            }
            trimLast()
        }

        /// The runs of files in order merged into a listing in order, which writes its full chunks
        /// to a temporary file of its own as it goes: one chunk of each run is held at a time, not
        /// the whole listing (issue 13: a million files given as two folders, the later-sorting
        /// one first, held 155 MiB against 32 MiB). Past ``maxRuns`` runs, in passes: each pass
        /// merges ``maxRuns`` runs at a time into one, a listing of its own written out the same
        /// way, until few enough are left (a library with many names that begin a sibling's, as
        /// `Trip` and `Trip 2`, was sorted in memory). Files alike keep the order they came in.
        private mutating func mergeRuns() {
            let chunks = chunkSource()
            var runs = zip([0] + breaks, breaks + [total]).map { start, end in Run(start: start, end: end, chunk: chunks) }
            while runs.count > Self.maxRuns {
                var merged: [Run] = []
                var rest: [Run?] = runs
                runs = []
                for first in stride(from: 0, to: rest.count, by: Self.maxRuns) {
                    // Each group's runs let go once merged: on a later pass, the temporary
                    // files of the runs merged before (the first pass's read this listing's own
                    // chunks, let go when it is replaced).
                    let range = first..<Swift.min(first + Self.maxRuns, rest.count)
                    let group = rest[range].map { $0! }
                    for k in range { rest[k] = nil }
                    // Written out from its first full chunk whatever its size, as the listing is.
                    var out = emptyCopy()
                    if out.spillAbove != nil { out.spillAbove = 0 }
                    Self.merge(group[...], into: &out)
                    out.trimLast()
                    merged.append(Run(start: 0, end: out.total, chunk: out.chunkSource()))
                }
                runs = merged
            }
            var out = emptyCopy()
            Self.merge(runs[...], into: &out)
            assert(out.total == total, "the runs merge into one listing")
            // Only a chunk that could not be read back (its files nameless, in the middle of a run)
            // leaves the merged listing out of order: it is then sorted as any listing is.
            if out.inOrder {
                out.trimLast()
                out.isSorted = true
            } else {
                // In memory, not merged again (a disk failing again would fail the merge again).
                out.sortsInMemory = true
                out.sort()
            }
            self = out
        }

        /// A run of files in order: where it starts and ends, and how its chunks are read.
        private struct Run {
            let start: Int
            let end: Int
            let chunk: (Int) -> Chunk
        }

        /// Chunk `c` of this listing as it stands (read back when written out), for a merge.
        private func chunkSource() -> (Int) -> Chunk {
            let spill = self.spill, spilled = self.spill?.count ?? 0, held = chunks
            return { c in c < spilled ? spill!.chunk(c) : held[c] }
        }

        /// A listing with no files, of this one's roots and temporary files.
        private func emptyCopy() -> Listing {
            var out = Listing()
            out.roots = roots
            out.spillAbove = spillAbove
            out.spillDirectory = spillDirectory
            out.spillMaps = spillMaps
            return out
        }

        /// `runs` merged into `out`, a file at a time: the run whose next path comes first; on a
        /// tie, the earlier run.
        private static func merge(_ runs: ArraySlice<Run>, into out: inout Listing) {
            /// A run's next file: its index in the run's listing, where the run ends, and its chunk.
            struct Cursor {
                var at: Int
                let end: Int
                var chunk: Chunk
                let read: (Int) -> Chunk
            }
            var cursors = runs.map { run in
                Cursor(at: run.start, end: run.end, chunk: run.start < run.end ? run.chunk(run.start / chunkSize) : Chunk(),
                       read: run.chunk)
            }
            while true {
                var first = -1
                for r in cursors.indices where cursors[r].at < cursors[r].end {
                    guard first >= 0 else {
                        first = r
                        continue
                    }
                    let i = cursors[r].at % chunkSize, j = cursors[first].at % chunkSize
                    if cursors[r].chunk.withPath(i, { a in cursors[first].chunk.withPath(j) { b in PathText.compare(a, b) } }) < 0 {
                        first = r
                    }
                }
                guard first >= 0 else { break }
                let i = cursors[first].at % chunkSize
                cursors[first].chunk.withPath(i) {
                    out.append($0, root: cursors[first].chunk.roots.value(at: i), stat: cursors[first].chunk.stat(i))
                }
                cursors[first].at += 1
                if cursors[first].at < cursors[first].end, cursors[first].at % chunkSize == 0 {
                    cursors[first].chunk = cursors[first].read(cursors[first].at / chunkSize)
                } else if cursors[first].at == cursors[first].end {
                    cursors[first].chunk = Chunk()
                }
            }
        }

        /// Says the files before `index` will not be asked for again (a read that takes each file
        /// once, in order, is done with them): the whole chunks before it are freed. Asking for
        /// one of those files afterwards is a programming error.
        public mutating func release(below index: Int) {
            let below = Swift.min(index / Self.chunkSize, chunks.count)
            guard released < below else { return }
            let spilled = spill?.count ?? 0
            while released < below {
                chunks[released] = Chunk()
                released += 1
            }
            // The chunk kept from the last read back goes once every written chunk is done with;
            // when only written chunks were released, nothing of the heap was freed.
            if below >= spilled { spill?.drop() }
            guard below >= spilled, below > 0 else { return }
            // Hand the freed pages back to the system: a chunk's paths and starts (about 90 and 16
            // KiB) come from the heap, where the allocator keeps freed memory for reuse, while what the read
            // builds meanwhile goes to large blocks of their own, so the listing's pages stayed
            // resident beside everything read (issue 13).
            HeapTrim.returnFreedPages()
        }

        /// The indices of the files whose display path ends with `.json`, ignoring ASCII case (the
        /// Takeout sidecars' candidates), in order: noted as the files are listed, so that finding
        /// them reads no chunk again.
        public private(set) var jsonFiles: [Int] = []

        /// True when `path` ends with `.json`, ignoring ASCII case.
        private static func endsWithJSON(_ path: UnsafeBufferPointer<UInt8>) -> Bool {
            let n = path.count
            guard n >= 5, path[n - 5] == UInt8(ascii: ".") else { return false }
            func lower(_ b: UInt8) -> UInt8 { b >= 0x41 && b <= 0x5A ? b + 0x20 : b }
            return lower(path[n - 4]) == UInt8(ascii: "j") && lower(path[n - 3]) == UInt8(ascii: "s")
                && lower(path[n - 2]) == UInt8(ascii: "o") && lower(path[n - 1]) == UInt8(ascii: "n")
        }

        public var startIndex: Int { 0 }
        public var endIndex: Int { total }

        public subscript(position: Int) -> Entry {
            // The chunk read in place: `chunks[c]` handed on copies it (a retain and a release of
            // each of its seven arrays, a sixth of a cached run's reading: issue 13), a buffer
            // pointer's element is borrowed where it lies.
            let c = position / Self.chunkSize, i = position % Self.chunkSize
            // The roots alone captured (capturing them from `self` copied the listing, a file).
            let roots = roots
            if let spill, c < spill.count { return spill.held(c).entry(i, roots: roots) }
            precondition(c < chunks.count, "an entry of the listing")
            // Through a pointer to it: handed on as `$0[c]`, even to a `borrowing` parameter,
            // the chunk was still copied (issue 13: a third of the cache lookahead's time).
            return chunks.withUnsafeBufferPointer { Self.entry($0.baseAddress! + c, i, roots: roots) }
        }

        /// File `i` of the chunk `chunk` points to, read where it lies.
        private static func entry(_ chunk: UnsafePointer<Chunk>, _ i: Int, roots: [(open: String, displayPrefix: UInt32)]) -> Entry {
            let root = roots[Int(chunk.pointee.roots.value(at: i))]
            let stat = chunk.pointee.stat(i)
            return chunk.pointee.withPath(i) { path in Self.entry(path: path, root: root, stat: stat) }
        }

        /// File `i` of `chunk`, borrowed where it is held.
        private static func entry(_ chunk: borrowing Chunk, _ i: Int, roots: [(open: String, displayPrefix: UInt32)]) -> Entry {
            let root = roots[Int(chunk.roots.value(at: i))]
            let stat = chunk.stat(i)
            return chunk.withPath(i) { path in Self.entry(path: path, root: root, stat: stat) }
        }

        /// The entry of the display path `path` under `root`, with its stat.
        private static func entry(path: UnsafeBufferPointer<UInt8>, root: (open: String, displayPrefix: UInt32), stat: FileStat?) -> Entry {
            let display = String(decoding: path, as: UTF8.self)
            guard root.displayPrefix != .max, Int(root.displayPrefix) <= path.count else {
                return Entry(path: display, displayPath: display, stat: stat)
            }
            let tail = String(decoding: UnsafeBufferPointer(rebasing: path[Int(root.displayPrefix)...]), as: UTF8.self)
            return Entry(path: root.open + tail, displayPath: display, stat: stat)
        }
    }

    /// What a library read goes through: the walk's entries by index. A read asks for each entry
    /// once, in order, and says when it is done with the ones before an index (``release(below:)``),
    /// so a ``Listing`` frees them as the read goes (issue 13).
    public protocol Entries: RandomAccessCollection, Sendable where Element == Entry, Index == Int {
        /// The entries before `index` will not be asked for again.
        mutating func release(below index: Int)
    }

    public struct Problem: Sendable, Hashable {
        public var path: String
        public var message: String
    }

    public var includeHidden: Bool
    /// Deepest folder nesting entered (a guard against pathological trees).
    public var maxDepth: Int
    /// Records of the files met that the walk sorts and writes out at a time, past
    /// `spillingAbove` files (``SeenFiles``; the tests make it small).
    var seenFilesRun = SeenFiles.defaultRunSize
    /// Threads that stat the files the walk hands over at once (`--jobs`; 1: one by one).
    public var statThreads = 1
    /// The fewest files in a batch for which they are stat'ed on threads.
    var threadedStatsFrom = 64
    /// Files (and problems) the walk hands over at a time, each batch stat'ed at once.
    var statBatch = 1_024
    /// The most links and entries of no type in a folder the walk stats at once on threads.
    var statWindow = 4_096
    /// For the tests: every entry taken as of no type, as on a file system that gives none.
    var ignoresEntryTypes = false

    public init(includeHidden: Bool = false, maxDepth: Int = 256) {
        self.includeHidden = includeHidden
        self.maxDepth = maxDepth
    }

    /// The display root: the folder itself when exactly one folder was given, else "."
    public static func root(for paths: [String]) -> String {
        if paths.count == 1, isDirectory(paths[0]) { return paths[0] }
        return "."
    }

    /// Every regular file under `paths`, sorted by display path (byte order); plus the paths that
    /// could not be read. With `keepingStats`, each entry carries its ``FileStat``.
    ///
    /// With `spillingAbove`, a listing of more files than that keeps its full chunks in a
    /// temporary file in `spillDirectory` while the walk lists paths in order
    /// (``Listing/init(spillingAbove:in:)``).
    public func files(in paths: [String], keepingStats: Bool = false, spillingAbove: Int? = nil,
                      spillDirectory: String = "/var/tmp") -> (entries: Listing, problems: [Problem]) {
        var entries = spillingAbove.map { Listing(spillingAbove: $0, in: spillDirectory) } ?? Listing()
        var problems: [Problem] = []
        var seenFiles = SeenFiles(spillingAbove: spillingAbove, in: spillDirectory, runSize: seenFilesRun)
        // The folders are walked on a thread of their own (the system calls, the names sorted, the
        // paths made), a few batches ahead of this one, which lists what it finds in the same
        // order: one thread did both, and the core the stats' threads leave between folders sat
        // idle for half the walk (issue 13).
        let found = Found(batchItems: max(1, statBatch))
        let walker = self
        let thread = Thread { walker.find(in: paths, into: found) }
        thread.name = "livelint walk"
        // As large as the main thread's (8 MiB): the walk recurses a level a folder.
        thread.stackSize = 8 << 20
        thread.start()
        var root = Listing.givenByName
        var batch: Found.Batch?
        while let next = found.next(recycling: batch) {
            batch = next
            statFiles(in: next)
            next.bytes.withUnsafeBufferPointer { bytes in
                for item in next.items {
                    switch item {
                    case .root(let open, let displayPrefix):
                        root = entries.addRoot(open: open, displayPrefix: displayPrefix)
                    case .file(let start, let end, let stat, let given):
                        seenFiles.record(device: UInt64(bitPattern: stat.device), inode: UInt64(bitPattern: stat.inode), index: entries.count)
                        entries.append(path: UnsafeBufferPointer(rebasing: bytes[Int(start)..<Int(end)]),
                                       root: given ? Listing.givenByName : root, stat: keepingStats ? stat : nil)
                    case .problem(let problem):
                        problems.append(problem)
                    case .unstated, .skipped:
                        continue  // stat'ed above; not a regular file any more
                    }
                }
            }
        }
        // A file reached twice keeps the first name met: the entries listed after it go.
        entries.remove(sortedIndices: seenFiles.duplicates)
        entries.sort()
        return (entries, problems)
    }

    /// What the walk finds, in its order, handed from the thread that walks (``find(in:into:)``)
    /// to the one that lists it, a batch at a time: at most ``ahead`` wait, and the batches go
    /// back to the walk to be filled again. A batch's files' paths are bytes in one buffer of its
    /// own, reused, so that a file's path is not memory the other thread frees (only a folder's
    /// path, a problem and a root, a few, are).
    final class Found: @unchecked Sendable {
        enum Item {
            /// A folder given: the files after it are under it.
            case root(open: String, displayPrefix: Int)
            /// A file, its display path at `start..<end` in the batch's bytes; `given` by name
            /// (a path given rather than a folder's file).
            case file(start: Int32, end: Int32, stat: FileStat, given: Bool)
            case problem(Problem)
            /// A regular file by its folder's listing, to be stat'ed before it is listed
            /// (``LibraryWalker/statFiles(in:)``): its display path at `start..<end`, its name
            /// from `name` to there (a NUL after it), in the folder `folders[folder]` of the batch.
            case unstated(start: Int32, end: Int32, name: Int32, folder: Int32)
            /// Stat'ed, and no longer a regular file (replaced while the walk went on): not listed.
            case skipped
        }

        final class Batch {
            var items: [Item] = []
            var bytes: [UInt8] = []
            /// The folders of the batch's unstated files, each as its path and the separator
            /// before a name in it.
            var folders: [(path: String, separator: String)] = []
            var unstated = 0
        }

        /// Items a batch holds before it is handed on.
        let batchItems: Int
        static let ahead = 4

        init(batchItems: Int) {
            self.batchItems = batchItems
        }

        /// The last folder whose file went into the batch being filled: its number and its
        /// place among the batch's folders.
        private var folderInBatch: (number: Int, index: Int32)?
        private var foldersEntered = 0

        /// The walk's side: a number for the folder whose files come next.
        func enterFolder() -> Int {
            foldersEntered += 1
            return foldersEntered
        }

        private let condition = NSCondition()
        /// Guarded by `condition`: batches filled, in order; emptied ones; whether the walk is done.
        private var ready: [Batch] = []
        private var spare: [Batch] = []
        private var done = false
        /// The walk's batch being filled (the walk's thread alone).
        private var filling = Batch()

        /// The walk's side: a problem, a folder given.
        func add(_ item: Item) {
            filling.items.append(item)
            if filling.items.count >= batchItems { send() }
        }

        /// The walk's side: a regular file by its folder's listing, `name` in the folder
        /// ``enterFolder()`` numbered `folder` (its `path` and `separator`), shown under `display`.
        func unstated(folder: Int, path: String, separator: String, display: String, name: String) {
            let index: Int32
            if let known = folderInBatch, known.number == folder {
                index = known.index
            } else {
                index = Int32(filling.folders.count)
                filling.folders.append((path, separator))
                folderInBatch = (folder, index)
            }
            let (start, nameStart, end) = appendPath(folder: display, name: name)
            // A NUL after the name, for `fstatat`.
            filling.bytes.append(0)
            filling.unstated += 1
            add(.unstated(start: start, end: end, name: nameStart, folder: index))
        }

        /// The walk's side: a file the walk stat'ed (a link), whose display path is `folder` +
        /// `/` + `name` (`name` alone when `folder` is empty).
        func file(folder: String, name: String, stat: FileStat) {
            let (start, _, end) = appendPath(folder: folder, name: name)
            add(.file(start: start, end: end, stat: stat, given: false))
        }

        /// The walk's side: the file at `path`, given by name.
        func given(path: String, stat: FileStat) {
            let (start, _, end) = appendPath(folder: "", name: path)
            add(.file(start: start, end: end, stat: stat, given: true))
        }

        /// `folder` + `/` + `name` (`name` alone when `folder` is empty) appended to the batch's
        /// bytes: where the path starts, where its name starts, where it ends.
        private func appendPath(folder: String, name: String) -> (start: Int32, name: Int32, end: Int32) {
            let start = filling.bytes.count
            var folder = folder, name = name
            if !folder.isEmpty {
                folder.withUTF8 { filling.bytes.append(contentsOf: $0) }
                filling.bytes.append(0x2F)
            }
            let nameStart = filling.bytes.count
            name.withUTF8 { filling.bytes.append(contentsOf: $0) }
            return (Int32(start), Int32(nameStart), Int32(filling.bytes.count))
        }

        /// The walk's side: hands the batch on (waiting while ``ahead`` wait) and takes an empty one.
        private func send() {
            guard !filling.items.isEmpty else { return }
            condition.lock()
            while ready.count >= Self.ahead { condition.wait() }
            ready.append(filling)
            filling = spare.popLast() ?? Batch()
            folderInBatch = nil
            condition.broadcast()
            condition.unlock()
        }

        /// The walk's side: the last batch handed on, and the walk done.
        func finish() {
            send()
            condition.lock()
            done = true
            condition.broadcast()
            condition.unlock()
        }

        /// The listing's side: the next batch (nil once the walk is done and every batch was
        /// taken), `previous` given back emptied.
        func next(recycling previous: Batch?) -> Batch? {
            if let previous {
                previous.items.removeAll(keepingCapacity: true)
                previous.bytes.removeAll(keepingCapacity: true)
                previous.folders.removeAll(keepingCapacity: true)
                previous.unstated = 0
            }
            condition.lock()
            defer { condition.unlock() }
            if let previous { spare.append(previous) }
            while ready.isEmpty, !done { condition.wait() }
            guard !ready.isEmpty else { return nil }
            condition.broadcast()
            return ready.removeFirst()
        }
    }

    /// Walks `paths` in order, handing what it finds to `found` (``files(in:keepingStats:spillingAbove:spillDirectory:)``).
    private func find(in paths: [String], into found: Found) {
        var visited = Set<DirectoryID>()
        let singleRoot = paths.count == 1 && Self.isDirectory(paths[0])
        // The folders above every scanned folder: a link to one of them would walk out of the scan.
        for given in paths where Self.isDirectory(given) {
            visited.formUnion(Self.ancestors(of: given))
        }
        for given in paths {
            var st = stat()
            guard stat(given, &st) == 0 else {
                found.add(.problem(Problem(path: given, message: "cannot read: \(Self.errnoText())")))
                continue
            }
            if (st.st_mode & S_IFMT) == S_IFDIR {
                let display = singleRoot ? "" : Self.trimmed(given)
                found.add(.root(open: given.hasSuffix("/") ? given : given + "/",
                                displayPrefix: display.isEmpty ? 0 : display.utf8.count + 1))
                walk(directory: given, display: display, depth: 0, visited: &visited, found: found)
            } else if (st.st_mode & S_IFMT) == S_IFREG {
                found.given(path: given, stat: FileStat(st))
            } else {
                found.add(.problem(Problem(path: given, message: "not a regular file or folder")))
            }
        }
        found.finish()
    }

    /// A file or folder's identity: device and inode.
    struct DirectoryID: Hashable {
        var device: UInt64
        var inode: UInt64
        init(_ st: stat) {
            device = UInt64(st.st_dev)
            inode = UInt64(st.st_ino)
        }
    }

    /// Identities of the folders strictly above `path` (resolved through links).
    static func ancestors(of path: String) -> Set<DirectoryID> {
        guard let resolved = realpath(path, nil) else { return [] }
        defer { free(resolved) }
        var components = String(cString: resolved).split(separator: "/").map(String.init)
        var out = Set<DirectoryID>()
        while !components.isEmpty {
            components.removeLast()
            var st = stat()
            if stat("/" + components.joined(separator: "/"), &st) == 0 { out.insert(DirectoryID(st)) }
        }
        return out
    }

    private func walk(directory: String, display: String, depth: Int, visited: inout Set<DirectoryID>, found: Found) {
        var st = stat()
        guard stat(directory, &st) == 0 else {
            found.add(.problem(Problem(path: display.isEmpty ? directory : display, message: "cannot read: \(Self.errnoText())")))
            return
        }
        guard visited.insert(DirectoryID(st)).inserted else { return }  // a link loop, or the same folder twice
        guard depth <= maxDepth else {
            found.add(.problem(Problem(path: display, message: "folder nesting deeper than \(maxDepth) levels: not entered")))
            return
        }
        guard let dir = opendir(directory) else {
            found.add(.problem(Problem(path: display.isEmpty ? directory : display, message: "cannot list folder: \(Self.errnoText())")))
            return
        }
        // Each name with its type as the folder lists it (`d_type`): a regular file is stat'ed
        // later, with others of its batch on threads, while the walk goes on (issue 13: between
        // folders, the threads that stat'ed a folder's files at once waited for the walk).
        var names: [(name: String, type: UInt8)] = []
        while let ent = readdir(dir) {
            let name = Self.entryName(ent)
            if name == "." || name == ".." { continue }
            if !includeHidden, name.hasPrefix(".") { continue }
            names.append((name, ignoresEntryTypes ? UInt8(DT_UNKNOWN) : ent.pointee.d_type))
        }
        // In name order (which file of several links to one is listed rests on it): the paths
        // then come out in display-path order but where a name begins a sibling's and goes on
        // below `/` (`a` and `a.b`, `2023` and `2023-old`) or is not ASCII; the listing sorts
        // those walks (issue 13).
        names.sort { $0.name < $1.name }
        // Links and entries of no type are stat'ed here: what each is decides whether the walk
        // enters it. The folder then stays open (a descriptor, not the listing's buffer) and
        // they are stat'ed relative to it: `fstatat` on a name looks up one component, where
        // `stat` on the full path walks every folder above it again (issue 13: a twelfth of a
        // cached run was the kernel looking paths up). Held down to 64 levels (a descriptor a
        // level, closed on exec); deeper folders use full paths.
        let untyped = names.indices.filter { names[$0].type == DT_LNK || names[$0].type == DT_UNKNOWN }
        let folder = !untyped.isEmpty && depth < 64 ? fcntl(dirfd(dir), F_DUPFD_CLOEXEC, 0) : -1
        closedir(dir)
        defer { if folder >= 0 { close(folder) } }
        let separator = directory.hasSuffix("/") ? "" : "/"
        let number = found.enterFolder()
        // Many of them (a file system that gives no types) are stat'ed on threads a window at a
        // time (a folder of half a million files would hold 70 MB of stats at once), held while
        // the window's folders are walked.
        var stats: (results: [stat], errors: [Int32])?
        var stated = 0, window = 0
        for (name, type) in names {
            // The full path is made only where it is used (a folder to enter, a `stat` by path),
            // not for every file.
            func full() -> String { directory + separator + name }
            // A folder's display path is made to enter it; a file's is written straight into the
            // batch (``Found/unstated(folder:path:separator:display:name:)``).
            func shown() -> String { display.isEmpty ? name : display + "/" + name }
            switch Int32(type) {
            case Int32(DT_REG):
                found.unstated(folder: number, path: directory, separator: separator, display: display, name: name)
                continue
            case Int32(DT_DIR):
                walk(directory: full(), display: shown(), depth: depth + 1, visited: &visited, found: found)
                continue
            case Int32(DT_LNK), Int32(DT_UNKNOWN):
                break  // stat'ed here: what it is decides whether the walk enters it
            default:
                continue  // sockets, FIFOs, devices: never opened
            }
            if stated % statWindow == 0 {
                window = stated
                stats = statted(untyped[stated..<min(stated + statWindow, untyped.count)].map { names[$0].name }, in: folder,
                                directory: directory, separator: separator)
            }
            stated += 1
            var child = stat()
            let error: Int32
            if let stats {
                child = stats.results[stated - 1 - window]
                error = stats.errors[stated - 1 - window]
            } else {
                let relative = folder >= 0 && Self.fitsPathMax(directory, separator, name)
                error = (relative ? fstatat(folder, name, &child, 0) : stat(full(), &child)) == 0 ? 0 : errno
            }
            guard error == 0 else {
                // A dangling link, or a file removed while we walked.
                found.add(.problem(Problem(path: shown(), message: "cannot read: \(Self.errnoText(error))")))
                continue
            }
            switch child.st_mode & S_IFMT {
            case S_IFDIR:
                walk(directory: full(), display: shown(), depth: depth + 1, visited: &visited, found: found)
            case S_IFREG:
                found.file(folder: display, name: name, stat: FileStat(child))
            default:
                continue  // sockets, FIFOs, devices: never opened
            }
        }
    }

    /// The stats of `names` in `folder` (a folder's links and entries of no type), asked for on
    /// ``statThreads`` threads at once, each a contiguous share of them, when there are at least
    /// ``threadedStatsFrom`` and each can be asked for relative to `folder`; nil otherwise (then
    /// they are stat'ed one by one as they come). Which file is listed, in which order, with which
    /// problem, is as when they are stat'ed one by one.
    private func statted(_ names: [String], in folder: Int32, directory: String,
                         separator: String) -> (results: [stat], errors: [Int32])? {
        let threads = statThreads(for: names.count)
        guard threads > 1, folder >= 0, names.allSatisfy({ Self.fitsPathMax(directory, separator, $0) }) else { return nil }
        var results = Array(repeating: stat(), count: names.count)
        var errors = [Int32](repeating: 0, count: names.count)
        results.withUnsafeMutableBufferPointer { results in
            errors.withUnsafeMutableBufferPointer { errors in
                // Each thread writes its own share of the two buffers only.
                nonisolated(unsafe) let results = results, errors = errors
                Self.inShares(of: names.count, threads: threads) { share in
                    for i in share where fstatat(folder, names[i], &results[i], 0) != 0 {
                        errors[i] = errno
                    }
                }
            }
        }
        return (results, errors)
    }

    /// Stats the unstated files of `batch` (``Found/Item/unstated(start:end:name:folder:)``),
    /// on ``statThreads`` threads at once, each a contiguous share of its items, when it has at
    /// least ``threadedStatsFrom`` of them: each becomes the file it is, a problem when it cannot
    /// be stat'ed (a dangling link, a file removed meanwhile), or nothing when it is no longer a
    /// regular file. Each thread stats a folder's files relative to it (opened once, a
    /// component looked up a file), or by their full paths where the folder cannot be opened or
    /// a full path would be too long, as the walk did when it stat'ed them itself.
    private func statFiles(in batch: Found.Batch) {
        guard batch.unstated > 0 else { return }
        let count = batch.items.count
        let threads = statThreads(for: batch.unstated)
        let folders = batch.folders
        batch.bytes.withUnsafeBufferPointer { bytes in
            batch.items.withUnsafeMutableBufferPointer { items in
                // Each thread changes its own share of the items only, and reads the bytes.
                nonisolated(unsafe) let items = items, bytes = bytes
                @Sendable func statShare(_ share: Range<Int>) {
                    // The folder of the files being stat'ed: its place in the batch, its path and
                    // separator, and a descriptor of it (-1: none could be had).
                    var open: (folder: Int32, path: String, separator: String, descriptor: Int32) = (-1, "", "", -1)
                    defer { if open.descriptor >= 0 { close(open.descriptor) } }
                    for i in share {
                        guard case .unstated(let start, let end, let name, let folder) = items[i] else { continue }
                        if folder != open.folder {
                            if open.descriptor >= 0 { close(open.descriptor) }
                            let (path, separator) = folders[Int(folder)]
                            open = (folder, path, separator, Self.openFolder(path))
                        }
                        let nameBytes = UnsafeBufferPointer(rebasing: bytes[Int(name)..<Int(end)])
                        var st = stat()
                        let done: Int32 = if open.descriptor >= 0, Self.fitsPathMax(open.path, open.separator, nameLength: nameBytes.count) {
                            // The name's bytes end with a NUL in the batch.
                            bytes.baseAddress!.advanced(by: Int(name)).withMemoryRebound(to: CChar.self, capacity: nameBytes.count + 1) {
                                fstatat(open.descriptor, $0, &st, 0)
                            }
                        } else {
                            stat(open.path + open.separator + String(decoding: nameBytes, as: UTF8.self), &st)
                        }
                        let error = done == 0 ? 0 : errno
                        if error != 0 {
                            let shown = String(decoding: UnsafeBufferPointer(rebasing: bytes[Int(start)..<Int(end)]), as: UTF8.self)
                            items[i] = .problem(Problem(path: shown, message: "cannot read: \(Self.errnoText(error))"))
                        } else if st.st_mode & S_IFMT == S_IFREG {
                            items[i] = .file(start: start, end: end, stat: FileStat(st), given: false)
                        } else {
                            items[i] = .skipped
                        }
                    }
                }
                Self.inShares(of: count, threads: threads, statShare)
            }
        }
    }

    /// Threads that stat `count` files at once: ``statThreads``, fewer where each would have
    /// less than half of ``threadedStatsFrom``, one for fewer than that.
    private func statThreads(for count: Int) -> Int {
        count >= threadedStatsFrom ? max(1, min(statThreads, count / max(1, threadedStatsFrom / 2))) : 1
    }

    /// `body` on `threads` contiguous shares of `0..<count` at once (one: on this thread).
    private static func inShares(of count: Int, threads: Int, _ body: @Sendable (Range<Int>) -> Void) {
        guard threads > 1 else { return body(0..<count) }
        DispatchQueue.concurrentPerform(iterations: threads) { t in body(count * t / threads..<count * (t + 1) / threads) }
    }

    /// A descriptor of the folder at `path` for `fstatat`, or -1.
    private static func openFolder(_ path: String) -> Int32 {
        open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    }

    /// Whether `directory`, `separator` and `name` make a path the system takes: only then is the
    /// file stat'ed relative to its folder. A full path too long fails as it always did, through
    /// `stat` on it (a listing problem).
    private static func fitsPathMax(_ directory: String, _ separator: String, _ name: String) -> Bool {
        fitsPathMax(directory, separator, nameLength: name.utf8.count)
    }

    /// The same, for a name of `nameLength` bytes.
    private static func fitsPathMax(_ directory: String, _ separator: String, nameLength: Int) -> Bool {
        directory.utf8.count + separator.utf8.count + nameLength < Int(PATH_MAX)
    }

    /// The entry's name, read in place. glibc hands out variable-length records (`d_reclen`), so
    /// the declared 256-byte `d_name` may run past the record: copying `ent.pointee.d_name` reads
    /// beyond it (AddressSanitizer: heap-buffer-overflow). Read up to the NUL through a pointer.
    static func entryName(_ ent: UnsafeMutablePointer<dirent>) -> String {
        let offset = MemoryLayout<dirent>.offset(of: \dirent.d_name) ?? 19
        let name = UnsafeRawPointer(ent).advanced(by: offset).assumingMemoryBound(to: CChar.self)
        return String(cString: name)
    }

    static func isDirectory(_ path: String) -> Bool {
        var st = stat()
        return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR
    }

    static func trimmed(_ path: String) -> String {
        var p = path
        while p.count > 1, p.hasSuffix("/") { p.removeLast() }
        if p.hasPrefix("./"), p.count > 2 { p.removeFirst(2) }
        return p
    }

    static func errnoText(_ code: Int32 = errno) -> String {
        String(cString: strerror(code))
    }
}

extension LibraryWalker.Listing: LibraryWalker.Entries {}

/// What a library-sized scan asks of the C library's allocator: glibc's `malloc_trim` and
/// `mallopt`, looked up by name once (the Glibc module declares neither). `malloc_trim` hands the
/// heap's free pages back to the system (`madvise`), which glibc otherwise keeps for reuse.
/// Elsewhere (no such functions) nothing is done.
public enum HeapTrim {
    private typealias Trim = @convention(c) (Int) -> Int32
    private typealias Option = @convention(c) (Int32, Int32) -> Int32
    #if canImport(Glibc)
    // A nil handle is RTLD_DEFAULT in glibc (not on Darwin, whose allocator has no such call).
    private static let trim: Trim? = dlsym(nil, "malloc_trim").map { unsafeBitCast($0, to: Trim.self) }
    private static let option: Option? = dlsym(nil, "mallopt").map { unsafeBitCast($0, to: Option.self) }
    #else
    private static let trim: Trim? = nil
    private static let option: Option? = nil
    #endif

    /// True when the C library has `malloc_trim` (glibc).
    static var isAvailable: Bool { trim != nil }

    /// Returns the heap's free pages to the system, when the C library can.
    public static func returnFreedPages() {
        _ = trim?(0)
    }

    /// glibc's `M_MMAP_THRESHOLD` (malloc.h).
    private static let mapThresholdOption: Int32 = -3
    /// Its default: a block this size or larger gets a mapping of its own.
    static let mapThreshold: Int32 = 128 * 1024

    /// Keeps glibc's threshold for serving a request from a mapping of its own (when its free
    /// memory cannot) at its default, 128 KiB. Left alone, glibc raises it to the size of each such
    /// block freed (up to 32 MiB on 64-bit systems, mallopt(3)), after which every smaller request
    /// comes from the heap, where what is freed may stay resident beside what comes later: a scan
    /// frees its listing's chunks (128 KiB of stats each, just over the threshold with the array's
    /// header; 160 KiB when this was measured) as it reads. Setting it turns glibc's
    /// adjusting off for good, and with it the trim threshold's, which stays at its default (128
    /// KiB): the heap's top goes back to the system sooner. Fixed, a cached run over a million
    /// files peaked at 115.7 MiB against 125.9–127.9, an uncached one over 100,000 pairs at
    /// 38.5–39.0 against 41.0–44.3 (issue 13; README, "The allocator's threshold"). True when set.
    @discardableResult
    public static func fixMapThreshold() -> Bool {
        option?(mapThresholdOption, mapThreshold) == 1
    }
}

extension Array: LibraryWalker.Entries where Element == LibraryWalker.Entry {
    /// An array of entries is the caller's: nothing to free.
    public mutating func release(below index: Int) {}
}
