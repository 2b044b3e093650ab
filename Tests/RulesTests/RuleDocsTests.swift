import Foundation
import LiveLintEngine
import Rules
import Testing

/// The checked-in `docs/rules/` pages must match what the descriptions generate.
/// Regenerate with `LIVELINT_UPDATE_DOCS=1 swift test --filter RulesTests`.
@Test func ruleDocsAreCurrent() throws {
    let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let dir = repo.appendingPathComponent("docs/rules")
    let pages = RuleDocumentation.pages(for: builtinRegistry)
    let fm = FileManager.default
    if ProcessInfo.processInfo.environment["LIVELINT_UPDATE_DOCS"] == "1" {
        try fm.createDirectory(at: dir, withIntermediateDirectories: true)
        for name in (try? fm.contentsOfDirectory(atPath: dir.path)) ?? [] where name.hasSuffix(".md") && pages[name] == nil {
            try fm.removeItem(at: dir.appendingPathComponent(name))
        }
        for (name, text) in pages {
            try text.write(to: dir.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
    }
    for (name, text) in pages.sorted(by: { $0.key < $1.key }) {
        let onDisk = try? String(contentsOf: dir.appendingPathComponent(name), encoding: .utf8)
        let current = onDisk == text
        #expect(current, "docs/rules/\(name) is stale: run LIVELINT_UPDATE_DOCS=1 swift test --filter RulesTests")
    }
    let extra = ((try? fm.contentsOfDirectory(atPath: dir.path)) ?? []).filter { $0.hasSuffix(".md") && pages[$0] == nil }
    #expect(extra.isEmpty, "pages for no rule: \(extra)")
}

@Test func rulesTableListsEveryRule() {
    let table = RuleDocumentation.table(for: builtinRegistry)
    let lines = table.split(separator: "\n")
    #expect(lines.count == builtinRules.count + 1)
    #expect(lines.first?.hasPrefix("ID") == true)
    let skew = lines.first { $0.hasPrefix("creation-date-skew ") }
    #expect(skew?.contains(" off ") == true)
    #expect(skew?.contains("warning") == true)

    let configured = Configuration(rules: ["creation-date-skew": RuleSetting(severity: .error), "orphan-still": RuleSetting(enabled: false)])
    let effective = RuleDocumentation.table(for: builtinRegistry, configuration: configured).split(separator: "\n")
    #expect(effective.first { $0.hasPrefix("creation-date-skew ") }?.contains("error") == true)
    #expect(effective.first { $0.hasPrefix("orphan-still ") }?.contains(" off ") == true)
}

@Test func ruleDetailShowsExamplesAndOptions() throws {
    let text = try #require(RuleDocumentation.detail("creation-date-skew", in: builtinRegistry))
    #expect(text.contains("max-seconds"))
    #expect(text.contains("Flagged:"))
    #expect(text.contains("→ warning creation-date-skew: the still was taken"))
    #expect(text.contains("→ nothing"))
    #expect(RuleDocumentation.detail("no-such-rule", in: builtinRegistry) == nil)
}
