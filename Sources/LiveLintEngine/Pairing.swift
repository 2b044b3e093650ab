import LiveModel

/// Ties stills and movies together (see ``pair(_:)``).
public enum Pairing {
    /// Pairs the scan's stills and movies, deterministically (the input order does not matter):
    ///
    /// 1. by content identifier, exact match (still and movie may sit in different folders);
    ///    when one identifier has several candidates, halves in one folder with matching names
    ///    pair first, then the rest in path order;
    /// 2. among what is left, by identifier ignoring case, so that `identifier-case-mismatch`
    ///    can explain a pair that Immich (exact compare) will not make — recorded as
    ///    `.contentIdentifier`;
    /// 3. among what is left (no identifier, or one that matches nothing), by name within one
    ///    folder: same stem, ignoring case, after export suffixes are removed (``nameKey(_:)``),
    ///    then once more with a Takeout `(N)` suffix removed from one side;
    /// 4. the rest are lone halves (`.unpaired`).
    ///
    /// The members of each `.livp` are paired among themselves the same way (complete pairs are
    /// `.archive`) and never with files outside it. Files of kind `.unknown` take no part. A file
    /// whose reading failed still takes part with whatever was read.
    public static func pair(_ files: [MediaFile]) -> [LivePair] {
        let list = FileList(files)
        return pair(list.summaries).map { $0.full(from: list) }
    }

    /// ``pair(_:)`` on summaries: what a library-sized scan pairs (``FileSummary``), its full
    /// records left where they are.
    public static func pair(_ files: [FileSummary]) -> [PairSummary] {
        Array(pairList(files))
    }

    /// ``pair(_:)`` on summaries, the pairs kept as indices into `files` (``PairList``): pairing
    /// makes no second copy of the halves, and builds each pair's indices once, in their final
    /// order (issue 13).
    public static func pairList(_ files: consuming [FileSummary]) -> PairList {
        pairList(files, partition: nil)
    }

    /// ``pairList(_:)``, each bucket of `partition` (groups no pairing decision crosses; more than
    /// one) paired on its own: the lists sorted and matched cover one bucket at a time (issue 13).
    /// The list is the same as without it.
    static func pairList(_ files: consuming [FileSummary], partition: Partition?) -> PairList {
        let files = consume files
        // Each archive's pairs, with the archive's index among `files`.
        var archived: [(pair: PairSummary, file: Int32)] = []
        // Indices as Int32 (half the memory of Int): a scan holds far fewer than 2³¹ files.
        var loose: [Int32] = []
        loose.reserveCapacity(files.count)
        for i in files.indices {
            switch files[i].kind {
            case .still, .movie: loose.append(Int32(i))
            case .livp:
                let members = files[i].members ?? []
                var halves = members.indices.filter { members[$0].kind == .still || members[$0].kind == .movie }.map { Int32($0) }
                let made = pairHalves(&halves, of: members, ranks: nil)
                for m in made {
                    var pair = m.summary(in: members)
                    if pair.isComplete { pair.pairedBy = .archive }
                    pair.archive = files[i].path
                    archived.append((pair, Int32(i)))
                }
            case .unknown: continue
            }
        }
        archived.sort { pairOrder($0.pair, $1.pair) }
        let ranks = PathRanks(files)
        var made: [Made]
        if let partition {
            // Each bucket's halves in their order (the sorts below are stable, so a bucket's
            // pairs come in the order the whole library's would give them).
            var (order, ends) = partition.group(loose.count) { Int(partition.bucketOf[Int(loose[$0])]) }
            for k in order.indices { order[k] = loose[Int(order[k])] }
            loose = []
            // Each bucket's pairs, then one list of them all made at its size (a list grown by
            // doubling holds up to twice its pairs while it grows).
            var parts: [[Made]] = []
            var start = 0
            for end in ends {
                var halves = Array(order[start..<end])
                start = end
                guard !halves.isEmpty else { continue }
                parts.append(pairHalves(&halves, of: files, ranks: ranks))
            }
            order = []
            made = []
            made.reserveCapacity(parts.reduce(0) { $0 + $1.count })
            for k in parts.indices {
                made += parts[k]
                parts[k] = []
            }
        } else {
            made = pairHalves(&loose, of: files, ranks: ranks)
        }
        // pairOrder's order, its paths compared by rank (or in place).
        files.withUnsafeBufferPointer { f in
            func compare(_ a: Int32, _ b: Int32) -> Int { ranks?.compare(a, b) ?? FileSummary.comparePaths(f[Int(a)], f[Int(b)]) }
            made.sort { a, b in
                let order = compare(a.still >= 0 ? a.still : a.movie, b.still >= 0 ? b.still : b.movie)
                if order != 0 { return order < 0 }
                // No movie reads as the empty path, which precedes every other.
                guard b.movie >= 0 else { return false }
                guard a.movie >= 0 else { return !f[Int(b.movie)].path.isEmpty }
                return compare(a.movie, b.movie) < 0
            }
        }
        // The two sorted lists merged, an archive's pair first on a tie (as one stable sort of
        // the archives' pairs followed by the others would put them). An archive's halves are
        // copies of its members, kept after the scan's own files.
        guard !archived.isEmpty else { return PairList(files: files, members: [], spans: made, archives: [:]) }
        var spans: [PairList.Span] = []
        spans.reserveCapacity(archived.count + made.count)
        var members: [FileSummary] = []
        var archives: [Int32: PairList.Archive] = [:]
        let count = files.count
        func appendArchived(_ entry: (pair: PairSummary, file: Int32)) {
            let pair = entry.pair
            func add(_ half: FileSummary?) -> Int32 {
                guard let half else { return -1 }
                members.append(half)
                return Int32(count + members.count - 1)
            }
            archives[Int32(spans.count)] = PairList.Archive(path: files[Int(entry.file)].path, file: entry.file)
            spans.append(PairList.Span(still: add(pair.still), movie: add(pair.movie), method: pair.pairedBy))
        }
        var merge = ArchivedMerge(archived.map { orderKey(still: $0.pair.still?.path, movie: $0.pair.movie?.path) })
        for m in made {
            merge.place(before: {
                orderKey(still: m.still >= 0 ? files[Int(m.still)].path : nil, movie: m.movie >= 0 ? files[Int(m.movie)].path : nil)
            }, archive: { appendArchived(archived[$0]) })
            spans.append(m)
        }
        merge.finish { appendArchived(archived[$0]) }
        made = []
        return PairList(files: files, members: members, spans: spans, archives: archives)
    }

    /// Pairs made, in pairing's order, and archives' pairs (their order keys, in that order)
    /// merged as one stable sort of the archives' pairs followed by the others would put them (an
    /// archive's pair first on a tie), a made pair at a time: the archives' pairs that go before
    /// each made pair (whose key is asked for only while some wait), then those left.
    struct ArchivedMerge {
        private let archived: [(String, String)]
        private var next = 0

        init(_ archived: [(String, String)]) { self.archived = archived }

        /// Places the archives' pairs that go before the made pair whose order key is `key`
        /// (asked for only while some wait).
        mutating func place(before key: () -> (String, String), archive: (Int) -> Void) {
            guard next < archived.count else { return }
            let key = key()
            while next < archived.count, !(key < archived[next]) {
                archive(next)
                next += 1
            }
        }

        /// Places the archives' pairs left.
        mutating func finish(archive: (Int) -> Void) {
            while next < archived.count {
                archive(next)
                next += 1
            }
        }
    }

    /// A pairing outcome as indices into the halves paired (-1: none).
    private typealias Made = PairList.Span

    /// The deterministic order of pairs: by the still's path (or the lone movie's), then the movie's.
    static func pairOrder(_ a: PairSummary, _ b: PairSummary) -> Bool {
        orderKey(still: a.still?.path, movie: a.movie?.path) < orderKey(still: b.still?.path, movie: b.movie?.path)
    }

    /// What ``pairOrder(_:_:)`` compares of a pair with these halves' paths: the still's (the lone
    /// movie's), then the movie's ("" for none). Pairs are listed in the order of these keys.
    public static func orderKey(still: String?, movie: String?) -> (String, String) {
        (still ?? movie ?? "", movie ?? "")
    }

    @inline(__always)
    private static func fileOrder(_ a: FileSummary, _ b: FileSummary, pathOrder: Int) -> Bool {
        if pathOrder != 0 { return pathOrder < 0 }
        if a.kind != b.kind { return a.kind.rawValue < b.kind.rawValue }
        return a.format.rawValue < b.format.rawValue
    }

    /// Pairs the halves `halves` (indices into `files`, stills and movies); `ranks`, when the
    /// files have them, orders their paths.
    /// The lists of halves are sorted and cut down where they lie, `halves` emptied once split
    /// (issue 13: each copy of a list was 4 bytes a file of the library, at the scan's peak).
    private static func pairHalves(_ halves: inout [Int32], of files: [FileSummary], ranks: PathRanks?) -> [Made] {
        // Each list made at its size (a filter grows its result by doubling, and the lists are
        // held through every pass).
        let stillCount = halves.reduce(0) { $0 + (files[Int($1)].kind == .still ? 1 : 0) }
        var stills: [Int32] = [], movies: [Int32] = []
        stills.reserveCapacity(stillCount)
        movies.reserveCapacity(halves.count - stillCount)
        for half in halves {
            switch files[Int(half)].kind {
            case .still: stills.append(half)
            case .movie: movies.append(half)
            default: continue
            }
        }
        halves = []
        // The summaries read where they lie: a copy of two a comparison retained and released
        // their references, n log n times.
        files.withUnsafeBufferPointer { f in
            func order(_ x: Int32, _ y: Int32) -> Bool {
                fileOrder(f[Int(x)], f[Int(y)], pathOrder: ranks?.compare(x, y) ?? FileSummary.comparePaths(f[Int(x)], f[Int(y)]))
            }
            stills.sort(by: order)
            movies.sort(by: order)
        }
        // Every pass appends here, in place: as many as the larger side for a library whose halves
        // pair up (each pass's pairs had been a list of their own, grown by doubling and then
        // copied onto the one before; at a library scan's peak, issue 13).
        var pairs: [Made] = []
        pairs.reserveCapacity(max(stills.count, movies.count))

        // 1 and 2: by identifier, exact, then ignoring case.
        for fold in [false, true] {
            let key: (FileSummary) -> String? = { file in
                guard let id = file.contentIdentifier else { return nil }
                return fold ? ScanContext.folded(id) : id
            }
            match(&stills, &movies, of: files, stillKey: key, movieKey: key, method: .contentIdentifier, preferNames: true,
                  byIdentifier: !fold, into: &pairs)
        }
        // 3: by name within one folder; then with a Takeout "(N)" suffix dropped from one side
        // only (`IMG_0769.HEIC` + `IMG_0769(1).mp4`, never `(1)` + `(2)`).
        let plain: (FileSummary) -> String? = { file in nameLocation(file.path) }
        let takeout: (FileSummary) -> String? = { file in
            let (folder, name) = split(file.path)
            let stem = nameKey(name)
            let stripped = takeoutKey(stem)
            return stripped == stem ? nil : folder + "\u{0}" + stripped
        }
        for (stillKey, movieKey) in [(plain, plain), (plain, takeout), (takeout, plain)] {
            match(&stills, &movies, of: files, stillKey: stillKey, movieKey: movieKey, method: .name, preferNames: false, into: &pairs)
        }
        // 4: lone halves (the list grows once at most, to its final size).
        pairs.reserveCapacity(pairs.count + stills.count + movies.count)
        for still in stills { pairs.append(Made(still: still, movie: -1, method: .unpaired)) }
        for movie in movies { pairs.append(Made(still: -1, movie: movie, method: .unpaired)) }
        return pairs
    }

    /// Groups stills by `stillKey` and movies by `movieKey` (nil: takes no part), pairs within each group (name-matching halves first when
    /// `preferNames`, then in path order), and appends the pairs to `pairs`, leaving in `stills` and `movies`
    /// what is left, still sorted. `stills` and `movies` are indices into `files`.
    ///
    /// Groups are found by sorting (key, index) lists and walking them side by side: no array
    /// per key and no hash table, so a library-sized scan pairs in a few bytes per file (issue 4).
    ///
    /// With `byIdentifier`, both keys must be the half's own content identifier, as it is (the
    /// key functions are then not called): the lists sorted are positions alone, 4 bytes a half,
    /// their keys read from the files. The first pass sees every half of the library, and (key,
    /// position) entries took 24 bytes each (issue 13).
    private static func match(_ stills: inout [Int32], _ movies: inout [Int32], of files: [FileSummary],
                              stillKey: (FileSummary) -> String?, movieKey: (FileSummary) -> String?,
                              method: PairingMethod, preferNames: Bool, byIdentifier: Bool = false, into pairs: inout [Made]) {
        func keyed(_ list: [Int32], _ key: (FileSummary) -> String?) -> Keyed {
            assert(!byIdentifier || list.first.map { key(files[Int($0)]) == files[Int($0)].contentIdentifier } != false,
                   "byIdentifier: the key must be the identifier")
            guard byIdentifier else {
                var out: [(key: String, index: Int32)] = []
                out.reserveCapacity(list.count)
                for (i, file) in list.enumerated() {
                    if let k = key(files[Int(file)]) { out.append((k, Int32(i))) }
                }
                out.sort { $0.key != $1.key ? $0.key < $1.key : $0.index < $1.index }
                return .entries(out)
            }
            var positions: [Int32] = []
            positions.reserveCapacity(list.count)
            files.withUnsafeBufferPointer { f in
                for (i, file) in list.enumerated() where f[Int(file)].hasContentIdentifier { positions.append(Int32(i)) }
                list.withUnsafeBufferPointer { l in
                    positions.sort { a, b in
                            let x = Int(l[Int(a)]), y = Int(l[Int(b)])
                            let order = IdentifierKey.Bits.compare(f[x].identifierBits, f[y].identifierBits)
                                ?? FileSummary.compareIdentifiers(f[x], f[y])
                        return order != 0 ? order < 0 : a < b
                    }
                }
            }
            return .identifiers(positions: positions, list: list, files: files)
        }
        var usedStills: [Bool] = []
        var usedMovies: [Bool] = []
        do {
            // The keys, which hold the lists, go before the lists are cut down where they lie.
            let movieKeys = keyed(movies, movieKey)
            guard !movieKeys.isEmpty, !stills.isEmpty else { return }
            let stillKeys = keyed(stills, stillKey)
            usedStills = [Bool](repeating: false, count: stills.count)
            usedMovies = [Bool](repeating: false, count: movies.count)
            func take(_ s: Int, _ m: Int) {
                pairs.append(Made(still: stills[s], movie: movies[m], method: method))
                usedStills[s] = true
                usedMovies[m] = true
            }
            var i = 0, j = 0
            while i < stillKeys.count, j < movieKeys.count {
                let order = stillKeys.compare(i, with: movieKeys, j)
                if order < 0 { i += 1; continue }
                if order > 0 { j += 1; continue }
                var iEnd = i, jEnd = j
                while iEnd < stillKeys.count, stillKeys.compare(iEnd, with: movieKeys, j) == 0 { iEnd += 1 }
                while jEnd < movieKeys.count, stillKeys.compare(i, with: movieKeys, jEnd) == 0 { jEnd += 1 }
                let si = (i..<iEnd).map { stillKeys.position($0) }, mi = (j..<jEnd).map { movieKeys.position($0) }
                i = iEnd
                j = jEnd
                var freeStills = si, freeMovies = mi
                if preferNames, si.count > 1 || mi.count > 1 {
                    // Queues of movies by name location, each in path order; O(n) for large groups.
                    var byName: [String: ArraySlice<Int>] = [:]
                    for m in mi { byName[nameLocation(files[Int(movies[m])].path), default: []].append(m) }
                    for s in si {
                        if let m = byName[nameLocation(files[Int(stills[s])].path)]?.popFirst() { take(s, m) }
                    }
                    freeStills = si.filter { !usedStills[$0] }
                    freeMovies = mi.filter { !usedMovies[$0] }
                }
                for (s, m) in zip(freeStills, freeMovies) { take(s, m) }
            }
        }
        keep(&stills, unless: usedStills)
        keep(&movies, unless: usedMovies)
    }

    /// Cuts `list` down, in place and in order, to the entries whose flag in `used` is false.
    private static func keep(_ list: inout [Int32], unless used: [Bool]) {
        var kept = 0
        for i in list.indices where !used[i] {
            list[kept] = list[i]
            kept += 1
        }
        list.removeLast(list.count - kept)
    }

    /// Positions in a list of halves that have a key, sorted by key then position: as (key,
    /// position) entries, or as positions whose key is the half's identifier, compared in place
    /// (``FileSummary/compareIdentifiers(_:_:)``, an order of its own).
    private enum Keyed {
        case entries([(key: String, index: Int32)])
        case identifiers(positions: [Int32], list: [Int32], files: [FileSummary])

        var count: Int {
            switch self {
            case .entries(let entries): return entries.count
            case .identifiers(let positions, _, _): return positions.count
            }
        }
        var isEmpty: Bool { count == 0 }
        /// How key `i` orders against key `j` of `other`, keyed the same way.
        func compare(_ i: Int, with other: Keyed, _ j: Int) -> Int {
            switch (self, other) {
            case (.entries(let a), .entries(let b)):
                return threeWay(a[i].key, b[j].key)
            case (.identifiers(let pa, let la, let fa), .identifiers(let pb, let lb, let fb)):
                let x = Int(la[Int(pa[i])]), y = Int(lb[Int(pb[j])])
                return IdentifierKey.Bits.compare(fa[x].identifierBits, fb[y].identifierBits)
                    ?? FileSummary.compareIdentifiers(fa[x], fb[y])
            default:
                preconditionFailure("keys of one match are made one way")
            }
        }
        func position(_ i: Int) -> Int {
            switch self {
            case .entries(let entries): return Int(entries[i].index)
            case .identifiers(let positions, _, _): return Int(positions[i])
            }
        }
    }

    /// The folder and export name key of a path (``split(_:)``, ``nameKey(_:)``), as one string:
    /// what pairing by name, and a scan rule grouping files the way it does, compare.
    public static func nameLocation(_ path: String) -> String {
        let (folder, name) = split(path)
        return folder + "\u{0}" + nameKey(name)
    }

    /// The folder part and the file name of a scan path. For an archive member
    /// (`a/b.livp!X.JPG.jpeg`) the folder is the archive (`a/b.livp!`).
    public static func split(_ path: String) -> (folder: String, name: String) {
        let ascii = PathText.withASCII(path) { b -> (folder: String, name: String) in
            // The container is everything up to the last `!`, the `!` included.
            let inner = b.lastIndex(of: UInt8(ascii: "!")).map { $0 + 1 } ?? 0
            guard let slash = b[inner...].lastIndex(of: UInt8(ascii: "/")) else {
                return (PathText.string(b, 0..<inner), PathText.string(b, inner..<b.count))
            }
            return (PathText.string(b, 0..<slash), PathText.string(b, slash + 1..<b.count))
        }
        return ascii ?? characterSplit(path)
    }

    /// ``split(_:)`` worked out on `Character`s: for a path that is not all ASCII, and the tests'
    /// oracle for the byte arithmetic.
    static func characterSplit(_ path: String) -> (folder: String, name: String) {
        var container = ""
        var inner = Substring(path)
        if let bang = path.lastIndex(of: "!") {
            container = String(path[...bang])
            inner = path[path.index(after: bang)...]
        }
        if let slash = inner.lastIndex(of: "/") {
            return (container + inner[..<slash], String(inner[inner.index(after: slash)...]))
        }
        return (container, String(inner))
    }

    private static let mediaExtensions: Set<String> = {
        var all = Set<String>()
        for format in ContainerFormat.allCases where format.kind == .still || format.kind == .movie {
            all.formUnion(format.extensions)
        }
        return all
    }()

    /// The stem two halves of one export share, lower-cased: the extension goes
    /// (`IMG_0084.JPG` → `img_0084`), then a second media extension (`X.JPG.mov` → `x`),
    /// an icloudpd `_HEVC` suffix (`IMG_0084_HEVC.MOV` → `img_0084`), and a Photos-library
    /// `_N` after a UUID (`<uuid>_3.mov` → `<uuid>`).
    public static func nameKey(_ name: String) -> String {
        PathText.withASCII(name, asciiNameKey) ?? characterNameKey(name)
    }

    /// ``nameKey(_:)`` on the bytes of an ASCII name: the same steps, on byte offsets, the key
    /// lower-cased as it is made (the extension and `_hevc` tests lower-case what they compare;
    /// the others read the same in either case).
    static func asciiNameKey(_ b: UnsafeBufferPointer<UInt8>) -> String {
        let dot = UInt8(ascii: ".")
        /// Where `dropExtension` ends the name `b[0..<end]` (a dot that starts it is no extension's).
        func withoutExtension(_ end: Int) -> Int { end > 1 ? b[1..<end].lastIndex(of: dot) ?? end : end }
        var end = withoutExtension(b.count)
        let inner = withoutExtension(end)
        if inner != end {
            // The last piece between dots that is not empty (`split(separator: ".").last`).
            let last = (b[..<end].lastIndex { $0 != dot } ?? -1) + 1
            let first = b[..<last].lastIndex(of: dot).map { $0 + 1 } ?? 0
            if last > first, mediaExtensions.contains(PathText.lowercasedASCII(b, first..<last)) { end = inner }
        }
        if end > 5, PathText.lowercasedASCII(b, end - 5..<end) == "_hevc" { end -= 5 }
        if let underscore = b[..<end].lastIndex(of: UInt8(ascii: "_")), underscore + 1 < end,
           b[(underscore + 1)..<end].allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
            let head = PathText.lowercasedASCII(b, 0..<underscore)
            if ContentIdentifier.isUUID(head) { return head }
        }
        return PathText.lowercasedASCII(b, 0..<end)
    }

    /// ``nameKey(_:)`` worked out on `Character`s: for a name that is not all ASCII, and the
    /// tests' oracle for the byte arithmetic.
    static func characterNameKey(_ name: String) -> String {
        var stem = dropExtension(name)
        let inner = dropExtension(stem)
        if inner != stem, let ext = stem.split(separator: ".").last, mediaExtensions.contains(ext.lowercased()) {
            stem = inner
        }
        stem = stem.lowercased()
        if stem.hasSuffix("_hevc"), stem.count > 5 { stem.removeLast(5) }
        if let underscore = stem.lastIndex(of: "_") {
            let head = String(stem[..<underscore])
            let tail = stem[stem.index(after: underscore)...]
            if !tail.isEmpty, tail.allSatisfy(\.isASCIIDigit), ContentIdentifier.isUUID(head) { stem = head }
        }
        return stem
    }

    /// `img_0769(1)` / `img_0769 (1)` → `img_0769` (Google Takeout's suffix for a repeated name).
    static func takeoutKey(_ stem: String) -> String {
        guard stem.hasSuffix(")"), let open = stem.lastIndex(of: "(") else { return stem }
        let digits = stem[stem.index(after: open)..<stem.index(before: stem.endIndex)]
        guard !digits.isEmpty, digits.allSatisfy(\.isASCIIDigit) else { return stem }
        var head = String(stem[..<open])
        if head.hasSuffix(" ") { head.removeLast() }
        return head.isEmpty ? stem : head
    }

    private static func dropExtension(_ name: String) -> String {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name }
        return String(name[..<dot])
    }
}

/// The order of a scan's paths as numbers, for files already in that order (a library scan's
/// summaries come in walk order): `rank[i] < rank[j]` exactly when `files[i].path <
/// files[j].path`, equal ranks for paths Swift holds equal. Pairing sorts with them instead of
/// comparing paths (issue 13: a summary builds its path from its folder and name).
///
/// Where no two paths are equal (a walk lists each path once), a file's rank is its index and
/// none is stored: 4 bytes a file held through pairing, at a library scan's peak (issue 13).
struct PathRanks {
    /// nil: each file's rank is its index.
    private let ranks: [Int32]?

    /// True when ranks are stored (two paths were equal); for the tests, which check that a scan
    /// without equal paths stores none.
    var storesRanks: Bool { ranks != nil }

    /// nil when `files` are not in path order.
    init?(_ files: [FileSummary]) {
        var ranks: [Int32]? = nil
        var rank: Int32 = 0
        for i in files.indices.dropFirst() {
            let order = FileSummary.comparePaths(files[i - 1], files[i])
            if order > 0 { return nil }
            if order == 0, ranks == nil {
                // The first two equal paths: the ranks so far were the indices.
                ranks = (0..<Int32(files.count)).map { $0 }
            }
            if order < 0 { rank += 1 }
            ranks?[i] = rank
        }
        self.ranks = ranks
    }

    /// ``FileSummary/comparePaths(_:_:)`` for the files at `a` and `b`.
    func compare(_ a: Int32, _ b: Int32) -> Int {
        guard let ranks else { return threeWay(a, b) }
        return threeWay(ranks[Int(a)], ranks[Int(b)])
    }
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}

extension PairList.Span {
    /// The pair these indices into `files` stand for.
    func summary(in files: [FileSummary]) -> PairSummary {
        PairSummary(still: still >= 0 ? files[Int(still)] : nil, movie: movie >= 0 ? files[Int(movie)] : nil, pairedBy: method)
    }
}
