/// Records of any length appended in any order and given back once, in the order
/// `areInIncreasingOrder` says, records equal in it in the order they were appended (a stable
/// sort): ``SortedRuns`` for values that are not all the same size. A run's findings go to the
/// report this way (issue 13: a library with a finding on every file held them all).
///
/// Once there are ``runSize`` records, with a folder given, each run of them is sorted and written
/// to an unlinked temporary file (a ``RecordFile``); ``forEachInOrder(_:)`` merges the runs, each
/// read 16 records at a time, with the records still held, 64 runs at a time (in passes through
/// longer runs past that). What stays in memory is one run and a chunk of each of 64 runs. Where
/// no temporary file can be made, the records stay in memory (memory pays, never the order).
///
/// A class: copies share their records (one owner appends, then reads them once).
public final class SortedRecords<Element: ScratchRecord>: @unchecked Sendable {
    /// Records a run holds by default.
    @inlinable public static var defaultRunSize: Int { 4096 }
    /// Records a merge's cursor decodes at a time.
    @inlinable static var mergeChunk: Int { 16 }
    /// Runs a merge reads at once, at most (and the buffer): past that many, they are merged in
    /// passes (changed by the tests).
    @usableFromInline var mergeWidth = 64

    @usableFromInline var buffer: [Element] = []
    public let runSize: Int
    @usableFromInline let directory: String?
    @usableFromInline let prefix: String
    @usableFromInline let areInIncreasingOrder: (Element, Element) -> Bool
    /// The runs written, one after another, and where each is.
    @usableFromInline var runs: RecordFile<Element>?
    @usableFromInline var bounds: [Range<Int>] = []
    @usableFromInline var appended = 0
    @inlinable public var count: Int { appended }

    /// Records sorted by `areInIncreasingOrder`, written `runSize` at a time (nil: the default)
    /// to a temporary file in `directory` (named from `prefix` while it is made), or all held when
    /// `directory` is nil.
    @inlinable public init(spillingIn directory: String?, prefix: String, runSize: Int? = nil,
                by areInIncreasingOrder: @escaping (Element, Element) -> Bool) {
        self.directory = directory
        self.prefix = prefix
        self.runSize = max(1, runSize ?? Self.defaultRunSize)
        self.areInIncreasingOrder = areInIncreasingOrder
    }

    /// True when runs wait in a temporary file.
    @inlinable public var spills: Bool { !bounds.isEmpty }

    @inlinable public func append(_ value: Element) {
        buffer.append(value)
        appended += 1
        if buffer.count >= runSize, directory != nil { writeRun() }
    }

    @inlinable public func append(contentsOf values: some Sequence<Element>) {
        for value in values { append(value) }
    }

    /// Sorts the buffer and writes it as a run; where no file can be made, keeps it (and all
    /// that comes after: no more runs are tried).
    @inlinable func writeRun() {
        if runs == nil { runs = RecordFile(in: directory, prefix: prefix, chunk: Self.mergeChunk) }
        guard let runs, runs.spills else { return }
        buffer.sort(by: areInIncreasingOrder)
        let start = runs.count
        for value in buffer { runs.append(value) }
        bounds.append(start..<runs.count)
        buffer.removeAll(keepingCapacity: true)
    }

    /// Calls `body` with every record, in order, once: the records are let go as they are given.
    @inlinable public func forEachInOrder(_ body: (Element) -> Void) {
        var records = inOrder()
        while let record = records.next() { body(record) }
    }

    /// Every record, in order, once, for a reader that takes them as it needs them (a join of
    /// two sorted lists): the records are let go as they are given.
    @inlinable public func inOrder() -> Ordered {
        buffer.sort(by: areInIncreasingOrder)
        guard var runs, !bounds.isEmpty else {
            let values = buffer
            buffer = []
            return Ordered([Cursor(values: values)], less: areInIncreasingOrder)
        }
        self.runs = nil
        // Past `mergeWidth` runs, each `mergeWidth` of them in turn are merged into one longer run
        // of a new file (the old one let go), until few enough are left: a merge holds a chunk of
        // each run it reads, and that stays bounded however many records there are.
        while bounds.count > mergeWidth {
            let longer = RecordFile<Element>(in: directory, prefix: prefix, chunk: Self.mergeChunk)
            guard longer.spills else { break }  // no file for it: one wider merge (memory pays)
            var longerBounds: [Range<Int>] = []
            for first in stride(from: 0, to: bounds.count, by: mergeWidth) {
                let start = longer.count
                var merged = Ordered(bounds[first..<min(first + mergeWidth, bounds.count)].map { Cursor(file: runs, range: $0) },
                                     less: areInIncreasingOrder)
                while let record = merged.next() { longer.append(record) }
                longerBounds.append(start..<longer.count)
            }
            runs = longer
            bounds = longerBounds
        }
        // Each run, and the buffer last (its records came last).
        var cursors = bounds.map { Cursor(file: runs, range: $0) }
        cursors.append(Cursor(values: buffer))
        buffer = []
        bounds = []
        return Ordered(cursors, less: areInIncreasingOrder)
    }

    /// Cursors' records merged by a heap of their next records; equal records come from the
    /// earlier cursor first, so the merge of runs given in the order they were made is stable.
    public struct Ordered: IteratorProtocol {
        @usableFromInline var cursors: [Cursor]
        @usableFromInline var heap: MergeHeap<Next>

        @inlinable init(_ cursors: [Cursor], less: @escaping (Element, Element) -> Bool) {
            self.cursors = cursors
            heap = MergeHeap(cursors.indices.compactMap { c in cursors[c].current.map { Next(value: $0, cursor: c, less: less) } })
        }

        @inlinable public mutating func next() -> Element? {
            guard let next = heap.min else { return nil }
            if let after = cursors[next.cursor].advance() {
                heap.replaceMin(with: Next(value: after, cursor: next.cursor, less: next.less))
            } else {
                heap.removeMin()
            }
            return next.value
        }
    }

    /// A cursor's next record, in the merge's heap: ordered by the record, then by cursor.
    @usableFromInline struct Next: Comparable {
        @usableFromInline var value: Element
        @usableFromInline var cursor: Int
        @usableFromInline var less: (Element, Element) -> Bool
        @inlinable init(value: Element, cursor: Int, less: @escaping (Element, Element) -> Bool) {
            self.value = value
            self.cursor = cursor
            self.less = less
        }
        @inlinable static func < (a: Next, b: Next) -> Bool {
            if a.less(a.value, b.value) { return true }
            if a.less(b.value, a.value) { return false }
            return a.cursor < b.cursor
        }
        @inlinable static func == (a: Next, b: Next) -> Bool { a.cursor == b.cursor }
    }

    /// A run read a chunk at a time, or the records held in memory.
    @usableFromInline struct Cursor {
        @usableFromInline let file: RecordFile<Element>?
        @usableFromInline var index: Int
        @usableFromInline let end: Int
        @usableFromInline var values: [Element]
        /// The index of `values[0]`.
        @usableFromInline var base: Int

        @inlinable init(file: RecordFile<Element>, range: Range<Int>) {
            self.file = file
            index = range.lowerBound
            end = range.upperBound
            values = []
            base = index
            load()
        }

        @inlinable init(values: [Element]) {
            file = nil
            index = 0
            end = values.count
            self.values = values
            base = 0
        }

        @inlinable var current: Element? { index < end ? values[index - base] : nil }

        @inlinable mutating func advance() -> Element? {
            index += 1
            if index < end, index - base >= values.count { load() }
            return current
        }

        /// The chunk `index` is in.
        @inlinable mutating func load() {
            guard let file, index < end else { return }
            let k = index / file.chunk
            values = file.records(inChunk: k)
            base = k * file.chunk
        }
    }
}
