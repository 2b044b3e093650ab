#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension LibraryWalker {
    /// The files a walk listed, by identity (device and inode), so that a file reached twice (a
    /// hard link, a symbolic link to it, a file given beside its folder) is listed once, under the
    /// first name met: every file listed is recorded with its index in the listing, and once the
    /// walk is done ``duplicates()`` names every entry whose file came earlier in the listing,
    /// which the listing then drops (``Listing/remove(atSortedIndices:)``).
    ///
    /// Sorting, not a set: a record is 16 bytes (the inode; the device's number and the index).
    /// Past `spillingAbove` files, each run of ``runSize`` records is sorted and written to an
    /// unlinked temporary file, and ``duplicates()`` merges the runs, reading each a block at a
    /// time. The set of inodes this replaces took 16 bytes a file (24 as it grew) for the whole
    /// walk, the largest thing a walk of a million files held (issue 13: flat memory). A file
    /// reached twice is found whatever the path to it, which an earlier attempt that recorded only
    /// files reached through links was not (7149ac7; docs/flat-memory.md).
    ///
    /// Where no temporary file can be made or written, the records stay in memory (memory pays,
    /// never the listing). A run that cannot be read back (the disk failed under the walk) ends
    /// there: a file of it reached twice is then listed twice, never dropped.
    struct SeenFiles {
        /// One file listed: its inode, then its device's number (``devices``) in the top 24 bits
        /// and its index in the listing in the other 40, so that records sort by file and, for
        /// one file, by index.
        struct Record: Comparable {
            var inode: UInt64
            var tag: UInt64

            static let indexBits: UInt64 = 40
            var device: UInt64 { tag >> Self.indexBits }
            var index: Int { Int(tag & ((1 << Self.indexBits) - 1)) }
            func sameFile(as other: Record) -> Bool { inode == other.inode && device == other.device }

            static func < (a: Record, b: Record) -> Bool { (a.inode, a.tag) < (b.inode, b.tag) }
        }

        /// Records a run holds: 1 MiB.
        static let defaultRunSize = 1 << 16
        /// Each device met, numbered in the order met (a walk meets a few; the kernel mounts at
        /// most `fs.mount-max`, 100,000 by default, far below the 2^24 numbers a record has room for).
        private var devices: [UInt64: UInt64] = [:]
        /// The records not written out.
        private var buffer: [Record] = []
        private let runSize: Int
        private let spillAbove: Int?
        private let directory: String
        private var recorded = 0
        /// The temporary file of the runs written (-1: none) and where each run is.
        private var descriptor: Int32 = -1
        private var runs: [(offset: Int64, count: Int)] = []
        private var end: Int64 = 0
        /// False once a temporary file could not be made or written: later records stay in memory.
        private var spilling = true

        /// Records that, past `spillingAbove` files (nil: never), go to a temporary file in
        /// `directory` ``runSize`` at a time.
        init(spillingAbove: Int?, in directory: String, runSize: Int = SeenFiles.defaultRunSize) {
            spillAbove = spillingAbove
            self.directory = directory
            self.runSize = max(1, runSize)
        }

        /// Closes the temporary file (a struct has no deinit: ``duplicates()`` calls it).
        private mutating func closeFile() {
            if descriptor >= 0 { close(descriptor) }
            descriptor = -1
        }

        /// True when runs wait in a temporary file (for the tests).
        var spillsRuns: Bool { !runs.isEmpty }

        /// Records the file `st` describes as the listing's entry `index`.
        mutating func record(_ st: stat, index: Int) {
            let device = UInt64(st.st_dev)
            let number: UInt64
            if let known = devices[device] {
                number = known
            } else {
                number = UInt64(devices.count)
                precondition(number < 1 << (64 - Record.indexBits), "more devices than the kernel mounts")
                devices[device] = number
            }
            precondition(UInt64(index) < 1 << Record.indexBits, "a listing past 2^40 files")
            buffer.append(Record(inode: UInt64(st.st_ino), tag: number << Record.indexBits | UInt64(index)))
            recorded += 1
            if buffer.count >= runSize, spilling, let spillAbove, recorded > spillAbove { writeRun() }
        }

        /// Sorts the buffer and writes it as a run; on failure, keeps it and spills no more.
        private mutating func writeRun() {
            if descriptor < 0 {
                descriptor = TemporaryFile.make(in: directory, prefix: "livelint-seen")
                guard descriptor >= 0 else {
                    spilling = false
                    return
                }
            }
            buffer.sort()
            guard buffer.withUnsafeBytes({ TemporaryFile.write(descriptor, $0, at: end) }) else {
                spilling = false
                return
            }
            runs.append((end, buffer.count))
            end += Int64(buffer.count * MemoryLayout<Record>.stride)
            buffer.removeAll(keepingCapacity: true)
        }

        /// The indices in the listing of the entries whose file was listed before them, in
        /// ascending order (usually none). Called once, at the walk's end.
        mutating func duplicates() -> [Int] {
            defer {
                closeFile()
                buffer = []
                runs = []
            }
            buffer.sort()
            var out: [Int] = []
            var previous: Record?
            func take(_ record: Record) {
                if let previous, previous.sameFile(as: record) { out.append(record.index) } else { previous = record }
            }
            if runs.isEmpty {
                buffer.forEach(take)
                out.sort()
                return out
            }
            // Each run, and the buffer last, merged by a heap of their next records.
            var cursors = runs.map { Cursor(descriptor: descriptor, offset: $0.offset, count: $0.count) }
            cursors.append(Cursor(records: buffer))
            buffer = []
            var heap = Heap(cursors.indices.compactMap { c in cursors[c].current.map { Next(record: $0, cursor: c) } })
            while let next = heap.min {
                take(next.record)
                if let after = cursors[next.cursor].advance() {
                    heap.replaceMin(with: Next(record: after, cursor: next.cursor))
                } else {
                    heap.removeMin()
                }
            }
            out.sort()
            return out
        }

        /// A cursor's next record, in the merge's heap.
        private struct Next {
            var record: Record
            var cursor: Int
        }

        /// The merge's binary min-heap, by record: a few dozen lines, where swift-collections'
        /// `Heap` would be a package whose build settings (experimental features, availability
        /// macros, a package name) `scripts/fuzz.sh`, which compiles this module with `swiftc`
        /// directly, would have to copy.
        private struct Heap {
            private var items: [Next]

            init(_ items: [Next]) {
                self.items = items.sorted { $0.record < $1.record }  // a sorted array is a heap
            }

            var min: Next? { items.first }

            mutating func removeMin() {
                items.swapAt(0, items.count - 1)
                items.removeLast()
                siftDown()
            }

            mutating func replaceMin(with item: Next) {
                items[0] = item
                siftDown()
            }

            private mutating func siftDown() {
                var i = 0
                while true {
                    let l = 2 * i + 1, r = l + 1
                    var least = i
                    if l < items.count, items[l].record < items[least].record { least = l }
                    if r < items.count, items[r].record < items[least].record { least = r }
                    guard least != i else { return }
                    items.swapAt(i, least)
                    i = least
                }
            }
        }

        /// A run read a block at a time (4,096 records, 64 KiB), or the records held in memory.
        private struct Cursor {
            static let block = 4096
            private let descriptor: Int32
            private var offset: Int64
            private var left: Int
            private var records: [Record]
            private var at = 0

            init(descriptor: Int32, offset: Int64, count: Int) {
                self.descriptor = descriptor
                self.offset = offset
                left = count
                records = []
                load()
            }

            init(records: [Record]) {
                descriptor = -1
                offset = 0
                left = 0
                self.records = records
            }

            var current: Record? { at < records.count ? records[at] : nil }

            mutating func advance() -> Record? {
                at += 1
                if at >= records.count, left > 0 { load() }
                return current
            }

            /// The run's next block; none when it cannot be read whole (the run ends there).
            private mutating func load() {
                let n = min(left, Self.block), stride = MemoryLayout<Record>.stride
                records = [Record](repeating: Record(inode: 0, tag: 0), count: n)
                let read = records.withUnsafeMutableBytes { raw -> Bool in
                    var done = 0
                    while done < raw.count {
                        let got = pread(descriptor, raw.baseAddress! + done, raw.count - done, off_t(offset) + off_t(done))
                        if got < 0, errno == EINTR { continue }
                        guard got > 0 else { return false }
                        done += got
                    }
                    return true
                }
                if !read { records = [] }
                at = 0
                left = read ? left - n : 0
                offset += Int64(n * stride)
            }
        }
    }
}
