import LiveModel

/// A result's pairs, in order (``LintResult/pairs``).
///
/// A scan's result makes each ``PairRecord`` from its pair (``PairList``) when it is read, and
/// keeps beside the pairs only what they do not hold: the consumers' verdicts and the HTML
/// media, for the pairs that have them. A list of records was a second copy of every pair, 64
/// bytes each, held with the pairs at a scan's peak (issue 13).
public struct PairRecords: RandomAccessCollection, MutableCollection, Sendable, Hashable, ExpressibleByArrayLiteral {
    private enum Storage: Sendable {
        case records([PairRecord])
        /// The pairs, and per pair what its record holds beyond them (empty: nothing for any).
        case pairs(PairList, extras: [Boxed<PairRecord.Rare>?])
    }
    private var storage: Storage

    public init(_ records: [PairRecord]) { storage = .records(records) }
    public init(arrayLiteral elements: PairRecord...) { storage = .records(elements) }

    /// The records of `pairs`, each with `extras[i]` (the verdicts, media and sidecar its
    /// record holds) when `extras` is not empty.
    init(pairs: PairList, extras: [Boxed<PairRecord.Rare>?]) {
        precondition(extras.isEmpty || extras.count == pairs.count)
        storage = .pairs(pairs, extras: extras)
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int {
        switch storage {
        case .records(let records): return records.count
        case .pairs(let pairs, _): return pairs.count
        }
    }

    public subscript(i: Int) -> PairRecord {
        get {
            switch storage {
            case .records(let records): return records[i]
            case .pairs(let pairs, let extras):
                var record = pairs[i].record
                if !extras.isEmpty, let extra = extras[i] { record.rare = extra }
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
                let base = pairs[i].record
                guard Self.same(base.still, newValue.still), Self.same(base.movie, newValue.movie),
                      Self.same(base.contentIdentifier, newValue.contentIdentifier), base.pairedBy == newValue.pairedBy,
                      newValue.rare != nil || base.rare == nil else {
                    var records = Array(self)
                    records[i] = newValue
                    storage = .records(records)
                    return
                }
                storage = .records([])
                if extras.isEmpty { extras = Array(repeating: nil, count: pairs.count) }
                extras[i] = newValue.rare
                storage = .pairs(pairs, extras: extras)
            }
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
                    let order = comparePaths(a, b)
                    if order != 0 { return order < 0 }
                    let ka = kind(a), kb = kind(b)
                    if ka != kb { return ka.rawValue < kb.rawValue }
                    let fa = format(a), fb = format(b)
                    if fa != fb { return fa.rawValue < fb.rawValue }
                    let pa = path(a), pb = path(b)
                    if !pa.utf8.elementsEqual(pb.utf8) { return pa.utf8.lexicographicallyPrecedes(pb.utf8) }
                    return a < b
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

    public var startIndex: Int { 0 }
    public var endIndex: Int {
        switch storage {
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
        }
    }

    public static func == (a: ScannedFiles, b: ScannedFiles) -> Bool { a.count == b.count && a.elementsEqual(b) }
    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        for file in self { hasher.combine(file) }
    }
}
