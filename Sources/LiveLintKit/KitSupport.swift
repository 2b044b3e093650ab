import Foundation

/// The version printed by `livelint --version` and written into JSON-based reports.
public let livelintVersion = "0.1.0"

/// A failure a pipeline reports to its user as it is (no such path, bad configuration, a report
/// that cannot be written): the CLI prints `livelint: <description>` and exits 2.
public struct PipelineError: Error, Sendable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// Writes a report atomically: to a temporary file beside the target, then renamed over it, so a
/// reader never sees half a report and an interrupted run never leaves a truncated one.
public enum ReportWriter {
    public static func write(_ text: String, to path: String) throws {
        let url = URL(fileURLWithPath: path)
        try Data(text.utf8).write(to: url, options: .atomic)
    }
}
