#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ScratchFiles

extension LibraryWalker {
    /// The files a walk listed, by identity (device and inode), so that a file reached twice (a
    /// hard link, a symbolic link to it, a file given beside its folder) is listed once, under the
    /// first name met: every file listed is recorded with its index in the listing, and once the
    /// walk is done ``duplicates(_:)`` names every entry whose file came earlier in the listing,
    /// which the listing then drops (``Listing/remove(sortedIndices:)``).
    ///
    /// Sorting, not a set: a record is 16 bytes (the inode; the device's number and the index),
    /// sorted on disk past `spillingAbove` files (``SortedRuns``). The set of inodes this replaces
    /// took 16 bytes a file (24 as it grew) for the whole walk, the largest thing a walk of a
    /// million files held (issue 13: flat memory). A file reached twice is found whatever the path
    /// to it, which an earlier attempt that recorded only files reached through links was not
    /// (7149ac7; docs/flat-memory.md). A run that cannot be read back (the disk failed under the
    /// walk) ends the scan with an error (``SortedRuns``).
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
        static let defaultRunSize = SortedRuns<Record>.defaultRunSize
        /// Each device met, numbered in the order met (a walk meets a few; the kernel mounts at
        /// most `fs.mount-max`, 100,000 by default, far below the 2^24 numbers a record has room for).
        private var devices: [UInt64: UInt64] = [:]
        private let records: SortedRuns<Record>
        /// The entries found listed before, sorted back into the listing's order the same way.
        private let found: SortedRuns<UInt64>

        /// Records that, past `spillingAbove` files (nil: never), go to a temporary file in
        /// `directory` `runSize` at a time.
        init(spillingAbove: Int?, in directory: String, runSize: Int = SeenFiles.defaultRunSize) {
            records = SortedRuns(spillingAbove: spillingAbove, in: directory, prefix: "livelint-seen", runSize: runSize)
            found = SortedRuns(spillingAbove: spillingAbove, in: directory, prefix: "livelint-seen-again",
                               runSize: max(1, runSize * MemoryLayout<Record>.stride / MemoryLayout<UInt64>.stride))
        }

        /// True when runs wait in a temporary file (for the tests).
        var spillsRuns: Bool { records.spills }

        /// Records the file `device` and `inode` name as the listing's entry `index`.
        mutating func record(device: UInt64, inode: UInt64, index: Int) {
            let number: UInt64
            if let known = devices[device] {
                number = known
            } else {
                number = UInt64(devices.count)
                precondition(number < 1 << (64 - Record.indexBits), "more devices than the kernel mounts")
                devices[device] = number
            }
            precondition(UInt64(index) < 1 << Record.indexBits, "a listing past 2^40 files")
            records.append(Record(inode: inode, tag: number << Record.indexBits | UInt64(index)))
        }

        /// Calls `body` with the index in the listing of each entry whose file was listed before it,
        /// in ascending order (usually none), sorted on disk as the records are: a tree listed
        /// again through hard links names most of its entries. Called once, at the walk's end.
        consuming func duplicates(_ body: (Int) -> Void) {
            var previous: Record?
            records.forEachInOrder { record in
                if let previous, previous.sameFile(as: record) { found.append(UInt64(record.index)) } else { previous = record }
            }
            found.forEachInOrder { body(Int($0)) }
        }
    }
}
