import LiveLintEngine

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
