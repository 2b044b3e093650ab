import LiveModel
import ScratchFiles

/// A result's pairs, in order (``LintResult/pairs``).
///
/// A scan's result makes each ``PairRecord`` from its pair (``PairList``) when it is read, and
/// keeps beside the pairs only what they do not hold: the consumers' verdicts and the HTML
/// media, for the pairs that have them. A list of records was a second copy of every pair, 64
/// bytes each, held with the pairs at a scan's peak (issue 13).
public struct PairRecords: RandomAccessCollection, MutableCollection, Sendable, Hashable, ExpressibleByArrayLiteral {
    private enum Storage: Sendable {
        case records([PairRecord])
        /// The pairs, and per pair what its record holds beyond them.
        case pairs(any PairSource, extras: PairExtras)
    }
    private var storage: Storage

    public init(_ records: [PairRecord]) { storage = .records(records) }
    public init(arrayLiteral elements: PairRecord...) { storage = .records(elements) }

    /// The records of `pairs`, each with `extras[i]` (the verdicts, media and sidecar its
    /// record holds) when `extras` is not empty.
    init(pairs: PairList, extras: [Boxed<PairRecord.Rare>?]) {
        precondition(extras.isEmpty || extras.count == pairs.count)
        storage = .pairs(pairs, extras: PairExtras(extras))
    }

    /// The records of a scan whose summaries are kept outside memory.
    init(stored pairs: StoredPairs) {
        storage = .pairs(pairs, extras: pairs.extras)
    }

    /// What the records hold beyond their pairs, by pair (none for a list of plain records).
    var extras: PairExtras {
        if case .pairs(_, let extras) = storage { return extras }
        return .none
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int {
        switch storage {
        case .records(let records): return records.count
        case .pairs(let pairs, _): return pairs.pairCount
        }
    }

    public subscript(i: Int) -> PairRecord {
        get {
            switch storage {
            case .records(let records): return records[i]
            case .pairs(let pairs, let extras):
                var record = pairs.record(i)
                if let extra = extras[i] { record.rare = extra }
                return record
            }
        }
        set {
            switch storage {
            case .records(var records):
                storage = .records([])
                records[i] = newValue
                storage = .records(records)
            case .pairs(let pairs, var extras):
                // What the pair holds cannot change here: a record that no longer matches its
                // pair turns the list into plain records.
                // An extra replaces what the pair's own record holds beyond it (its sidecar); "no
                // extra" reads as the pair's own record, so a record holding less than that is
                // kept as it is too.
                let base = pairs.record(i)
                guard Self.same(base.still, newValue.still), Self.same(base.movie, newValue.movie),
                      Self.same(base.contentIdentifier, newValue.contentIdentifier), base.pairedBy == newValue.pairedBy,
                      newValue.rare != nil || base.rare == nil else {
                    var records = Array(self)
                    records[i] = newValue
                    storage = .records(records)
                    return
                }
                storage = .records([])  // `extras` is then the only owner of its entries
                extras.replace(i, with: newValue.rare, count: pairs.pairCount)
                storage = .pairs(pairs, extras: extras)
            }
        }
    }

    /// How many pairs were paired by `method` (`.unpaired`: the lone halves), read without what
    /// the records hold beyond their pairs (an HTML scan's drawings are not decoded to count them).
    public func count(pairedBy method: PairingMethod) -> Int {
        switch storage {
        case .records(let records): return records.reduce(0) { $0 + ($1.pairedBy == method ? 1 : 0) }
        case .pairs(let pairs, _): return (0..<pairs.pairCount).reduce(0) { $0 + (pairs.record($1).pairedBy == method ? 1 : 0) }
        }
    }

    /// Equal byte for byte (`==` on strings equates NFC and NFD spellings, which a report does not).
    private static func same(_ a: String?, _ b: String?) -> Bool {
        switch (a, b) {
        case (nil, nil): return true
        case let (a?, b?): return a.utf8.elementsEqual(b.utf8)
        default: return false
        }
    }

    public static func == (a: PairRecords, b: PairRecords) -> Bool { a.count == b.count && a.elementsEqual(b) }
    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        for record in self { hasher.combine(record) }
    }
}

/// A result's files, sorted (``LintResult/files``): every file of the scan and every `.livp`
/// member.
///
/// A scan's result keeps, beside its pairs' file summaries (``PairList/files``), only the
/// members' entries and the sorted order, 4 bytes a file: a list of ``ScannedFile`` values was
/// a second copy of every file, 32 bytes each, held with the pairs at a scan's peak (issue 13).
public struct ScannedFiles: RandomAccessCollection, Sendable, Hashable, ExpressibleByArrayLiteral {
    private enum Storage: Sendable {
        case files([ScannedFile])
        /// `order[i]` below `summaries.count` is a summary; at or past it, a member. No order:
        /// the summaries alone, in order already (a walk of one folder lists them so).
        case summaries([FileSummary], members: [ScannedFile], order: [UInt32]?)
        /// Summaries kept outside memory, in order, and the members, sorted, each at the place
        /// `memberPlaces` gives it (ascending).
        case stored(any SummaryStore, members: [ScannedFile], memberPlaces: [Int])
    }
    private let storage: Storage

    public init(_ files: [ScannedFile]) { storage = .files(files) }
    public init(arrayLiteral elements: ScannedFile...) { storage = .files(elements) }

    /// The scan's files: every summary in `pairs.files` and the members of its archives, sorted
    /// by path (as Swift orders strings), kind and format, then by the path's bytes.
    init(scanOf pairs: PairList) {
        let summaries = pairs.files
        var members: [ScannedFile] = []
        for summary in summaries {
            summary.members?.forEach { members.append($0.scanned) }
        }
        let n = summaries.count
        var order: [UInt32] = []
        var inOrder = members.isEmpty
        summaries.withUnsafeBufferPointer { s in
            members.withUnsafeBufferPointer { m in
                func path(_ i: UInt32) -> String { Int(i) < n ? s[Int(i)].path : m[Int(i) - n].path }
                func kind(_ i: UInt32) -> FileKind { Int(i) < n ? s[Int(i)].kind : m[Int(i) - n].kind }
                func format(_ i: UInt32) -> ContainerFormat { Int(i) < n ? s[Int(i)].format : m[Int(i) - n].format }
                // Paths Swift holds equal but spelt with other bytes (NFC and NFD) go in byte
                // order, the walk's order.
                /// `comparePaths`, for members too.
                func comparePaths(_ a: UInt32, _ b: UInt32) -> Int {
                    if Int(a) < n, Int(b) < n { return FileSummary.comparePaths(s[Int(a)], s[Int(b)]) }
                    return threeWay(path(a), path(b))
                }
                func precedes(_ a: UInt32, _ b: UInt32) -> Bool {
                    Self.precedes(pathOrder: comparePaths(a, b), kind(a), kind(b), format(a), format(b)) { (path(a), path(b)) }
                        ?? (a < b)
                }
                // Summaries already in order (the usual scan) keep no order of their own: 4 bytes
                // a file of the library, held through the report (issue 13).
                var i = 1
                while inOrder, i < n {
                    inOrder = precedes(UInt32(i - 1), UInt32(i))
                    i += 1
                }
                guard !inOrder else { return }
                order = [UInt32](0..<UInt32(n + members.count))
                order.sort(by: precedes)
            }
        }
        storage = .summaries(summaries, members: members, order: inOrder ? nil : order)
    }

    /// The files of a scan whose summaries are kept outside memory, in path order already (see
    /// ``LintEngine/run(stored:ties:store:root:fileFindings:onPair:afterPhase:partition:scratch:runSize:media:bucketOutcomes:onCachedPairs:)``),
    /// with its `.livp` members (each with its archive's index, in any order), sorted as
    /// ``init(scanOf:)`` sorts them. Only the members' places are held.
    init(stored: some SummaryStore, members files: [(file: Int32, member: ScannedFile)]) {
        guard !files.isEmpty else {
            storage = .stored(stored, members: [], memberPlaces: [])
            return
        }
        // The members in the scan's order (their archives' order, each archive's in its order),
        // then sorted as `init(scanOf:)` does; a member comes after a summary it ties with.
        let members = files.enumerated().sorted { ($0.element.file, $0.offset) < ($1.element.file, $1.offset) }.map(\.element.member)
        func precedes(_ a: ScannedFile, _ b: ScannedFile) -> Bool? {
            Self.precedes(pathOrder: threeWay(a.path, b.path), a.kind, b.kind, a.format, b.format) { (a.path, b.path) }
        }
        let sorted = members.indices.sorted { precedes(members[$0], members[$1]) ?? ($0 < $1) }.map { members[$0] }
        // Each member's place: the summaries before it (a binary search over the summaries,
        // which are sorted), plus the members before it.
        var places: [Int] = []
        places.reserveCapacity(sorted.count)
        for (k, member) in sorted.enumerated() {
            var low = 0, high = stored.count
            while low < high {
                let mid = (low + high) / 2
                if precedes(stored.scanned(mid), member) ?? true { low = mid + 1 } else { high = mid }
            }
            places.append(low + k)
        }
        storage = .stored(stored, members: sorted, memberPlaces: places)
    }

    /// The order of two files: by path as Swift orders strings (`pathOrder`, three-way), kind,
    /// format, then the paths' bytes (`paths`, made only then: NFC and NFD spellings Swift holds
    /// equal go in byte order, the walk's); nil when all of it ties.
    private static func precedes(pathOrder: Int, _ ka: FileKind, _ kb: FileKind, _ fa: ContainerFormat, _ fb: ContainerFormat,
                                 paths: () -> (String, String)) -> Bool? {
        if pathOrder != 0 { return pathOrder < 0 }
        if ka != kb { return ka.rawValue < kb.rawValue }
        if fa != fb { return fa.rawValue < fb.rawValue }
        let (pa, pb) = paths()
        if !pa.utf8.elementsEqual(pb.utf8) { return pa.utf8.lexicographicallyPrecedes(pb.utf8) }
        return nil
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int {
        switch storage {
        case .stored(let stored, let members, _): return stored.count + members.count
        case .files(let files): return files.count
        case .summaries(let summaries, let members, let order): return order?.count ?? summaries.count + members.count
        }
    }

    public subscript(i: Int) -> ScannedFile {
        switch storage {
        case .files(let files): return files[i]
        case .summaries(let summaries, let members, let order):
            let at = order.map { Int($0[i]) } ?? i
            return at < summaries.count ? summaries[at].scanned : members[at - summaries.count]
        case .stored(let stored, let members, let places):
            guard !places.isEmpty else { return stored.scanned(i) }
            // The members placed before `i`.
            var low = 0, high = places.count
            while low < high {
                let mid = (low + high) / 2
                if places[mid] < i { low = mid + 1 } else { high = mid }
            }
            if low < places.count, places[low] == i { return members[low] }
            return stored.scanned(i - low)
        }
    }

    public static func == (a: ScannedFiles, b: ScannedFiles) -> Bool { a.count == b.count && a.elementsEqual(b) }
    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        for file in self { hasher.combine(file) }
    }
}

/// Pairs a result makes its records from (``PairRecords``).
protocol PairSource: Sendable {
    var pairCount: Int { get }
    /// Pair `i`'s record (without the verdicts and media a result keeps beside it).
    func record(_ i: Int) -> PairRecord
}

extension PairList: PairSource {
    var pairCount: Int { count }
    func record(_ i: Int) -> PairRecord { self[i].record }
}

/// A scan's pairs when its summaries are kept outside memory (``SummaryStore``): each pair's
/// halves as indices into the store (12 bytes a pair), in pairing's order (``Pairing/pairOrder(_:_:)``),
/// an archive's pairs with what their records take from their members (few).
struct StoredPairs: PairSource {
    private let store: any SummaryStore
    private let spans: ScratchArray<PairList.Span>
    /// The halves of archives' pairs; a span's index at or past the store's count points here.
    private let members: [RecordHalf]
    /// What each pair's record holds beyond the pair.
    let extras: PairExtras

    /// A pair made of stored files, as the engine keeps it until the result: its halves' indices
    /// and its method, ordered by its first half (the still, else the lone movie).
    struct Made: Comparable, BitwiseCopyable, Sendable {
        var span: PairList.Span

        init(_ span: PairList.Span) { self.span = span }

        var first: Int32 { span.still >= 0 ? span.still : span.movie }
        static func < (a: Made, b: Made) -> Bool { a.first < b.first }
        static func == (a: Made, b: Made) -> Bool { a.first == b.first }
    }

    /// What a made pair's record holds beyond it (a ``PairExtras/Entry``'s bytes, moved through
    /// the sort without being decoded), beside the pair's first half, sorted by that half as
    /// ``Made`` is (no two pairs share one).
    struct MadeExtra: ScratchRecord {
        var first: Int32
        var entry: [UInt8]

        init(first: Int32, entry: [UInt8]) {
            self.first = first
            self.entry = entry
        }

        func encode(into bytes: inout [UInt8]) {
            var w = RecordWriter(bytes: consume bytes)
            w.number(UInt64(UInt32(bitPattern: first)))
            w.bytes.append(contentsOf: entry)
            bytes = w.bytes
        }

        init?(decoding bytes: UnsafeRawBufferPointer) {
            var r = RecordReader(bytes: bytes)
            guard let first = r.number(), first <= UInt64(UInt32.max) else { return nil }
            self.init(first: Int32(bitPattern: UInt32(first)), entry: Array(bytes[r.at...]))
        }
    }

    /// The pairs `made` (indices into `store`; `madeExtras`, what their records hold beyond them
    /// for those that hold anything, sorted as they are) and
    /// `archived` (with their archives' indices), put in pairing's order as ``Pairing/pairList(_:)``
    /// orders them: paths compared by index (the store's summaries are in path order, no two
    /// alike), an archive's pair first on a tie. With `directory`, the pairs wait in a temporary
    /// file there (``ScratchArray``), read back as the result asks for them.
    init(_ store: some SummaryStore, made: SortedRuns<Made>, extras madeExtras: SortedRecords<MadeExtra>,
         archived: [(pair: PairSummary, file: Int32, extra: Boxed<PairRecord.Rare>?)], scratch directory: String? = nil) {
        let n = store.count
        // The archives' pairs in pairing's order, a tie in their archives' order (a stable sort
        // of them in the scan's order).
        let archived = archived.enumerated().sorted { a, b in
            if Pairing.pairOrder(a.element.pair, b.element.pair) { return true }
            if Pairing.pairOrder(b.element.pair, a.element.pair) { return false }
            return (a.element.file, a.offset) < (b.element.file, b.offset)
        }.map(\.element)
        // A pair that cannot be read back ends the run (no `lost` value): a report without it
        // would be wrong without a word.
        let spans = ScratchArray<PairList.Span>(in: directory, prefix: "livelint-pairs", lost: nil)
        // One entry a pair, on disk beside the pairs, when any pair's record holds more than it.
        let hasExtras = madeExtras.count > 0 || archived.contains { $0.extra != nil }
        let extras = hasExtras ? PairExtras(writingIn: directory) : .none
        var pending = madeExtras.inOrder()
        var nextExtra = pending.next()
        var members: [RecordHalf] = []
        func appendArchived(_ j: Int) {
            let entry = archived[j]
            func add(_ half: FileSummary?) -> Int32 {
                guard let half else { return -1 }
                members.append(RecordHalf(half))
                return Int32(n + members.count - 1)
            }
            spans.append(PairList.Span(still: add(entry.pair.still), movie: add(entry.pair.movie), method: entry.pair.pairedBy))
            if hasExtras { extras.append(entry.extra) }
        }
        // Each file is a half of one pair at most: no two pairs share a first half, and pairing's
        // order is their first halves' order (its tie on the movie never comes up). Made pairs'
        // paths are read from the store's encodings (no summary made), only while archives' pairs
        // wait to be placed.
        var merge = Pairing.ArchivedMerge(archived.map { Pairing.orderKey(still: $0.pair.still?.path, movie: $0.pair.movie?.path) })
        made.forEachInOrder { m in
            merge.place(before: {
                Pairing.orderKey(still: m.span.still >= 0 ? store.half(Int(m.span.still)).path : nil,
                                 movie: m.span.movie >= 0 ? store.half(Int(m.span.movie)).path : nil)
            }, archive: appendArchived)
            spans.append(m.span)
            if hasExtras {
                if let entry = nextExtra, entry.first == m.first {
                    extras.append(encoded: entry.entry)
                    nextExtra = pending.next()
                } else {
                    extras.append(nil)
                }
            }
            if spans.count - spans.written >= ScratchArray<PairList.Span>.releaseEvery { spans.writeOutAll() }
        }
        merge.finish(archive: appendArchived)
        precondition(nextExtra == nil, "what a made pair holds beyond it is kept beside it")
        spans.writeOutAll()
        self.store = store
        self.spans = spans
        self.members = members
        self.extras = extras
    }

    var pairCount: Int { spans.count }

    /// Pair `i`'s record, its halves in the store read without their summaries.
    func record(_ i: Int) -> PairRecord {
        let span = spans[i]
        let still = half(span.still), movie = half(span.movie)
        return PairRecord(still: still?.path, movie: movie?.path,
                          contentIdentifier: still?.contentIdentifier ?? movie?.contentIdentifier,
                          pairedBy: span.method, sidecar: still?.sidecar ?? movie?.sidecar)
    }

    private func half(_ index: Int32) -> RecordHalf? {
        guard index >= 0 else { return nil }
        let n = store.count
        return Int(index) < n ? store.half(Int(index)) : members[Int(index) - n]
    }
}
