import ArgumentParser
import Foundation
import LiveLintEngine
import LiveLintKit
import Rules

struct MergeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Combine the JSON Lines outputs of several lint jobs and find identifiers repeated across them.",
        discussion: """
            Reads `lint --format jsonl` reports and `lint --identifiers` lists (any mix, in any order; \
            `-` reads standard input), and writes one report: every finding of every job, sorted, plus \
            a duplicate-identifier finding for each content identifier that more than one still, or more \
            than one movie, carries in different jobs. The summary adds up the jobs' counts.

            With `--shard K/N` every identifier lands in one shard, so its duplicates are found inside \
            that job; the cross-job check is for libraries fanned out by folder, or runs over separate \
            libraries (an old export and a new one).

            Examples:
              parallel livelint lint --shard {}/8 --format jsonl --identifiers ids-{}.jsonl Photos/ '>' shard-{}.jsonl ::: 1 2 3 4 5 6 7 8
              livelint merge shard-*.jsonl ids-*.jsonl > report.jsonl
              livelint merge --format text 2019.jsonl 2019.ids 2020.jsonl 2020.ids

            Exit codes: 0 no finding at or above --fail-on, 1 findings at or above it, 2 bad usage or \
            an input that is not a livelint JSON Lines file.
            """
    )

    @Argument(help: ArgumentHelp("JSON Lines reports and identifier lists written by `livelint lint`.", valueName: "file"))
    var inputs: [String] = []

    @Option(name: .long, help: ArgumentHelp("Report format: jsonl, text, sarif, junit or github.", valueName: "format"))
    var format = MergeFormat(.jsonl)

    @Option(name: [.short, .long], help: ArgumentHelp("Write the report to this file (atomically) instead of standard output.", valueName: "file"))
    var output: String?

    @Option(name: .long, help: ArgumentHelp("Exit 1 when a finding is at or above this severity (default: error).", valueName: "severity"))
    var failOn: Severity?

    func validate() throws {
        if inputs.isEmpty { throw ValidationError("Name at least one file to merge.") }
    }

    func run() async throws {
        try await reportingUserErrors {
            var merger = Merger()
            for input in inputs {
                // A line at a time: the inputs of a sharded million are not held whole.
                var isFolder: ObjCBool = false
                guard let handle = input == "-" ? FileHandle.standardInput : FileHandle(forReadingAtPath: input),
                      input == "-" || !(FileManager.default.fileExists(atPath: input, isDirectory: &isFolder) && isFolder.boolValue)
                else { throw UserError("cannot read \(input)") }
                do { try merger.add(reading: handle, source: input) } catch let error as MergeError {
                    throw UserError(error.description)
                }
            }
            let result = merger.result()
            let report = LintReport(format: format.format, failOn: failOn ?? .error, rules: builtinRegistry.summaries)
            if let output {
                try report.write(result, toFile: output)
            } else {
                // Piece by piece, as `lint` writes.
                report.write(result, to: Terminal.out)
            }
            return result.exitCode(failOn: report.failOn)
        }
    }
}
