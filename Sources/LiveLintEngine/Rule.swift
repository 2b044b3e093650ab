import LiveModel

/// A lint rule. Conform through one of the three scopes — ``FileRule``, ``PairRule`` or
/// ``ScanRule`` — which says what the engine hands to `check`.
///
/// A rule is a small value type with a static ``RuleDescription`` (the single source of truth for
/// docs, `livelint rules` and tests) and a parameterless initializer. Rules that take options read
/// them in ``apply(options:)``; the engine has already validated every value against
/// ``RuleDescription/options``, and fills in the declared default for each option not configured.
public protocol Rule: Sendable {
    static var description: RuleDescription { get }
    init()
    /// Takes the configured options (every declared option present). Default: nothing to do.
    mutating func apply(options: RuleOptions)
    /// The rule as the scope it conforms to: one of the three is the rule, the others nil. Each
    /// scope's protocol answers for its own rules (below), so no rule writes these; the engine
    /// sorts its rules by them rather than by casts (`rule as? any FileRule`), each of which
    /// searched every conformance in the binary the first time it was asked (issue 13: 60 of
    /// them were a tenth of a run's start).
    var asFileRule: (any FileRule)? { get }
    var asPairRule: (any PairRule)? { get }
    var asScanRule: (any ScanRule)? { get }
}

extension Rule {
    public mutating func apply(options: RuleOptions) {}
    public var asFileRule: (any FileRule)? { nil }
    public var asPairRule: (any PairRule)? { nil }
    public var asScanRule: (any ScanRule)? { nil }
}

/// A rule that looks at one file at a time: every scanned file, and every member of a `.livp`.
public protocol FileRule: Rule {
    func check(file: MediaFile) -> [Violation]
}

/// A rule that looks at one pairing outcome at a time: a complete pair, or a lone half
/// (see ``LivePair``). Lone halves are included so that rules about "the Live Photo movie"
/// can also check a movie that carries an identifier but found no still.
public protocol PairRule: Rule {
    func check(pair: LivePair) -> [Violation]
}

/// A rule that needs the whole scan at once (duplicates, orphans).
///
/// A library of more than `LintOptions.partition` files (16,384) is checked a bucket at a time
/// (``Partition``): a bucket holds every file that shares a folder (as `Pairing.split` cuts the
/// path) or an identifier (as it is, or ignoring case) with one of its files, transitively. A
/// scan rule may weigh files against one another only by those: one that compared files of two
/// folders by anything else (a name alone, a date) would see only part of what it compares, and
/// must add its key to `Partition.tie` first (`PartitionTests` checks every tie).
public protocol ScanRule: Rule {
    func check(scan: ScanContext) -> [Violation]
}

extension FileRule {
    public var asFileRule: (any FileRule)? { self }
}

extension PairRule {
    public var asPairRule: (any PairRule)? { self }
}

extension ScanRule {
    public var asScanRule: (any ScanRule)? { self }
}

/// Which of the three rule protocols a rule conforms to.
public enum RuleScope: String, Sendable, CaseIterable {
    case file, pair, scan

    /// The scope of a rule type (`file` for a ``FileRule``, and so on).
    public static func of(_ rule: any Rule.Type) -> RuleScope {
        let made = rule.init()
        if made.asFileRule != nil { return .file }
        if made.asPairRule != nil { return .pair }
        return .scan
    }
}

/// What a rule reports. The engine adds the rule id, the configured severity and the
/// documentation link to make a ``Finding``; `files` are sorted and de-duplicated there.
public struct Violation: Sendable, Hashable {
    /// What is wrong, quoting the offending values.
    public var message: String
    /// Every file involved (paths as in the scan).
    public var files: [String]
    /// How to fix it; kept apart from the message.
    public var fixHint: String?
    /// The edit `livelint fix` makes for this finding, when it can make one (see ``Repair``).
    /// `fix` applies only what the enabled rules attach: a problem no rule asks to repair is left
    /// alone. Violations exist only for files that are not clean, so carrying one costs clean
    /// files nothing; repairs stay in memory and are never written into reports.
    public var repair: Repair?

    public init(_ message: String, files: [String], fixHint: String? = nil, repair: Repair? = nil) {
        self.message = message
        self.files = files
        self.fixHint = fixHint
        self.repair = repair
    }
}

/// What a pair's halves have in common, whether full records (``MediaFile``) or what pairing and
/// the scan rules see of them (``FileSummary``).
public protocol PairHalf: Sendable {
    var path: String { get }
    var contentIdentifier: String? { get }
    /// The path of the half's Google Takeout sidecar, when it has one.
    var sidecarPath: String? { get }
}

extension MediaFile: PairHalf {
    public var sidecarPath: String? { sidecar?.path }
}

/// One pairing outcome: a still and a movie tied together, or a lone half. With full records
/// (``LivePair``) it is what ``PairRule``s get; with summaries (``PairSummary``) what pairing
/// makes and ``ScanRule``s get.
public struct PairOf<Half: PairHalf>: Sendable {
    public var still: Half?
    public var movie: Half?
    public var pairedBy: PairingMethod
    /// The `.livp` archive the halves come from, when they are archive members.
    public var archive: String?

    public init(still: Half?, movie: Half?, pairedBy: PairingMethod, archive: String? = nil) {
        self.still = still
        self.movie = movie
        self.pairedBy = pairedBy
        self.archive = archive
    }

    /// True when both halves are present.
    public var isComplete: Bool { still != nil && movie != nil }

    /// Every path in the pair, still first.
    public var paths: [String] { [still?.path, movie?.path].compactMap { $0 } }

    /// The record the result carries for this pair.
    public var record: PairRecord {
        PairRecord(still: still?.path, movie: movie?.path,
                   contentIdentifier: still?.contentIdentifier ?? movie?.contentIdentifier,
                   pairedBy: pairedBy, sidecar: still?.sidecarPath ?? movie?.sidecarPath)
    }
}

/// A pairing outcome with full records, handed to ``PairRule``s.
public typealias LivePair = PairOf<MediaFile>

extension LivePair {
    /// The still, when it is meant to be a Live Photo half: it has a movie, or it sits in a `.livp`.
    public var pairedStill: MediaFile? {
        guard let still, isComplete || archive != nil else { return nil }
        return still
    }

    /// The movie, when it is meant to be a Live Photo half: it has a still, or it sits in a `.livp`.
    public var pairedMovie: MediaFile? {
        guard let movie, isComplete || archive != nil else { return nil }
        return movie
    }

    /// The movie when it is a Live Photo movie at all: paired, inside a `.livp`, or carrying a
    /// content identifier. A plain video with no identifier and no still is not linted.
    public var liveMovie: MediaFile? {
        guard let movie else { return nil }
        if isComplete || archive != nil || movie.contentIdentifier != nil { return movie }
        return nil
    }
}

/// The whole scan, for ``ScanRule``s.
///
/// Its indexes are flat sorted arrays of pair indices searched by bisection, not dictionaries of
/// arrays or copies of the identifiers and paths: 4 bytes a half where (identifier, path) tuples
/// took 48 and the dictionaries of issue 4 about 170 (issue 13).
///
/// A scan rule sees each half as pairing does (``FileSummary``: path, kind, format, identifier,
/// whether a still holds a motion photo's video), not its full record: a library-sized scan keeps
/// only summaries in memory (issue 13). A scan rule that needs more adds it to ``FileSummary``.
public struct ScanContext: Sendable {
    /// Every pairing outcome, sorted.
    public let pairs: PairList
    /// The pairs whose still carries an identifier, sorted by that identifier (in
    /// ``IdentifierKey``'s order, which builds no text), then the still's path.
    private let stillIDs: [Int32]
    private let movieIDs: [Int32]
    /// Upper-cased identifiers of the stills and movies whose identifier is not upper case
    /// already, sorted (with repeats): the others are found, as they are, in `stillIDs` and
    /// `movieIDs`. Camera identifiers are upper case, so these lists are nearly always empty.
    private let foldedStillIDs: [String]
    private let foldedMovieIDs: [String]

    public init(pairs: PairList) {
        self.pairs = pairs
        (stillIDs, foldedStillIDs) = Self.index(pairs, stills: true)
        (movieIDs, foldedMovieIDs) = Self.index(pairs, stills: false)
    }

    public init(pairs: [PairSummary]) {
        self.init(pairs: PairList(pairs))
    }

    /// The pairs whose still (or movie) carries an identifier, sorted by it then by path, and the
    /// folded identifiers that differ from their own. The identifiers are compared as held
    /// (``PairList/compareIdentifiers(_:_:stills:)``): no text is built for an upper-case UUID.
    private static func index(_ pairs: PairList, stills: Bool) -> (ids: [Int32], folded: [String]) {
        var ids: [Int32] = []
        ids.reserveCapacity(pairs.count)
        var folded: [String] = []
        for i in pairs.indices {
            guard let key = pairs.identifierKey(i, stills: stills), key.form != .none else { continue }
            ids.append(Int32(i))
            if key.form != .upperUUID, let id = key.string {
                let upper = Self.folded(id)
                if upper != id { folded.append(upper) }
            }
        }
        ids.sort { a, b in
            let order = pairs.compareIdentifiers(Int(a), Int(b), stills: stills)
            if order != 0 { return order < 0 }
            return pairs.comparePaths(Int(a), Int(b), stills: stills) < 0
        }
        return (ids, folded.sorted())
    }

    /// Every still and movie in the scan (archive members included), sorted by path.
    public var halves: [FileSummary] {
        pairs.flatMap { [$0.still, $0.movie].compactMap { $0 } }.sorted { FileSummary.comparePaths($0, $1) < 0 }
    }

    /// Paths of halves that ended up in a complete pair.
    public var pairedPaths: Set<String> { Set(pairs.filter(\.isComplete).flatMap(\.paths)) }

    /// `id` upper-cased; `id` itself (sharing its storage, not a new copy per file) when it is
    /// upper case already, as camera identifiers are.
    static func folded(_ id: String) -> String {
        let upper = id.uppercased()
        return upper == id ? id : upper
    }

    private func stillID(_ i: Int32) -> String { pairs.stillIdentifier(Int(i))! }
    private func movieID(_ i: Int32) -> String { pairs.movieIdentifier(Int(i))! }

    /// Sorted paths of the stills carrying exactly this identifier.
    public func stills(withIdentifier id: String) -> [String] {
        matches(id, stills: true).map { pairs.stillPath(Int($0))! }
    }
    /// Sorted paths of the movies carrying exactly this identifier.
    public func movies(withIdentifier id: String) -> [String] {
        matches(id, stills: false).map { pairs.moviePath(Int($0))! }
    }
    /// True when some still carries this identifier, ignoring case.
    public func anyStill(withIdentifierIgnoringCase id: String) -> Bool {
        let key = Self.folded(id)
        // An identifier already upper case is its own folded form, so it is in `stillIDs` as it is.
        return !matches(key, stills: true).isEmpty || Self.contains(key, in: foldedStillIDs)
    }
    /// True when some movie carries this identifier, ignoring case.
    public func anyMovie(withIdentifierIgnoringCase id: String) -> Bool {
        let key = Self.folded(id)
        return !matches(key, stills: false).isEmpty || Self.contains(key, in: foldedMovieIDs)
    }
    /// Every identifier carried by any still or movie, sorted, each once (see ``classes(_:)``
    /// for which spelling of text `==` to another is shown).
    public var identifiers: [String] {
        var out: [String] = []
        classes { text, _, _ in out.append(text()) }
        return out.sorted()
    }

    /// The identifiers carried by more than one still or by more than one movie, sorted, each
    /// once: what `duplicate-identifier` reports, found without building the text of the others.
    public var repeatedIdentifiers: [String] {
        var out: [String] = []
        classes { text, stills, movies in
            if stills > 1 || movies > 1 { out.append(text()) }
        }
        return out.sorted()
    }

    /// Calls `body` for each identifier carried (texts `==` to one another count as one), with
    /// how many stills and movies carry it and its text: the first still's in path order, else
    /// the first movie's (what a merge of the two lists, stills first, showed). The identifiers
    /// come in the key's order; distinct ones are never `==`, so any sort of their texts is one.
    private func classes(_ body: (_ text: () -> String, _ stills: Int, _ movies: Int) -> Void) {
        var i = 0, j = 0
        while i < stillIDs.count || j < movieIDs.count {
            let order = i >= stillIDs.count ? 1 : j >= movieIDs.count ? -1
                : pairs.compareIdentifiers(Int(stillIDs[i]), stills: true, Int(movieIDs[j]), stills: false)
            var iEnd = i, jEnd = j
            if order <= 0 {
                iEnd += 1
                while iEnd < stillIDs.count, pairs.compareIdentifiers(Int(stillIDs[i]), Int(stillIDs[iEnd]), stills: true) == 0 { iEnd += 1 }
            }
            if order >= 0 {
                jEnd += 1
                while jEnd < movieIDs.count, pairs.compareIdentifiers(Int(movieIDs[j]), Int(movieIDs[jEnd]), stills: false) == 0 { jEnd += 1 }
            }
            let (still, movie) = (i, j)
            body({ order <= 0 ? stillID(stillIDs[still]) : movieID(movieIDs[movie]) }, iEnd - i, jEnd - j)
            i = iEnd
            j = jEnd
        }
    }

    /// The first index in `sorted` whose key is not below `key`.
    private static func lowerBound<T>(_ key: String, in sorted: [T], by keyOf: (T) -> String) -> Int {
        var low = 0, high = sorted.count
        while low < high {
            let mid = (low + high) / 2
            if keyOf(sorted[mid]) < key { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// The run of the still (or movie) index whose identifier is `id`. The keys are read in
    /// place by direct calls: a key function passed as a closure copied the whole context (every
    /// list it holds retained) at each search.
    private func matches(_ id: String, stills: Bool) -> ArraySlice<Int32> {
        let sorted = stills ? stillIDs : movieIDs
        let key = IdentifierKey(id)
        var low = 0, high = sorted.count
        while low < high {
            let mid = (low + high) / 2
            if pairs.compareIdentifier(Int(sorted[mid]), stills: stills, with: key) < 0 { low = mid + 1 } else { high = mid }
        }
        var end = low
        while end < sorted.count, pairs.compareIdentifier(Int(sorted[end]), stills: stills, with: key) == 0 { end += 1 }
        return sorted[low..<end]
    }

    private static func contains(_ key: String, in sorted: [String]) -> Bool {
        let i = lowerBound(key, in: sorted) { $0 }
        return i < sorted.count && sorted[i] == key
    }
}
