import LiveModel

/// Everything known about a rule, in one value: docs, `livelint rules`, SARIF rule metadata and
/// the example tests all read it (model: SwiftLint's `RuleDescription`).
public struct RuleDescription: Sendable {
    /// Public, kebab-case, never renamed (old names go to `aliases`).
    public let identifier: String
    /// A short human title ("Identifier mismatch").
    public let name: String
    /// One sentence: what the rule flags.
    public let summary: String
    /// What it flags and why it matters, with the evidence (format notes, consumer behaviour). Markdown.
    public let rationale: String
    public let defaultSeverity: Severity
    public let enabledByDefault: Bool
    /// Options the rule takes in `.livelint.yml`, with their defaults.
    public let options: [RuleOptionDescription]
    /// Former identifiers still accepted in configuration files and baselines.
    public let aliases: [String]
    /// Metadata the rule reads beyond what every rule gets (paths, kinds, identifiers, the
    /// movie's brands, duration, still-image-time and video stream, the still's size and
    /// makernote): entries of ``MetadataKey/table``, exiv2 keys of a still's properties
    /// (`.dateTimeOriginal`) and `moov/meta` keys of a movie (`.creationDate`). `lint` keeps only
    /// the keys its enabled rules declare (``MediaFile/slimmedForLint(keeping:)``), and the examples
    /// run on files cut the same way, so a key read but not declared fails the rule's own tests.
    public let readsMetadata: Set<MetadataKey>
    /// Inputs the rule must flag, with the findings expected.
    public let triggeringExamples: [RuleExample]
    /// Inputs the rule must leave alone.
    public let nonTriggeringExamples: [RuleExample]

    public init(identifier: String, name: String, summary: String, rationale: String,
                defaultSeverity: Severity, enabledByDefault: Bool = true,
                options: [RuleOptionDescription] = [], aliases: [String] = [], readsMetadata: Set<MetadataKey> = [],
                triggeringExamples: [RuleExample], nonTriggeringExamples: [RuleExample]) {
        self.identifier = identifier
        self.name = name
        self.summary = summary
        self.rationale = rationale
        self.defaultSeverity = defaultSeverity
        self.enabledByDefault = enabledByDefault
        self.options = options
        self.aliases = aliases
        self.readsMetadata = readsMetadata
        self.triggeringExamples = triggeringExamples
        self.nonTriggeringExamples = nonTriggeringExamples
    }

    /// Where the generated page lives, relative to the repository root.
    public var documentation: String { "docs/rules/\(identifier).md" }

    /// What reporters get to see of the rule.
    public var ruleSummary: RuleSummary {
        RuleSummary(id: identifier, name: name, summary: summary, defaultSeverity: defaultSeverity,
                    documentation: documentation)
    }

    /// The declared defaults for every option.
    public var defaultOptions: RuleOptions {
        RuleOptions(Dictionary(uniqueKeysWithValues: options.map { ($0.name, $0.defaultValue) }))
    }
}

/// A configuration value for a rule option.
public enum OptionValue: Sendable, Hashable, CustomStringConvertible {
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)

    /// The value with its type (`int:5`, `string:5`): two values alike in text but not in type differ.
    public var typedDescription: String {
        switch self {
        case .bool: return "bool:\(description)"
        case .int: return "int:\(description)"
        case .double(let d): return "double:\(d.bitPattern)"
        case .string(let s): return "string:\(s.count):\(s)"
        }
    }

    public var description: String {
        switch self {
        case .bool(let b): return b ? "true" : "false"
        case .int(let i): return String(i)
        case .double(let d): return MetadataValue.format(d)
        case .string(let s): return s
        }
    }
}

/// One option a rule declares: its name in YAML, its type and range, and its default.
public struct RuleOptionDescription: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        case bool
        case int(min: Int, max: Int)
        /// A number; integers are accepted too.
        case double(min: Double, max: Double)
        case string
    }

    /// kebab-case, as written in `.livelint.yml` (`max-seconds`).
    public let name: String
    public let kind: Kind
    public let defaultValue: OptionValue
    public let summary: String

    public init(name: String, kind: Kind, defaultValue: OptionValue, summary: String) {
        self.name = name
        self.kind = kind
        self.defaultValue = defaultValue
        self.summary = summary
    }

    /// What the YAML value must look like, for error messages and docs.
    public var expected: String {
        switch kind {
        case .bool: return "true or false"
        case .int(let lo, let hi): return "an integer from \(lo) to \(hi)"
        case .double(let lo, let hi): return "a number from \(MetadataValue.format(lo)) to \(MetadataValue.format(hi))"
        case .string: return "a string"
        }
    }

    /// Parses a YAML scalar into a value of this option's kind, nil when it does not fit.
    public func parse(_ text: String) -> OptionValue? {
        switch kind {
        case .bool:
            switch text {
            case "true", "True", "TRUE": return .bool(true)
            case "false", "False", "FALSE": return .bool(false)
            default: return nil
            }
        case .int(let lo, let hi):
            guard let v = Int(text), v >= lo, v <= hi else { return nil }
            return .int(v)
        case .double(let lo, let hi):
            guard let v = Double(text), v.isFinite, v >= lo, v <= hi else { return nil }
            return .double(v)
        case .string:
            return .string(text)
        }
    }
}

/// The options a rule runs with: every declared option, configured or defaulted.
public struct RuleOptions: Sendable, Hashable {
    public var values: [String: OptionValue]
    public init(_ values: [String: OptionValue] = [:]) { self.values = values }

    public subscript(name: String) -> OptionValue? { values[name] }

    /// The option as a number (an `int` is widened).
    public func double(_ name: String) -> Double? {
        switch values[name] {
        case .double(let d): return d
        case .int(let i): return Double(i)
        default: return nil
        }
    }

    public func int(_ name: String) -> Int? {
        if case .int(let i) = values[name] { return i }
        return nil
    }

    public func bool(_ name: String) -> Bool? {
        if case .bool(let b) = values[name] { return b }
        return nil
    }

    public func string(_ name: String) -> String? {
        if case .string(let s) = values[name] { return s }
        return nil
    }
}
