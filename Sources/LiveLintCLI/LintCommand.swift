import ArgumentParser
import Foundation
import LiveLintEngine
import LiveModel
import LiveReaders
import Reporters
import Rules

struct LintCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lint",
        abstract: "Pair the Live Photos under PATH and check each pair against the rules.",
        discussion: """
            Folders are walked recursively (hidden files skipped unless --include-hidden; symlinks \
            followed, loops ignored). Each file is recognised by its bytes, not its extension; .livp \
            archives are opened. Stills and movies are paired by content identifier first, then by \
            name (same stem, and the stems exports produce: IMG_0084.JPG + IMG_0084_HEVC.MOV, \
            X.JPG.jpeg + X.JPG.mov, <uuid>.heic + <uuid>_3.mov). `livelint rules` lists the checks.

            Configuration comes from .livelint.yml, found from the scanned folder upward, or --config.

            Examples:
              livelint lint ~/Pictures/export
              livelint lint --format json --output report.json Photos/
              livelint lint --format sarif --output livelint.sarif .     (GitHub code scanning)
              livelint lint --fail-on warning --format github .          (annotations in a workflow)
              livelint lint --write-baseline baseline.json Photos/       (accept today's findings)
              livelint lint --baseline baseline.json Photos/             (report only new ones)
              livelint lint --shard 3/8 --format jsonl --identifiers ids-3.jsonl Photos/ > shard-3.jsonl
                                                                          (one of 8 jobs; then `livelint merge`)

            Exit codes: 0 no finding at or above --fail-on, 1 findings at or above it, 2 bad usage, \
            bad configuration, a path that does not exist, or an internal error.
            """
    )

    @Argument(help: ArgumentHelp("Folders, files or .livp archives to lint.", valueName: "path"))
    var paths: [String] = ["."]

    @Option(name: .long, help: ArgumentHelp("Report format: text, json, jsonl, sarif, junit or github.", valueName: "format"))
    var format: LintFormatOption = .text

    @Option(name: [.short, .long], help: ArgumentHelp("Write the report to this file (atomically) instead of standard output.", valueName: "file"))
    var output: String?

    @Option(name: .long, help: ArgumentHelp("Exit 1 when a finding is at or above this severity (default: error, or the configuration's fail-on).", valueName: "severity"))
    var failOn: SeverityOption?

    @Option(name: .long, help: ArgumentHelp("Configuration file (default: .livelint.yml from the scanned folder upward).", valueName: "file"))
    var config: String?

    @Flag(name: .long, help: "Ignore any .livelint.yml; use the built-in defaults.")
    var noConfig = false

    @Option(name: .long, help: ArgumentHelp("Drop findings recorded in this baseline file.", valueName: "file"))
    var baseline: String?

    @Option(name: .long, help: ArgumentHelp("Record the current findings in this baseline file (then exit 0).", valueName: "file"))
    var writeBaseline: String?

    @Flag(name: .long, help: "Also read files and folders whose names start with a dot.")
    var includeHidden = false

    @Option(name: [.short, .long], help: ArgumentHelp("Files read at once (default: the number of cores, at least 2).", valueName: "n"))
    var jobs: Int?

    @Option(name: .long, help: ArgumentHelp("Lint only shard K of N (1 ≤ K ≤ N): files are split by a stable hash of their content identifier, so both halves of a pair land in the same shard.", valueName: "K/N"))
    var shard: ShardOption?

    @Option(name: .long, help: ArgumentHelp("Also write every content identifier read (JSON Lines) to this file, for `livelint merge`.", valueName: "file"))
    var identifiers: String?

    @Flag(name: [.short, .long], help: "No progress display on stderr.")
    var quiet = false

    @Flag(name: [.short, .long], help: "Text: also list the pairs that have no findings.")
    var verbose = false

    @Option(name: .long, help: "Colour in text output: auto (on a terminal), always or never.")
    var color: ColorChoiceOption = .auto

    func validate() throws {
        if let jobs, jobs < 1 || jobs > 256 { throw ValidationError("--jobs takes a number from 1 to 256.") }
        if config != nil && noConfig { throw ValidationError("--config and --no-config cannot be used together.") }
        if paths.isEmpty { throw ValidationError("Name at least one folder or file to lint.") }
        if let identifiers, identifiers == output { throw ValidationError("--identifiers and --output must name different files.") }
    }

    func run() async throws {
        try await reportingUserErrors {
            // Paths that do not exist are a usage error, not a finding: the user mistyped.
            for path in paths where !FileManager.default.fileExists(atPath: path) {
                throw UserError("no such file or folder: \(path)")
            }
            let root = LibraryWalker.root(for: paths)
            let configuration = try loadConfiguration(root: root)
            let loadedBaseline: Baseline?
            do { loadedBaseline = try baseline.map { path throws(BaselineError) in try Baseline.load(from: path) } } catch {
                throw UserError("bad baseline \(error)")
            }
            let engine: LintEngine
            do { engine = try LintEngine(rules: builtinRules, configuration: configuration, baseline: loadedBaseline) } catch {
                throw UserError(String(describing: error))
            }

            let result = try await scan(engine: engine, root: root)

            if let writeBaseline {
                do { try Baseline(findings: result.findings).write(to: writeBaseline) } catch {
                    throw UserError("cannot write the baseline: \(error)")
                }
                if !quiet {
                    Terminal.err("livelint: wrote \(result.findings.count) findings to the baseline \(writeBaseline)\n")
                }
                return LiveLintExit.clean
            }

            let threshold = failOn?.severity ?? configuration.failOn ?? .error
            let colored = output == nil && format == .text && Terminal.useColor(color.value, fd: STDOUT_FILENO)
            let options = LintReportOptions(verbose: verbose, color: colored)
            if let output {
                let report = LintReporters.render(
                    result, format: format.format, rules: builtinRegistry.summaries, toolVersion: livelintVersion,
                    failOn: threshold, options: options)
                do { try ReportWriter.write(report, to: output) } catch {
                    throw UserError("cannot write the report to \(output): \(error.localizedDescription)")
                }
                if !quiet, Terminal.stderrIsTTY {
                    let s = result.summary
                    Terminal.err("livelint: \(s.files) files, \(s.pairs) pairs: \(s.errors) errors, \(s.warnings) warnings; report in \(output)\n")
                }
            } else {
                // Piece by piece: a library-sized JSON report is never held whole (issue 4).
                LintReporters.write(
                    result, format: format.format, rules: builtinRegistry.summaries, toolVersion: livelintVersion,
                    failOn: threshold, options: options, to: Terminal.out)
            }
            return result.exitCode(failOn: threshold)
        }
    }

    /// Walks, reads (slimmed, sharded), lints; writes the identifier list when asked. The files
    /// read go out of scope here, so only the result outlives the scan.
    func scan(engine: LintEngine, root: String) async throws -> LintResult {
        let shard = shard?.shard
        let (files, progress) = await read(shard: shard, engine: engine)
        if let identifiers {
            let list = IdentifierList.render(IdentifierList.records(files, shard: shard?.description ?? "1/1"))
            do { try ReportWriter.write(list, to: identifiers) } catch {
                throw UserError("cannot write the identifier list to \(identifiers): \(error.localizedDescription)")
            }
        }
        let result = engine.run(files: files, root: root)
        progress.finish(output == nil ? result.summary : nil)
        return result
    }

    /// Walks and reads the library (slimmed, sharded), plus a record for each path that could not
    /// be listed. The walker's list of entries ends here, before the engine runs.
    func read(shard: Shard?, engine: LintEngine) async -> ([MediaFile], Progress) {
        let (entries, problems) = LibraryWalker(includeHidden: includeHidden).files(in: paths)
        let progress = Progress(total: entries.count, enabled: !quiet && Terminal.stderrIsTTY,
                                countFindings: { engine.fileFindingCount($0) })
        var files = await LibraryReader.read(entries, options: .lint, jobs: jobs ?? LibraryReader.defaultJobs,
                                             shard: shard, metadataKeys: engine.metadataKeys, progress: progress)
        for problem in problems where shard?.contains(path: problem.path) ?? true {
            files.append(MediaFile(path: problem.path, kind: .unknown, format: .unknown,
                                   error: ReadIssue(.io, problem.message)))
        }
        return (files, progress)
    }

    func loadConfiguration(root: String) throws -> Configuration {
        if noConfig { return .default }
        do {
            if let config {
                guard FileManager.default.fileExists(atPath: config) else { throw UserError("no such configuration file: \(config)") }
                return try Configuration.load(from: config, rules: builtinRules)
            }
            return try Configuration.discover(startingAt: root, rules: builtinRules) ?? .default
        } catch let error as ConfigurationError {
            throw UserError("bad configuration: \(error.description)")
        }
    }
}

enum LintFormatOption: String, ExpressibleByArgument, CaseIterable {
    case text, json, jsonl, sarif, junit, github
    var format: LintReportFormat { LintReportFormat(rawValue: rawValue) ?? .text }
}

enum SeverityOption: String, ExpressibleByArgument, CaseIterable {
    case error, warning, info
    var severity: Severity { Severity(rawValue: rawValue) ?? .error }
}

/// `--shard K/N`.
struct ShardOption: ExpressibleByArgument {
    var shard: Shard
    init?(argument: String) {
        guard let shard = Shard(argument) else { return nil }
        self.shard = shard
    }
    static var defaultCompletionKind: CompletionKind { .default }
}
