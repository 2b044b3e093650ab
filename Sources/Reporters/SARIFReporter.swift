import LiveLintEngine

/// `livelint lint --reporter sarif`: SARIF 2.1.0 with one run.
///
/// `tool.driver.rules` comes from the `RuleSummary` list (`helpUri` when the documentation link
/// is absolute, see `LintReportOptions.documentationBaseURI`); each result names its rule by id and,
/// when the rule is in that list, by index. Each file a finding involves becomes one location
/// whose `artifactLocation.uri` is the path relative to the scanned root, percent-encoded, with
/// `uriBaseId` `%SRCROOT%`. A `.livp` member (`x.livp!IMG.JPG`) is located at its archive, the
/// member named in the location's message, because a code-scanning UI can only open real files.
public enum SARIFReporter {
    public static let schemaURI = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
    public static let uriBaseID = "%SRCROOT%"

    public static func render(_ result: LintResult, rules: [RuleSummary], toolVersion: String,
                              options: LintReportOptions = LintReportOptions()) -> String {
        var out = ""
        write(result, rules: rules, toolVersion: toolVersion, options: options) { out += $0 }
        return out
    }

    /// The document ``render(_:rules:toolVersion:options:)`` returns, handed to `sink` about
    /// `chunkSize` bytes at a time: the results, which come before the tool in its sorted keys,
    /// one at a time, so a library-sized report is not held whole (issue 13).
    public static func write(_ result: LintResult, rules: [RuleSummary], toolVersion: String,
                             options: LintReportOptions = LintReportOptions(), chunkSize: Int = 1 << 16,
                             to sink: (String) -> Void) {
        var ruleIndex: [String: Int] = [:]
        for (i, rule) in rules.enumerated() where ruleIndex[rule.id] == nil { ruleIndex[rule.id] = i }

        var driver: [String: JSON] = [
            "name": .string("livelint"),
            "version": .string(toolVersion),
            "rules": .array(rules.map { rule in
                var r: [String: JSON] = [
                    "id": .string(rule.id),
                    "name": .string(rule.name),
                    "shortDescription": .object(["text": .string(rule.summary)]),
                    "help": .object(["text": .string("Documentation: \(rule.documentation)")]),
                    "defaultConfiguration": .object(["level": .string(level(rule.defaultSeverity))]),
                ]
                // helpUri must be an absolute URI: only written when the link is one.
                let link = options.documentationLink(rule.documentation)
                if link.contains("://") { r["helpUri"] = .string(link) }
                return .object(r)
            }),
        ]
        if let uri = options.informationURI { driver["informationUri"] = .string(uri) }

        // `{"$schema", "runs": [{"columnKind", "results", "tool"}], "version"}`, keys in byte
        // order, pretty-printed as `JSON.pretty()` prints the tree.
        var out = JSONBytes()
        out.append("{\n  \"$schema\": ")
        out.quote(schemaURI)
        out.append(",\n  \"runs\": [\n    {\n      \"columnKind\": \"unicodeCodePoints\",\n      \"results\": ")
        if result.findings.isEmpty {
            out.append("[]")
        } else {
            out.append("[")
            var first = true
            for f in result.findings {
                var r: [String: JSON] = [
                    "ruleId": .string(f.ruleID),
                    "level": .string(level(f.severity)),
                    "message": .object(["text": .string(message(f))]),
                    "locations": .array(f.files.map(location)),
                ]
                if let i = ruleIndex[f.ruleID] { r["ruleIndex"] = .integer(i) }
                out.append(first ? "\n        " as StaticString : ",\n        ")
                first = false
                out.append(.object(r), indent: 4)
                if out.count >= chunkSize {
                    sink(out.text)
                    out.bytes.removeAll(keepingCapacity: true)
                }
            }
            out.append("\n      ]")
        }
        out.append(",\n      \"tool\": ")
        out.append(.object(["driver": .object(driver)]), indent: 3)
        out.append("\n    }\n  ],\n  \"version\": \"2.1.0\"\n}\n")
        sink(out.text)
    }

    /// SARIF levels: `error`, `warning`, `note`.
    static func level(_ s: Severity) -> String {
        switch s {
        case .error: return "error"
        case .warning: return "warning"
        case .info: return "note"
        }
    }

    private static func message(_ f: Finding) -> String {
        guard let hint = f.fixHint else { return f.message }
        return f.message + "\nFix: " + hint
    }

    static func location(_ path: String) -> JSON {
        let archive = LintGroups.archive(of: path)
        var loc: [String: JSON] = [
            "physicalLocation": .object([
                "artifactLocation": .object([
                    "uri": .string(percentEncoded(archive)),
                    "uriBaseId": .string(uriBaseID),
                ]),
            ]),
        ]
        if archive != path { loc["message"] = .object(["text": .string(path)]) }
        return .object(loc)
    }

    /// A relative path as a URI reference: every byte but the unreserved ones and `/` is
    /// percent-encoded (`前，竖.JPG` → `%E5%89%8D…`, a space → `%20`).
    static func percentEncoded(_ path: String) -> String {
        let hex = Array("0123456789ABCDEF")
        var out = ""
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
                 UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
                out.unicodeScalars.append(UnicodeScalar(byte))
            default:
                out += "%" + String(hex[Int(byte >> 4)]) + String(hex[Int(byte & 0xF)])
            }
        }
        return out
    }
}
