import Foundation
import LiveLintEngine
import LiveModel
import Rules
import Testing

private let brokenScan: [MediaFile] = [
    .jpeg("a/IMG_0001.JPG", id: Sample.uuidA), .mov("a/IMG_0001.MOV", id: Sample.uuidB),
    .heic("b/IMG_0002.HEIC", id: Sample.uuidC),
    .mov("b/IMG_0003.MOV", id: nil, stillImageTime: nil), .jpeg("b/IMG_0003.JPG", id: nil),
]

@Test func baselineRoundTrip() throws {
    let engine = try LintEngine(rules: builtinRules)
    let first = engine.run(files: brokenScan, root: ".")
    #expect(first.findings.count >= 3)

    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("livelint-baseline-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = dir.appendingPathComponent("baseline.json").path
    try Baseline(findings: first.findings).write(to: path)
    let loaded = try Baseline.load(from: path)
    #expect(loaded == Baseline(findings: first.findings))

    // Same scan: everything is baselined.
    let again = try LintEngine(rules: builtinRules, baseline: loaded).run(files: brokenScan, root: ".")
    #expect(again.findings.isEmpty)
    #expect(again.summary.baselined == first.findings.count)
    #expect(again.summary.errors == 0 && again.summary.warnings == 0)
    #expect(again.exitCode(failOn: .info) == 0)

    // A new problem still shows, in any input order.
    let more = (brokenScan + [.mov("c/IMG_0004.MOV", id: "7D1C0C57-2B0A-4F6B-9C39-5B8E2A1F3C44", codec: "hev1")]).reversed()
    let next = try LintEngine(rules: builtinRules, baseline: loaded).run(files: Array(more), root: ".")
    #expect(next.findings.map(\.files) == [["c/IMG_0004.MOV"], ["c/IMG_0004.MOV"]])
    #expect(Set(next.findings.map(\.ruleID)) == ["orphan-movie", "video-codec"])
    #expect(next.summary.baselined == first.findings.count)
}

@Test func baselineIsSortedJSONWithRelativePaths() throws {
    let findings = try LintEngine(rules: builtinRules).run(files: brokenScan, root: ".").findings
    let text = String(decoding: Baseline(findings: findings.reversed()).jsonData(), as: UTF8.self)
    let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    #expect(object["version"] as? Int == 1)
    let entries = try #require(object["findings"] as? [[String: Any]])
    #expect(entries.count == findings.count)
    #expect(Set(entries.first?.keys.map { $0 } ?? []) == ["files", "message", "rule"])
    // Keys sorted inside each entry, entries sorted by rule then files.
    let rules = entries.compactMap { $0["rule"] as? String }
    #expect(rules == rules.sorted())
    #expect(text.range(of: "\"files\"")!.lowerBound < text.range(of: "\"message\"")!.lowerBound)
    #expect(text.range(of: "\"findings\"")!.lowerBound < text.range(of: "\"version\"")!.lowerBound)
    #expect(text.contains("\"a/IMG_0001.JPG\""))
    #expect(text.hasSuffix("}\n"))
    // Written in any order, the text is the same.
    #expect(Baseline(findings: findings).jsonData() == Baseline(findings: findings.reversed()).jsonData())
}

@Test func baselineMatchesOnRuleAndFilesNotMessage() {
    let old = Finding(ruleID: "still-image-time-out-of-range", severity: .error,
                      message: "the still-image-time track (track 2) is presented at 3.2 s, outside the movie (0 s to 3 s)",
                      files: ["IMG_0001.MOV"], documentation: "docs/rules/still-image-time-out-of-range.md")
    var changed = old
    changed.message = "the still-image-time track (track 2) is presented at 4 s, outside the movie (0 s to 3 s)"
    var elsewhere = old
    elsewhere.files = ["IMG_0002.MOV"]
    let baseline = Baseline(findings: [old])
    let (kept, dropped) = baseline.filter([changed, elsewhere])
    #expect(kept == [elsewhere])
    #expect(dropped == 1)
    // One entry accepts one finding: a second one on the same files shows.
    let (kept2, dropped2) = baseline.filter([old, changed])
    #expect(kept2 == [changed])
    #expect(dropped2 == 1)
}

@Test func badBaselinesAreErrors() {
    #expect(throws: BaselineError.self) { try Baseline.decode(Data("[]".utf8), source: "b.json") }
    #expect(throws: BaselineError.self) { try Baseline.decode(Data(#"{"version": 9, "findings": []}"#.utf8), source: "b.json") }
    #expect(throws: BaselineError.self) { try Baseline.load(from: "/nonexistent/baseline.json") }
    #expect((try? Baseline.decode(Data(#"{"version": 1, "findings": []}"#.utf8), source: "b.json")) == Baseline(entries: []))
}
