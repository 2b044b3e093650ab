import LiveLintEngine

/// `livelint lint --reporter junit`: one `<testsuite name="livelint">` with one test case per
/// pair (named by its still, else its movie; class `livelint.pair`) and one per rule with
/// scan-wide findings (named by the rule id; class `livelint.scan`). A test case fails
/// (`<failure>`, one per case as the JUnit schema allows) when it has findings at or above
/// `failOn`; findings below it are listed in `<system-out>`.
public enum JUnitReporter {
    public static func render(_ result: LintResult, failOn: Severity = .error) -> String {
        let groups = LintGroups(result)
        var cases: [(className: String, name: String, findings: [Finding])] = groups.pairs.map {
            ("livelint.pair", $0.name, $0.findings)
        }
        var scanRules: [String] = []
        var scanFindings: [String: [Finding]] = [:]
        for f in groups.scanWide {
            if scanFindings[f.ruleID] == nil { scanRules.append(f.ruleID) }
            scanFindings[f.ruleID, default: []].append(f)
        }
        cases += scanRules.map { ("livelint.scan", $0, scanFindings[$0] ?? []) }

        let failures = cases.filter { c in c.findings.contains { $0.severity >= failOn } }.count
        let counts = "tests=\"\(cases.count)\" failures=\"\(failures)\" errors=\"0\""
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<testsuites name=\"livelint\" \(counts)>\n"
        out += "  <testsuite name=\"livelint\" \(counts) skipped=\"0\">\n"
        for c in cases {
            let open = "    <testcase classname=\"\(c.className)\" name=\"\(escape(c.name))\""
            let failing = c.findings.filter { $0.severity >= failOn }
            let passing = c.findings.filter { $0.severity < failOn }
            if c.findings.isEmpty {
                out += open + "/>\n"
                continue
            }
            out += open + ">\n"
            if let worst = failing.map(\.severity).max() {
                let message = failing.count == 1
                    ? failing[0].message
                    : "\(failing.count) findings: " + failing.map(\.ruleID).joined(separator: ", ")
                out += "      <failure type=\"\(worst.rawValue)\" message=\"\(escape(message))\">"
                out += escape(describe(failing), attribute: false) + "</failure>\n"
            }
            if !passing.isEmpty {
                out += "      <system-out>" + escape(describe(passing), attribute: false) + "</system-out>\n"
            }
            out += "    </testcase>\n"
        }
        out += "  </testsuite>\n</testsuites>\n"
        return out
    }

    private static func describe(_ findings: [Finding]) -> String {
        findings.map { f in
            var s = "\(f.severity.rawValue) \(f.ruleID): \(f.message)"
            if !f.files.isEmpty { s += "\nfiles: " + f.files.joined(separator: ", ") }
            if let hint = f.fixHint { s += "\nfix: " + hint }
            s += "\ndocumentation: " + f.documentation
            return s
        }.joined(separator: "\n\n")
    }

    /// Escapes `& < > " '`; in attribute values also line breaks and tabs as character
    /// references (so parsers keep them); and the control characters XML 1.0 cannot carry at
    /// all as a visible `\u{…}`.
    static func escape(_ s: String, attribute: Bool = true) -> String {
        var out = ""
        for ch in s.unicodeScalars {
            switch ch {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\n": out += attribute ? "&#10;" : "\n"
            case "\r": out += "&#13;"
            case "\t": out += attribute ? "&#9;" : "\t"
            default:
                let v = ch.value
                if v < 0x20 || v == 0xFFFE || v == 0xFFFF {
                    out += "\\u{" + String(v, radix: 16) + "}"
                } else {
                    out.unicodeScalars.append(ch)
                }
            }
        }
        return out
    }
}
