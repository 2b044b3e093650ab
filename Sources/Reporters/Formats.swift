import Foundation
import LiveLintEngine
import LiveModel

/// The output formats of `livelint lint --reporter`.
public enum LintReportFormat: String, Sendable, CaseIterable {
    /// Readable blocks per pair with findings, then scan-wide findings and a summary line.
    case text
    /// One JSON document (`Schemas/lint.schema.json`).
    case json
    /// JSON Lines: one finding object per line, then one summary line.
    case jsonl
    /// SARIF 2.1.0, for code-scanning dashboards.
    case sarif
    /// JUnit XML, one test case per pair and per scan-wide rule.
    case junit
    /// GitHub Actions workflow commands (`::error file=…,title=…::…`).
    case github
    /// One self-contained HTML page for people: summary, chart, a card per pair (``HTMLReporter``).
    case html
    /// A Markdown summary: counts, a table per rule, the findings (``MarkdownReporter``).
    case markdown
}

/// The output formats of `livelint dump`.
public enum DumpFormat: String, Sendable, CaseIterable {
    /// Grouped, aligned sections for people.
    case text
    /// One JSON document (`Schemas/dump.schema.json`).
    case json
}

/// Knobs for the lint reporters. Every field has a default that suits a terminal.
public struct LintReportOptions: Sendable {
    /// Text: also list the pairs that have no findings.
    public var verbose: Bool
    /// Text: ANSI colour on severities and headings.
    public var color: Bool
    /// SARIF `tool.driver.informationUri`: the project's home page (absolute URI). Omitted when nil.
    public var informationURI: String?
    /// Prefix turning a finding's relative documentation path (`docs/rules/<id>.md`) into an
    /// absolute link in SARIF `helpUri` (e.g. `https://host/repo/blob/main/`). When nil the
    /// documentation reference is written as given.
    public var documentationBaseURI: String?
    /// HTML: thumbnails, consumer outcomes, the page's nonce and page size.
    public var html: HTMLReportInput
    /// Text, JUnit and HTML: where the grouping of findings under their pairs (HTML: their
    /// cards) sorts its lists past a run's worth (nil: in memory), so that a library-sized report
    /// is not grouped in memory.
    public var scratchDirectory: String?
    /// The runs' size for those lists (nil: their default; small in the tests).
    public var scratchRun: Int?
    /// JSON: threads that write the files and the pairs, a share of a few thousand each at a
    /// time, handed on in order (`--jobs`; capped at the cores when the report is written, which
    /// is what lets ``RecordFile``'s chunk cache, a chunk a core, serve them all; each holds its
    /// share's text; the report is the same, byte for byte).
    public var threads = 1

    public init(verbose: Bool = false, color: Bool = false, informationURI: String? = nil,
                documentationBaseURI: String? = nil, html: HTMLReportInput = HTMLReportInput()) {
        self.verbose = verbose
        self.color = color
        self.informationURI = informationURI
        self.documentationBaseURI = documentationBaseURI
        self.html = html
    }

    /// The documentation reference as a link: absolute references are kept, relative ones get
    /// `documentationBaseURI` in front (with exactly one `/` between).
    func documentationLink(_ reference: String) -> String {
        guard let base = documentationBaseURI, !reference.contains("://") else { return reference }
        let trimmedBase = base.hasSuffix("/") ? String(base.dropLast()) : base
        let trimmedRef = reference.hasPrefix("/") ? String(reference.dropFirst()) : reference
        return trimmedBase + "/" + trimmedRef
    }
}

/// Knobs for the dump reporters.
public struct DumpOptions: Sendable {
    /// Text: show every timed-metadata sample instead of the first `sampleLimit`.
    public var allSamples: Bool
    /// Text: how many samples per metadata track are shown when `allSamples` is off.
    public var sampleLimit: Int
    /// Text: values longer than this many characters are cut (`… (N chars)`).
    public var valueWidth: Int
    /// Text: ANSI colour on headings and problems.
    public var color: Bool

    public init(allSamples: Bool = false, sampleLimit: Int = 5, valueWidth: Int = 80, color: Bool = false) {
        self.allSamples = allSamples
        self.sampleLimit = sampleLimit
        self.valueWidth = valueWidth
        self.color = color
    }
}

/// The single entry point the CLI calls for `lint` output.
public enum LintReporters {
    /// Renders `result` in `format`. Every format ends with a newline.
    /// - Parameters:
    ///   - rules: descriptions of the rules that ran (SARIF `tool.driver.rules`); may be empty.
    ///   - toolVersion: livelint's version, written by the JSON-based formats.
    ///   - failOn: JUnit marks findings at or above this severity as `<failure>`.
    public static func render(_ result: LintResult, format: LintReportFormat, rules: [RuleSummary] = [],
                              toolVersion: String, failOn: Severity = .error,
                              options: LintReportOptions = LintReportOptions()) -> String {
        var out = ""
        write(result, format: format, rules: rules, toolVersion: toolVersion, failOn: failOn, options: options) { out += $0 }
        return out
    }

    /// What ``render(_:format:rules:toolVersion:failOn:options:)`` returns, handed to `sink` in
    /// order, in pieces where the format allows it (every one but Markdown, a summary of bounded
    /// size, is written a piece at a time, so a library-sized report is never held whole).
    public static func write(_ result: LintResult, format: LintReportFormat, rules: [RuleSummary] = [],
                             toolVersion: String, failOn: Severity = .error,
                             options: LintReportOptions = LintReportOptions(), to sink: (String) -> Void) {
        switch format {
        case .json:
            // No more than the cores: each thread holds its share's text at a time.
            let threads = min(options.threads, max(1, ProcessInfo.processInfo.activeProcessorCount))
            LintJSONReporter.write(result, toolVersion: toolVersion, threads: threads, to: sink)
        case .jsonl: LintJSONLinesReporter.write(result, toolVersion: toolVersion, to: sink)
        case .text: LintTextReporter.write(result, options: options, to: sink)
        case .junit: JUnitReporter.write(result, failOn: failOn, scratch: options.scratchDirectory, runSize: options.scratchRun, to: sink)
        case .sarif: SARIFReporter.write(result, rules: rules, toolVersion: toolVersion, options: options, to: sink)
        case .github: GitHubReporter.write(result, to: sink)
        case .html: HTMLReporter.write(result, rules: rules, toolVersion: toolVersion, options: options, to: sink)
        case .markdown: sink(MarkdownReporter.render(result))
        }
    }
}

/// The single entry point the CLI calls for `dump` output.
public enum DumpReporters {
    /// Renders the files in `format`. Every format ends with a newline.
    public static func render(_ files: [MediaFile], format: DumpFormat, options: DumpOptions = DumpOptions()) -> String {
        switch format {
        case .text: return DumpTextReporter.render(files, options: options)
        case .json: return DumpJSONReporter.render(files, options: options)
        }
    }
}
