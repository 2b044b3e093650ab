import LiveLintEngine
import TestSupport

/// Random results for the reports that group or join findings with pairs on disk
/// (``StreamedGroupsTests``, ``StreamedHTMLTests``), each compared with the grouping held in
/// memory: pairs with and without media, lone halves, `.livp` members, a file that is a half of
/// two pairs, a name spelt NFC in one pair and NFD in another, a top-level name starting with
/// "!", and findings about one file, both halves of a pair, several pairs, files of no pair and
/// none at all, in the report's order.
enum RandomLibrary {
    static func make(seed: UInt64) -> LintResult {
        var generator = SplitMix(seed: seed)
        var pairs: [PairRecord] = []
        var paths: [String] = []
        for i in 0..<Int.random(in: 0...120, using: &generator) {
            let folder = "d\(Int.random(in: 0..<6, using: &generator))/"
            let inArchive = Int.random(in: 0..<8, using: &generator) == 0
            let base = inArchive ? "\(folder)x\(i).livp!IMG_\(i)" : "\(folder)IMG_\(i)"
            let still = Int.random(in: 0..<5, using: &generator) == 0 ? nil : base + ".JPG"
            let movie = Int.random(in: 0..<4, using: &generator) == 0 ? nil : base + ".MOV"
            // Now and then a file already a half of an earlier pair (a name pair beside an
            // identifier pair): the later pair's card gets its findings, the earlier pair its text.
            let again = Int.random(in: 0..<10, using: &generator) == 0 ? paths.randomElement(using: &generator) : nil
            let media = Bool.random(using: &generator)
                ? PairMedia(stillIdentifier: "S\(i % 3)", movieIdentifier: "ID", stillWidth: 4032, stillHeight: 3024,
                            movieDuration: 1.5, stillImageTime: 0.5, videoCodec: "hvc1")
                : nil
            pairs.append(PairRecord(still: still ?? again, movie: movie, contentIdentifier: media == nil ? nil : "ID",
                                    pairedBy: still != nil && movie != nil ? .contentIdentifier : .unpaired, media: media))
            paths += [still, movie].compactMap { $0 }
            if inArchive { paths.append("\(folder)x\(i).livp") }
        }
        // A top-level name starting with "!" (its "archive" is ""), and a name spelt NFC in one
        // pair and NFD in another: one path to Swift's strings.
        if Bool.random(using: &generator) {
            pairs.append(PairRecord(still: "!draft.JPG", movie: nil, contentIdentifier: nil, pairedBy: .unpaired))
            paths.append("!draft.JPG")
        }
        if Bool.random(using: &generator) {
            pairs.append(PairRecord(still: "d1/Caf\u{E9}.JPG", movie: nil, contentIdentifier: nil, pairedBy: .unpaired))
            pairs.append(PairRecord(still: "d1/Cafe\u{301}.JPG", movie: "d1/Cafe\u{301}.MOV", contentIdentifier: "ID",
                                    pairedBy: .contentIdentifier,
                                    consumers: ["immich": ConsumerVerdict(.split, "no identifier", fix: "livelint fix")]))
            paths += ["d1/Caf\u{E9}.JPG", "d1/Cafe\u{301}.MOV"]
        }
        let rules = ["orphan-still", "identifier-mismatch", "duplicate-identifier", "unreadable-file"]
        var findings: [Finding] = []
        for _ in 0..<Int.random(in: 0...300, using: &generator) {
            var files: Set<String> = []
            if let pair = pairs.randomElement(using: &generator), let still = pair.still, let movie = pair.movie,
               Int.random(in: 0..<5, using: &generator) == 0 {
                // Both halves of one pair.
                files = [still, movie]
            } else {
                for _ in 0..<Int.random(in: 0...3, using: &generator) {
                    // Files of no pair: before, between and after the pairs' paths.
                    files.insert(Int.random(in: 0..<6, using: &generator) == 0 || paths.isEmpty
                                 ? ["a/", "d2/", "d3/zz", "lost/"].randomElement(using: &generator)! + "\(Int.random(in: 0..<5, using: &generator)).JPG"
                                 : paths.randomElement(using: &generator)!)
                }
            }
            findings.append(Finding(ruleID: rules.randomElement(using: &generator)!, severity: .warning,
                                    message: "m\(Int.random(in: 0..<3, using: &generator))", files: files.sorted(),
                                    fixHint: Bool.random(using: &generator) ? "fix it" : nil, documentation: "d"))
        }
        findings.sort(by: LintEngine.findingOrder)
        var summary = LintSummary(files: 0, pairs: pairs.count, errors: 0, warnings: findings.count, infos: 0)
        // Counted as the engine counts them: a result whose pairs have verdicts says so.
        for pair in pairs {
            for (consumer, verdict) in pair.consumers { summary.consumers[consumer, default: [:]][verdict.outcome, default: 0] += 1 }
        }
        return LintResult(root: ".", files: [], pairs: pairs, findings: findings, summary: summary)
    }
}
