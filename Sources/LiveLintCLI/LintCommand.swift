import ArgumentParser
import Foundation
import LiveLintEngine
import LiveLintKit
import Reporters

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

            Files unchanged since the last run (same device, inode, size, mtime and ctime) are taken \
            from the cache in $XDG_CACHE_HOME/livelint (else ~/.cache/livelint; --cache-dir moves it, \
            --no-cache reads everything); the report is the same either way. Past 10,000 files the \
            cache also keeps what the pair and scan rules found in each part of the library (files \
            tied by a folder or an identifier, about 10,000 at a time) and the consumers' verdicts, \
            used again while none of its files changed. `livelint cache stats` shows it. A scan of more than 10,000 files keeps \
            what it read of each file (about 300 bytes) in a temporary file in $TMPDIR (else \
            /var/tmp), removed from the folder at once, rather than in memory; past 100,000 files (or \
            10,000 with the cache) everything else it keeps of each file goes there too (the list of \
            files, each file's summary, how files tie and pair: about 200 bytes a file): a million \
            files take about 30 MiB of memory and 0.35 GB of temporary space. \
            From 4,096 findings on, they go there too, whatever the number of files.

            Examples:
              livelint lint ~/Pictures/export
              livelint lint --format json --output report.json Photos/
              livelint lint --format sarif --output livelint.sarif .     (GitHub code scanning)
              livelint lint --fail-on warning --format github .          (annotations in a workflow)
              livelint lint --format html --output report.html Photos/   (a page to look through)
              livelint lint --consumers immich,iphone Photos/            (what each app will show, and why)
              livelint lint --profile iphone Photos/                     (fail on what keeps a pair off the iPhone)
              livelint lint --write-baseline baseline.json Photos/       (accept today's findings)
              livelint lint --baseline baseline.json Photos/             (report only new ones)
              livelint lint --shard 3/8 --format jsonl --identifiers ids-3.jsonl Photos/ > shard-3.jsonl
                                                                          (one of 8 jobs; then `livelint merge`)
              livelint lint --cache-dir .livelint-cache Photos/          (a cache a CI job keeps between runs)

            Exit codes: 0 no finding at or above --fail-on, 1 findings at or above it, 2 bad usage, \
            bad configuration, a path that does not exist, or an internal error.
            """
    )

    @Argument(help: ArgumentHelp("Folders, files or .livp archives to lint.", valueName: "path"))
    var paths: [String] = ["."]

    @Option(name: .long, help: ArgumentHelp("Report format: text, json, jsonl, sarif, junit, github, html or markdown.", valueName: "format"))
    var format: LintReportFormat = .text

    @Option(name: [.short, .long], help: ArgumentHelp("Write the report to this file (atomically) instead of standard output.", valueName: "file"))
    var output: String?

    @Option(name: .long, help: ArgumentHelp("Exit 1 when a finding is at or above this severity (default: error, or the configuration's fail-on).", valueName: "severity"))
    var failOn: Severity?

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

    @Option(name: [.short, .long], help: ArgumentHelp("Files read, and pairs checked, at once; also the threads that list a large folder and write the JSON report (default: the number of cores, at least 2).", valueName: "n"))
    var jobs: Int?

    @Option(name: .long, help: ArgumentHelp("Lint only shard K of N (1 ≤ K ≤ N): files are split by a stable hash of their content identifier, so both halves of a pair land in the same shard.", valueName: "K/N"))
    var shard: Shard?

    @Option(name: .long, help: ArgumentHelp("Also write every content identifier read (JSON Lines) to this file, for `livelint merge`.", valueName: "file"))
    var identifiers: String?

    @Flag(name: [.short, .long], help: "No progress display on stderr.")
    var quiet = false

    @Option(name: .long, help: ArgumentHelp("Keep the cache of file records in this folder (default: $XDG_CACHE_HOME/livelint, else ~/.cache/livelint).", valueName: "dir"))
    var cacheDir: String?

    @Flag(name: .long, help: "Read every file; neither use nor update the cache.")
    var noCache = false

    @Flag(name: [.short, .long], help: "Text: also list the pairs that have no findings.")
    var verbose = false

    @Option(name: .long, help: "Colour in text output: auto (on a terminal), always or never.")
    var color: ColorChoice = .auto

    @Option(name: .long, help: ArgumentHelp("Say what these photo apps will do with each pair (live, split, ambiguous or unsupported), why, and the fix: a comma-separated list of \(Consumers.ids.joined(separator: ", ")), or all (default: the configuration's consumers, else none).", valueName: "apps"))
    var consumers: String?

    @Option(name: .long, help: ArgumentHelp("Severities tuned to one photo app (\(Consumers.ids.joined(separator: ", "))): what breaks pairing there becomes an error; .livelint.yml settings still win. Also gives that app's verdicts (as --consumers). docs/profiles.md lists them.", valueName: "app"))
    var profile: String?

    @Option(name: .long, help: ArgumentHelp("HTML: which cards show the still's embedded preview: findings (cards with findings; the default), all or none.", valueName: "which"))
    var thumbnails: ThumbnailSelection?

    func validate() throws {
        if let jobs, jobs < 1 || jobs > 256 { throw ValidationError("--jobs takes a number from 1 to 256.") }
        if config != nil && noConfig { throw ValidationError("--config and --no-config cannot be used together.") }
        if paths.isEmpty { throw ValidationError("Name at least one folder or file to lint.") }
        if let identifiers, identifiers == output { throw ValidationError("--identifiers and --output must name different files.") }
        if thumbnails != nil && format != .html { throw ValidationError("--thumbnails is for --format html.") }
        if let consumers {
            do { _ = try Consumers.named(consumers.split(separator: ",").map(String.init)) } catch {
                throw ValidationError("--consumers: unknown consumer in '\(consumers)' (known: all, \(Consumers.ids.joined(separator: ", "))).")
            }
        }
        if let profile, !Consumers.ids.contains(profile) {
            throw ValidationError("--profile: unknown profile '\(profile)' (known: \(Consumers.ids.joined(separator: ", "))).")
        }
        if cacheDir != nil && noCache { throw ValidationError("--cache-dir and --no-cache cannot be used together.") }
    }

    func run() async throws {
        try await reportingUserErrors {
            let configurationSource: ConfigurationSource = noConfig ? .defaults : config.map { .file($0) } ?? .discover
            var lintOptions = LintOptions(
                paths: paths, configuration: configurationSource, baseline: baseline, includeHidden: includeHidden,
                jobs: jobs ?? LintOptions.defaultJobs, shard: shard, identifierList: identifiers)
            lintOptions.pairMedia = format == .html
            lintOptions.consumers = consumers.map { $0.split(separator: ",").map(String.init) }
            lintOptions.cache = CacheCommand.setting(directory: cacheDir, off: noCache)
            lintOptions.profile = profile
            let scan = try LibraryScan(lintOptions)
            // The totals close the progress line unless the report goes to a file (then one line says where).
            let progress = !quiet && Terminal.stderrIsTTY ? ProgressLine(showTotals: output == nil) : nil
            let result = try await scan.run(progress: { event in
                // A warning (the cache cannot be used) is printed whatever the progress display.
                if case .warning(let text) = event { progress?.clear(); Terminal.err("livelint: warning: \(text)\n") }
                progress?.handle(event)
            })

            if let writeBaseline {
                do { try Baseline.write(accepting: result.findings, to: writeBaseline) } catch {
                    throw UserError("cannot write the baseline: \(error)")
                }
                if !quiet {
                    Terminal.err("livelint: wrote \(result.findings.count) findings to the baseline \(writeBaseline)\n")
                }
                return LiveLintExit.clean
            }

            let colored = output == nil && format == .text && Terminal.useColor(color, fd: STDOUT_FILENO)
            var reportOptions = LintReportOptions(verbose: verbose, color: colored)
            reportOptions.threads = lintOptions.jobs
            if format == .html { reportOptions.html.thumbnailSource = scan.thumbnailSource(thumbnails ?? .findings) }
            let report = LintReport(format: format, failOn: scan.failOn(failOn),
                                    options: reportOptions, rules: scan.ruleSummaries)
            if let output {
                try report.write(result, toFile: output)
                if !quiet, Terminal.stderrIsTTY {
                    let s = result.summary
                    Terminal.err("livelint: \(s.files) files, \(s.pairs) pairs: \(s.errors) errors, \(s.warnings) warnings; report in \(output)\n")
                }
            } else {
                // Piece by piece: a library-sized JSON report is never held whole (issue 4).
                report.write(result, to: Terminal.out)
            }
            return result.exitCode(failOn: report.failOn)
        }
    }
}
