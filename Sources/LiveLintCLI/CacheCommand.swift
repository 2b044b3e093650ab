import ArgumentParser
import Foundation
import LiveLintKit

/// `livelint cache stats|clear`: look at or remove the lint cache.
struct CacheCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cache",
        abstract: "Show or clear the cache that lets lint skip files unchanged since the last run.",
        discussion: """
            `lint` keeps a record of what it read from each file in an SQLite database, in \
            $XDG_CACHE_HOME/livelint (else ~/.cache/livelint) or the folder given with --cache-dir. \
            A record is used again only while the file's device, inode, size, modification and \
            status-change times are unchanged, and for the same livelint version and rules' metadata; \
            a report from the cache is the same as one without it. `lint --no-cache` reads everything. \
            For a library of more than 10,000 files it also keeps what the pair and scan rules found \
            in each part of it (files tied by a folder or an identifier), and the consumers' verdicts, \
            used again while none of the part's files changed; a run drops what it no longer uses of \
            the folders it scanned with the same settings, and what no run used for 30 days.

            Examples:
              livelint cache stats
              livelint cache stats --cache-dir ci-cache/
              livelint cache clear
            """,
        subcommands: [Stats.self, Clear.self]
    )

    /// `--cache-dir`/`--no-cache` as a setting: off, the folder given, or the default folder
    /// (off when there is none: no HOME and no XDG_CACHE_HOME).
    static func setting(directory: String?, off: Bool) -> CacheSetting {
        if off { return .off }
        if let directory { return .directory(directory) }
        return CacheSetting.defaultDirectory().map { .directory($0) } ?? .off
    }

    struct Location: ParsableArguments {
        @Option(name: .long, help: ArgumentHelp("The cache folder (default: $XDG_CACHE_HOME/livelint, else ~/.cache/livelint).", valueName: "dir"))
        var cacheDir: String?

        func directory() throws -> String {
            if let cacheDir { return cacheDir }
            guard let directory = CacheSetting.defaultDirectory() else {
                throw UserError("no cache folder: set HOME or XDG_CACHE_HOME, or give --cache-dir")
            }
            return directory
        }
    }

    struct Stats: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "stats", abstract: "Show where the cache is, its size and how many file records it holds.")

        @OptionGroup var location: Location

        func run() async throws {
            try await reportingUserErrors {
                let s = LintCache.stats(directory: try location.directory())
                guard s.exists else {
                    Terminal.out("cache: \(s.path) (none yet)\n")
                    return LiveLintExit.clean
                }
                var lines = ["cache: \(s.path)", "records: \(s.records)", "with summaries and file findings: \(s.withFacts)",
                             "outcomes of parts of a library: \(s.buckets)",
                             "size: \(ByteCountFormatter.string(fromByteCount: s.bytes, countStyle: .binary)) (\(s.bytes) bytes)"]
                if let version = s.writtenBy["livelint"] {
                    lines.append("written by: livelint \(version), record format \(s.writtenBy["format"] ?? "?"), table format \(s.writtenBy["table"] ?? "1")")
                }
                lines.append("SQLite: \(LintCache.sqliteVersion)")
                if let problem = s.problem { lines.append("problem: \(problem) (the next lint rebuilds it)") }
                Terminal.out(lines.joined(separator: "\n") + "\n")
                return LiveLintExit.clean
            }
        }
    }

    struct Clear: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "clear", abstract: "Remove the cache (the next lint reads every file).")

        @OptionGroup var location: Location

        func run() async throws {
            try await reportingUserErrors {
                let directory = try location.directory()
                let path = LintCache.databasePath(in: directory)
                Terminal.out(LintCache.clear(directory: directory) ? "removed \(path)\n" : "no cache at \(path)\n")
                return LiveLintExit.clean
            }
        }
    }
}
