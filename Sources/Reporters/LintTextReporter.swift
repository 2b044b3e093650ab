import LiveLintEngine

/// `livelint lint` for people: a block per pair with findings (its files, identifier and how it
/// was paired, then each finding with its fix hint indented), scan-wide findings, and one
/// summary line. Clean pairs are listed only with `verbose`.
public enum LintTextReporter {
    public static func render(_ result: LintResult, options: LintReportOptions = LintReportOptions()) -> String {
        let style = Style(enabled: options.color)
        let groups = LintGroups(result)
        var blocks: [[String]] = []

        for group in groups.pairs where !group.findings.isEmpty {
            blocks.append(pairHeader(group.pair, style: style) + findingLines(group.findings, showFiles: false, style: style))
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
        return out
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
