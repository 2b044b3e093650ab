import LiveLintEngine

/// `livelint lint` for people: a block per pair with findings (its files, identifier and how it
/// was paired, then each finding with its fix hint indented), scan-wide findings, and one
/// summary line. Clean pairs are listed only with `verbose`.
public enum LintTextReporter {
    public static func render(_ result: LintResult, options: LintReportOptions = LintReportOptions()) -> String {
        let style = Style(enabled: options.color)
        let groups = LintGroups(result)
        var blocks: [[String]] = []

        for group in groups.pairs where !group.findings.isEmpty || showsVerdicts(group.pair) {
            blocks.append(pairHeader(group.pair, style: style) + findingLines(group.findings, showFiles: false, style: style)
                          + consumerLines(group.pair.consumers, style: style))
        }
        if !groups.scanWide.isEmpty {
            blocks.append([style.bold("Scan-wide")] + findingLines(groups.scanWide, showFiles: true, style: style))
        }
        if options.verbose {
            let clean = groups.pairs.filter { $0.findings.isEmpty }
            if !clean.isEmpty {
                let rows = clean.map { g in
                    [style.green("ok"), Text.clean(g.pair.still ?? "—"), Text.clean(g.pair.movie ?? "—"),
                     g.pair.pairedBy.rawValue]
                }
                blocks.append([style.bold("Clean pairs")] + Text.table(rows, indent: "  "))
            }
        }

        var out = blocks.map { $0.joined(separator: "\n") }.joined(separator: "\n\n")
        if !out.isEmpty { out += "\n\n" }
        out += summaryLine(result.summary) + "\n"
        for line in consumerSummaryLines(result.summary) { out += line + "\n" }
        return out
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
    private static func showsVerdicts(_ pair: PairRecord) -> Bool {
        guard pair.consumers.values.contains(where: { $0.outcome != .live }) else { return false }
        return (pair.still != nil && pair.movie != nil) || pair.contentIdentifier != nil
            || pair.consumers.values.contains { $0.outcome != .split }
    }

    /// The verdicts that are not `live`, one per consumer, with the reason and the fix.
    private static func consumerLines(_ verdicts: [String: ConsumerVerdict], style: Style) -> [String] {
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

    private static func pairHeader(_ pair: PairRecord, style: Style) -> [String] {
        let title = [pair.still, pair.movie].compactMap { $0.map(Text.clean) }.joined(separator: " + ")
        let rows: [[String]] = [
            ["still", pair.still.map(Text.clean) ?? "—"],
            ["movie", pair.movie.map(Text.clean) ?? "—"],
            ["identifier", pair.contentIdentifier.map(Text.clean) ?? "—"],
            ["paired by", pair.pairedBy.rawValue],
        ]
        return [style.bold(title.isEmpty ? "(empty pair)" : title)] + Text.table(rows, indent: "  ")
    }

    private static func findingLines(_ findings: [Finding], showFiles: Bool, style: Style) -> [String] {
        let severityWidth = Severity.allCases.map(\.rawValue.count).max() ?? 7
        let ruleWidth = findings.map(\.ruleID.count).max() ?? 0
        let hang = String(repeating: " ", count: 2 + severityWidth + 2 + ruleWidth + 2)
        var lines: [String] = []
        for f in findings {
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
