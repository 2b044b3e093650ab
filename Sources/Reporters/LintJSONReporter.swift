import LiveLintEngine

/// `livelint lint --reporter json`: one document shaped by `Schemas/lint.schema.json`:
/// `{"schemaVersion": 1, "tool", "root", "findings", "pairs", "summary", "files"}`, sorted keys,
/// 2-space indentation.
public enum LintJSONReporter {
    /// Bumped when a field changes meaning or disappears (adding fields does not bump it).
    public static let schemaVersion = 1

    public static func render(_ result: LintResult, toolVersion: String) -> String {
        let doc: JSON = .object([
            "schemaVersion": .integer(schemaVersion),
            "tool": .object(["name": .string("livelint"), "version": .string(toolVersion)]),
            "root": .string(result.root),
            "findings": .array(result.findings.map(finding)),
            "pairs": .array(result.pairs.map(pair)),
            "summary": summary(result.summary),
            "files": .array(result.files.map(file)),
        ])
        return doc.pretty() + "\n"
    }

    static func finding(_ f: Finding) -> JSON {
        .object([
            "rule": .string(f.ruleID),
            "severity": .string(f.severity.rawValue),
            "message": .string(f.message),
            "files": .array(f.files.map(JSON.string)),
            "documentation": .string(f.documentation),
            "fixHint": .string(f.fixHint),
        ])
    }

    static func pair(_ p: PairRecord) -> JSON {
        .object([
            "still": .string(p.still),
            "movie": .string(p.movie),
            "contentIdentifier": .string(p.contentIdentifier),
            "pairedBy": .string(p.pairedBy.rawValue),
        ])
    }

    static func summary(_ s: LintSummary) -> JSON {
        .object([
            "files": .integer(s.files), "pairs": .integer(s.pairs), "errors": .integer(s.errors),
            "warnings": .integer(s.warnings), "infos": .integer(s.infos), "baselined": .integer(s.baselined),
        ])
    }

    static func file(_ f: ScannedFile) -> JSON {
        .object([
            "path": .string(f.path),
            "kind": .string(f.kind.rawValue),
            "format": .string(f.format.rawValue),
            "error": .string(f.error),
        ])
    }
}

/// `livelint lint --reporter jsonl`: one finding per line (the JSON reporter's finding object
/// plus `"type": "finding"`), then one `"type": "summary"` line carrying the summary counts and
/// the tool version. Keys sorted, one compact object per line.
public enum LintJSONLinesReporter {
    public static func render(_ result: LintResult, toolVersion: String) -> String {
        var out = ""
        for f in result.findings {
            out += with(LintJSONReporter.finding(f), "type", .string("finding")).compact() + "\n"
        }
        var summary = with(LintJSONReporter.summary(result.summary), "type", .string("summary"))
        summary = with(summary, "schemaVersion", .integer(LintJSONReporter.schemaVersion))
        summary = with(summary, "tool", .object(["name": .string("livelint"), "version": .string(toolVersion)]))
        out += summary.compact() + "\n"
        return out
    }

    private static func with(_ object: JSON, _ key: String, _ value: JSON) -> JSON {
        guard case .object(var members) = object else { return object }
        members[key] = value
        return .object(members)
    }
}
