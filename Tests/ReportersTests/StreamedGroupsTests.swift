import Foundation
import LiveLintEngine
import LiveModel
@testable import Reporters
import Testing
import TestSupport

/// The text report groups findings under their pairs by lists sorted on disk
/// (`LintGroups.stream`): the same groups as the grouping held in memory (`LintGroups`), on
/// libraries of pairs, lone halves, `.livp` members and findings about one file, several files,
/// files of no pair and none at all.
struct StreamedGroupsTests {
    private static func library(seed: UInt64) -> LintResult {
        var generator = SplitMix(seed: seed)
        var pairs: [PairRecord] = []
        var paths: [String] = []
        for i in 0..<Int.random(in: 0...120, using: &generator) {
            let folder = "d\(Int.random(in: 0..<6, using: &generator))/"
            let inArchive = Int.random(in: 0..<8, using: &generator) == 0
            let base = inArchive ? "\(folder)x\(i).livp!IMG_\(i)" : "\(folder)IMG_\(i)"
            let still = Int.random(in: 0..<5, using: &generator) == 0 ? nil : base + ".JPG"
            let movie = Int.random(in: 0..<4, using: &generator) == 0 ? nil : base + ".MOV"
            // Now and then the same file in a second pair (a name pair beside an identifier pair).
            let again = Int.random(in: 0..<10, using: &generator) == 0 ? paths.randomElement(using: &generator) : nil
            pairs.append(PairRecord(still: still ?? again, movie: movie, contentIdentifier: nil,
                                    pairedBy: still != nil && movie != nil ? .contentIdentifier : .unpaired))
            paths += [still, movie].compactMap { $0 }
            if inArchive { paths.append("\(folder)x\(i).livp") }
        }
        let rules = ["orphan-still", "identifier-mismatch", "duplicate-identifier", "unreadable-file"]
        var findings: [Finding] = []
        for _ in 0..<Int.random(in: 0...300, using: &generator) {
            var files: Set<String> = []
            for _ in 0..<Int.random(in: 0...3, using: &generator) {
                files.insert(Int.random(in: 0..<6, using: &generator) == 0 || paths.isEmpty
                             ? "lost/\(Int.random(in: 0..<5, using: &generator)).JPG" : paths.randomElement(using: &generator)!)
            }
            findings.append(Finding(ruleID: rules.randomElement(using: &generator)!, severity: .warning,
                                    message: "m\(Int.random(in: 0..<3, using: &generator))", files: files.sorted(), documentation: "d"))
        }
        findings.sort(by: LintEngine.findingOrder)
        return LintResult(root: ".", files: [], pairs: pairs, findings: findings,
                          summary: LintSummary(files: 0, pairs: 0, errors: 0, warnings: findings.count, infos: 0))
    }

    @Test func theSameGroupsAsHeld() {
        for seed in UInt64(1)...40 {
            let result = Self.library(seed: seed)
            let held = LintGroups(result)
            for (scratch, run) in [(nil, nil), (NSTemporaryDirectory(), 1), (NSTemporaryDirectory(), 3)] as [(String?, Int?)] {
                var pairs: [(PairRecord, [Finding])] = []
                var width = -1
                var wide: [Finding] = []
                LintGroups.stream(result, scratch: scratch, runSize: run, pair: { pairs.append(($0, $1)) },
                                  scanWideRuleWidth: { width = $0 }, scanWide: { wide.append($0) })
                let label = "seed \(seed), runs of \(String(describing: run))"
                #expect(pairs.map(\.0) == held.pairs.map(\.pair), "\(label)")
                #expect(pairs.map(\.1) == held.pairs.map(\.findings), "\(label)")
                #expect(wide == held.scanWide, "\(label)")
                #expect(width == (held.scanWide.map(\.ruleID.count).max() ?? 0), "\(label)")
            }
            // Both ways the text is the same, verbose or not.
            for verbose in [false, true] {
                var options = LintReportOptions(verbose: verbose)
                let inMemory = LintTextReporter.render(result, options: options)
                options.scratchDirectory = NSTemporaryDirectory()
                options.scratchRun = 2
                #expect(LintTextReporter.render(result, options: options) == inMemory, "seed \(seed)")
            }
        }
    }
}
