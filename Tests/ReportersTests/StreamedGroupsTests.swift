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
    @Test func theSameGroupsAsHeld() {
        for seed in UInt64(1)...40 {
            let result = RandomLibrary.make(seed: seed)
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
            // The text is the one the held groups gave, verbose or not, coloured or not, in memory
            // or on disk; and with the findings out of order (grouped in memory then).
            var shuffled = result
            var generator = SplitMix(seed: seed)
            shuffled.findings = Findings(Array(result.findings).shuffled(using: &generator))
            // And without findings (no pair is read then, unless one is shown for its verdicts
            // or as clean).
            var clean = result
            clean.findings = Findings([])
            for verbose in [false, true] {
                for color in [false, true] {
                    var options = LintReportOptions(verbose: verbose, color: color)
                    let expected = Self.heldText(result, options: options)
                    #expect(LintTextReporter.render(result, options: options) == expected, "seed \(seed)")
                    #expect(LintTextReporter.render(clean, options: options) == Self.heldText(clean, options: options),
                            "seed \(seed), no findings")
                    #expect(LintTextReporter.render(shuffled, options: options) == Self.heldText(shuffled, options: options),
                            "seed \(seed), out of order")
                    options.scratchDirectory = NSTemporaryDirectory()
                    options.scratchRun = 2
                    #expect(LintTextReporter.render(result, options: options) == expected, "seed \(seed), on disk")
                }
            }
        }
    }

    /// The text report as it was rendered from the groups held in memory: the reference.
    private static func heldText(_ result: LintResult, options: LintReportOptions) -> String {
        let style = Style(enabled: options.color)
        let groups = LintGroups(result)
        var blocks: [[String]] = []
        for group in groups.pairs where !group.findings.isEmpty || LintTextReporter.showsVerdicts(group.pair) {
            blocks.append(LintTextReporter.pairHeader(group.pair, style: style)
                          + LintTextReporter.findingLines(group.findings, showFiles: false, style: style)
                          + LintTextReporter.consumerLines(group.pair.consumers, style: style))
        }
        if !groups.scanWide.isEmpty {
            blocks.append([style.bold("Scan-wide")] + LintTextReporter.findingLines(groups.scanWide, showFiles: true, style: style))
        }
        if options.verbose {
            let clean = groups.pairs.filter { $0.findings.isEmpty }
            if !clean.isEmpty {
                let rows = clean.map { g in
                    [style.green("ok"), Text.clean(g.pair.still ?? "—"), Text.clean(g.pair.movie ?? "—"), g.pair.pairedBy.rawValue]
                }
                blocks.append([style.bold("Clean pairs")] + Text.table(rows, indent: "  "))
            }
        }
        var out = blocks.map { $0.joined(separator: "\n") }.joined(separator: "\n\n")
        if !out.isEmpty { out += "\n\n" }
        out += LintTextReporter.summaryLine(result.summary) + "\n"
        for line in LintTextReporter.consumerSummaryLines(result.summary) { out += line + "\n" }
        return out
    }

    /// JUnit as it was written from the groups held in memory: the reference for the streamed one.
    private static func heldJUnit(_ result: LintResult, failOn: Severity) -> String {
        let groups = LintGroups(result)
        var cases: [(className: String, name: String, findings: [Finding])] = groups.pairs.map {
            ("livelint.pair", $0.name, $0.findings)
        }
        var scanRules: [String] = []
        var scanFindings: [String: [Finding]] = [:]
        for f in groups.scanWide {
            if scanFindings[f.ruleID] == nil { scanRules.append(f.ruleID) }
            scanFindings[f.ruleID, default: []].append(f)
        }
        cases += scanRules.map { ("livelint.scan", $0, scanFindings[$0] ?? []) }
        let failures = cases.filter { c in c.findings.contains { $0.severity >= failOn } }.count
        let counts = "tests=\"\(cases.count)\" failures=\"\(failures)\" errors=\"0\""
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"livelint\" \(counts)>\n"
        out += "  <testsuite name=\"livelint\" \(counts) skipped=\"0\">\n"
        for c in cases {
            let open = "    <testcase classname=\"\(c.className)\" name=\"\(JUnitReporter.escape(c.name))\""
            let failing = c.findings.filter { $0.severity >= failOn }
            let passing = c.findings.filter { $0.severity < failOn }
            if c.findings.isEmpty {
                out += open + "/>\n"
                continue
            }
            out += open + ">\n"
            if let worst = failing.map(\.severity).max() {
                let message = failing.count == 1 ? failing[0].message
                    : "\(failing.count) findings: " + failing.map(\.ruleID).joined(separator: ", ")
                out += "      <failure type=\"\(worst.rawValue)\" message=\"\(JUnitReporter.escape(message))\">"
                out += JUnitReporter.escape(JUnitReporter.describe(failing), attribute: false) + "</failure>\n"
            }
            if !passing.isEmpty {
                out += "      <system-out>" + JUnitReporter.escape(JUnitReporter.describe(passing), attribute: false) + "</system-out>\n"
            }
            out += "    </testcase>\n"
        }
        return out + "  </testsuite>\n</testsuites>\n"
    }

    /// JUnit streamed (its cases waiting on disk for the counts, the scan-wide findings sorted by
    /// rule there) is the document the held groups gave, failing on warnings or on errors.
    @Test func junitAsHeld() {
        for seed in UInt64(1)...40 {
            var result = RandomLibrary.make(seed: seed)
            // Some errors among the warnings, so that some cases fail and some pass.
            result.findings = Findings(result.findings.enumerated().map { i, f in
                var f = f
                if i % 3 == 0 { f.severity = .error }
                return f
            })
            var shuffled = result
            var generator = SplitMix(seed: seed)
            shuffled.findings = Findings(Array(result.findings).shuffled(using: &generator))
            for failOn in [Severity.warning, .error] {
                let expected = Self.heldJUnit(result, failOn: failOn)
                #expect(JUnitReporter.render(result, failOn: failOn) == expected, "seed \(seed)")
                #expect(JUnitReporter.render(shuffled, failOn: failOn) == Self.heldJUnit(shuffled, failOn: failOn), "seed \(seed), out of order")
                // On disk, its cases in pieces of about 100 bytes, or one a piece.
                for chunkSize in [1, 100] {
                    var pieces: [String] = []
                    JUnitReporter.write(result, failOn: failOn, scratch: NSTemporaryDirectory(), runSize: 2, chunkSize: chunkSize) {
                        pieces.append($0)
                    }
                    #expect(pieces.joined() == expected, "seed \(seed), on disk, pieces of \(chunkSize)")
                }
            }
        }
    }
}
