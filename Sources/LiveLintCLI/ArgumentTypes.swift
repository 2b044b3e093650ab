import ArgumentParser
import LiveLintEngine
import LiveLintKit
import Reporters

// The option values of the commands are the library's own types; the CLI only teaches
// argument-parser to read them.

extension LintReportFormat: ExpressibleByArgument {}

extension DumpFormat: ExpressibleByArgument {}

extension Severity: ExpressibleByArgument {
    /// Most severe first, as people read a `--fail-on` list.
    public static var allValueStrings: [String] { [Severity.error, .warning, .info].map(\.rawValue) }
}

extension ColorChoice: ExpressibleByArgument {}

extension ThumbnailSelection: ExpressibleByArgument {}

extension Shard: ExpressibleByArgument {
    /// `K/N`.
    public init?(argument: String) { self.init(argument) }
}

/// `merge --format`: the lint report formats that can be folded from JSON Lines (every one but
/// `json`), `jsonl` first as it is the default.
struct MergeFormat: ExpressibleByArgument {
    var format: LintReportFormat

    init(_ format: LintReportFormat) { self.format = format }

    init?(argument: String) {
        guard let format = LintReportFormat(rawValue: argument), format != .json else { return nil }
        self.format = format
    }

    var defaultValueDescription: String { format.rawValue }

    static var allValueStrings: [String] {
        [LintReportFormat.jsonl.rawValue] + LintReportFormat.allCases.filter { $0 != .json && $0 != .jsonl }.map(\.rawValue)
    }

    static var defaultCompletionKind: CompletionKind { .list(allValueStrings) }
}
