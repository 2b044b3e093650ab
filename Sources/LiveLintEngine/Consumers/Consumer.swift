import LiveModel

/// What a photo app will do with a pair or a lone half (issue 12, "import doctor").
public enum ConsumerOutcome: String, Sendable, Codable, CaseIterable, Comparable {
    /// Shown as one Live Photo (or motion photo).
    case live
    /// Shown as a separate still and video (or, for a lone half, as a plain photo or video).
    case split
    /// May be linked to another file than its partner (the reason names it).
    case ambiguous
    /// The app does not take the file at all.
    case unsupported

    private var rank: Int { Self.allCases.firstIndex(of: self) ?? 0 }
    public static func < (a: Self, b: Self) -> Bool { a.rank < b.rank }
}

/// One consumer's verdict on one pair or lone half: the outcome, why, and how to change it.
public struct ConsumerVerdict: Sendable, Hashable, Codable {
    public var outcome: ConsumerOutcome
    /// Why, quoting the values the app compares.
    public var reason: String
    /// What would make it `live` (nil when it is, or when nothing can).
    public var fix: String?

    public init(_ outcome: ConsumerOutcome, _ reason: String, fix: String? = nil) {
        self.outcome = outcome
        self.reason = reason
        self.fix = fix
    }
}

/// A photo app that imports Live Photos, modelled after its own code and issue tracker: how it
/// ties a still to a movie. One type per app, each citing where its behaviour is shown
/// (`docs/consumers.md` is written from the same sources).
public protocol Consumer: Sendable {
    /// The public name (`immich`): a contract, like rule ids.
    var id: String { get }
    /// For people (`Immich`).
    var displayName: String { get }
    /// Where the behaviour modelled here is shown (code paths, issues).
    var sources: [String] { get }
    /// The verdict on `pair` (complete or a lone half) in a library described by `library`.
    func verdict(on pair: LivePair, in library: LibraryFacts) -> ConsumerVerdict
}

/// Every consumer livelint knows, by id.
public enum Consumers {
    public static let all: [any Consumer] = [
        AppleConsumer.applePhotos, AppleConsumer.iphone, ImmichConsumer(), NextcloudMemoriesConsumer(),
        PhotoPrismConsumer(), SynologyConsumer(),
    ]

    public static var ids: [String] { all.map(\.id) }

    /// The consumers `names` lists (`all` for every one), in the order of ``all``; throws the
    /// first unknown name.
    public static func named(_ names: [String]) throws(ConfigurationError) -> [any Consumer] {
        var wanted = Set<String>()
        for raw in names {
            let name = raw.trimmingSpaces.lowercased()
            if name.isEmpty { continue }
            if name == "all" { return all }
            guard ids.contains(name) else {
                throw ConfigurationError(file: nil, key: "consumers", line: nil,
                                         problem: .badValue(raw, expected: "all, " + ids.joined(separator: ", ")))
            }
            wanted.insert(name)
        }
        return all.filter { wanted.contains($0.id) }
    }
}

extension String {
    var trimmingSpaces: String {
        var s = Substring(self)
        while s.first == " " { s.removeFirst() }
        while s.last == " " { s.removeLast() }
        return String(s)
    }
}

/// The few library-wide facts consumers need beyond a pair's own halves, collected in one pass
/// over the pairs: which files carry each identifier exactly (at most a few paths each, enough
/// to name the other candidate), and which files share a folder and a name stem.
public struct LibraryFacts: Sendable {
    /// Paths of at most `keep` stills / movies per exact identifier, and how many there are.
    private var stillsByID: [String: Carriers] = [:]
    private var moviesByID: [String: Carriers] = [:]
    /// Paths per folder + stem (``LibraryFacts/stem(_:)``), stills and movies together.
    private var byStem: [String: Carriers] = [:]
    private static let keep = 3
    /// When set, the only identifiers and folder + stem keys counted (``init(answering:stemsOf:)``).
    private var asked: (identifiers: Set<String>, stems: Set<String>)?

    struct Carriers: Sendable {
        var count = 0
        var paths: [String] = []
        mutating func add(_ path: String) {
            count += 1
            if paths.count < LibraryFacts.keep { paths.append(path) }
        }
    }

    public init<Half>(pairs: some Sequence<PairOf<Half>>) {
        for pair in pairs { add(pair) }
    }

    /// Facts that count only the halves carrying one of `identifiers`, and those in the folder of
    /// one of `paths` with its stem: for a reader that knows what it will ask (`livelint fix`: the
    /// pairs it plans, their halves' identifiers and paths), without a table of every file of the
    /// library (issue 13: a million files' identifiers and names). About those they answer as
    /// facts of every half would; about anything else (an identifier made fresh), they know of no
    /// other carrier.
    public init(answering identifiers: Set<String>, stemsOf paths: some Sequence<String>) {
        asked = (identifiers, Set(paths.lazy.map(Self.stemKey)))
    }

    /// The identifiers the consumers' verdicts on `pair` ask the facts about: each half's (the
    /// still's makernote and XMP ones too), what ``init(answering:stemsOf:)`` must be given, with
    /// the pair's halves, to answer about the pair as facts of every half would.
    public static func identifiersAsked(about pair: LivePair) -> [String] {
        [pair.still?.contentIdentifier, pair.still?.still?.contentIdentifier, pair.still?.still?.xmpContentIdentifier?.value,
         pair.movie?.contentIdentifier].compactMap { $0 }
    }

    /// Counts one more pair's halves (a pair in an archive counts for nothing).
    public mutating func add<Half>(_ pair: PairOf<Half>) {
        Self.forEachHalf(of: pair) { add(path: $0, identifier: $1, still: $2) }
    }

    /// What the facts count of `pair`, in the order they count it: its still, then its movie,
    /// each with its identifier; nothing for a pair in an archive (for a reader that keeps them
    /// elsewhere until it counts them, ``add(path:identifier:still:)``).
    public static func forEachHalf<Half>(of pair: PairOf<Half>, _ body: (_ path: String, _ identifier: String?, _ still: Bool) -> Void) {
        guard pair.archive == nil else { return }
        if let still = pair.still { body(still.path, still.contentIdentifier, true) }
        if let movie = pair.movie { body(movie.path, movie.contentIdentifier, false) }
    }

    /// Counts one more half, a still or a movie of a pair not in an archive, in the order
    /// ``init(pairs:)`` counts them (a pair's still, then its movie): what a reader that does not
    /// keep its pairs (`livelint fix`) gives back from its own list.
    public mutating func add(path: String, identifier: String?, still: Bool) {
        add(path, identifier, to: still ? \.stillsByID : \.moviesByID)
    }

    /// Counts the half at `path` under its identifier (in `byID`) and its folder + stem.
    private mutating func add(_ path: String, _ id: String?, to byID: WritableKeyPath<LibraryFacts, [String: Carriers]>) {
        if let id, asked?.identifiers.contains(id) ?? true { self[keyPath: byID][id, default: Carriers()].add(path) }
        let stem = Self.stemKey(path)
        if asked?.stems.contains(stem) ?? true { byStem[stem, default: Carriers()].add(path) }
    }

    /// Other movies than `path` whose identifier is exactly `id`: how many, and a few of them.
    public func otherMovies(withIdentifier id: String, than path: String?) -> (count: Int, paths: [String]) {
        guard let c = moviesByID[id] else { return (0, []) }
        let others = c.paths.filter { $0 != path }
        return (c.count - (c.paths.contains { $0 == path } ? 1 : 0), others)
    }

    /// Other stills than `path` whose identifier is exactly `id`.
    public func otherStills(withIdentifier id: String, than path: String?) -> (count: Int, paths: [String]) {
        guard let c = stillsByID[id] else { return (0, []) }
        let others = c.paths.filter { $0 != path }
        return (c.count - (c.paths.contains { $0 == path } ? 1 : 0), others)
    }

    /// Files other than `exclude` in the folder of `path` with the same stem.
    public func sameStem(as path: String, excluding exclude: Set<String>) -> (count: Int, paths: [String]) {
        guard let c = byStem[Self.stemKey(path)] else { return (0, []) }
        let inGroup = c.paths.filter { exclude.contains($0) }.count
        let others = c.paths.filter { !exclude.contains($0) }
        return (max(0, c.count - inGroup), others)
    }

    /// Folder + the name without its extension (case kept): what name-based apps compare.
    static func stemKey(_ path: String) -> String {
        let (folder, name) = Pairing.split(path)
        return folder + "\u{0}" + LibraryFacts.stem(name)
    }

    /// The file name without its last extension (`IMG_0001.HEIC` → `IMG_0001`).
    public static func stem(_ name: String) -> String {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name }
        return String(name[..<dot])
    }

    static func folder(_ path: String) -> String { Pairing.split(path).folder }
    static func name(_ path: String) -> String { Pairing.split(path).name }
}

extension LintEngine {
    /// Each consumer's verdict on `pair` in `library`, by consumer id.
    static func verdicts(on pair: LivePair, in library: LibraryFacts, consumers: [any Consumer]) -> [String: ConsumerVerdict] {
        var verdicts: [String: ConsumerVerdict] = [:]
        for consumer in consumers { verdicts[consumer.id] = consumer.verdict(on: pair, in: library) }
        return verdicts
    }
}
