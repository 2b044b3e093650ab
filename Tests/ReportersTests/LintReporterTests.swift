import Foundation
import LiveLintEngine
import LiveModel
@testable import Reporters
import Testing

struct LintTextTests {
    let text = LintTextReporter.render(Fixtures.lintResult)

    @Test func summaryLineCountsAndBaselined() {
        #expect(text.hasSuffix("9 files, 5 pairs: 3 errors, 2 warnings, 1 info (3 baselined)\n"))
        let s = LintSummary(files: 1, pairs: 1, errors: 1, warnings: 0, infos: 2, baselined: 0)
        #expect(LintTextReporter.summaryLine(s) == "1 file, 1 pair: 1 error, 0 warnings, 2 infos")
    }

    @Test func cleanPairsOnlyWhenVerbose() {
        #expect(!text.contains("IMG_0001.JPG + IMG_0001.MOV"))
        #expect(!text.contains("Clean pairs"))
        let verbose = LintTextReporter.render(Fixtures.lintResult, options: LintReportOptions(verbose: true))
        #expect(verbose.contains("Clean pairs"))
        #expect(verbose.contains("IMG_0001.MOV"))
    }

    @Test func cleanRunIsTheSummaryAlone() {
        #expect(LintTextReporter.render(Fixtures.cleanResult) == "2 files, 1 pair: 0 errors, 0 warnings, 0 infos\n")
    }

    @Test func findingsSitUnderTheirPairAndScanWideAfter() throws {
        let pairHeader = try #require(text.range(of: "IMG_0084.JPG + IMG_0084_HEVC.MOV"))
        let mismatch = try #require(text.range(of: "identifier-mismatch"))
        let scanWide = try #require(text.range(of: "Scan-wide"))
        let duplicate = try #require(text.range(of: "duplicate-identifier"))
        #expect(pairHeader.lowerBound < mismatch.lowerBound)
        #expect(mismatch.lowerBound < scanWide.lowerBound)
        #expect(scanWide.lowerBound < duplicate.lowerBound)
        // The archive-level finding joins the pair of the archive's members.
        let livpBlock = try #require(text.range(of: "cloud/IMG_0003.livp!IMG_0003.JPG.heic + "))
        let info = try #require(text.range(of: "still-image-time-out-of-range"))
        #expect(livpBlock.lowerBound < info.lowerBound && info.lowerBound < scanWide.lowerBound)
        // Fix hints are indented under their finding, control characters never raw.
        #expect(text.contains("\n" + String(repeating: " ", count: 2 + 7 + 2 + 19 + 2) + "fix: Copy the still's"))
        #expect(!text.contains("\r"))
        #expect(text.contains("100% past (byte offset 20)\n" + String(repeating: " ", count: 33) + "file cut short?\n"))
        #expect(text.contains("fix: Keep one copy,\n" + String(repeating: " ", count: 38) + "or give the other"))
    }

    @Test func colourOnlyWhenAsked() {
        #expect(!text.contains("\u{1B}["))
        let coloured = LintTextReporter.render(Fixtures.lintResult, options: LintReportOptions(color: true))
        #expect(coloured.contains("\u{1B}[31merror  \u{1B}[0m"))
        #expect(coloured.contains("\u{1B}[33mwarning\u{1B}[0m"))
    }
}

struct LintJSONTests {
    @Test func documentShape() throws {
        let out = LintJSONReporter.render(Fixtures.lintResult, toolVersion: "9.9")
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any])
        #expect(doc["schemaVersion"] as? Int == 1)
        #expect(Set(doc.keys).isSuperset(of: ["findings", "pairs", "summary", "files"]))
        let findings = try #require(doc["findings"] as? [[String: Any]])
        #expect(findings.count == Fixtures.lintResult.findings.count)
        let info = try #require(findings.first { $0["rule"] as? String == "still-image-time-out-of-range" })
        #expect(info["fixHint"] is NSNull)
        #expect(info["severity"] as? String == "info")
        #expect(info["documentation"] as? String == "docs/rules/still-image-time-out-of-range.md")
        let files = try #require(doc["files"] as? [[String: Any]])
        #expect(files.count == 9)
        #expect(files.filter { !($0["error"] is NSNull) }.count == 2)
        let pairs = try #require(doc["pairs"] as? [[String: Any]])
        #expect(pairs.contains { $0["movie"] is NSNull && $0["pairedBy"] as? String == "unpaired" })
        // Sorted keys at the top level: byte order.
        let keyOrder = ["files", "findings", "pairs", "root", "schemaVersion", "summary", "tool"]
        let positions = keyOrder.compactMap { out.range(of: "\n  \"\($0)\":")?.lowerBound }
        #expect(positions.count == keyOrder.count && positions == positions.sorted())
    }

    @Test func jsonLinesOneFindingPerLineThenSummary() throws {
        let out = LintJSONLinesReporter.render(Fixtures.lintResult, toolVersion: "9.9")
        let lines = out.split(separator: "\n")
        #expect(lines.count == Fixtures.lintResult.findings.count + 1)
        for (i, line) in lines.enumerated() {
            let obj = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(obj["type"] as? String == (i == lines.count - 1 ? "summary" : "finding"))
        }
        let last = try #require(try JSONSerialization.jsonObject(with: Data(lines[lines.count - 1].utf8)) as? [String: Any])
        #expect(last["baselined"] as? Int == 3)
        #expect(last["errors"] as? Int == 3)
    }

    @Test(.enabled(if: Support.canValidate))
    func validatesAgainstOwnSchema() throws {
        let json = LintJSONReporter.render(Fixtures.lintResult, toolVersion: "9.9")
        let clean = LintJSONReporter.render(Fixtures.cleanResult, toolVersion: "9.9")
        #expect(try Support.validate([json, clean], schema: Support.lintSchema) == "")
        let lines = LintJSONLinesReporter.render(Fixtures.lintResult, toolVersion: "9.9").split(separator: "\n").map(String.init)
        #expect(try Support.validate(Array(lines.dropLast()), schema: Support.lintSchema, pointer: "#/$defs/jsonlFinding") == "")
        #expect(try Support.validate([lines[lines.count - 1]], schema: Support.lintSchema, pointer: "#/$defs/jsonlSummary") == "")
    }

    @Test(.enabled(if: Support.canValidate))
    func schemaRejectsAFindingWithoutRule() throws {
        // The schema must have teeth: drop a required field and it complains.
        let json = LintJSONReporter.render(Fixtures.lintResult, toolVersion: "9.9")
            .replacingOccurrences(of: "\"rule\": \"video-codec\",", with: "")
        #expect(try Support.validate([json], schema: Support.lintSchema).contains("'rule' is a required property"))
    }
}

struct SARIFTests {
    let out = SARIFReporter.render(Fixtures.lintResult, rules: Fixtures.rules, toolVersion: "1.2.3", options: Fixtures.options)

    @Test(.enabled(if: Support.canValidate && FileManager.default.fileExists(atPath: Support.sarifSchema.path)))
    func validatesAgainstTheOASISSchema() throws {
        #expect(try Support.validate([out], schema: Support.sarifSchema) == "")
        let bare = SARIFReporter.render(Fixtures.cleanResult, rules: [], toolVersion: "1.2.3")
        #expect(try Support.validate([bare], schema: Support.sarifSchema) == "")
    }

    @Test func resultsPointAtRulesAndFiles() throws {
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any])
        #expect(doc["version"] as? String == "2.1.0")
        let run = try #require((doc["runs"] as? [[String: Any]])?.first)
        let driver = try #require((run["tool"] as? [String: Any])?["driver"] as? [String: Any])
        #expect(driver["name"] as? String == "livelint")
        #expect(driver["version"] as? String == "1.2.3")
        let rules = try #require(driver["rules"] as? [[String: Any]])
        #expect(rules.count == Fixtures.rules.count)
        #expect(rules[0]["helpUri"] as? String == "https://example.invalid/livelint/blob/main/docs/rules/identifier-mismatch.md")
        // Without a base the reference is relative: no helpUri (it must be absolute), the path stays in help.text.
        let relative = SARIFReporter.render(Fixtures.lintResult, rules: Fixtures.rules, toolVersion: "1.2.3")
        #expect(!relative.contains("helpUri"))
        #expect(relative.contains("\"text\": \"Documentation: docs/rules/identifier-mismatch.md\""))
        let results = try #require(run["results"] as? [[String: Any]])
        #expect(results.count == Fixtures.lintResult.findings.count)
        for r in results {
            let id = try #require(r["ruleId"] as? String)
            let index = try #require(r["ruleIndex"] as? Int)
            #expect(rules[index]["id"] as? String == id)
        }
        #expect(results.map { $0["level"] as? String } == ["error", "warning", "note", "warning", "error", "error"])
        let dupLocations = try #require(results[4]["locations"] as? [[String: Any]])
        #expect(dupLocations.count == 2)
        #expect(out.contains("\"uri\": \"dup/IMG_0001%20copy.JPG\""))
        #expect(out.contains("\"uriBaseId\": \"%SRCROOT%\""))
    }

    @Test func livpMembersAreLocatedAtTheirArchive() throws {
        let result = LintResult(root: ".", files: [], pairs: [], findings: [
            Finding(ruleID: "orphan-still", severity: .warning, message: "m", files: ["a b.livp!IMG.JPG"], documentation: "d"),
        ], summary: LintSummary(files: 1, pairs: 0, errors: 0, warnings: 1, infos: 0))
        let out = SARIFReporter.render(result, rules: [], toolVersion: "1")
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any])
        let run = try #require((doc["runs"] as? [[String: Any]])?.first)
        let result0 = try #require((run["results"] as? [[String: Any]])?.first)
        #expect(result0["ruleIndex"] == nil)  // the rule is not in the (empty) rule list
        let location = try #require((result0["locations"] as? [[String: Any]])?.first)
        let artifact = (location["physicalLocation"] as? [String: Any])?["artifactLocation"] as? [String: Any]
        #expect(artifact?["uri"] as? String == "a%20b.livp")
        #expect((location["message"] as? [String: Any])?["text"] as? String == "a b.livp!IMG.JPG")
        #expect(GitHubReporter.render(result) == "::warning file=a b.livp,title=orphan-still::m%0AFiles: a b.livp!IMG.JPG\n")
    }

    @Test func percentEncoding() {
        #expect(SARIFReporter.percentEncoded("前，竖.JPG") == "%E5%89%8D%EF%BC%8C%E7%AB%96.JPG")
        #expect(SARIFReporter.percentEncoded("a b/c#d%e.MOV") == "a%20b/c%23d%25e.MOV")
    }
}

struct JUnitTests {
    @Test func escapesAndParses() throws {
        let out = JUnitReporter.render(Fixtures.lintResult, failOn: .warning)
        #expect(out.contains("name=\"前，竖.JPG\""))
        #expect(out.contains("no movie &amp; no &lt;identifier&gt;: &quot;a &apos;quoted&apos; one&quot;"))
        #expect(JUnitReporter.escape("&<>\"'\u{1}") == "&amp;&lt;&gt;&quot;&apos;\\u{1}")
        // A real XML parser reads back exactly what went in.
        let script = """
        import sys, xml.etree.ElementTree as ET
        root = ET.fromstring(sys.stdin.buffer.read())
        suite = root.find("testsuite")
        print(suite.get("name"), suite.get("tests"), suite.get("failures"))
        for case in suite.findall("testcase"):
            f = case.find("failure")
            print(case.get("classname"), case.get("name"), "|", f.get("message") if f is not None else "-")
        """
        guard Support.canValidate else { return }
        let parsed = try Support.python(script, input: out)
        #expect(parsed.status == 0, "\(parsed.stderr)")
        let lines = parsed.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "livelint 7 4")
        #expect(lines.contains("livelint.pair 前，竖.JPG | Still '前，竖.JPG' has no movie & no <identifier>: \"a 'quoted' one\" needed"))
        #expect(lines.contains("livelint.pair IMG_0001.JPG | -"))
        #expect(lines.contains("livelint.scan duplicate-identifier | Identifier \(Fixtures.trainID) is carried by 2 stills"))
        #expect(lines.contains("livelint.pair IMG_0084.JPG | 2 findings: identifier-mismatch, video-codec"))
    }

    @Test(arguments: [(Severity.error, 3), (.warning, 4), (.info, 5)])
    func thresholdDecidesFailures(_ failOn: Severity, _ failures: Int) {
        let out = JUnitReporter.render(Fixtures.lintResult, failOn: failOn)
        #expect(out.contains("<testsuite name=\"livelint\" tests=\"7\" failures=\"\(failures)\""))
        #expect(out.components(separatedBy: "<failure ").count - 1 == failures)
    }
}

struct GitHubTests {
    @Test func escaping() {
        #expect(GitHubReporter.escapeData("50%\r\nnext: a,b") == "50%25%0D%0Anext: a,b")
        #expect(GitHubReporter.escapeProperty("a:b,c%\n") == "a%3Ab%2Cc%25%0A")
    }

    @Test func oneCommandPerFinding() {
        let lines = GitHubReporter.render(Fixtures.lintResult).split(separator: "\n").map(String.init)
        #expect(lines.count == Fixtures.lintResult.findings.count)
        #expect(lines[0].hasPrefix("::error file=IMG_0084.JPG,title=identifier-mismatch::Still 'IMG_0084.JPG'"))
        #expect(lines[2].hasPrefix("::notice file=cloud/IMG_0003.livp,title=still-image-time-out-of-range::"))
        #expect(lines[5].hasPrefix("::error file=broken/IMG_0002%2C copy.MOV,title=unreadable-file::moov: box size"))
        #expect(lines[5].contains("100%25 past (byte offset 20)%0D%0Afile cut short?"))
        #expect(lines[4].contains("%0AFiles: IMG_0001.JPG, dup/IMG_0001 copy.JPG%0AFix: Keep one copy,%0Aor give"))
    }
}
