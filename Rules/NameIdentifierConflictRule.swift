import LiveLintEngine
import LiveModel

/// A still and a movie share a name in one folder but carry different identifiers, while at
/// least one of them is paired by identifier with another file: tools that pair by name tie the
/// wrong halves together.
public struct NameIdentifierConflictRule: ScanRule {
    public init() {}

    public static let description = RuleDescription(
        identifier: "name-identifier-conflict",
        name: "Name and identifier disagree",
        summary: "A still and a movie with the same name in one folder carry different identifiers, and one of them belongs to another file by identifier.",
        rationale: """
            Flags a still and a movie in one folder whose names match the way exports pair them \
            (`IMG_0001.JPG` and `IMG_0001.MOV`, `_HEVC` and `X.JPG.mov` stems included) but whose content \
            identifiers differ, even ignoring case, when at least one of the two is paired by identifier \
            with a different file.

            Apple Photos and Immich pair by identifier and get it right; PhotoPrism, Synology Photos and \
            immich-go pair by name and tie the wrong halves together — a still with another capture's \
            movie (photoprism#5799, simulot/immich-go#498; live-photo-format.md, "How others pair"). It \
            happens when a camera's counter rolls over (`IMG_9999` → `IMG_0001`), when Takeout or a copy \
            renames one half, and when two libraries are merged into one folder. `identifier-mismatch` \
            covers a name-paired still and movie that have no other partner.
            """,
        defaultSeverity: .warning,
        triggeringExamples: [
            RuleExample(.pair(still: .jpeg("IMG_0001.JPG", id: Sample.uuidA), movie: .mov("clip.MOV", id: Sample.uuidA))
                        + .files(.mov("IMG_0001.MOV", id: Sample.uuidB)),
                        .finding(on: "IMG_0001.JPG", "IMG_0001.MOV", saying: Sample.uuidA, Sample.uuidB, "by name"),
                        note: "The still's movie by identifier is clip.MOV; name-based tools take IMG_0001.MOV."),
            RuleExample(.pair(still: .jpeg("a/IMG_0001.JPG", id: Sample.uuidA), movie: .mov("a/IMG_0001.MOV", id: Sample.uuidA))
                        + .pair(still: .heic("a/IMG_0001.HEIC", id: Sample.uuidB), movie: .mov("b/IMG_0001.MOV", id: Sample.uuidB)),
                        .finding(on: "a/IMG_0001.HEIC", "a/IMG_0001.MOV", saying: Sample.uuidB, Sample.uuidA),
                        note: "Two captures named IMG_0001 in one folder (a counter rollover)."),
        ],
        nonTriggeringExamples: [
            RuleExample(.pair(still: .jpeg(), movie: .mov())),
            RuleExample(.pair(still: .jpeg("IMG_0001.JPG", id: Sample.uuidA), movie: .mov("IMG_0001.MOV", id: Sample.uuidB)),
                        note: "No other partner: identifier-mismatch reports this one."),
            RuleExample(.pair(still: .jpeg("a/IMG_0001.JPG", id: Sample.uuidA), movie: .mov("a/IMG_0001.MOV", id: Sample.uuidA))
                        + .pair(still: .jpeg("b/IMG_0001.JPG", id: Sample.uuidB), movie: .mov("b/IMG_0001.MOV", id: Sample.uuidB)),
                        note: "Same names in different folders."),
            RuleExample(.pair(still: .jpeg("IMG_0001.JPG", id: Sample.uuidA), movie: .mov("IMG_0001.MOV", id: Sample.uuidA.lowercased())),
                        note: "Differing only in case: identifier-case-mismatch."),
        ]
    )

    /// A half with an identifier, or both halves of a pair when they share a folder and export
    /// name key (a camera's pair, nearly every pair of a library): 32 bits of the hash of that
    /// folder and key, and where the half is (its pair's index in the scan, and which halves), 8
    /// bytes. Halves whose keys only hash alike fall in one run and are told apart by their keys
    /// (``violations(in:scan:)``).
    private struct Half {
        enum Halves: UInt32 { case still = 0, movie = 1, both = 2 }
        var hash: UInt32
        private var place: UInt32
        init(hash: Int, pair: Int, halves: Halves) {
            self.hash = UInt32(truncatingIfNeeded: hash)
            place = UInt32(pair * 4) | halves.rawValue  // traps past 2³⁰ pairs rather than wrap
        }
        var pair: Int { Int(place >> 2) }
        var halves: Halves { Halves(rawValue: place & 3) ?? .both }
    }

    /// A half looked up for a run of halves hashing alike: the file, and whether it has a partner
    /// by identifier (whose path is read only for a finding).
    private struct Resolved {
        var file: FileSummary
        var pair: Int
        var isMovie: Bool
        var hasPartner: Bool

        init?(pair: Int, isMovie: Bool, in scan: ScanContext) {
            guard let file = scan.pairs.withHalf(pair, stills: !isMovie, { $0 }) else { return nil }
            let method = scan.pairs.method(pair)
            self.file = file
            self.pair = pair
            self.isMovie = isMovie
            hasPartner = (method == .contentIdentifier || method == .archive) && scan.pairs.isComplete(pair)
        }

        /// The halves the records of a run stand for, each record's still first.
        static func all(_ run: ArraySlice<Half>, in scan: ScanContext) -> [Resolved] {
            var out: [Resolved] = []
            out.reserveCapacity(2 * run.count)
            for half in run {
                if half.halves != .movie, let still = Resolved(pair: half.pair, isMovie: false, in: scan) { out.append(still) }
                if half.halves != .still, let movie = Resolved(pair: half.pair, isMovie: true, in: scan) { out.append(movie) }
            }
            return out
        }

        /// The path of the other half of this half's pair, when it is its partner by identifier.
        func partner(in scan: ScanContext) -> String? {
            guard hasPartner else { return nil }
            return isMovie ? scan.pairs.stillPath(pair) : scan.pairs.moviePath(pair)
        }
    }

    public func check(scan: ScanContext) -> [Violation] {
        // One 8-byte record per half, or per pair whose halves share a folder and name key,
        // sorted by the hash of its folder + name key, so that the files sharing a name in one
        // folder sit together: no dictionary of every file and no key string or copy of a file
        // kept per file (issue 13: this rule held ~220 bytes a file at a 100,000-file scan's
        // peak, then 80, then 16, then 8 a pair: its list was a million files' peak). The halves
        // are read where they lie. The list is reserved for two records a pair, but only the
        // pages written are resident.
        var halves: [Half] = []
        halves.reserveCapacity(2 * scan.pairs.count)
        var folders = FolderHashes()
        func hash(_ index: Int, isMovie: Bool) -> Int? {
            scan.pairs.withHalf(index, stills: !isMovie) { file in
                guard file.hasContentIdentifier, file.kind == .still || file.kind == .movie else { return nil }
                return Self.groupHash(file, folders: &folders)
            } ?? nil
        }
        for index in scan.pairs.indices {
            let still = hash(index, isMovie: false), movie = hash(index, isMovie: true)
            if let still, let movie, still == movie {
                halves.append(Half(hash: still, pair: index, halves: .both))
                continue
            }
            if let still { halves.append(Half(hash: still, pair: index, halves: .still)) }
            if let movie { halves.append(Half(hash: movie, pair: index, halves: .movie)) }
        }
        halves.sort { $0.hash < $1.hash }
        // Violations with the exact group key they come from, to be given in key order.
        var found: [(key: String, violation: Violation)] = []
        Self.forEachRun(of: halves[...], by: \.hash) { run in
            // A run of one half cannot conflict; one record of both halves is two.
            if run.count > 1 || run.first?.halves == .both {
                found += Self.violations(in: Resolved.all(run, in: scan), scan: scan)
            }
        }
        // Stable: within a group, the order the group gave (stills, then movies, by path).
        return found.enumerated().sorted { ($0.element.key, $0.offset) < ($1.element.key, $1.offset) }.map(\.element.violation)
    }

    /// The hash of `Pairing.nameLocation(_:)`'s parts (the folder as `Pairing.split` gives it, with a `/`
    /// after it, and the name's export key), from the summary's folder and name as held when they
    /// are where `Pairing.split` cuts (``FileSummary/splitsAsHeld``: an ASCII path, no archive
    /// member), else from the path split: a path is built and split only for those (issue 13:
    /// building every half's path was 1.3 points of a cached run's profile on 50,000 pairs).
    private static func groupHash(_ file: FileSummary, folders: inout FolderHashes) -> Int {
        var hasher = Hasher()
        if file.splitsAsHeld {
            hasher.combine(folders.hash(of: file.folder))
            hasher.combine(file.nameKey)
        } else {
            let (folder, name) = Pairing.split(file.path)
            hasher.combine(FileSummary.splitFolderKey(split: folder).hashValue)
            hasher.combine(Pairing.nameKey(name))
        }
        return hasher.finalize()
    }

    /// The hash of a folder's text (`/` for none), worked out once for a run of halves in one
    /// folder: the pairs come in path order, so one folder's halves mostly follow one another.
    private struct FolderHashes {
        private var last: PathFolder?
        private var lastHash: Int?
        /// The hash of the ``FileSummary/splitFolderKey`` of a summary in `folder` that
        /// ``FileSummary/splitsAsHeld``.
        mutating func hash(of folder: PathFolder?) -> Int {
            if let lastHash, folder === last { return lastHash }
            last = folder
            let hash = FileSummary.splitFolderKey(held: folder).hashValue
            lastHash = hash
            return hash
        }
    }

    /// A still and a movie (of one name group) whose identifiers differ even ignoring case, one of
    /// them paired by identifier elsewhere. UUIDs are told apart on their bits, without text.
    private static func conflict(_ still: Resolved, _ movie: Resolved) -> Bool {
        guard still.file.kind == .still, movie.file.kind == .movie, still.hasPartner || movie.hasPartner,
              still.file.hasContentIdentifier, movie.file.hasContentIdentifier else { return false }
        return IdentifierKey.differIgnoringCase(still.file.identifierKey, movie.file.identifierKey)
    }

    /// The violations among halves whose keys hash alike (one group, or more on a hash collision).
    private static func violations(in run: [Resolved], scan: ScanContext) -> [(key: String, violation: Violation)] {
        // Nearly every run is a still and its movie with one identifier: no key is built for it.
        guard run.contains(where: { still in run.contains { movie in conflict(still, movie) } }) else { return [] }
        var out: [(key: String, violation: Violation)] = []
        let keyed = run.map { (key: Pairing.nameLocation($0.file.path), half: $0) }.sorted { ($0.key, $0.half.file.path) < ($1.key, $1.half.file.path) }
        forEachRun(of: keyed[...], by: \.key) { sameKey in
            guard let key = sameKey.first?.key else { return }
            let group = sameKey.map(\.half)
            for still in group {
                for movie in group where conflict(still, movie) {
                    let sid = still.file.contentIdentifier ?? "", mid = movie.file.contentIdentifier ?? ""
                    var whose: [String] = []
                    if let p = still.partner(in: scan) { whose.append("the still's movie by identifier is '\(p)'") }
                    if let p = movie.partner(in: scan) { whose.append("the movie's still by identifier is '\(p)'") }
                    out.append((key, Violation(
                        "'\(still.file.path)' (\(sid)) and '\(movie.file.path)' (\(mid)) share a name but not an identifier; "
                            + whose.joined(separator: ", ") + ": tools that pair by name (PhotoPrism, Synology, immich-go) tie the wrong halves",
                        files: [still.file.path, movie.file.path],
                        fixHint: "Rename one of the two so that each still shares its name only with its own movie (the one with the same identifier).")))
                }
            }
        }
        return out
    }

    /// Calls `body` with each run of consecutive elements of `items` that share `key`.
    private static func forEachRun<Element, Key: Equatable>(
        of items: ArraySlice<Element>, by key: (Element) -> Key, _ body: (ArraySlice<Element>) -> Void
    ) {
        var start = items.startIndex
        while start < items.endIndex {
            let first = key(items[start])
            var end = start + 1
            while end < items.endIndex, key(items[end]) == first { end += 1 }
            body(items[start..<end])
            start = end
        }
    }
}
