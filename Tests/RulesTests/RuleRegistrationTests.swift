import Foundation
import LiveLintEngine
import Rules
import Testing

/// `Rules/` holds one rule per file; a rule type that is written but not listed in
/// `builtinRules` would never run, and nothing else would notice.
@Suite struct RuleRegistrationTests {
    static let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `public struct XRule: FileRule` (or `PairRule`, `ScanRule`) declared in `Rules/*.swift`.
    static func declaredRuleTypes() throws -> [String: String] {
        let dir = repo.appendingPathComponent("Rules")
        let pattern = try NSRegularExpression(pattern: #"(?m)^\s*(?:public\s+)?(?:struct|final class|enum)\s+(\w+)\s*:[^{]*\b(FileRule|PairRule|ScanRule)\b"#)
        var found: [String: String] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: dir.path) where name.hasSuffix(".swift") {
            let text = try String(contentsOf: dir.appendingPathComponent(name), encoding: .utf8)
            for m in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                if let r = Range(m.range(at: 1), in: text) { found[String(text[r])] = name }
            }
        }
        return found
    }

    @Test func everyRuleTypeInRulesIsRegistered() throws {
        let declared = try Self.declaredRuleTypes()
        #expect(declared.count >= 19, "the scan of Rules/ found only \(declared.count) rule types: is the pattern stale?")
        let registered = Set(builtinRules.map { String(describing: $0) })
        for (type, file) in declared.sorted(by: { $0.key < $1.key }) {
            #expect(registered.contains(type), "\(type) (Rules/\(file)) is not in builtinRules")
        }
        #expect(registered.count == builtinRules.count, "a rule type is listed twice in builtinRules")
        #expect(Set(declared.keys) == registered, "builtinRules lists types not declared in Rules/: \(registered.subtracting(declared.keys).sorted())")
    }

    @Test func ruleFilesAreNamedAfterTheirRule() throws {
        for (type, file) in try Self.declaredRuleTypes() {
            #expect(file == type + ".swift", "\(type) is declared in Rules/\(file)")
        }
    }

    /// Rule pages must not point outside the repository: every relative link resolves to a file
    /// in it, and every section a rationale cites from the format notes is a heading there.
    @Test func ruleDocsLinkOnlyInsideTheRepository() throws {
        let notes = try String(contentsOf: Self.repo.appendingPathComponent("docs/\(RuleDocumentation.formatNotes)"), encoding: .utf8)
        let headings = Set(notes.split(separator: "\n").filter { $0.hasPrefix("## ") }.map { String($0.dropFirst(3)) })
        let link = try NSRegularExpression(pattern: #"\]\(([^)#]+)(#[^)]*)?\)"#)
        let cited = try NSRegularExpression(pattern: #"live-photo-format\.md, ((?:"[^"]+"(?:,? (?:and )?)?)+)"#)
        let quoted = try NSRegularExpression(pattern: #""([^"]+)""#)
        for (name, page) in RuleDocumentation.pages(for: builtinRegistry) {
            #expect(!page.contains("shared/"), "docs/rules/\(name) points at ../shared")
            for m in link.matches(in: page, range: NSRange(page.startIndex..., in: page)) {
                guard let r = Range(m.range(at: 1), in: page) else { continue }
                let target = String(page[r])
                guard !target.hasPrefix("http") else { continue }
                let resolved = Self.repo.appendingPathComponent("docs/rules").appendingPathComponent(target).standardized
                #expect(resolved.path.hasPrefix(Self.repo.standardized.path + "/"), "docs/rules/\(name) links outside the repository: \(target)")
                #expect(FileManager.default.fileExists(atPath: resolved.path), "docs/rules/\(name) links to a missing file: \(target)")
            }
        }
        for rule in builtinRules {
            let rationale = rule.description.rationale.replacingOccurrences(of: "\n", with: " ")
            for m in cited.matches(in: rationale, range: NSRange(rationale.startIndex..., in: rationale)) {
                guard let r = Range(m.range(at: 1), in: rationale) else { continue }
                let list = String(rationale[r])
                for q in quoted.matches(in: list, range: NSRange(list.startIndex..., in: list)) {
                    guard let qr = Range(q.range(at: 1), in: list) else { continue }
                    let section = list[qr].split(separator: " ").joined(separator: " ")
                    #expect(headings.contains(section), "\(rule.description.identifier) cites \"\(section)\", which is no section of docs/\(RuleDocumentation.formatNotes)")
                }
            }
        }
    }
}
