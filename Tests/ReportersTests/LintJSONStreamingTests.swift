import LiveLintEngine
import LiveModel
@testable import Reporters
import Testing

/// `LintJSONReporter.write` hands out the very bytes `render` returns, piece by piece (issue 4:
/// a library-sized report is never held whole).
struct LintJSONStreamingTests {
    @Test(arguments: [1, 7, 100, 1 << 16])
    func piecesJoinToTheRenderedDocument(chunkSize: Int) {
        for result in [Fixtures.lintResult, Fixtures.cleanResult] {
            var pieces: [String] = []
            LintJSONReporter.write(result, toolVersion: "9.9.9", chunkSize: chunkSize) { pieces.append($0) }
            #expect(pieces.joined() == LintJSONReporter.render(result, toolVersion: "9.9.9"))
            // Still the tree writer's document: the one JSON value, pretty-printed, plus a newline.
            #expect(pieces.joined() == treeDocument(result, toolVersion: "9.9.9"))
        }
    }

    @Test func smallChunksMeanSeveralPieces() {
        var pieces = 0
        LintJSONReporter.write(Fixtures.lintResult, toolVersion: "1", chunkSize: 64) { _ in pieces += 1 }
        #expect(pieces > Fixtures.lintResult.files.count / 2)
    }

    @Test func emptyResultKeepsEmptyArrays() {
        let empty = LintResult(root: ".", files: [], pairs: [], findings: [],
                               summary: LintSummary(files: 0, pairs: 0, errors: 0, warnings: 0, infos: 0, baselined: 0))
        let text = LintJSONReporter.render(empty, toolVersion: "1")
        #expect(text == treeDocument(empty, toolVersion: "1"))
        #expect(text.hasPrefix("{\n  \"files\": [],\n  \"findings\": [],\n  \"pairs\": [],\n"))
    }

    @Test func lintReportersWriteMatchesRenderForEveryFormat() {
        for format in LintReportFormat.allCases {
            var out = ""
            LintReporters.write(Fixtures.lintResult, format: format, toolVersion: "2") { out += $0 }
            #expect(out == LintReporters.render(Fixtures.lintResult, format: format, toolVersion: "2"), "\(format)")
        }
    }

    /// The document built as one JSON tree, the way the reporter used to.
    private func treeDocument(_ result: LintResult, toolVersion: String) -> String {
        let doc: JSON = .object([
            "schemaVersion": .integer(LintJSONReporter.schemaVersion),
            "tool": .object(["name": .string("livelint"), "version": .string(toolVersion)]),
            "root": .string(result.root),
            "findings": .array(result.findings.map(LintJSONReporter.finding)),
            "pairs": .array(result.pairs.map(LintJSONReporter.pair)),
            "summary": LintJSONReporter.summary(result.summary),
            "files": .array(result.files.map(LintJSONReporter.file)),
        ])
        return doc.pretty() + "\n"
    }
}
