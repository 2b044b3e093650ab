import Foundation
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

    /// Files and pairs written on several threads, a share each at a time (`--jobs`): the same
    /// bytes, whatever the threads, the shares (down to one element; rounds left part-filled) and
    /// the chunks.
    @Test(arguments: [2, 3, 5])
    func threadsWriteTheSameDocument(threads: Int) {
        #expect(Fixtures.lintResult.files.count > 3 && Fixtures.lintResult.pairs.count > 3)
        for result in [Fixtures.lintResult, Fixtures.cleanResult] {
            let whole = LintJSONReporter.render(result, toolVersion: "9.9.9")
            for share in [1, 2, 3, 1_000] {
                for chunkSize in [1, 1 << 16] {
                    var pieces: [String] = []
                    LintJSONReporter.write(result, toolVersion: "9.9.9", chunkSize: chunkSize, threads: threads, share: share) {
                        pieces.append($0)
                    }
                    #expect(pieces.joined() == whole, "share \(share), chunks of \(chunkSize)")
                    #expect(!pieces.contains(""))
                }
            }
        }
    }

    /// A thread's piece goes out in texts of at most about the chunk size, each ending a line,
    /// so that no character is cut (a cut one would be decoded as U+FFFD): they join to the bytes.
    @Test func piecesAreCutAfterLinesNeverInsideACharacter() {
        var bytes = JSONBytes()
        bytes.append("{\n  \"é\": \"🌅 Sunrise\",\n  \"plain\": \"abc\"\n}\n")
        bytes.append(String(repeating: "x", count: 300))
        bytes.append("\n\"漢字\"\n")
        let whole = bytes.text
        for limit in [1, 2, 5, 13, 64, 301, 1 << 16] {
            var texts: [String] = []
            bytes.texts(upTo: limit) { texts.append($0) }
            #expect(texts.joined() == whole, "pieces of \(limit)")
            #expect(!texts.joined().contains("\u{FFFD}"))
            // Each ends a line but the last, and none is longer than the limit unless one line is.
            for text in texts.dropLast() { #expect(text.hasSuffix("\n"), "pieces of \(limit)") }
            for text in texts where text.utf8.count > limit {
                #expect(text.utf8.dropLast().firstIndex(of: 0x0A) == nil, "pieces of \(limit): one long line")
            }
        }
        // Whole when it fits.
        var one: [String] = []
        bytes.texts(upTo: 1 << 20) { one.append($0) }
        #expect(one == [whole])
    }

    /// JSON Lines and GitHub commands too: the same bytes, in pieces.
    @Test(arguments: [1, 100, 1 << 16])
    func linesAndCommandsArriveInPieces(chunkSize: Int) {
        for result in [Fixtures.lintResult, Fixtures.cleanResult] {
            var lines: [String] = [], commands: [String] = []
            LintJSONLinesReporter.write(result, toolVersion: "9.9.9", chunkSize: chunkSize) { lines.append($0) }
            GitHubReporter.write(result, chunkSize: chunkSize) { commands.append($0) }
            #expect(lines.joined() == LintJSONLinesReporter.render(result, toolVersion: "9.9.9"))
            #expect(commands.joined() == GitHubReporter.render(result))
            // A piece a line with the smallest chunks, one piece (none without findings) with the largest.
            if chunkSize == 1 { #expect(lines.count == result.findings.count + 1 && commands.count == result.findings.count) }
            if chunkSize == 1 << 16 { #expect(lines.count == 1 && commands.count == min(1, result.findings.count)) }
        }
    }

    /// SARIF written a result at a time is the document built as one tree (its `results` come
    /// before its `tool` in the sorted keys), with and without findings and links.
    @Test(arguments: [1, 100, 1 << 16])
    func sarifPiecesAreTheTreeDocument(chunkSize: Int) {
        let rules = [RuleSummary(id: "identifier-mismatch", name: "n", summary: "s", defaultSeverity: .error, documentation: "docs/rules/x.md"),
                     RuleSummary(id: "orphan-still", name: "o", summary: "t", defaultSeverity: .warning, documentation: "https://e/x")]
        let linked = LintReportOptions(informationURI: "https://example.com", documentationBaseURI: "https://example.com/blob/main/")
        for result in [Fixtures.lintResult, Fixtures.cleanResult] {
            for options in [LintReportOptions(), linked] {
                var pieces: [String] = []
                SARIFReporter.write(result, rules: rules, toolVersion: "9", options: options, chunkSize: chunkSize) { pieces.append($0) }
                #expect(pieces.joined() == sarifTree(result, rules: rules, toolVersion: "9", options: options))
                if chunkSize == 1 { #expect(pieces.count == result.findings.count + 1) }
            }
        }
    }

    /// SARIF as it was built, one JSON tree.
    private func sarifTree(_ result: LintResult, rules: [RuleSummary], toolVersion: String, options: LintReportOptions) -> String {
        var ruleIndex: [String: Int] = [:]
        for (i, rule) in rules.enumerated() where ruleIndex[rule.id] == nil { ruleIndex[rule.id] = i }
        var driver: [String: JSON] = [
            "name": .string("livelint"), "version": .string(toolVersion),
            "rules": .array(rules.map { rule in
                var r: [String: JSON] = [
                    "id": .string(rule.id), "name": .string(rule.name),
                    "shortDescription": .object(["text": .string(rule.summary)]),
                    "help": .object(["text": .string("Documentation: \(rule.documentation)")]),
                    "defaultConfiguration": .object(["level": .string(SARIFReporter.level(rule.defaultSeverity))]),
                ]
                let link = options.documentationLink(rule.documentation)
                if link.contains("://") { r["helpUri"] = .string(link) }
                return .object(r)
            }),
        ]
        if let uri = options.informationURI { driver["informationUri"] = .string(uri) }
        let results: [JSON] = result.findings.map { f in
            var r: [String: JSON] = [
                "ruleId": .string(f.ruleID), "level": .string(SARIFReporter.level(f.severity)),
                "message": .object(["text": .string(f.fixHint.map { f.message + "\nFix: " + $0 } ?? f.message)]),
                "locations": .array(f.files.map(SARIFReporter.location)),
            ]
            if let i = ruleIndex[f.ruleID] { r["ruleIndex"] = .integer(i) }
            return .object(r)
        }
        let doc: JSON = .object([
            "$schema": .string(SARIFReporter.schemaURI), "version": .string("2.1.0"),
            "runs": .array([.object([
                "tool": .object(["driver": .object(driver)]), "results": .array(results),
                "columnKind": .string("unicodeCodePoints"),
            ])]),
        ])
        return doc.pretty() + "\n"
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

    /// Every format written with its lists sorted on disk in runs of 1 is the report grouped in
    /// memory (the goldens pin that one).
    @Test func lintReportersOnDiskMatchTheReportHeldForEveryFormat() {
        var onDisk = LintReportOptions()
        onDisk.scratchDirectory = NSTemporaryDirectory()
        onDisk.scratchRun = 1
        // The fixture's findings are not in the report's order (grouped in memory then): a copy
        // that is, grouped on disk.
        var sorted = Fixtures.lintResult
        sorted.findings = Findings(Fixtures.lintResult.findings.sorted(by: LintEngine.findingOrder))
        for result in [Fixtures.lintResult, sorted, Fixtures.cleanResult] {
            for format in LintReportFormat.allCases {
                var out = ""
                LintReporters.write(result, format: format, toolVersion: "2", options: onDisk) { out += $0 }
                #expect(out == LintReporters.render(result, format: format, toolVersion: "2"), "\(format)")
            }
        }
    }

    /// Files and pairs are written straight into the report, without a JSON value each: the same
    /// bytes as the value, with and without an error, a sidecar, an identifier, either half,
    /// text to escape, and a pair with consumers' verdicts (which takes the value's path).
    @Test func filesAndPairsWrittenStraightAreTheirValues() {
        let texts: [String?] = [nil, "", "a/IMG_1.JPG", "quote \" back\\slash\ttab\u{1}", "Café/é.HEIC", "Cafe\u{301}/e\u{301}.HEIC"]
        var files: [ScannedFile] = []
        var pairs: [PairRecord] = []
        for (i, text) in texts.enumerated() {
            for sidecar in [nil, "a/IMG_1.JPG.json"] {
                files.append(ScannedFile(path: text ?? "x", kind: .still, format: .jpeg, error: text, sidecar: sidecar))
                for method in [PairingMethod.contentIdentifier, .name, .unpaired, .archive] {
                    pairs.append(PairRecord(still: text, movie: texts[(i + 1) % texts.count], contentIdentifier: texts[(i + 2) % texts.count],
                                            pairedBy: method, sidecar: sidecar))
                }
            }
        }
        pairs.append(PairRecord(still: "a.JPG", movie: "a.MOV", contentIdentifier: "ID", pairedBy: .contentIdentifier,
                                consumers: ["immich": ConsumerVerdict(.live, "same identifier")]))
        for file in files {
            var straight = JSONBytes(), value = ""
            LintJSONReporter.writeFile(file, into: &straight)
            LintJSONReporter.file(file).write(into: &value, indent: 2, pretty: true)
            #expect(straight.bytes == Array(value.utf8))  // bytes: `==` on strings ignores NFC/NFD
        }
        for pair in pairs {
            var straight = JSONBytes(), value = ""
            LintJSONReporter.writePair(pair, into: &straight)
            LintJSONReporter.pair(pair).write(into: &value, indent: 2, pretty: true)
            #expect(straight.bytes == Array(value.utf8))
        }
        let result = LintResult(root: ".", files: files, pairs: pairs, findings: [],
                                summary: LintSummary(files: files.count, pairs: 0, errors: 0, warnings: 0, infos: 0))
        #expect(LintJSONReporter.render(result, toolVersion: "1") == treeDocument(result, toolVersion: "1"))
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
