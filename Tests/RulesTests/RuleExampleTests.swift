import LiveLintEngine
import LiveModel
import Rules
import Testing

/// One example of one rule, as a test argument.
struct ExampleCase: Sendable, CustomTestStringConvertible {
    let rule: any Rule.Type
    let triggering: Bool
    let index: Int
    let example: RuleExample

    var testDescription: String {
        "\(rule.description.identifier) \(triggering ? "triggering" : "non-triggering") #\(index + 1)"
    }

    var sourceLocation: SourceLocation {
        SourceLocation(fileID: example.fileID, filePath: example.filePath, line: example.line, column: example.column)
    }

    static let all: [ExampleCase] = builtinRules.flatMap { rule in
        rule.description.triggeringExamples.enumerated().map { ExampleCase(rule: rule, triggering: true, index: $0, example: $1) }
            + rule.description.nonTriggeringExamples.enumerated().map { ExampleCase(rule: rule, triggering: false, index: $0, example: $1) }
    }
}

/// Runs every rule's examples (findings and repairs); a failure points at the line where the
/// example was written.
@Test(arguments: ExampleCase.all)
func ruleExample(_ c: ExampleCase) throws {
    let d = c.rule.description
    let here = c.sourceLocation
    #expect(c.triggering == !c.example.expected.isEmpty,
            "a \(c.triggering ? "triggering example must expect a finding" : "non-triggering example must expect none")",
            sourceLocation: here)
    let findings = try c.example.run(c.rule)
    var unmatched = findings
    for expected in c.example.expected {
        if let at = unmatched.firstIndex(where: expected.matches) {
            unmatched.remove(at: at)
        } else {
            Issue.record("expected a finding \(expected); got: \(describe(findings))", sourceLocation: here)
        }
    }
    for extra in unmatched {
        Issue.record("unexpected finding on \(extra.files): \(extra.message)", sourceLocation: here)
    }
    // The repairs the rule attaches for `livelint fix`: exactly those the example states.
    let repairs = try c.example.runRepairs(c.rule)
    #expect(repairs.count == c.example.repairs.count && Set(repairs) == Set(c.example.repairs),
            "expected repairs \(c.example.repairs); got \(repairs)", sourceLocation: here)
    // `livelint fix` asks only the file and pair rules for repairs (`LintEngine.repairs(for:)`)
    // to choose the pairs it plans: a scan rule's repair would be dropped without a word.
    if c.rule is any ScanRule.Type {
        #expect(findings.allSatisfy { $0.repair == nil }, "a scan rule attaches no repair", sourceLocation: here)
    }
    for f in findings {
        #expect(f.ruleID == d.identifier, sourceLocation: here)
        #expect(f.severity == d.defaultSeverity, sourceLocation: here)
        #expect(f.documentation == "docs/rules/\(d.identifier).md", sourceLocation: here)
        #expect(f.fixHint?.isEmpty == false, "every finding carries a fix hint", sourceLocation: here)
        #expect(!f.message.isEmpty && !f.message.contains("Optional("), sourceLocation: here)
    }
}

private func describe(_ findings: [Finding]) -> String {
    findings.isEmpty ? "nothing" : findings.map { "\($0.files): \($0.message)" }.joined(separator: " | ")
}

@Test(arguments: builtinRules.map { RuleCase($0) })
func ruleHasExamplesAndDocs(_ c: RuleCase) {
    let d = c.rule.description
    #expect(!d.triggeringExamples.isEmpty, "\(d.identifier) needs a triggering example")
    #expect(!d.nonTriggeringExamples.isEmpty, "\(d.identifier) needs a non-triggering example")
    #expect(d.summary.count > 20 && d.rationale.count > 150, "\(d.identifier) needs a real summary and rationale")
    #expect(d.identifier.allSatisfy { ($0.isLowercase && $0.isASCII) || $0 == "-" }, "kebab-case id: \(d.identifier)")
    for option in d.options {
        #expect(option.parse(option.defaultValue.description) == option.defaultValue, "default of \(option.name) fits its kind")
    }
}

struct RuleCase: Sendable, CustomTestStringConvertible {
    let rule: any Rule.Type
    init(_ rule: any Rule.Type) { self.rule = rule }
    var testDescription: String { rule.description.identifier }
}

/// The identifiers and default severities the issue pins as a public contract.
@Test func contractIdentifiers() {
    let contract: [String: Severity] = [
        "still-missing-identifier": .error, "movie-missing-identifier": .error, "identifier-mismatch": .error,
        "identifier-case-mismatch": .warning, "identifier-not-uuid": .warning, "duplicate-identifier": .error,
        "orphan-still": .warning, "orphan-movie": .warning, "missing-still-image-time": .warning,
        "still-image-time-out-of-range": .error, "still-image-time-type": .warning, "video-codec": .error,
        "video-pixel-format": .warning, "extension-mismatch": .warning, "movie-not-quicktime": .warning,
        "unreadable-file": .error,
        // Issue 12: what name-based consumers get wrong.
        "name-identifier-conflict": .warning, "edited-version": .info, "identifier-only-in-xmp": .warning, "livp-layout": .info,
        "unreadable-sidecar": .warning, "movie-date-only-in-sidecar": .warning,
        // Issue 11: Android motion photos.
        "motion-photo-missing-video": .error, "motion-photo-offset-mismatch": .warning,
        "motion-photo-time-out-of-range": .warning,
    ]
    var seen: [String: Severity] = [:]
    for rule in builtinRules {
        let d = rule.description
        #expect(seen[d.identifier] == nil, "duplicate rule id \(d.identifier)")
        seen[d.identifier] = d.defaultSeverity
    }
    for (id, severity) in contract {
        #expect(seen[id] == severity, "\(id) must exist with default severity \(severity)")
        #expect(builtinRegistry.rule(id)?.description.enabledByDefault == true, "\(id) is on by default")
    }
    for id in ["creation-date-skew", "geometry-mismatch"] {
        #expect(builtinRegistry.rule(id)?.description.enabledByDefault == false, "\(id) is off by default")
    }
    #expect(builtinRegistry.rule("livp-not-single-pair") != nil)
    #expect(builtinRegistry.summaries.map(\.id) == builtinRegistry.summaries.map(\.id).sorted())
}

@Test func scopesAreTheNaturalOnes() {
    #expect(RuleScope.of(UnreadableFileRule.self) == .file)
    #expect(RuleScope.of(ExtensionMismatchRule.self) == .file)
    #expect(RuleScope.of(IdentifierMismatchRule.self) == .pair)
    #expect(RuleScope.of(DuplicateIdentifierRule.self) == .scan)
    #expect(RuleScope.of(OrphanStillRule.self) == .scan)
}

/// The engine sorts its rules by ``Rule/asFileRule`` and the others, not by casts: each rule
/// answers as exactly the scope whose protocol it conforms to.
@Test func eachRuleAnswersAsTheOneScopeItConformsTo() {
    for type in builtinRules {
        let rule = type.init()
        let id = type.description.identifier
        #expect((rule.asFileRule != nil) == (rule is any FileRule), "\(id): file")
        #expect((rule.asPairRule != nil) == (rule is any PairRule), "\(id): pair")
        #expect((rule.asScanRule != nil) == (rule is any ScanRule), "\(id): scan")
        #expect([rule.asFileRule != nil, rule.asPairRule != nil, rule.asScanRule != nil].filter { $0 }.count == 1, "\(id): one scope")
    }
    // A rule declared here answers as its scope: the answer comes with the scope, not from the rule.
    struct Pairs: PairRule {
        static let description = RuleDescription(identifier: "test-pairs", name: "Test pairs", summary: "", rationale: "",
                                                 defaultSeverity: .info, triggeringExamples: [], nonTriggeringExamples: [])
        func check(pair: LivePair) -> [Violation] { [] }
    }
    #expect(Pairs().asPairRule != nil && Pairs().asFileRule == nil && Pairs().asScanRule == nil)
    #expect(RuleScope.of(Pairs.self) == .pair)
}
