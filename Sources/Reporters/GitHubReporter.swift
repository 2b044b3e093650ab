import LiveLintEngine

/// `livelint lint --reporter github`: one GitHub Actions workflow command per finding,
/// `::error file=PATH,title=RULE::MESSAGE` (`::warning`, `::notice` for info). The file is the
/// finding's first file (a `.livp` member is annotated on its archive); other files and the fix
/// hint follow the message on lines of their own. Escaping follows the runner's rules.
public enum GitHubReporter {
    public static func render(_ result: LintResult) -> String {
        var out = ""
        write(result) { out += $0 }
        return out
    }

    /// The commands ``render(_:)`` returns, handed to `sink` about `chunkSize` bytes at a time,
    /// in order (a report is never held whole); nothing for a result without findings.
    public static func write(_ result: LintResult, chunkSize: Int = 1 << 16, to sink: (String) -> Void) {
        Pieces.write(size: chunkSize, to: sink) { add in
            for f in result.findings {
                var properties: [String] = []
                if let first = f.files.first { properties.append("file=" + escapeProperty(LintGroups.archive(of: first))) }
                properties.append("title=" + escapeProperty(f.ruleID))
                var text = f.message
                if f.files.count > 1 || f.files.first.map({ LintGroups.archive(of: $0) != $0 }) == true {
                    text += "\nFiles: " + f.files.joined(separator: ", ")
                }
                if let hint = f.fixHint { text += "\nFix: " + hint }
                add("::\(command(f.severity)) \(properties.joined(separator: ","))::\(escapeData(text))\n")
            }
        }
    }

    static func command(_ s: Severity) -> String {
        switch s {
        case .error: return "error"
        case .warning: return "warning"
        case .info: return "notice"
        }
    }

    /// Message escaping: `%` → `%25`, CR → `%0D`, LF → `%0A`.
    public static func escapeData(_ s: String) -> String { escape(s, property: false) }

    /// Property escaping: the message rules plus `:` → `%3A` and `,` → `%2C`.
    public static func escapeProperty(_ s: String) -> String { escape(s, property: true) }

    private static func escape(_ s: String, property: Bool) -> String {
        var out = ""
        for ch in s.unicodeScalars {
            switch ch {
            case "%": out += "%25"
            case "\r": out += "%0D"
            case "\n": out += "%0A"
            case ":" where property: out += "%3A"
            case "," where property: out += "%2C"
            default: out.unicodeScalars.append(ch)
            }
        }
        return out
    }
}
