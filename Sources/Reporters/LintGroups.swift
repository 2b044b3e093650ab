import LiveLintEngine
import ScratchFiles

/// Findings sorted under the pair they concern, the rest kept as scan-wide.
///
/// A finding belongs to a pair when every file it names is that pair's still or movie, or the
/// `.livp` archive holding them; the first such pair (in result order) takes it. Findings that
/// name no file, or files of several pairs (duplicates), or files in no pair (unreadable files)
/// are scan-wide. Text and JUnit share this grouping so they always agree.
struct LintGroups {
    struct PairGroup {
        var pair: PairRecord
        var findings: [Finding]
        /// `still`, else `movie`, else a placeholder: how the pair is named in reports.
        var name: String { pair.still ?? pair.movie ?? "(empty pair)" }
    }

    var pairs: [PairGroup]
    var scanWide: [Finding]

    init(_ result: LintResult) {
        var groups = result.pairs.map { PairGroup(pair: $0, findings: []) }
        // Path (and archive path) → the pairs holding it, so grouping is linear in the findings.
        var pairsByPath: [String: [Int]] = [:]
        for (i, pair) in result.pairs.enumerated() {
            var paths = Set<String>()
            for path in [pair.still, pair.movie].compactMap({ $0 }) {
                paths.insert(path)
                paths.insert(LintGroups.archive(of: path))
            }
            for path in paths { pairsByPath[path, default: []].append(i) }
        }
        var scanWide: [Finding] = []
        for finding in result.findings {
            let candidates = finding.files.first.flatMap { pairsByPath[$0] } ?? []
            if let i = candidates.first(where: { i in finding.files.allSatisfy { pairsByPath[$0]?.contains(i) == true } }) {
                groups[i].findings.append(finding)
            } else {
                scanWide.append(finding)
            }
        }
        self.pairs = groups
        self.scanWide = scanWide
    }

    /// `a/x.livp!IMG.JPG` → `a/x.livp`; any other path unchanged.
    static func archive(of path: String) -> String {
        guard let bang = path.firstIndex(of: "!") else { return path }
        return String(path[..<bang])
    }
}

extension LintGroups {
    /// The same grouping, without holding the library (issue 13: a text report of a million
    /// files): `pair` is called with each pair in order and the findings it takes (in report
    /// order), then `scanWide` with each scan-wide finding in order. The lists it needs are sorted
    /// in `scratch` past a run's worth (nil: in memory): every path of every pair beside the pair
    /// (sorted by path, joined with the findings, which are sorted by first file already), and each
    /// finding beside the pair that takes it (sorted by pair). `scanWideRuleWidth` is told the
    /// longest rule id of the scan-wide findings, which their lines are aligned to, before they
    /// are handed over. Findings not in the report's order (a result made by hand) are grouped
    /// in memory instead.
    static func stream(_ result: LintResult, scratch: String?, runSize: Int? = nil,
                       pair body: (PairRecord, [Finding]) -> Void, scanWideRuleWidth: (Int) -> Void,
                       scanWide: (Finding) -> Void) {
        let findings = result.findings
        precondition(findings.count < 1 << 32 && result.pairs.count < Int(Int32.max), "a report's pairs and findings are counted in 32 bits")
        // No finding to group: each pair takes none, and no list is sorted.
        guard !findings.isEmpty else {
            for pair in result.pairs { body(pair, []) }
            scanWideRuleWidth(0)
            return
        }
        let paths = SortedRecords<PathOfPair>(spillingIn: scratch, prefix: "livelint-report-paths", runSize: runSize) { $0.path < $1.path }
        for (i, pair) in result.pairs.enumerated() {
            var seen = Set<String>()
            for path in [pair.still, pair.movie].compactMap({ $0 }) {
                for p in [path, archive(of: path)] where seen.insert(p).inserted { paths.append(PathOfPair(path: p, pair: i)) }
            }
        }
        // Each finding a pair takes, sorted by that pair (findings in report order within it).
        let taken = SortedRecords<KeyedFinding>(spillingIn: scratch, prefix: "livelint-report-taken", runSize: runSize) {
            $0.key < $1.key
        }
        let wide = SortedRuns<UInt64>(spillingIn: scratch, prefix: "livelint-report-wide", runSize: runSize)
        var ruleWidth = 0
        func markScanWide(_ j: Int, _ finding: Finding) {
            wide.append(UInt64(j))
            ruleWidth = max(ruleWidth, finding.ruleID.count)
        }
        // The findings from `next` on whose first file comes before `path` (the next pair path):
        // those whose first file is `current` go to the first of its pairs holding all their files,
        // the others, held by no pair, are scan-wide.
        var next = 0
        var candidates: [Int] = []
        var current: String?
        var previousFirst: String?
        var inOrder = true
        func take(upTo path: String?) {
            while next < findings.count {
                let finding = findings[next]
                let first = finding.files.first ?? ""
                if let previousFirst, first < previousFirst { inOrder = false }
                if let current, first == current, !finding.files.isEmpty {
                    // A finding about `current` alone is held by its first pair; others are looked up.
                    let holds = { (i: Int) -> Bool in
                        let pair = result.pairs[i]
                        let own = [pair.still, pair.movie].compactMap { $0 }
                        return finding.files.allSatisfy { f in own.contains { $0 == f || archive(of: $0) == f } }
                    }
                    let alone = finding.files.allSatisfy { $0 == current }
                    if let i = alone ? candidates.first : candidates.first(where: holds) {
                        taken.append(KeyedFinding(key: i, finding: finding))
                    } else {
                        markScanWide(next, finding)
                    }
                } else if let path, !(first < path) {
                    return
                } else {
                    markScanWide(next, finding)
                }
                previousFirst = first
                next += 1
            }
        }
        paths.forEachInOrder { entry in
            guard entry.path != current else {
                candidates.append(entry.pair)
                return
            }
            take(upTo: entry.path)
            current = entry.path
            candidates = [entry.pair]
        }
        take(upTo: nil)
        // Findings not in the report's order (a result made by hand) cannot be joined so: grouped
        // in memory instead.
        guard inOrder else {
            let groups = LintGroups(result)
            for group in groups.pairs { body(group.pair, group.findings) }
            scanWideRuleWidth(groups.scanWide.map(\.ruleID.count).max() ?? 0)
            groups.scanWide.forEach(scanWide)
            return
        }
        // The pairs in order, each with what it took.
        var i = 0
        var own: [Finding] = []
        taken.forEachInOrder { entry in
            while i < entry.key {
                body(result.pairs[i], own)
                own = []
                i += 1
            }
            own.append(entry.finding)
        }
        while i < result.pairs.count {
            body(result.pairs[i], own)
            own = []
            i += 1
        }
        scanWideRuleWidth(ruleWidth)
        wide.forEachInOrder { scanWide(findings[Int($0)]) }
    }

    /// A path of a pair (a half, or the archive holding it), for the join with the findings.
    struct PathOfPair: ScratchRecord {
        var path: String
        var pair: Int

        func encode(into bytes: inout [UInt8]) {
            var w = RecordWriter(bytes: consume bytes)
            w.string(path)
            w.number(UInt64(pair))
            bytes = w.bytes
        }

        init?(decoding bytes: UnsafeRawBufferPointer) {
            var r = RecordReader(bytes: bytes)
            guard let path = r.string(), let pair = r.number(), pair < UInt64(Int32.max), r.atEnd else { return nil }
            self.init(path: path, pair: Int(pair))
        }

        init(path: String, pair: Int) {
            self.path = path
            self.pair = pair
        }
    }
}

/// A finding beside a number it is sorted by (the pair that takes it, the rank of its rule), for
/// the lists a report sorts on disk.
struct KeyedFinding: ScratchRecord {
    var key: Int
    var finding: Finding

    func encode(into bytes: inout [UInt8]) {
        // The writer ends before the finding is appended: alive, it would share the buffer,
        // and the finding's first byte would copy the whole write buffer (64 KiB a record).
        do {
            var w = RecordWriter(bytes: consume bytes)
            w.number(UInt64(key))
            bytes = w.bytes
        }
        finding.encode(into: &bytes)
    }

    init?(decoding bytes: UnsafeRawBufferPointer) {
        var r = RecordReader(bytes: bytes)
        guard let key = r.number(), key < UInt64(Int32.max),
              let finding = Finding(decoding: UnsafeRawBufferPointer(rebasing: bytes[r.at...])) else { return nil }
        self.init(key: Int(key), finding: finding)
    }

    init(key: Int, finding: Finding) {
        self.key = key
        self.finding = finding
    }
}
