import LiveLintEngine
import ScratchFiles

extension HTMLReporter {
    /// Which findings each card of the HTML report lists, and which are `other`, joined by lists
    /// sorted in `scratch` past a run's worth (nil: in memory) instead of a dictionary of every
    /// path and one of every card (issue 13: flat memory for a million-file library).
    ///
    /// Every half of every pair and every file of every finding is one record, sorted by path;
    /// records of one path come in the order they were appended, the pairs' (in result order)
    /// before the findings'. A path's card is the last pair it is a half of (the `.livp` archive
    /// of a member is no half): a finding naming it is listed by that card. What the join finds
    /// goes to two lists of numbers, read back once each: `card << 32 | finding` for each finding
    /// a card lists, and each finding some card lists (the others are `other`). Asked to, the
    /// first also marks each card whose still or movie some finding names (whichever card lists
    /// it), as `card << 32 | 0xFFFF_FFFF`, after the card's findings: `--thumbnails findings`.
    struct CardJoin {
        /// The low half of a card's mark: no finding's index (those are below 2³² - 1).
        private static let mark: UInt64 = 0xFFFF_FFFF
        /// `card << 32 | finding` for each finding a card lists (as often as it names the card's
        /// files), and the cards' marks.
        private let listed: SortedRuns<UInt64>
        /// Each finding some card lists (as often as it names cards' files).
        private let matched: SortedRuns<UInt64>
        private let findingCount: Int
        private let cardCount: Int

        /// The join of `result`'s findings with its cards; `marksNamed`: cards whose still or
        /// movie a finding names are marked.
        init(_ result: LintResult, marksNamed: Bool, scratch: String?, runSize: Int?) {
            findingCount = result.findings.count
            cardCount = result.pairs.count
            precondition(findingCount < 1 << 32 && cardCount < 1 << 32, "a report's pairs and findings are counted in 32 bits")
            let paths = SortedRecords<NamedPath>(spillingIn: scratch, prefix: "livelint-html-paths", runSize: runSize) {
                $0.path < $1.path
            }
            for (i, pair) in result.pairs.enumerated() {
                if let still = pair.still { paths.append(NamedPath(path: still, by: .pair(i))) }
                if let movie = pair.movie { paths.append(NamedPath(path: movie, by: .pair(i))) }
            }
            for (j, finding) in result.findings.enumerated() {
                for file in finding.files { paths.append(NamedPath(path: file, by: .finding(j))) }
            }
            let listed = SortedRuns<UInt64>(spillingIn: scratch, prefix: "livelint-html-listed", runSize: runSize)
            let matched = SortedRuns<UInt64>(spillingIn: scratch, prefix: "livelint-html-matched", runSize: runSize)
            // The path read, the pairs it is a half of (in result order) and whether a finding names it yet.
            var current: String?
            var pairs: [Int] = []
            var named = false
            paths.forEachInOrder { entry in
                if entry.path != current {
                    current = entry.path
                    pairs.removeAll(keepingCapacity: true)
                    named = false
                }
                switch entry.by {
                case .pair(let i):
                    pairs.append(i)
                case .finding(let j):
                    guard let card = pairs.last else { return }
                    if marksNamed, !named {
                        for i in pairs { listed.append(UInt64(i) << 32 | Self.mark) }
                    }
                    named = true
                    listed.append(UInt64(card) << 32 | UInt64(j))
                    matched.append(UInt64(j))
                }
            }
            self.listed = listed
            self.matched = matched
        }

        /// Calls `body` with each finding no card lists, in ascending order; once.
        func forEachOther(_ body: (Int) -> Void) {
            var next = 0
            matched.forEachInOrder { j in
                while next < Int(j) {
                    body(next)
                    next += 1
                }
                next = max(next, Int(j) + 1)
            }
            while next < findingCount {
                body(next)
                next += 1
            }
        }

        /// Calls `body` with each card in order, the findings it lists (ascending, each once) and
        /// whether it is marked; once.
        func forEachCard(_ body: (_ card: Int, _ findings: [Int], _ marked: Bool) -> Void) {
            var card = 0
            var own: [Int] = []
            var marked = false
            var last: UInt64?
            func next() {
                body(card, own, marked)
                own.removeAll(keepingCapacity: true)
                marked = false
                card += 1
            }
            listed.forEachInOrder { value in
                guard value != last else { return }
                last = value
                while card < Int(value >> 32) { next() }
                if value & Self.mark == Self.mark {
                    marked = true
                } else {
                    own.append(Int(value & Self.mark))
                }
            }
            while card < cardCount { next() }
        }
    }

    /// A path as a pair names it (a half) or a finding does (one of its files), for the join.
    struct NamedPath: ScratchRecord {
        enum Namer: Equatable {
            case pair(Int)
            case finding(Int)
        }

        var path: String
        var by: Namer

        init(path: String, by: Namer) {
            self.path = path
            self.by = by
        }

        /// The path, then the pair's index times two, or the finding's times two plus one.
        func encode(into bytes: inout [UInt8]) {
            var w = RecordWriter(bytes: consume bytes)
            w.string(path)
            switch by {
            case .pair(let i): w.number(UInt64(i) << 1)
            case .finding(let j): w.number(UInt64(j) << 1 | 1)
            }
            bytes = w.bytes
        }

        init?(decoding bytes: UnsafeRawBufferPointer) {
            var r = RecordReader(bytes: bytes)
            guard let path = r.string(), let number = r.number(), number >> 1 < 1 << 32, r.atEnd else { return nil }
            let index = Int(number >> 1)
            self.init(path: path, by: number & 1 == 0 ? .pair(index) : .finding(index))
        }
    }
}
