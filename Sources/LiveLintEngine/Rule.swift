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
}

extension Rule {
    public mutating func apply(options: RuleOptions) {}
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
public protocol ScanRule: Rule {
    func check(scan: ScanContext) -> [Violation]
}

/// Which of the three rule protocols a rule conforms to.
public enum RuleScope: String, Sendable, CaseIterable {
    case file, pair, scan

    /// The scope of a rule type (`file` for a ``FileRule``, and so on).
    public static func of(_ rule: any Rule.Type) -> RuleScope {
        if rule is any FileRule.Type { return .file }
        if rule is any PairRule.Type { return .pair }
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

    public init(_ message: String, files: [String], fixHint: String? = nil) {
        self.message = message
        self.files = files
        self.fixHint = fixHint
    }
}

/// One pairing outcome handed to ``PairRule``s: a still and a movie tied together, or a lone half.
public struct LivePair: Sendable {
    public var still: MediaFile?
    public var movie: MediaFile?
    public var pairedBy: PairingMethod
    /// The `.livp` archive the halves come from, when they are archive members.
    public var archive: String?

    public init(still: MediaFile?, movie: MediaFile?, pairedBy: PairingMethod, archive: String? = nil) {
        self.still = still
        self.movie = movie
        self.pairedBy = pairedBy
        self.archive = archive
    }

    /// True when both halves are present.
    public var isComplete: Bool { still != nil && movie != nil }

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

    /// Every path in the pair, still first.
    public var paths: [String] { [still?.path, movie?.path].compactMap { $0 } }

    /// The record the result carries for this pair.
    public var record: PairRecord {
        PairRecord(still: still?.path, movie: movie?.path,
                   contentIdentifier: still?.contentIdentifier ?? movie?.contentIdentifier,
                   pairedBy: pairedBy)
    }
}

/// The whole scan, for ``ScanRule``s.
public struct ScanContext: Sendable {
    /// Every pairing outcome, sorted.
    public let pairs: [LivePair]
    /// Every still and movie in the scan (archive members included), sorted by path.
    public let halves: [MediaFile]
    /// Paths of halves that ended up in a complete pair.
    public let pairedPaths: Set<String>
    private let stillsByIdentifier: [String: [String]]
    private let moviesByIdentifier: [String: [String]]
    private let stillsByFoldedIdentifier: [String: Int]
    private let moviesByFoldedIdentifier: [String: Int]

    public init(pairs: [LivePair]) {
        self.pairs = pairs
        var halves: [MediaFile] = []
        var paired = Set<String>()
        for pair in pairs {
            if let s = pair.still { halves.append(s) }
            if let m = pair.movie { halves.append(m) }
            if pair.isComplete { paired.formUnion(pair.paths) }
        }
        halves.sort { $0.path < $1.path }
        self.halves = halves
        self.pairedPaths = paired
        var stills: [String: [String]] = [:], movies: [String: [String]] = [:]
        var foldedStills: [String: Int] = [:], foldedMovies: [String: Int] = [:]
        for file in halves {
            guard let id = file.contentIdentifier else { continue }
            if file.kind == .still {
                stills[id, default: []].append(file.path)
                foldedStills[Self.folded(id), default: 0] += 1
            } else if file.kind == .movie {
                movies[id, default: []].append(file.path)
                foldedMovies[Self.folded(id), default: 0] += 1
            }
        }
        stillsByIdentifier = stills
        moviesByIdentifier = movies
        stillsByFoldedIdentifier = foldedStills
        moviesByFoldedIdentifier = foldedMovies
    }

    /// `id` upper-cased; `id` itself (sharing its storage, not a new copy per file) when it is
    /// upper case already, as camera identifiers are.
    static func folded(_ id: String) -> String {
        let upper = id.uppercased()
        return upper == id ? id : upper
    }

    /// Sorted paths of the stills carrying exactly this identifier.
    public func stills(withIdentifier id: String) -> [String] { stillsByIdentifier[id] ?? [] }
    /// Sorted paths of the movies carrying exactly this identifier.
    public func movies(withIdentifier id: String) -> [String] { moviesByIdentifier[id] ?? [] }
    /// True when some still carries this identifier, ignoring case.
    public func anyStill(withIdentifierIgnoringCase id: String) -> Bool { stillsByFoldedIdentifier[id.uppercased()] != nil }
    /// True when some movie carries this identifier, ignoring case.
    public func anyMovie(withIdentifierIgnoringCase id: String) -> Bool { moviesByFoldedIdentifier[id.uppercased()] != nil }
    /// Every identifier carried by any still or movie, sorted.
    public var identifiers: [String] { Set(stillsByIdentifier.keys).union(moviesByIdentifier.keys).sorted() }
}
