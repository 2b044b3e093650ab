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

        let results: [JSON] = result.findings.map { f in
            var r: [String: JSON] = [
                "ruleId": .string(f.ruleID),
                "level": .string(level(f.severity)),
                "message": .object(["text": .string(message(f))]),
                "locations": .array(f.files.map(location)),
            ]
            if let i = ruleIndex[f.ruleID] { r["ruleIndex"] = .integer(i) }
            return .object(r)
        }

        let doc: JSON = .object([
            "$schema": .string(schemaURI),
            "version": .string("2.1.0"),
            "runs": .array([.object([
                "tool": .object(["driver": .object(driver)]),
                "results": .array(results),
                "columnKind": .string("unicodeCodePoints"),
            ])]),
        ])
        return doc.pretty() + "\n"
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

    private static func location(_ path: String) -> JSON {
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
