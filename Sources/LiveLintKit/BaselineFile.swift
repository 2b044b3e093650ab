import LiveLintEngine

extension Baseline {
    /// Writes the baseline accepting exactly `findings` to `path`, the text ``write(to:)`` writes:
    /// its entries sorted on disk (``writeJSON(accepting:scratch:runSize:to:)``) and written a
    /// piece at a time through ``ReportWriter`` (no half-written file is ever seen), so that the
    /// baseline of a library with a finding on every file is not held (issue 13).
    public static func write(accepting findings: some Sequence<Finding>, to path: String) throws(BaselineError) {
        do {
            try ReportWriter.write(to: path) { sink in
                writeJSON(accepting: findings, scratch: ScanRecords.temporaryDirectory, to: sink)
            }
        } catch {
            throw BaselineError(file: path, reason: "cannot write: \(error.localizedDescription)")
        }
    }
}
