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
    /// and the scan-wide ones sorted by rule there, each rule's case written as its findings are
    /// read back: a library-sized report is not held (issue 13).
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
        func opening(_ className: String, _ name: String) -> String {
            "    <testcase classname=\"\(className)\" name=\"\(escape(name))\""
        }
        /// A pair's case, its findings held (a pair's few).
        func testCase(_ className: String, _ name: String, _ findings: [Finding]) {
            tests += 1
            let open = opening(className, name)
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
        // Scan-wide findings: a case per rule, in the order the rules first come, its failing
        // findings then the others, each in order: sorted on disk by rank * 2 (+ 1 when not
        // failing), stably, and counted as they come (what the case's failure says first).
        var ranks: [String: Int] = [:]
        var rules: [String] = []
        var tallies: [(failing: Int, worst: Severity?, first: String?)] = []
        let scanWide = SortedRecords<KeyedFinding>(spillingIn: scratch, prefix: "livelint-report-scan", runSize: runSize) {
            $0.key < $1.key
        }
        LintGroups.stream(result, scratch: scratch, runSize: runSize, pair: { pair, findings in
            testCase("livelint.pair", pair.still ?? pair.movie ?? "(empty pair)", findings)
        }, scanWideRuleWidth: { _ in }, scanWide: { finding in
            let rank = ranks[finding.ruleID] ?? {
                rules.append(finding.ruleID)
                tallies.append((0, nil, nil))
                ranks[finding.ruleID] = rules.count - 1
                return rules.count - 1
            }()
            let failing = finding.severity >= failOn
            if failing {
                tallies[rank].failing += 1
                tallies[rank].worst = max(tallies[rank].worst ?? finding.severity, finding.severity)
                if tallies[rank].first == nil { tallies[rank].first = finding.message }
            }
            scanWide.append(KeyedFinding(key: rank * 2 + (failing ? 0 : 1), finding: finding))
        })
        // The section `key` was in is closed (its case too when `next` is another rule's or none),
        // and `next`'s opened.
        var key = -1
        var firstInSection = true
        func section(_ next: Int?) {
            if key >= 0 {
                keep(key % 2 == 0 ? "</failure>\n" : "</system-out>\n")
                if next.map({ $0 / 2 != key / 2 }) ?? true { keep("    </testcase>\n") }
            }
            guard let next else { return }
            let rank = next / 2
            if key < 0 || rank != key / 2 {
                tests += 1
                keep(opening("livelint.scan", rules[rank]) + ">\n")
            }
            if next % 2 == 0, let worst = tallies[rank].worst, let first = tallies[rank].first {
                failures += 1
                keep("      <failure type=\"\(worst.rawValue)\" message=\"")
                if tallies[rank].failing == 1 {
                    keep(escape(first))
                } else {
                    keep(escape("\(tallies[rank].failing) findings: "))
                    for i in 0..<tallies[rank].failing { keep((i == 0 ? "" : ", ") + escape(rules[rank])) }
                }
                keep("\">")
            } else {
                keep("      <system-out>")
            }
            key = next
            firstInSection = true
        }
        scanWide.forEachInOrder { keyed in
            if keyed.key != key { section(keyed.key) }
            keep((firstInSection ? "" : "\n\n") + escape(describe(keyed.finding), attribute: false))
            firstInSection = false
        }
        section(nil)

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
