import LiveLintEngine
import Reporters

/// How a lint result is reported: the format and its knobs, the failing severity, the rules
/// described (SARIF) and the tool version written (the JSON-based formats).
public struct LintReport: Sendable {
    public var format: LintReportFormat
    /// JUnit marks findings at or above this severity as failures; ``LintResult/exitCode(failOn:)``
    /// takes the same.
    public var failOn: Severity
    public var options: LintReportOptions
    public var rules: [RuleSummary]
    public var toolVersion: String

    public init(format: LintReportFormat, failOn: Severity = .error, options: LintReportOptions = LintReportOptions(),
                rules: [RuleSummary] = [], toolVersion: String = livelintVersion) {
        self.format = format
        self.failOn = failOn
        self.options = options
        // A text report groups a library's findings under its pairs on disk, where the scan keeps
        // its own lists.
        if self.options.scratchDirectory == nil { self.options.scratchDirectory = ScanRecords.temporaryDirectory }
        self.rules = rules
        self.toolVersion = toolVersion
    }

    /// The whole report.
    public func render(_ result: LintResult) -> String {
        LintReporters.render(result, format: format, rules: rules, toolVersion: toolVersion, failOn: failOn, options: options)
    }

    /// The report handed to `sink` in order, a piece at a time where the format allows it (a
    /// library-sized JSON report is never held whole).
    public func write(_ result: LintResult, to sink: (String) -> Void) {
        LintReporters.write(result, format: format, rules: rules, toolVersion: toolVersion, failOn: failOn,
                            options: options, to: sink)
    }

    /// The report written atomically to the file at `path` (``ReportWriter``), a piece at a time
    /// where the format allows it.
    public func write(_ result: LintResult, toFile path: String) throws(PipelineError) {
        do { try ReportWriter.write(to: path) { sink in write(result, to: sink) } } catch {
            throw PipelineError("cannot write the report to \(path): \(error.localizedDescription)")
        }
    }
}
