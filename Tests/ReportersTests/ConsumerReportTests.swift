import Foundation
import LiveLintEngine
import LiveModel
import Reporters
import Testing

/// `lint --consumers`: the verdicts in JSON (`pairs[].consumers`, summary counts, valid against
/// the schema) and in text (non-live verdicts under their pair, one summary line per consumer).
struct ConsumerReportTests {
    static let result: LintResult = {
        let engine = try! LintEngine(rules: [], configuration: Configuration(consumers: ["immich", "iphone"]))
        return engine.run(files: [.jpeg("IMG_1.JPG"), .mov("IMG_1.MOV"),
                                  .jpeg("IMG_2.JPG", id: Sample.uuidB), .mov("IMG_2.MOV", id: Sample.uuidB.lowercased(), stillImageTime: nil)],
                          root: "lib")
    }()

    @Test func jsonCarriesVerdictsAndCounts() throws {
        let json = LintJSONReporter.render(Self.result, toolVersion: "9.9")
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let pairs = try #require(doc["pairs"] as? [[String: Any]])
        let second = try #require(pairs.first { $0["still"] as? String == "IMG_2.JPG" })
        let consumers = try #require(second["consumers"] as? [String: [String: Any]])
        #expect(consumers["immich"]?["outcome"] as? String == "split")
        #expect((consumers["immich"]?["reason"] as? String)?.contains("case") == true)
        #expect(consumers["iphone"]?["fix"] is String)
        let summary = try #require(doc["summary"] as? [String: Any])
        let counts = try #require(summary["consumers"] as? [String: [String: Int]])
        #expect(counts["immich"] == ["live": 1, "split": 1, "ambiguous": 0, "unsupported": 0])
    }

    @Test(.enabled(if: Support.canValidate))
    func jsonWithVerdictsValidates() throws {
        let json = LintJSONReporter.render(Self.result, toolVersion: "9.9")
        #expect(try Support.validate([json], schema: Support.lintSchema) == "")
        let bad = json.replacingOccurrences(of: "\"outcome\": \"split\"", with: "\"outcome\": \"maybe\"")
        #expect(try Support.validate([bad], schema: Support.lintSchema) != "")
    }

    @Test(.enabled(if: Support.canValidate))
    func takeoutSidecarsValidateInLintAndDumpJSON() throws {
        let still = MediaFile.jpeg("t/IMG_1(1).JPG").withSidecar("IMG_1.JPG(1).json")
        let result = try LintEngine(rules: []).run(files: [still, .mov("t/IMG_1(1).MP4")], root: "t")
        let json = LintJSONReporter.render(result, toolVersion: "9.9")
        #expect(json.contains(#""sidecar": "t/IMG_1.JPG(1).json""#))
        #expect(try Support.validate([json], schema: Support.lintSchema) == "")
        let dump = DumpJSONReporter.render([still])
        #expect(dump.contains(#""photoTakenTime": 1618047840"#))
        #expect(try Support.validate([dump], schema: Support.dumpSchema) == "")
        let broken = DumpJSONReporter.render([MediaFile.jpeg().withSidecar(problem: "is empty")])
        #expect(try Support.validate([broken], schema: Support.dumpSchema) == "")
        // Without sidecars the reports carry no such key.
        let plain = try LintEngine(rules: []).run(files: [.jpeg(), .mov()], root: "lib")
        #expect(!LintJSONReporter.render(plain, toolVersion: "9.9").contains("sidecar"))
    }

    @Test func jsonWithoutConsumersHasNoKey() {
        let plain = try! LintEngine(rules: []).run(files: [.jpeg(), .mov()], root: "lib")
        #expect(!LintJSONReporter.render(plain, toolVersion: "9.9").contains("consumers"))
    }

    @Test func textShowsNonLiveVerdictsAndSummaryLines() {
        let text = LintTextReporter.render(Self.result)
        #expect(text.contains("IMG_2.JPG + IMG_2.MOV"))
        #expect(text.contains("immich  split"))
        #expect(!text.contains("IMG_1.JPG + IMG_1.MOV"))  // live everywhere, no findings: no block
        #expect(text.contains("Immich: 1 live, 1 split\n"))
        #expect(text.contains("iPhone / iCloud: 1 live, 1 split\n"))
    }

    @Test func htmlSummaryHasTheConsumerTable() {
        let html = HTMLReporter.render(Self.result, rules: [], toolVersion: "9.9")
        #expect(html.contains("<tr data-consumer=\"immich\"><th>immich</th>"))
        #expect(html.contains("<tr data-consumer=\"iphone\">"))
        let plain = try! LintEngine(rules: []).run(files: [.jpeg(), .mov()], root: "lib")
        #expect(!HTMLReporter.render(plain, rules: [], toolVersion: "9.9").contains("data-consumer="))
    }
}
