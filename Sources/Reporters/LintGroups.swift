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
        let memberSets: [Set<String>] = result.pairs.map { pair in
            var set = Set<String>()
            for path in [pair.still, pair.movie].compactMap({ $0 }) {
                set.insert(path)
                set.insert(LintGroups.archive(of: path))
            }
            return set
        }
        var scanWide: [Finding] = []
        for finding in result.findings {
            if !finding.files.isEmpty,
               let i = memberSets.firstIndex(where: { set in finding.files.allSatisfy(set.contains) }) {
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
