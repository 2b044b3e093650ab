import Foundation
import LiveLintEngine
import Rules
import Testing

private func parse(_ yaml: String) throws(ConfigurationError) -> Configuration {
    try Configuration.parse(yaml, source: "/photos/.livelint.yml", rules: builtinRules)
}

private func problem(_ yaml: String) -> ConfigurationError? {
    do {
        _ = try parse(yaml)
        return nil
    } catch {
        return error
    }
}

@Test func parsesTheDocumentedExample() throws {
    let config = try parse("""
        version: 1
        fail-on: error            # optional default for --fail-on
        rules:
          orphan-still: off
          identifier-case-mismatch: error        # severity override
          creation-date-skew: { enabled: true, max-seconds: 5 }
          geometry-mismatch:
            severity: info
            tolerance: 0.1
          video-pixel-format: on
        """)
    #expect(config.version == 1)
    #expect(config.failOn == .error)
    #expect(config.source == "/photos/.livelint.yml")
    #expect(config.rules == [
        "orphan-still": RuleSetting(enabled: false),
        "identifier-case-mismatch": RuleSetting(enabled: true, severity: .error),
        "creation-date-skew": RuleSetting(enabled: true, options: ["max-seconds": .double(5)]),
        "geometry-mismatch": RuleSetting(severity: .info, options: ["tolerance": .double(0.1)]),
        "video-pixel-format": RuleSetting(enabled: true),
    ])
    #expect(try parse("version: 1\nrules:\n").rules.isEmpty)
}

struct BadConfig: Sendable, CustomTestStringConvertible {
    let yaml: String
    let key: String?
    let line: Int?
    let says: String
    var testDescription: String { yaml.replacingOccurrences(of: "\n", with: " ⏎ ") }
}

@Test(arguments: [
    BadConfig(yaml: "version: 1\nfail_on: error\n", key: "fail_on", line: 2, says: "unknown key (expected one of: version, fail-on, consumers, profile, rules)"),
    BadConfig(yaml: "version: 1\nrules:\n  orphan-stil: off\n", key: "rules.orphan-stil", line: 3, says: "unknown rule 'orphan-stil' (did you mean 'orphan-still'?)"),
    BadConfig(yaml: "version: 1\nrules:\n  no-such-thing: off\n", key: "rules.no-such-thing", line: 3, says: "unknown rule 'no-such-thing';"),
    BadConfig(yaml: "version: 1\nfail-on: fatal\n", key: "fail-on", line: 2, says: "bad severity 'fatal' (expected error, warning or info)"),
    BadConfig(yaml: "version: 1\nrules:\n  orphan-still: { severity: fatal }\n", key: "rules.orphan-still.severity", line: 3, says: "bad severity 'fatal'"),
    BadConfig(yaml: "version: 1\nrules:\n  orphan-still: critical\n", key: "rules.orphan-still", line: 3, says: "bad value 'critical'"),
    BadConfig(yaml: "version: 1\nrules:\n  creation-date-skew:\n    max-seconds: soon\n", key: "rules.creation-date-skew.max-seconds", line: 4,
              says: "bad value 'soon' (expected a number from 0 to 31622400)"),
    BadConfig(yaml: "version: 1\nrules:\n  creation-date-skew: { max-seconds: -1 }\n", key: "rules.creation-date-skew.max-seconds", line: 3, says: "bad value '-1'"),
    BadConfig(yaml: "version: 1\nrules:\n  creation-date-skew: { max-second: 5 }\n", key: "rules.creation-date-skew.max-second", line: 3,
              says: "unknown key (expected one of: enabled, severity, max-seconds)"),
    BadConfig(yaml: "version: 1\nrules:\n  orphan-still: { enabled: maybe }\n", key: "rules.orphan-still.enabled", line: 3, says: "bad value 'maybe'"),
    BadConfig(yaml: "rules:\n  orphan-still: off\n", key: "version", line: 1, says: "missing 'version: 1'"),
    BadConfig(yaml: "version: 2\n", key: "version", line: 1, says: "unsupported version '2'"),
    BadConfig(yaml: "version: 1\nversion: 1\n", key: nil, line: nil, says: "duplicated key(s): 'version'"),
    BadConfig(yaml: "version: 1\nrules:\n  orphan-still: { enabled: true, enabled: false }\n", key: nil, line: nil, says: "duplicated key(s): 'enabled'"),
    BadConfig(yaml: "version: 1\nrules: [orphan-still]\n", key: "rules", line: 2, says: "expected a mapping"),
    BadConfig(yaml: "- version: 1\n", key: nil, line: 1, says: "expected a mapping"),
    BadConfig(yaml: "version: 1\nrules: {orphan-still: off\n", key: nil, line: nil, says: "not valid YAML"),
])
func rejectsBadConfiguration(_ c: BadConfig) throws {
    let error = try #require(problem(c.yaml))
    #expect(error.file == "/photos/.livelint.yml")
    #expect(error.key == c.key)
    if let line = c.line { #expect(error.line == line) }
    #expect(error.description.contains(c.says), "\(error.description)")
    #expect(error.description.hasPrefix("/photos/.livelint.yml"))
}

@Test func discoversFromTheScannedRootUpward() throws {
    let fm = FileManager.default
    let top = fm.temporaryDirectory.appendingPathComponent("livelint-config-\(UUID().uuidString)")
    let deep = top.appendingPathComponent("2021/April")
    try fm.createDirectory(at: deep, withIntermediateDirectories: true)
    defer { try? fm.removeItem(at: top) }
    #expect(try Configuration.discover(startingAt: deep.path, rules: builtinRules) == nil)

    let file = top.appendingPathComponent(".livelint.yml")
    try "version: 1\nrules:\n  orphan-movie: off\n".write(to: file, atomically: true, encoding: .utf8)
    let found = try #require(try Configuration.discover(startingAt: deep.path, rules: builtinRules))
    #expect(found.rules["orphan-movie"] == RuleSetting(enabled: false))
    #expect(found.source == file.path)
    // A file path starts at its folder.
    let photo = deep.appendingPathComponent("IMG_0001.JPG")
    try Data([0xFF, 0xD8]).write(to: photo)
    #expect(Configuration.find(startingAt: photo.path) == file.path)

    // A nearer file wins.
    let near = deep.appendingPathComponent(".livelint.yml")
    try "version: 1\nfail-on: warning\n".write(to: near, atomically: true, encoding: .utf8)
    #expect(try Configuration.discover(startingAt: deep.path, rules: builtinRules)?.failOn == .warning)

    // A bad file found by discovery is an error, not a silent default.
    try "version: 1\nrulez: {}\n".write(to: near, atomically: true, encoding: .utf8)
    #expect(throws: ConfigurationError.self) { try Configuration.discover(startingAt: deep.path, rules: builtinRules) }
}

@Test func loadingAMissingFileSaysSo() {
    #expect {
        try Configuration.load(from: "/nonexistent/.livelint.yml", rules: builtinRules)
    } throws: { error in
        guard let e = error as? ConfigurationError, case .unreadable = e.problem else { return false }
        return e.description.hasPrefix("/nonexistent/.livelint.yml: cannot read")
    }
}
