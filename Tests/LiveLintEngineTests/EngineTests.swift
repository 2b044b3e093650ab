import Foundation
import LiveLintEngine
import LiveModel
import Rules
import Testing

@Test func filesAccountForEverythingAndNotMediaIsNoFinding() throws {
    let files: [MediaFile] = [
        .notMedia("notes.txt"),
        .unreadable("IMG_0002.JPG", format: .jpeg, error: "JPEG segment runs past the end of the file", location: "APP1", offset: 2),
        .livp("IMG_0003.livp", members: [.jpeg("IMG_0003.JPG.jpeg"), .mov("IMG_0003.JPG.mov")]),
    ]
    let result = try LintEngine(rules: builtinRules).run(files: files, root: "scan")
    #expect(result.root == "scan")
    #expect(result.files == [
        ScannedFile(path: "IMG_0002.JPG", kind: .still, format: .jpeg, error: "JPEG segment runs past the end of the file at APP1 (byte offset 2)"),
        ScannedFile(path: "IMG_0003.livp", kind: .livp, format: .zip),
        ScannedFile(path: "IMG_0003.livp!IMG_0003.JPG.jpeg", kind: .still, format: .jpeg),
        ScannedFile(path: "IMG_0003.livp!IMG_0003.JPG.mov", kind: .movie, format: .quicktime),
        ScannedFile(path: "notes.txt", kind: .unknown, format: .unknown, error: "not a still, movie or .livp"),
    ])
    #expect(result.findings.map(\.ruleID) == ["unreadable-file"])
    #expect(result.findings.first?.files == ["IMG_0002.JPG"])
    #expect(result.summary == LintSummary(files: 5, pairs: 1, errors: 1, warnings: 0, infos: 0))
    #expect(result.exitCode(failOn: .error) == 1)
}

@Test func findingsAreSortedByFileThenRule() throws {
    let files: [MediaFile] = [
        .jpeg("b/IMG_0001.JPG", id: "x"), .mov("b/IMG_0001.MP4", id: "x", stillImageTime: nil, codec: "hev1"),
        .jpeg("a/IMG_0002.JPG", id: nil, makerNote: false), .mov("a/IMG_0002.MOV", id: nil),
    ]
    let result = try LintEngine(rules: builtinRules).run(files: files, root: ".")
    let keys = result.findings.map { "\($0.files.first ?? "") \($0.ruleID)" }
    #expect(keys == [
        "a/IMG_0002.JPG still-missing-identifier",
        "a/IMG_0002.MOV movie-missing-identifier",
        "b/IMG_0001.JPG identifier-not-uuid",
        "b/IMG_0001.MP4 extension-mismatch",
        "b/IMG_0001.MP4 identifier-not-uuid",
        "b/IMG_0001.MP4 missing-still-image-time",
        "b/IMG_0001.MP4 video-codec",
    ])
    #expect(result.summary.errors == 3 && result.summary.warnings == 4)
    #expect(result.exitCode(failOn: .error) == 1)
}

@Test func configurationTurnsRulesOffOnAndOverridesSeverity() throws {
    let files: [MediaFile] = [.jpeg("IMG_0001.JPG", id: Sample.uuidA.lowercased(), date: "2021:04:10 11:44:00"),
                              .mov("IMG_0001.MOV", creationDate: "2021-04-10T11:44:04+0200"),
                              .heic("lonely.HEIC", id: Sample.uuidB)]
    let defaults = try LintEngine(rules: builtinRules).run(files: files, root: ".")
    #expect(defaults.findings.map(\.ruleID) == ["identifier-case-mismatch", "orphan-still"])

    let yaml = """
        version: 1
        fail-on: warning
        rules:
          orphan-still: off
          identifier-case-mismatch: error
          creation-date-skew: { enabled: true, max-seconds: 3 }
        """
    let config = try Configuration.parse(yaml, source: ".livelint.yml", rules: builtinRules)
    #expect(config.failOn == .warning)
    let engine = try LintEngine(rules: builtinRules, configuration: config)
    #expect(!engine.enabledRuleIDs.contains("orphan-still"))
    let result = engine.run(files: files, root: ".")
    #expect(result.findings.map { "\($0.ruleID):\($0.severity)" } == ["creation-date-skew:warning", "identifier-case-mismatch:error"])

    let lenient = try Configuration.parse(yaml.replacingOccurrences(of: "max-seconds: 3", with: "max-seconds: 4.5"), source: nil, rules: builtinRules)
    #expect(try LintEngine(rules: builtinRules, configuration: lenient).run(files: files, root: ".").findings.map(\.ruleID) == ["identifier-case-mismatch"])
}

@Test func codeBuiltConfigurationIsValidatedToo() {
    let bad = Configuration(rules: ["orphan-stil": RuleSetting(enabled: false)])
    #expect {
        try LintEngine(rules: builtinRules, configuration: bad)
    } throws: { error in
        guard let e = error as? ConfigurationError, case .unknownRule("orphan-stil", let suggestion) = e.problem else { return false }
        return suggestion == "orphan-still" && e.key == "rules.orphan-stil"
    }
    let badOption = Configuration(rules: ["creation-date-skew": RuleSetting(options: ["max-seconds": .string("soon")])])
    #expect(throws: ConfigurationError.self) { try LintEngine(rules: builtinRules, configuration: badOption) }
}

/// `afterPhase` is called once pairing is done and once the scan rules are, before any pair
/// rule runs, and the result is the one a run without it gives.
@Test func afterPhaseComesAfterPairingAndAfterTheScanRules() throws {
    let files: [MediaFile] = [.jpeg("a/IMG_1.JPG", id: Sample.uuidA), .mov("a/IMG_1.MOV", id: Sample.uuidA),
                              .jpeg("b/IMG_1.JPG", id: Sample.uuidA), .mov("c/lone.MOV", id: Sample.uuidB)]
    let engine = try LintEngine(rules: builtinRules)
    let list = FileList(files)
    var events: [String] = []
    let result = engine.run(summaries: list.summaries, store: list, root: "scan",
                            onPair: { _, _ in events.append("pair") }, afterPhase: { events.append("phase") })
    #expect(events.prefix(2) == ["phase", "phase"] && events.dropFirst(2).allSatisfy { $0 == "pair" } && events.count > 2)
    let plain = engine.run(files: files, root: "scan")
    #expect(result.findings == plain.findings && result.pairs == plain.pairs && result.files == plain.files)
    #expect(result.findings.contains { $0.ruleID == "duplicate-identifier" })
}
