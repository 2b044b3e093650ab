/// Every pairing outcome of a scan, in order (``Pairing/pairOrder(_:_:)``), held as the scan's
/// own file summaries plus, per pair, where its halves are among them.
///
/// A pair costs 12 bytes here beside the summaries, where a list of ``PairSummary`` values took
/// 112 and, while it was made, sat beside the summaries it copied (issue 13: pairing was a
/// scan's peak). Reading `list[i]` builds the pair from its halves.
public struct PairList: RandomAccessCollection, Sendable {
    /// From pairing (``Pairing/pairList(_:)``): the summaries it was given, in their order, files
    /// that take no part included. From a list of pairs (``init(_:)``): their halves.
    public let files: [FileSummary]
    /// Copies of the `.livp` members that are halves of an archive's pairs (few). A span's index
    /// at or past `files.count` points here.
    private let members: [FileSummary]
    private let spans: [Span]
    /// The archive of each archived pair, by pair index (few).
    private let archives: [Int32: Archive]

    /// An archived pair's `.livp`: its path, and its index in ``files`` (-1: not among them).
    struct Archive: Sendable {
        var path: String
        var file: Int32
    }

    /// One pair: its halves' indices (-1: none) and how it was paired.
    struct Span: Sendable, BitwiseCopyable {
        var still: Int32
        var movie: Int32
        var method: PairingMethod

        /// Both halves: a complete pair.
        var isComplete: Bool { still >= 0 && movie >= 0 }
    }

    init(files: [FileSummary], members: [FileSummary], spans: [Span], archives: [Int32: Archive]) {
        self.files = files
        self.members = members
        self.spans = spans
        self.archives = archives
    }

    /// The list holding `pairs` as they are, in their order.
    public init(_ pairs: [PairSummary]) {
        var files: [FileSummary] = []
        var spans: [Span] = []
        var archives: [Int32: Archive] = [:]
        func add(_ half: FileSummary?) -> Int32 {
            guard let half else { return -1 }
            files.append(half)
            return Int32(files.count - 1)
        }
        for pair in pairs {
            if let archive = pair.archive { archives[Int32(spans.count)] = Archive(path: archive, file: -1) }
            spans.append(Span(still: add(pair.still), movie: add(pair.movie), method: pair.pairedBy))
        }
        self.init(files: files, members: [], spans: spans, archives: archives)
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { spans.count }

    public subscript(i: Int) -> PairSummary {
        let span = spans[i]
        return PairSummary(still: half(span.still), movie: half(span.movie), pairedBy: span.method,
                           archive: archives.isEmpty ? nil : archives[Int32(i)]?.path)
    }

    /// The pairs of each bucket of `partition` (whose buckets index ``files``), one bucket at a
    /// time: `body` gets a list of that bucket's pairs, in this list's order and sharing its
    /// summaries, and each one's index here. An archive's pair goes with its `.livp`.
    func forEachBucket(of partition: Partition, _ body: (PairList, [Int32]) -> Void) {
        let bucketOf = partition.bucketOf
        let (order, ends) = partition.group(spans.count) { i in
            let span = spans[i]
            let half = span.still >= 0 ? span.still : span.movie
            if half >= 0, Int(half) < files.count { return Int(bucketOf[Int(half)]) }
            let file = archives[Int32(i)]?.file ?? -1
            precondition(file >= 0 && Int(file) < files.count, "an archived pair knows its archive")
            return Int(bucketOf[Int(file)])
        }
        var start = 0
        for end in ends {
            let indices = Array(order[start..<end])
            start = end
            guard !indices.isEmpty else { continue }
            var archived: [Int32: Archive] = [:]
            if !archives.isEmpty {
                for (k, i) in indices.enumerated() { if let a = archives[i] { archived[Int32(k)] = a } }
            }
            body(PairList(files: files, members: members, spans: indices.map { spans[Int($0)] }, archives: archived), indices)
        }
    }

    /// Pair `i`'s halves, as indices into ``files`` (at or past its count: a member's copy).
    func span(_ i: Int) -> Span { spans[i] }

    /// Pair `i`'s archive, when it is an archive's pair.
    func archive(_ i: Int) -> Archive? { archives.isEmpty ? nil : archives[Int32(i)] }

    /// True when pair `i` has both halves (without building the pair).
    public func isComplete(_ i: Int) -> Bool { spans[i].isComplete }

    /// How pair `i` was paired (without building the pair).
    public func method(_ i: Int) -> PairingMethod { spans[i].method }

    /// `body` on pair `i`'s still (`stills`) or movie, read in place; nil when the pair has none.
    public func withHalf<T>(_ i: Int, stills: Bool, _ body: (FileSummary) -> T) -> T? { read(half(i, stills), body) }

    /// The still's (movie's) identifier and path in pair `i`, read in place: the scan context's
    /// searches ask for them in every comparison, and a whole summary copied out each time cost
    /// a tenth of a cached run's pair work.
    public func stillIdentifier(_ i: Int) -> String? { read(spans[i].still) { $0.contentIdentifier } ?? nil }
    public func movieIdentifier(_ i: Int) -> String? { read(spans[i].movie) { $0.contentIdentifier } ?? nil }
    public func stillPath(_ i: Int) -> String? { read(spans[i].still) { $0.path } }
    public func moviePath(_ i: Int) -> String? { read(spans[i].movie) { $0.path } }

    /// The identifier of the still (`stills`) or movie in pair `i`, as held (nil: no such half).
    public func identifierKey(_ i: Int, stills: Bool) -> IdentifierKey? {
        read(half(i, stills)) { $0.identifierKey }
    }

    /// ``FileSummary/compareIdentifiers(_:_:)`` on the stills (`stills`) or movies of pairs `a`
    /// and `b`, which both have one.
    public func compareIdentifiers(_ a: Int, _ b: Int, stills: Bool) -> Int {
        compareIdentifiers(a, stills: stills, b, stills: stills)
    }

    /// ``FileSummary/compareIdentifiers(_:_:)`` on the still (`aStill`) or movie of pair `a` and
    /// the still (`bStill`) or movie of pair `b`, which both have one.
    public func compareIdentifiers(_ a: Int, stills aStill: Bool, _ b: Int, stills bStill: Bool) -> Int {
        let x = half(a, aStill), y = half(b, bStill)
        if let order = IdentifierKey.Bits.compare(bits(x), bits(y)) { return order }
        return read(x) { first in read(y) { FileSummary.compareIdentifiers(first, $0) }! }!
    }

    /// The identifier bits of the half at `index`, read in place.
    @inline(__always)
    private func bits(_ index: Int32) -> IdentifierKey.Bits {
        let i = Int(index)
        return i < files.count ? files[i].identifierBits : members[i - files.count].identifierBits
    }

    /// ``IdentifierKey/compare(_:_:)`` of the identifier of the still (`stills`) or movie of pair
    /// `i`, which has one, with `key`.
    public func compareIdentifier(_ i: Int, stills: Bool, with key: IdentifierKey) -> Int {
        let x = half(i, stills)
        if let order = IdentifierKey.Bits.compare(bits(x), key.bits) { return order }
        return read(x) { FileSummary.compareIdentifier($0, with: key) }!
    }

    /// ``FileSummary/comparePaths(_:_:)`` on the stills (`stills`) or movies of pairs `a` and `b`,
    /// which both have one.
    public func comparePaths(_ a: Int, _ b: Int, stills: Bool) -> Int {
        read(half(a, stills)) { first in read(half(b, stills)) { FileSummary.comparePaths(first, $0) }! }!
    }

    @inline(__always)
    private func half(_ index: Int32) -> FileSummary? { read(index) { $0 } }

    /// The index of pair `i`'s still (`still`) or movie (-1: none).
    @inline(__always)
    private func half(_ i: Int, _ still: Bool) -> Int32 { still ? spans[i].still : spans[i].movie }

    /// `body` on the half at `index`, borrowed where it lies: `files[i]` handed on copies the
    /// summary (a retain and a release of each of its strings; issue 13).
    @inline(__always)
    private func read<T>(_ index: Int32, _ body: (FileSummary) -> T) -> T? {
        if index < 0 { return nil }
        let i = Int(index)
        precondition(i < files.count + members.count, "a half of the list")
        return i < files.count ? files.withUnsafeBufferPointer { body($0[i]) }
            : members.withUnsafeBufferPointer { body($0[i - files.count]) }
    }
}
