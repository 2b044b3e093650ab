import Foundation
import LiveModel
import Yams

/// The `.livelint.yml` file: small, typed, versioned.
///
/// ```yaml
/// version: 1                 # required; the only version so far
/// fail-on: error             # optional: default for --fail-on (error | warning | info)
/// profile: iphone             # optional: severities tuned to one app, as `lint --profile`
/// consumers: [immich, iphone]  # optional: per-consumer verdicts, as `lint --consumers` (or `all`)
/// rules:
///   orphan-still: off                        # off | on | false | true
///   identifier-case-mismatch: error          # a severity turns the rule on at that severity
///   creation-date-skew: { enabled: true, max-seconds: 5 }   # enabled, severity, options
/// ```
///
/// Every unknown key, unknown rule id, bad severity or bad option value is a
/// ``ConfigurationError`` naming the file, the key and the line — never a silent default.
public struct Configuration: Sendable, Hashable {
    /// The file name ``discover(startingAt:rules:)`` looks for.
    public static let fileName = ".livelint.yml"
    /// The only version understood.
    public static let currentVersion = 1

    public var version: Int
    /// The default for `--fail-on`, when the file sets one.
    public var failOn: Severity?
    /// Per-rule settings, keyed by canonical rule id (aliases are resolved when parsing).
    public var rules: [String: RuleSetting]
    /// The file this came from, nil for a configuration built in code.
    public var source: String?
    /// The photo apps whose verdicts each pair gets (``Consumers``; ids), none by default.
    public var consumers: [String]
    /// The severities profile to apply (a consumer id; ``Profile``), none by default.
    public var profile: String?

    public init(version: Int = Configuration.currentVersion, failOn: Severity? = nil,
                rules: [String: RuleSetting] = [:], source: String? = nil, consumers: [String] = []) {
        self.version = version
        self.failOn = failOn
        self.rules = rules
        self.source = source
        self.consumers = consumers
    }

    /// No file: every rule at its defaults.
    public static let `default` = Configuration()

    /// Reads and validates a configuration file against the known rules.
    public static func load(from path: String, rules: [any Rule.Type]) throws(ConfigurationError) -> Configuration {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw ConfigurationError(file: path, key: nil, line: nil, problem: .unreadable(error.localizedDescription))
        }
        return try parse(text, source: path, rules: rules)
    }

    /// Looks for `.livelint.yml` in `path` (or its folder, when `path` is a file) and then in each
    /// parent up to the filesystem root; loads the first one found. Nil when there is none.
    public static func discover(startingAt path: String, rules: [any Rule.Type]) throws(ConfigurationError) -> Configuration? {
        guard let file = find(startingAt: path) else { return nil }
        return try load(from: file, rules: rules)
    }

    /// The path of the `.livelint.yml` that ``discover(startingAt:rules:)`` would load, if any.
    public static func find(startingAt path: String) -> String? {
        let fm = FileManager.default
        var dir = URL(fileURLWithPath: path).standardizedFileURL
        var isDir: ObjCBool = false
        if fm.fileExists(atPath: dir.path, isDirectory: &isDir), !isDir.boolValue {
            dir.deleteLastPathComponent()
        }
        // Bounded: each step drops one path component.
        for _ in 0..<4096 {
            let candidate = dir.appendingPathComponent(fileName).path
            if fm.fileExists(atPath: candidate, isDirectory: &isDir), !isDir.boolValue { return candidate }
            let parent = dir.deletingLastPathComponent().standardizedFileURL
            if parent.path == dir.path || dir.path == "/" { return nil }
            dir = parent
        }
        return nil
    }

    /// Parses YAML text. `source` names the file in errors.
    public static func parse(_ yaml: String, source: String?, rules known: [any Rule.Type]) throws(ConfigurationError) -> Configuration {
        func fail(_ key: String?, _ node: Node?, _ problem: ConfigurationError.Problem) -> ConfigurationError {
            ConfigurationError(file: source, key: key, line: node?.mark?.line, problem: problem)
        }
        let root: Node?
        do {
            root = try Yams.compose(yaml: yaml)
        } catch {
            throw fail(nil, nil, .syntax(String(describing: error)))
        }
        guard let root else { throw fail(nil, nil, .missingVersion) }
        guard let top = root.mapping else { throw fail(nil, root, .notAMapping) }

        var config = Configuration(source: source)
        var sawVersion = false
        var seen = Set<String>()
        for (keyNode, value) in top {
            let key = try scalar(keyNode, key: nil, source: source)
            guard seen.insert(key).inserted else { throw fail(key, keyNode, .duplicateKey) }
            switch key {
            case "version":
                let text = try scalar(value, key: key, source: source)
                guard let v = Int(text), v == currentVersion else { throw fail(key, value, .unsupportedVersion(text)) }
                config.version = v
                sawVersion = true
            case "fail-on":
                let text = try scalar(value, key: key, source: source)
                guard let s = Severity(rawValue: text) else { throw fail(key, value, .badSeverity(text)) }
                config.failOn = s
            case "consumers":
                // A list (`[immich, iphone]`) or one comma-separated value (`immich, iphone` / `all`).
                var names: [String] = []
                if let items = value.sequence {
                    for item in items { names.append(try scalar(item, key: key, source: source)) }
                } else {
                    names = try scalar(value, key: key, source: source).split(separator: ",").map(String.init)
                }
                do { config.consumers = try Consumers.named(names).map(\.id) } catch {
                    throw fail(key, value, error.problem)
                }
            case "profile":
                let text = try scalar(value, key: key, source: source)
                guard Consumers.ids.contains(text) else {
                    throw fail(key, value, .badValue(text, expected: Consumers.ids.joined(separator: ", ")))
                }
                config.profile = text
            case "rules":
                // `rules:` with nothing under it: no settings.
                if case .scalar(let s) = value, ["", "~", "null"].contains(s.string) { continue }
                guard let mapping = value.mapping else { throw fail(key, value, .notAMapping) }
                config.rules = try parseRules(mapping, source: source, known: known)
            default:
                throw fail(key, keyNode, .unknownKey(expected: ["version", "fail-on", "consumers", "profile", "rules"]))
            }
        }
        guard sawVersion else { throw fail("version", root, .missingVersion) }
        return config
    }

    private static func parseRules(_ mapping: Node.Mapping, source: String?, known: [any Rule.Type]) throws(ConfigurationError) -> [String: RuleSetting] {
        var byName: [String: RuleDescription] = [:]
        for rule in known {
            let d = rule.description
            byName[d.identifier] = d
            for alias in d.aliases { byName[alias] = d }
        }
        var settings: [String: RuleSetting] = [:]
        for (keyNode, value) in mapping {
            let id = try scalar(keyNode, key: "rules", source: source)
            let key = "rules.\(id)"
            guard let d = byName[id] else {
                let suggestion = closest(to: id, among: known.map { $0.description.identifier })
                throw ConfigurationError(file: source, key: key, line: keyNode.mark?.line, problem: .unknownRule(id, suggestion: suggestion))
            }
            guard settings[d.identifier] == nil else {
                throw ConfigurationError(file: source, key: key, line: keyNode.mark?.line, problem: .duplicateKey)
            }
            settings[d.identifier] = try parseSetting(value, key: key, rule: d, source: source)
        }
        return settings
    }

    private static func parseSetting(_ node: Node, key: String, rule: RuleDescription, source: String?) throws(ConfigurationError) -> RuleSetting {
        func fail(_ key: String, _ node: Node, _ problem: ConfigurationError.Problem) -> ConfigurationError {
            ConfigurationError(file: source, key: key, line: node.mark?.line, problem: problem)
        }
        if let mapping = node.mapping {
            var setting = RuleSetting()
            var seen = Set<String>()
            for (kNode, v) in mapping {
                let name = try scalar(kNode, key: key, source: source)
                let full = "\(key).\(name)"
                guard seen.insert(name).inserted else { throw fail(full, kNode, .duplicateKey) }
                switch name {
                case "enabled":
                    let text = try scalar(v, key: full, source: source)
                    guard let b = parseSwitch(text) else { throw fail(full, v, .badValue(text, expected: "true or false")) }
                    setting.enabled = b
                case "severity":
                    let text = try scalar(v, key: full, source: source)
                    guard let s = Severity(rawValue: text) else { throw fail(full, v, .badSeverity(text)) }
                    setting.severity = s
                default:
                    guard let option = rule.options.first(where: { $0.name == name }) else {
                        throw fail(full, kNode, .unknownKey(expected: ["enabled", "severity"] + rule.options.map(\.name)))
                    }
                    let text = try scalar(v, key: full, source: source)
                    guard let value = option.parse(text) else { throw fail(full, v, .badValue(text, expected: option.expected)) }
                    setting.options[name] = value
                }
            }
            return setting
        }
        let text = try scalar(node, key: key, source: source)
        if let b = parseSwitch(text) { return RuleSetting(enabled: b) }
        if let s = Severity(rawValue: text) { return RuleSetting(enabled: true, severity: s) }
        throw fail(key, node, .badValue(text, expected: "off, on, error, warning, info, or a mapping of enabled / severity / options"))
    }

    private static func parseSwitch(_ text: String) -> Bool? {
        switch text {
        case "on", "true", "yes", "On", "True", "Yes", "ON", "TRUE", "YES": return true
        case "off", "false", "no", "Off", "False", "No", "OFF", "FALSE", "NO": return false
        default: return nil
        }
    }

    private static func scalar(_ node: Node, key: String?, source: String?) throws(ConfigurationError) -> String {
        guard case .scalar(let s) = node else {
            throw ConfigurationError(file: source, key: key, line: node.mark?.line, problem: .notAScalar)
        }
        return s.string
    }

    /// The known id nearest to a misspelt one (edit distance ≤ 3), for "did you mean".
    static func closest(to id: String, among ids: [String]) -> String? {
        var best: (String, Int)?
        for candidate in ids.sorted() {
            let d = editDistance(Array(id), Array(candidate))
            if d <= 3, best == nil || d < best!.1 { best = (candidate, d) }
        }
        return best?.0
    }

    private static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        if a.count > 200 || b.count > 200 { return max(a.count, b.count) }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }

    /// Checks a configuration built in code (or edited after loading) against the known rules:
    /// rule ids, option names and option kinds.
    public func validate(against known: [any Rule.Type]) throws(ConfigurationError) {
        var byID: [String: RuleDescription] = [:]
        for rule in known { byID[rule.description.identifier] = rule.description }
        for id in rules.keys.sorted() {
            guard let d = byID[id] else {
                throw ConfigurationError(file: source, key: "rules.\(id)", line: nil,
                                         problem: .unknownRule(id, suggestion: Self.closest(to: id, among: Array(byID.keys))))
            }
            for (name, value) in (rules[id]?.options ?? [:]).sorted(by: { $0.key < $1.key }) {
                let key = "rules.\(id).\(name)"
                guard let option = d.options.first(where: { $0.name == name }) else {
                    throw ConfigurationError(file: source, key: key, line: nil,
                                             problem: .unknownKey(expected: ["enabled", "severity"] + d.options.map(\.name)))
                }
                guard option.parse(value.description) != nil else {
                    throw ConfigurationError(file: source, key: key, line: nil, problem: .badValue(value.description, expected: option.expected))
                }
            }
        }
    }
}

/// What the configuration says about one rule. Nil fields keep the rule's defaults.
public struct RuleSetting: Sendable, Hashable {
    public var enabled: Bool?
    public var severity: Severity?
    /// Option values by option name, already checked against the rule's declared options.
    public var options: [String: OptionValue]

    public init(enabled: Bool? = nil, severity: Severity? = nil, options: [String: OptionValue] = [:]) {
        self.enabled = enabled
        self.severity = severity
        self.options = options
    }
}

/// A configuration file that cannot be used, with where and why.
public struct ConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Problem: Sendable, Hashable {
        case unreadable(String)
        case syntax(String)
        case notAMapping
        case notAScalar
        case missingVersion
        case unsupportedVersion(String)
        case duplicateKey
        case unknownKey(expected: [String])
        case unknownRule(String, suggestion: String?)
        case badSeverity(String)
        case badValue(String, expected: String)
    }

    /// The configuration file, nil for one built in code.
    public var file: String?
    /// The dotted key path (`rules.creation-date-skew.max-seconds`), nil for the whole file.
    public var key: String?
    /// 1-based line in the file, when known.
    public var line: Int?
    public var problem: Problem

    public init(file: String?, key: String?, line: Int?, problem: Problem) {
        self.file = file
        self.key = key
        self.line = line
        self.problem = problem
    }

    public var description: String {
        var place = file ?? "configuration"
        if let line { place += ":\(line)" }
        let what: String
        switch problem {
        case .unreadable(let why): what = "cannot read the file: \(why)"
        case .syntax(let why): what = "not valid YAML: \(why)"
        case .notAMapping: what = "expected a mapping of keys to values"
        case .notAScalar: what = "expected a single value, not a list or a mapping"
        case .missingVersion: what = "missing 'version: \(Configuration.currentVersion)'"
        case .unsupportedVersion(let v): what = "unsupported version '\(v)' (this livelint reads version \(Configuration.currentVersion))"
        case .duplicateKey: what = "given twice"
        case .unknownKey(let expected): what = "unknown key (expected one of: \(expected.joined(separator: ", ")))"
        case .unknownRule(let id, let suggestion):
            what = "unknown rule '\(id)'" + (suggestion.map { " (did you mean '\($0)'?)" } ?? "") + "; `livelint rules` lists them"
        case .badSeverity(let v): what = "bad severity '\(v)' (expected error, warning or info)"
        case .badValue(let v, let expected): what = "bad value '\(v)' (expected \(expected))"
        }
        if let key { return "\(place): \(key): \(what)" }
        return "\(place): \(what)"
    }
}
