import Foundation
import LiveLintEngine
import LiveModel
import Rules
import Testing

/// `lint --profile` (issue 12): the profiles are data, documented, and tune severities under the
/// configuration. Regenerate docs/profiles.md with `LIVELINT_UPDATE_DOCS=1 swift test --filter ProfileTests`.
@Suite struct ProfileTests {
    @Test func oneProfilePerConsumerNamingRealRules() {
        #expect(builtinProfiles.map(\.id).sorted() == Consumers.ids.sorted())
        let ids = Set(builtinRules.map { $0.description.identifier })
        for profile in builtinProfiles {
            #expect(!profile.severities.isEmpty && !profile.sources.isEmpty, "\(profile.id)")
            for rule in profile.severities.keys { #expect(ids.contains(rule), "\(profile.id): unknown rule \(rule)") }
        }
    }

    @Test func docsAreCurrent() throws {
        let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let page = repo.appendingPathComponent("docs/profiles.md")
        let text = Profile.documentation(builtinProfiles)
        if ProcessInfo.processInfo.environment["LIVELINT_UPDATE_DOCS"] == "1" {
            try text.write(to: page, atomically: true, encoding: .utf8)
        }
        #expect((try? String(contentsOf: page, encoding: .utf8)) == text,
                "docs/profiles.md is stale: run LIVELINT_UPDATE_DOCS=1 swift test --filter ProfileTests")
    }

    static func profile(_ id: String) throws -> Profile { try #require(builtinProfiles.first { $0.id == id }) }

    @Test func iphoneMakesAMissingStillImageTimeAnError() throws {
        let files: [MediaFile] = [.jpeg(), .mov(stillImageTime: nil)]
        let plain = try LintEngine(rules: builtinRules).run(files: files, root: ".")
        #expect(plain.findings.first { $0.ruleID == "missing-still-image-time" }?.severity == .warning)
        let tuned = try LintEngine(rules: builtinRules, configuration: Configuration().applying(Self.profile("iphone")))
            .run(files: files, root: ".")
        #expect(tuned.findings.first { $0.ruleID == "missing-still-image-time" }?.severity == .error)
        #expect(tuned.pairs.first?.consumers["iphone"]?.outcome == .split)
    }

    @Test func immichMakesCaseAndDuplicatesErrors() throws {
        let engine = try LintEngine(rules: builtinRules, configuration: Configuration().applying(Self.profile("immich")))
        let cased = engine.run(files: [.jpeg(), .mov(id: Sample.uuidA.lowercased())], root: ".")
        #expect(cased.findings.first { $0.ruleID == "identifier-case-mismatch" }?.severity == .error)
        let dup = engine.run(files: [.jpeg("a/IMG_1.JPG"), .mov("a/IMG_1.MOV"), .jpeg("b/IMG_1.JPG"), .mov("b/IMG_1.MOV")], root: ".")
        #expect(dup.findings.first { $0.ruleID == "duplicate-identifier" }?.severity == .error)
    }

    @Test func theConfigurationWins() throws {
        let config = Configuration(rules: ["missing-still-image-time": RuleSetting(severity: .info),
                                           "identifier-case-mismatch": RuleSetting(enabled: false)])
        let applied = config.applying(try Self.profile("iphone"))
        #expect(applied.rules["missing-still-image-time"]?.severity == .info)
        #expect(applied.rules["identifier-case-mismatch"]?.enabled == false)
        #expect(applied.rules["identifier-case-mismatch"]?.severity == nil)
        #expect(applied.rules["video-codec"]?.severity == .error)
        #expect(applied.consumers == ["iphone"])
        let parsed = try Configuration.parse("version: 1\nprofile: immich\n", source: nil, rules: builtinRules)
        #expect(parsed.profile == "immich")
        #expect(throws: ConfigurationError.self) { try Configuration.parse("version: 1\nprofile: picasa\n", source: nil, rules: builtinRules) }
    }
}
