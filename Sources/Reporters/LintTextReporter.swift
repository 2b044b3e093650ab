import LiveLintEngine
import ScratchFiles

/// `livelint lint` for people: a block per pair with findings (its files, identifier and how it
/// was paired, then each finding with its fix hint indented), scan-wide findings, and one
/// summary line. Clean pairs are listed only with `verbose`.
public enum LintTextReporter {
    public static func render(_ result: LintResult, options: LintReportOptions = LintReportOptions()) -> String {
        var out = ""
        write(result, options: options) { out += $0 }
        return out
    }

    /// The text ``render(_:options:)`` returns, handed to `sink` about 64 KiB at a time, in order:
    /// the findings are grouped under their pairs by lists sorted in `options.scratchDirectory`
    /// (``LintGroups/stream(_:scratch:runSize:pair:scanWideRuleWidth:scanWide:)``), and the clean
    /// pairs `verbose` lists wait there too, so a library-sized report is not held (issue 13).
    public static func write(_ result: LintResult, options: LintReportOptions = LintReportOptions(),
                             to sink: (String) -> Void) {
        let style = Style(enabled: options.color)
        Pieces.write(to: sink) { add in
            var blocks = 0
            // A block after the one before, a blank line between.
            func startBlock(_ first: String) {
                add((blocks > 0 ? "\n\n" : "") + first)
                blocks += 1
            }
            func line(_ text: String) { add("\n" + text) }
            // The clean pairs' rows (`verbose`), their columns' widths as they come.
            let clean = options.verbose ? RecordFile<Row>(in: options.scratchDirectory, prefix: "livelint-report-clean") : nil
            var widths = [0, 0, 0]
            var wideRuleWidth = 0
            var anyWide = false
            // A pair is shown for its findings, its verdicts (counted in the summary when the run
            // asked for them) or, `verbose`, as clean: with none of these, the pairs are not read
            // at all (issue 13: a fifth of a cached run of a clean library went to reading them).
            let showsPairs = options.verbose || !result.findings.isEmpty || !result.summary.consumers.isEmpty
            if showsPairs {
                LintGroups.stream(result, scratch: options.scratchDirectory, runSize: options.scratchRun, pair: { pair, findings in
                    if !findings.isEmpty || showsVerdicts(pair) {
                        let header = pairHeader(pair, style: style)
                        startBlock(header[0])
                        for text in header.dropFirst() + findingLines(findings, showFiles: false, style: style)
                            + consumerLines(pair.consumers, style: style) { line(text) }
                    }
                    if let clean, findings.isEmpty {
                        let row = Row(cells: [style.green("ok"), Text.clean(pair.still ?? "—"), Text.clean(pair.movie ?? "—"),
                                              pair.pairedBy.rawValue])
                        for i in widths.indices { widths[i] = max(widths[i], row.cells[i].count) }
                        clean.append(row)
                    }
                }, scanWideRuleWidth: { wideRuleWidth = $0 }, scanWide: { finding in
                    if !anyWide {
                        anyWide = true
                        startBlock(style.bold("Scan-wide"))
                    }
                    for text in findingLines(finding, ruleWidth: wideRuleWidth, showFiles: true, style: style) { line(text) }
                })
            }
            if let clean, clean.count > 0 {
                startBlock(style.bold("Clean pairs"))
                clean.forEach { line(Text.tableLine($0.cells, widths: widths + [0], indent: "  ")) }
            }
            if blocks > 0 { add("\n\n") }
            add(summaryLine(result.summary) + "\n")
            for line in consumerSummaryLines(result.summary) { add(line + "\n") }
        }
    }

    /// A clean pair's row, kept on disk until the table is written.
    struct Row: ScratchRecord {
        var cells: [String]

        func encode(into bytes: inout [UInt8]) {
            var w = RecordWriter(bytes: consume bytes)
            w.count(cells.count)
            for cell in cells { w.string(cell) }
            bytes = w.bytes
        }

        init?(decoding bytes: UnsafeRawBufferPointer) {
            var r = RecordReader(bytes: bytes)
            guard let n = r.count() else { return nil }
            var cells: [String] = []
            for _ in 0..<n {
                guard let cell = r.string() else { return nil }
                cells.append(cell)
            }
            guard r.atEnd else { return nil }
            self.init(cells: cells)
        }

        init(cells: [String]) { self.cells = cells }
    }

    /// One line per requested consumer: `Immich: 1,204 live, 37 split, 2 ambiguous`.
    public static func consumerSummaryLines(_ s: LintSummary) -> [String] {
        Consumers.all.filter { s.consumers[$0.id] != nil }.map { consumer in
            let counts = s.consumers[consumer.id] ?? [:]
            let parts = ConsumerOutcome.allCases.filter { (counts[$0] ?? 0) > 0 || $0 == .live }
                .map { "\(Text.thousands(counts[$0] ?? 0)) \($0.rawValue)" }
            return "\(consumer.displayName): " + parts.joined(separator: ", ")
        }
    }

    /// A pair's block shows its verdicts when one is not `live` and the files are meant as a Live
    /// Photo or motion photo: both halves, an archive, an identifier or a verdict other than
    /// `split` (a plain photo with no identifier is not a lone half worth a block).
    static func showsVerdicts(_ pair: PairRecord) -> Bool {
        guard pair.consumers.values.contains(where: { $0.outcome != .live }) else { return false }
        return (pair.still != nil && pair.movie != nil) || pair.contentIdentifier != nil
            || pair.consumers.values.contains { $0.outcome != .split }
    }

    /// The verdicts that are not `live`, one per consumer, with the reason and the fix.
    static func consumerLines(_ verdicts: [String: ConsumerVerdict], style: Style) -> [String] {
        let shown = Consumers.all.compactMap { c in verdicts[c.id].map { (c, $0) } }.filter { $0.1.outcome != .live }
        guard !shown.isEmpty else { return [] }
        let width = shown.map(\.0.id.count).max() ?? 0
        var lines: [String] = []
        for (consumer, verdict) in shown {
            let outcome = verdict.outcome == .unsupported ? style.red(verdict.outcome.rawValue) : style.yellow(verdict.outcome.rawValue)
            lines.append("  " + consumer.id.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + outcome + "  "
                         + Text.clean(verdict.reason))
            if let fix = verdict.fix {
                lines.append("  " + String(repeating: " ", count: width + 2) + style.dim("fix: " + Text.clean(fix)))
            }
        }
        return lines
    }

    /// `12 files, 5 pairs: 1 error, 2 warnings, 0 infos (3 baselined)`.
    public static func summaryLine(_ s: LintSummary) -> String {
        var line = "\(Text.count(s.files, "file")), \(Text.count(s.pairs, "pair")): "
            + "\(Text.count(s.errors, "error")), \(Text.count(s.warnings, "warning")), \(Text.count(s.infos, "info"))"
        if s.baselined != 0 { line += " (\(s.baselined) baselined)" }
        return line
    }

    static func pairHeader(_ pair: PairRecord, style: Style) -> [String] {
        let title = [pair.still, pair.movie].compactMap { $0.map(Text.clean) }.joined(separator: " + ")
        let rows: [[String]] = [
            ["still", pair.still.map(Text.clean) ?? "—"],
            ["movie", pair.movie.map(Text.clean) ?? "—"],
            ["identifier", pair.contentIdentifier.map(Text.clean) ?? "—"],
            ["paired by", pair.pairedBy.rawValue],
        ]
        return [style.bold(title.isEmpty ? "(empty pair)" : title)] + Text.table(rows, indent: "  ")
    }

    static func findingLines(_ findings: [Finding], showFiles: Bool, style: Style) -> [String] {
        let ruleWidth = findings.map(\.ruleID.count).max() ?? 0
        return findings.flatMap { findingLines($0, ruleWidth: ruleWidth, showFiles: showFiles, style: style) }
    }

    /// A finding's lines, its rule id padded to `ruleWidth`.
    private static func findingLines(_ f: Finding, ruleWidth: Int, showFiles: Bool, style: Style) -> [String] {
        let severityWidth = Severity.allCases.map(\.rawValue.count).max() ?? 7
        let hang = String(repeating: " ", count: 2 + severityWidth + 2 + ruleWidth + 2)
        var lines: [String] = []
        let sev = f.severity.rawValue.padding(toLength: severityWidth, withPad: " ", startingAt: 0)
        let rule = f.ruleID.padding(toLength: ruleWidth, withPad: " ", startingAt: 0)
        let message = Text.lines(f.message)
        lines.append("  \(colored(sev, f.severity, style))  \(rule)  \(message.first ?? "")")
        lines += message.dropFirst().map { hang + $0 }
        if showFiles, !f.files.isEmpty {
            lines.append(hang + style.dim("files: ") + f.files.map(Text.clean).joined(separator: ", "))
        }
        if let hint = f.fixHint {
            let hintLines = Text.lines(hint)
            lines.append(hang + style.dim("fix: ") + (hintLines.first ?? ""))
            lines += hintLines.dropFirst().map { hang + "     " + $0 }
        }
        return lines
    }

    private static func colored(_ s: String, _ severity: Severity, _ style: Style) -> String {
        switch severity {
        case .error: return style.red(s)
        case .warning: return style.yellow(s)
        case .info: return style.cyan(s)
        }
    }
}
