#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Values appended in any order and given back once, in ascending order: an external sort. Past
/// `spillingAbove` values, each run of ``runSize`` is sorted and written to an unlinked temporary
/// file (``TemporaryFile``), and ``forEachInOrder(_:)`` merges the runs, each read a block at a
/// time (64 KiB, less past 64 runs: 4 MiB in all), with the values still held: what stays in memory
/// is one run and the blocks, not every value (issue 13: flat memory). The walk finds the files it
/// met twice this way (`LibraryWalker.SeenFiles`), and the partition the files that share a UUID.
///
/// Where no temporary file can be made or written, the values stay in memory (memory pays, never
/// the order). A run that cannot be read back (the disk failed under the scan) ends the run with
/// an error (``TemporaryFile/failedReadBack(in:)``): values lost would change the report without
/// a word.
///
/// A class: copies share their values (one owner appends, then reads them once).
public final class SortedRuns<Element: Comparable & BitwiseCopyable & Sendable>: @unchecked Sendable {
    /// Values a run holds by default: 1 MiB of them.
    @inlinable public static var defaultRunSize: Int { max(1, (1 << 20) / MemoryLayout<Element>.stride) }

    @usableFromInline var buffer: [Element] = []
    @usableFromInline let runSize: Int
    @usableFromInline let spillAbove: Int?
    @usableFromInline let directory: String
    @usableFromInline let prefix: String
    @usableFromInline var appended = 0
    /// The temporary file, made with the first run written; where each run is in it.
    @usableFromInline var file: Descriptor?
    @usableFromInline var runs: [(offset: Int64, count: Int)] = []
    @usableFromInline var end: Int64 = 0
    /// False once a temporary file could not be made or written: later values stay in memory.
    @usableFromInline var spilling = true

    /// Values that, past `spillingAbove` of them (nil: never), go to a temporary file in
    /// `directory` (named from `prefix` while it is being made) ``runSize`` at a time.
    @inlinable public init(spillingAbove: Int?, in directory: String, prefix: String, runSize: Int = SortedRuns.defaultRunSize) {
        spillAbove = spillingAbove
        self.directory = directory
        self.prefix = prefix
        self.runSize = max(1, runSize)
    }

    /// Values that go to a temporary file in `directory` from the first run on (nil: held),
    /// `runSize` at a time (nil: 1 MiB of them).
    @inlinable public convenience init(spillingIn directory: String?, prefix: String, runSize: Int? = nil) {
        self.init(spillingAbove: directory == nil ? nil : 0, in: directory ?? "", prefix: prefix,
                  runSize: runSize ?? SortedRuns.defaultRunSize)
    }

    /// How many values were appended.
    @inlinable public var count: Int { appended }

    /// True when runs wait in a temporary file (for the tests).
    @inlinable public var spills: Bool { !runs.isEmpty }

    @inlinable public func append(_ value: Element) {
        buffer.append(value)
        appended += 1
        if buffer.count >= runSize, spilling, let spillAbove, appended > spillAbove { writeRun() }
    }

    /// Sorts the buffer and writes it as a run; on failure, keeps it and spills no more.
    @inlinable func writeRun() {
        if file == nil {
            let fd = TemporaryFile.make(in: directory, prefix: prefix)
            guard fd >= 0 else {
                spilling = false
                return
            }
            file = Descriptor(fd)
        }
        guard let file else { return }
        buffer.sort()
        guard buffer.withUnsafeBytes({ TemporaryFile.write(file.fd, $0, at: end) }) else {
            spilling = false
            return
        }
        runs.append((end, buffer.count))
        end += Int64(buffer.count * MemoryLayout<Element>.stride)
        buffer.removeAll(keepingCapacity: true)
    }

    /// Calls `body` with every value, in ascending order (values equal in `<` in no set order),
    /// once: the values are let go as they are given.
    @inlinable public func forEachInOrder(_ body: (Element) -> Void) {
        buffer.sort()
        guard let file, !runs.isEmpty else {
            let values = buffer
            buffer = []
            values.forEach(body)
            return
        }
        // Each run, and the buffer last, merged by a heap of their next values.
        // A block a run, 64 KiB while the runs are few; past 64 runs (64 MiB of values: 4 million
        // of 16 bytes) the blocks shrink, down to 4 KiB, to keep to 4 MiB in all: a byte a value otherwise.
        let stride = MemoryLayout<Element>.stride
        let block = max(1, max(4096, min(1 << 16, (4 << 20) / max(1, runs.count))) / stride)
        var cursors = runs.map { Cursor(descriptor: file.fd, offset: $0.offset, count: $0.count, block: block, directory: directory) }
        cursors.append(Cursor(values: buffer))
        buffer = []
        runs = []
        // The file goes (and its space) once the merge is done.
        defer { self.file = nil }
        var heap = MergeHeap(cursors.indices.compactMap { c in cursors[c].current.map { Next(value: $0, cursor: c) } })
        while let next = heap.min {
            body(next.value)
            if let after = cursors[next.cursor].advance() {
                heap.replaceMin(with: Next(value: after, cursor: next.cursor))
            } else {
                heap.removeMin()
            }
        }
    }

    /// The temporary file's descriptor, closed with the runs.
    @usableFromInline final class Descriptor: Sendable {
        @usableFromInline let fd: Int32
        @inlinable init(_ fd: Int32) { self.fd = fd }
        deinit { close(fd) }
    }

    /// A cursor's next value, in the merge's heap (ordered by value).
    @usableFromInline struct Next: Comparable {
        @usableFromInline var value: Element
        @usableFromInline var cursor: Int
        @inlinable init(value: Element, cursor: Int) {
            self.value = value
            self.cursor = cursor
        }
        @inlinable static func < (a: Next, b: Next) -> Bool { a.value < b.value }
        @inlinable static func == (a: Next, b: Next) -> Bool { a.value == b.value }
    }

    /// A run read a block at a time, or the values held in memory.
    @usableFromInline struct Cursor {
        @usableFromInline let descriptor: Int32
        @usableFromInline let directory: String
        @usableFromInline var offset: Int64
        @usableFromInline var left: Int
        @usableFromInline var values: [Element]
        @usableFromInline var at = 0
        /// Values a block holds.
        @usableFromInline let block: Int

        @inlinable init(descriptor: Int32, offset: Int64, count: Int, block: Int, directory: String) {
            self.descriptor = descriptor
            self.block = block
            self.directory = directory
            self.offset = offset
            left = count
            values = []
            load()
        }

        @inlinable init(values: [Element]) {
            descriptor = -1
            block = 0
            directory = ""
            offset = 0
            left = 0
            self.values = values
        }

        @inlinable var current: Element? { at < values.count ? values[at] : nil }

        @inlinable mutating func advance() -> Element? {
            at += 1
            if at >= values.count, left > 0 { load() }
            return current
        }

        /// The run's next block; the scan ends with an error when it cannot be read whole.
        @inlinable mutating func load() {
            let n = Swift.min(left, block), stride = MemoryLayout<Element>.stride
            let descriptor = descriptor, offset = offset
            var read = true
            values = [Element](unsafeUninitializedCapacity: n) { buffer, initialized in
                read = TemporaryFile.read(descriptor, into: UnsafeMutableRawBufferPointer(buffer), at: offset)
                initialized = read ? n : 0
            }
            if !read { TemporaryFile.failedReadBack(in: directory) }
            at = 0
            left -= n
            self.offset += Int64(n * stride)
        }
    }
}
