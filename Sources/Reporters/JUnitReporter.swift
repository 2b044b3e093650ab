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

    /// The document ``render(_:failOn:)`` returns, handed to `sink` about `chunkSize` bytes at a
    /// time. The suite's counts come first but are known only at the end: the test cases wait in
    /// a temporary file in `scratch` (nil: in memory) meanwhile, the findings grouped under their
    /// pairs by lists sorted there too (``LintGroups/stream(_:scratch:runSize:pair:scanWideRuleWidth:scanWide:)``),
    /// and the scan-wide ones sorted by rule there, each rule's case written from its findings on
    /// disk: a library-sized report is not held (issue 13).
    public static func write(_ result: LintResult, failOn: Severity = .error, scratch: String? = nil, runSize: Int? = nil,
                             chunkSize: Int = 1 << 16, to sink: (String) -> Void) {
        let cases = RecordFile<Piece>(in: scratch, prefix: "livelint-report-cases", chunk: 1)
        var pending = ""
        func keep(_ text: String) {
            pending += text
            if pending.utf8.count >= chunkSize {
                cases.append(Piece(text: pending))
                pending = ""
            }
        }
        var tests = 0, failures = 0
        /// A test case of the findings `forEach` goes through (in order, as often as asked).
        func testCase(_ className: String, _ name: String, _ forEach: ((Finding) -> Void) -> Void) {
            tests += 1
            let open = "    <testcase classname=\"\(className)\" name=\"\(escape(name))\""
            var failing = 0, passing = 0
            var worst: Severity?
            var firstFailing: Finding?
            forEach { f in
                guard f.severity >= failOn else { return passing += 1 }
                failing += 1
                worst = max(worst ?? f.severity, f.severity)
                if firstFailing == nil { firstFailing = f }
            }
            if failing + passing == 0 {
                keep(open + "/>\n")
                return
            }
            keep(open + ">\n")
            // `describe` of a list, escaped: each finding's text escaped in turn (escaping looks at
            // one character at a time), a blank line between.
            func described(failing: Bool) {
                var first = true
                forEach { f in
                    guard (f.severity >= failOn) == failing else { return }
                    keep((first ? "" : "\n\n") + escape(describe(f), attribute: false))
                    first = false
                }
            }
            if let worst, let firstFailing {
                failures += 1
                keep("      <failure type=\"\(worst.rawValue)\" message=\"")
                if failing == 1 {
                    keep(escape(firstFailing.message))
                } else {
                    keep(escape("\(failing) findings: "))
                    var first = true
                    forEach { f in
                        guard f.severity >= failOn else { return }
                        keep((first ? "" : escape(", ")) + escape(f.ruleID))
                        first = false
                    }
                }
                keep("\">")
                described(failing: true)
                keep("</failure>\n")
            }
            if passing > 0 {
                keep("      <system-out>")
                described(failing: false)
                keep("</system-out>\n")
            }
            keep("    </testcase>\n")
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
            testCase("livelint.pair", pair.still ?? pair.movie ?? "(empty pair)") { body in findings.forEach(body) }
        }, scanWideRuleWidth: { _ in }, scanWide: { finding in
            let rank = ranks[finding.ruleID] ?? {
                rules.append(finding.ruleID)
                ranks[finding.ruleID] = rules.count - 1
                return rules.count - 1
            }()
            scanWide.append(KeyedFinding(key: rank, finding: finding))
        })
        // A rule's findings wait on disk (a rule may have a finding on every file), read as often
        // as its case needs.
        var rank = -1
        var findings = RecordFile<Finding>(in: scratch, prefix: "livelint-report-rule")
        func ruleCase() {
            guard rank >= 0 else { return }
            testCase("livelint.scan", rules[rank]) { body in findings.forEach(body) }
            findings = RecordFile<Finding>(in: scratch, prefix: "livelint-report-rule")
        }
        scanWide.forEachInOrder { ranked in
            if ranked.key != rank { ruleCase() }
            rank = ranked.key
            findings.append(ranked.finding)
        }
        ruleCase()

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
        findings.map(describe).joined(separator: "\n\n")
    }

    /// One finding as a case's failure or output lists it.
    static func describe(_ f: Finding) -> String {
        var s = "\(f.severity.rawValue) \(f.ruleID): \(f.message)"
        if !f.files.isEmpty { s += "\nfiles: " + f.files.joined(separator: ", ") }
        if let hint = f.fixHint { s += "\nfix: " + hint }
        s += "\ndocumentation: " + f.documentation
        return s
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
