import LiveLintEngine
import ScratchFiles

/// `livelint lint --reporter junit`: one `<testsuite name="livelint">` with one test case per
/// pair (named by its still, else its movie; class `livelint.pair`) and one per rule with
/// scan-wide findings (named by the rule id; class `livelint.scan`). A test case fails
/// (`<failure>`, one per case as the JUnit schema allows) when it has findings at or above
/// `failOn`; findings below it are listed in `<system-out>`.
public enum JUnitReporter {
    public static func render(_ result: LintResult, failOn: Severity = .error) -> String {
        var out = ""
        write(result, failOn: failOn) { out += $0 }
        return out
    }

    /// The document ``render(_:failOn:)`` returns, handed to `sink` about 64 KiB at a time. The
    /// suite's counts come first but are known only at the end: the test cases wait in a
    /// temporary file in `scratch` (nil: in memory) meanwhile, the findings grouped under their
    /// pairs by lists sorted there too (``LintGroups/stream(_:scratch:runSize:pair:scanWideRuleWidth:scanWide:)``),
    /// and the scan-wide ones sorted by rule there: a library-sized report is not held (issue 13).
    public static func write(_ result: LintResult, failOn: Severity = .error, scratch: String? = nil, runSize: Int? = nil,
                             to sink: (String) -> Void) {
        let cases = RecordFile<Piece>(in: scratch, prefix: "livelint-report-cases")
        var pending = ""
        func keep(_ text: String) {
            pending += text
            if pending.utf8.count >= 1 << 16 {
                cases.append(Piece(text: pending))
                pending = ""
            }
        }
        var tests = 0, failures = 0
        func testCase(_ className: String, _ name: String, _ findings: [Finding]) {
            tests += 1
            let open = "    <testcase classname=\"\(className)\" name=\"\(escape(name))\""
            let failing = findings.filter { $0.severity >= failOn }
            let passing = findings.filter { $0.severity < failOn }
            if findings.isEmpty {
                keep(open + "/>\n")
                return
            }
            var out = open + ">\n"
            if let worst = failing.map(\.severity).max() {
                failures += 1
                let message = failing.count == 1
                    ? failing[0].message
                    : "\(failing.count) findings: " + failing.map(\.ruleID).joined(separator: ", ")
                out += "      <failure type=\"\(worst.rawValue)\" message=\"\(escape(message))\">"
                out += escape(describe(failing), attribute: false) + "</failure>\n"
            }
            if !passing.isEmpty {
                out += "      <system-out>" + escape(describe(passing), attribute: false) + "</system-out>\n"
            }
            keep(out + "    </testcase>\n")
        }
        // Scan-wide findings: a case per rule, in the order the rules first come, each with its
        // findings in order (sorted by that order, stably, on disk).
        var ranks: [String: Int] = [:]
        var rules: [String] = []
        // Each with the rank of its rule (the order rules first come in).
        let scanWide = SortedRecords<KeyedFinding>(spillingIn: scratch, prefix: "livelint-report-scan", runSize: runSize) {
            $0.key < $1.key
        }
        LintGroups.stream(result, scratch: scratch, runSize: runSize, pair: { pair, findings in
            testCase("livelint.pair", pair.still ?? pair.movie ?? "(empty pair)", findings)
        }, scanWideRuleWidth: { _ in }, scanWide: { finding in
            let rank = ranks[finding.ruleID] ?? {
                rules.append(finding.ruleID)
                ranks[finding.ruleID] = rules.count - 1
                return rules.count - 1
            }()
            scanWide.append(KeyedFinding(key: rank, finding: finding))
        })
        var rank = -1
        var findings: [Finding] = []
        scanWide.forEachInOrder { ranked in
            if ranked.key != rank, rank >= 0 {
                testCase("livelint.scan", rules[rank], findings)
                findings = []
            }
            rank = ranked.key
            findings.append(ranked.finding)
        }
        if rank >= 0 { testCase("livelint.scan", rules[rank], findings) }

        let counts = "tests=\"\(tests)\" failures=\"\(failures)\" errors=\"0\""
        sink("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"livelint\" \(counts)>\n"
             + "  <testsuite name=\"livelint\" \(counts) skipped=\"0\">\n")
        cases.forEach { sink($0.text) }
        sink(pending + "  </testsuite>\n</testsuites>\n")
    }

    /// A piece of the document, waiting for the counts.
    struct Piece: ScratchRecord {
        var text: String
        func encode(into bytes: inout [UInt8]) { bytes.append(contentsOf: text.utf8) }
        init?(decoding bytes: UnsafeRawBufferPointer) { text = String(decoding: bytes, as: UTF8.self) }
        init(text: String) { self.text = text }
    }

    static func describe(_ findings: [Finding]) -> String {
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
