import Foundation
import LiveLintEngine
import LiveModel
import Rules
import Testing
import TestSupport

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

/// `lint --write-baseline` writes its entries sorted on disk (issue 13): the text is
/// JSONEncoder's, byte for byte, whatever the strings (every control character, quotes,
/// backslashes, slashes, DEL, text that is not ASCII, NFC and NFD spellings of one name, emoji),
/// with no finding, with files and without, entries alike, in runs of 1, 3 and the default, and
/// handed on in pieces of about 64 KiB.
@Test func baselineWrittenFromDiskIsJSONEncodersText() throws {
    var generator = SplitMix(seed: 2_027)
    var controls = ""
    for c in 0..<0x20 { controls.unicodeScalars.append(Unicode.Scalar(UInt8(c))) }
    let words = ["a/IMG_0001.JPG", "a/IMG_0001.MOV", "", "\"q\" \\ /x/", controls, "\u{7F}\u{80}\u{2028}",
                 "Ünïcode é", "Ünïcode e\u{301}", "😀</script>", String(repeating: "long ", count: 40)]
    func word() -> String { words[Int.random(in: 0..<words.count, using: &generator)] }
    let findings = (0..<3_000).map { _ in
        Finding(ruleID: ["orphan-still", "x", "identifier-mismatch"][Int.random(in: 0..<3, using: &generator)],
                severity: .warning, message: word(), files: (0..<Int.random(in: 0...3, using: &generator)).map { _ in word() },
                documentation: "d")
    }
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("livelint-baseline-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    for list in [[], Array(findings.prefix(1)), Array(findings.prefix(7)), findings] {
        let expected = Array(Baseline(findings: list).jsonData())
        for (scratch, run) in [(String?.none, Int?.none), (dir.path, 1), (dir.path, 3), (dir.path, nil)] {
            var pieces: [String] = []
            Baseline.writeJSON(accepting: list, scratch: scratch, runSize: run) { pieces.append($0) }
            #expect(Array(pieces.joined().utf8) == expected, "\(list.count) findings, runs of \(run ?? 0)")
            #expect(pieces.dropLast().allSatisfy { $0.utf8.count < (1 << 16) + 4_096 })
            #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
        }
    }
}
