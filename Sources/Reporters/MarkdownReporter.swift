import LiveLintEngine

/// `livelint lint --format markdown`: a GitHub-flavoured Markdown summary, for a workflow's job
/// summary (`>> $GITHUB_STEP_SUMMARY`) or a pull-request comment: the counts, a table of
/// findings per rule, then the findings themselves (at most `findingLimit`, most severe first,
/// so a library-sized run stays under GitHub's 1 MiB summary limit). Every string from a file
/// is escaped so it shows as written and cannot open a link, an image or HTML.
public enum MarkdownReporter {
    public static func render(_ result: LintResult, findingLimit: Int = 200) -> String {
        let s = result.summary
        let lone = result.pairs.count(pairedBy: .unpaired)
        var out = "## livelint: \(escape(result.root))\n\n"
        let verdict = s.errors > 0 ? "❌" : s.warnings > 0 ? "⚠️" : "✅"
        out += "\(verdict) **\(s.errors)** errors, **\(s.warnings)** warnings, **\(s.infos)** infos in \(s.files) files "
        out += "(\(s.pairs) pairs, \(lone) lone halves)"
        if s.baselined > 0 { out += "; \(s.baselined) accepted by the baseline" }
        out += ".\n"
        guard !result.findings.isEmpty else { return out }

        var byRule: [String: (count: Int, severity: Severity)] = [:]
        for f in result.findings {
            let old = byRule[f.ruleID] ?? (0, .info)
            byRule[f.ruleID] = (old.count + 1, max(old.severity, f.severity))
        }
        out += "\n| rule | severity | findings |\n|---|---|---:|\n"
        for (id, v) in byRule.sorted(by: { ($1.value.count, $0.key) < ($0.value.count, $1.key) }) {
            out += "| `\(code(id))` | \(v.severity.rawValue) | \(v.count) |\n"
        }

        // The first `findingLimit` of each severity, in report order: the most severe first (a
        // library's findings are not all held to pick them).
        let limit = max(0, findingLimit)
        var first: [Severity: [Finding]] = [:]
        for f in result.findings where first[f.severity, default: []].count < limit {
            first[f.severity, default: []].append(f)
            if Severity.allCases.allSatisfy({ first[$0]?.count == limit }) { break }
        }
        let ordered = Severity.allCases.sorted(by: >).flatMap { first[$0] ?? [] }
        out += "\n| severity | rule | files | message |\n|---|---|---|---|\n"
        for f in ordered.prefix(limit) {
            var message = escape(f.message)
            if let hint = f.fixHint { message += "<br>*Fix:* " + escape(hint) }
            out += "| \(f.severity.rawValue) | `\(code(f.ruleID))` | \(f.files.map { "`\(code($0))`" }.joined(separator: "<br>")) | \(message) |\n"
        }
        if result.findings.count > findingLimit {
            out += "\n… and \(result.findings.count - findingLimit) more: see the SARIF or JSON report.\n"
        }
        return out
    }

    /// `s` as Markdown table-cell text: Markdown and HTML punctuation backslash-escaped (`<` and
    /// `&` as entities), line breaks as `<br>`, so a file name shows as written.
    static func escape(_ s: String) -> String {
        var out = ""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "&": out += "&amp;"
            case "\r": continue
            case "\n": out += "<br>"
            case "\\", "`", "*", "_", "[", "]", "(", ")", "#", "|", "!", "~", "{", "}", "+", "-", ".":
                out += "\\"
                out.unicodeScalars.append(scalar)
            default:
                out.unicodeScalars.append(scalar < " " ? "\u{FFFD}" : scalar)
            }
        }
        return out
    }

    /// `s` inside a code span: backticks cannot close it early (replaced by `ˋ`), pipes are
    /// escaped for the table, line breaks become spaces.
    static func code(_ s: String) -> String {
        var out = ""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "`": out += "ˋ"
            case "|": out += "\\|"
            case "\n", "\r", "\t": out += " "
            default: out.unicodeScalars.append(scalar < " " ? "\u{FFFD}" : scalar)
            }
        }
        return out
    }
}
