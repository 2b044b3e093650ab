import Foundation
import TestSupport
import Testing

/// `lint`'s cache from the command line (issue 13): reports with and without it are the same
/// byte for byte, a cache that cannot be used costs one warning and nothing else, runs at once on
/// one cache are safe, and GNU parallel shards + `merge` on a cache agree with one run. Every test
/// names a cache folder of its own (`--cache-dir`) in a temporary folder.
@Suite(.enabled(if: CLI.binary != nil, "needs the built livelint"))
struct CacheTests {
    /// A temporary folder with a copy of the sample library (its files settled, so they are cached).
    static func workspace() throws -> (root: URL, library: String) {
        let root = try CLI.temporaryDirectory()
        let library = root.appendingPathComponent("library")
        try FileManager.default.copyItem(at: CLI.fixtures.appendingPathComponent("library"), to: library)
        Thread.sleep(forTimeInterval: 1.1)
        return (root, library.path)
    }

    static func lint(_ args: [String]) throws -> CLI.Result {
        let result = try CLI.run(["lint", "--no-config", "--format", "json"] + args)
        #expect(result.status == 0 || result.status == 1, "stderr: \(result.stderr)")
        return result
    }

    /// A run that does not draw timelines drops each movie's edited video track from memory, not
    /// from the cache: the HTML report of a later run on that cache draws the same timelines as
    /// an uncached one (issue 13's memory cut must not cost the HTML report its edit lists).
    @Test func htmlFromACacheFilledByAJSONRunKeepsTheTimelines() throws {
        let library = CLI.fixtures.appendingPathComponent("library").path
        let root = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let cache = root.appendingPathComponent("cache").path
        _ = try Self.lint(["--cache-dir", cache, library])
        let plain = try CLI.run(["lint", "--no-config", "--format", "html", "--quiet", "--no-cache", library])
        let cached = try CLI.run(["lint", "--no-config", "--format", "html", "--quiet", "--cache-dir", cache, library])
        let plainCards = try #require(try HTMLReportCLITests.data(plain.stdout)["cards"] as? [Any])
        let cachedCards = try #require(try HTMLReportCLITests.data(cached.stdout)["cards"] as? [Any])
        let encode = { (cards: [Any]) in try JSONSerialization.data(withJSONObject: cards, options: [.sortedKeys]) }
        #expect(try encode(cachedCards) == encode(plainCards))
        // Some fixture movie has an edit list worth drawing, so the comparison can fail.
        #expect(plain.stdout.contains(#""e":[["#))
    }

    static func warnings(_ stderr: String) -> [Substring] {
        stderr.split(separator: "\n").filter { $0.hasPrefix("livelint: warning:") }
    }

    /// `--cache-dir c`: a one-letter folder in the working folder is made and used (making its
    /// parents asked Foundation for the folder of `c`, which traps on Linux: a crash).
    @Test func oneLetterCacheFolderInTheWorkingFolder() throws {
        let root = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let library = CLI.fixtures.appendingPathComponent("library").path
        let plain = try Self.lint(["--no-cache", library])
        for _ in 1...2 {
            let r = try CLI.run(["lint", "--no-config", "--format", "json", "--cache-dir", "c", library], in: root)
            #expect(r.stdout == plain.stdout)
            #expect(Self.warnings(r.stderr).isEmpty, "\(r.stderr)")
        }
        #expect(FileManager.default.fileExists(atPath: root.appendingPathComponent("c/lint-cache.sqlite3").path))
    }

    @Test(arguments: ["fixtures", "corpus"])
    func cachedReportIsTheUncachedReport(_ which: String) throws {
        let library = which == "corpus" ? CLI.corpus.path : CLI.fixtures.appendingPathComponent("library").path
        guard which == "fixtures" || CLI.corpusPresent else { return }
        let root = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let cache = root.appendingPathComponent("cache").path
        for format in ["json", "text", "sarif"] {
            let plain = try CLI.run(["lint", "--no-config", "--format", format, "--no-cache", library])
            let first = try CLI.run(["lint", "--no-config", "--format", format, "--cache-dir", cache, library])
            let second = try CLI.run(["lint", "--no-config", "--format", format, "--cache-dir", cache, library])
            #expect(first.stdout == plain.stdout && second.stdout == plain.stdout, "\(format)")
            #expect(first.status == plain.status && second.status == plain.status)
            #expect(first.stderr.isEmpty && second.stderr.isEmpty, "\(first.stderr)\(second.stderr)")
        }
        let stats = try CLI.run(["cache", "stats", "--cache-dir", cache])
        #expect(stats.status == 0)
        let records = stats.stdout.split(separator: "\n").first { $0.hasPrefix("records: ") }
        #expect((records.flatMap { Int($0.dropFirst("records: ".count)) } ?? 0) > 10, "\(stats.stdout)")
        // A scan this small holds its records in memory and keeps no summaries or findings with them.
        #expect(stats.stdout.contains("\nwith summaries and file findings: 0\n"), "\(stats.stdout)")
        #expect(stats.stdout.contains("\noutcomes of parts of a library: 0\n"), "\(stats.stdout)")
    }

    /// The default cache folder is `$XDG_CACHE_HOME/livelint`; `--no-cache` writes none;
    /// `cache clear` removes it.
    @Test func defaultFolderNoCacheAndClear() throws {
        let (root, library) = try Self.workspace()
        defer { try? FileManager.default.removeItem(at: root) }
        let home = root.appendingPathComponent("xdg").path
        let env = ["XDG_CACHE_HOME": home]
        let database = home + "/livelint/lint-cache.sqlite3"
        _ = try CLI.run(["lint", "--no-config", "--no-cache", library], environment: env)
        #expect(!FileManager.default.fileExists(atPath: database))
        _ = try CLI.run(["lint", "--no-config", library], environment: env)
        #expect(FileManager.default.fileExists(atPath: database))
        let stats = try CLI.run(["cache", "stats"], environment: env)
        #expect(stats.stdout.contains(database) && stats.stdout.contains("records: "), "\(stats.stdout)")
        let clear = try CLI.run(["cache", "clear"], environment: env)
        #expect(clear.status == 0 && clear.stdout.contains("removed"))
        #expect(!FileManager.default.fileExists(atPath: database))
        #expect(try CLI.run(["cache", "stats"], environment: env).stdout.contains("none yet"))
        #expect(try CLI.run(["lint", "--no-cache", "--cache-dir", home, library]).status == 2)
    }

    /// On a terminal the progress line and the totals say how many files came from the cache.
    @Test(.enabled(if: TestTools.which("script") != nil, "needs script(1)"))
    func progressCountsFilesFromTheCache() throws {
        let (root, library) = try Self.workspace()
        defer { try? FileManager.default.removeItem(at: root) }
        let cache = root.appendingPathComponent("cache").path
        let first = try ProgressOnATerminalTests.onATerminal(["lint", "--no-config", "--cache-dir", cache, library])
        #expect(!first.contains("from cache"), "\(first)")
        let second = try ProgressOnATerminalTests.onATerminal(["lint", "--no-config", "--cache-dir", cache, library])
        let lines = second.split(whereSeparator: { $0 == "\r" || $0 == "\n" })
        let reading = try #require(lines.last { $0.contains("reading ") })
        // `reading 41/41 files, 41 from cache, …`: every file that reads came from the cache.
        let counts = try #require(reading.components(separatedBy: "reading ").last?.split(separator: " "))
        let total = try #require(counts.first?.split(separator: "/").last.flatMap { Int($0) })
        #expect(reading.contains("files, \(total) from cache,"), "\(reading)")
        let totals = try #require(lines.last { $0.contains("livelint: ") })
        #expect(totals.contains("\(total) from cache"), "\(totals)")
    }

    /// A cache file that is not a database, or a database cut short, is rebuilt: one warning at
    /// most, the same report, and the run after it is answered from the cache without warning.
    @Test(arguments: ["garbage", "truncated"])
    func damagedCacheIsRebuilt(_ damage: String) throws {
        let (root, library) = try Self.workspace()
        defer { try? FileManager.default.removeItem(at: root) }
        let cache = root.appendingPathComponent("cache").path
        let plain = try Self.lint(["--no-cache", library])
        _ = try Self.lint(["--cache-dir", cache, library])
        let database = cache + "/lint-cache.sqlite3"
        // Fold the log into the database first, so the damage reaches the records.
        _ = try Self.lint(["--cache-dir", cache, library])
        let data = try Data(contentsOf: URL(fileURLWithPath: database))
        #expect(data.count > 4096)
        let damaged = damage == "garbage"
            ? Data((0..<data.count).map { UInt8(truncatingIfNeeded: $0 &* 7919) })
            : data.prefix(data.count / 2 + 100)
        try damaged.write(to: URL(fileURLWithPath: database))
        try? FileManager.default.removeItem(atPath: database + "-wal")
        try? FileManager.default.removeItem(atPath: database + "-shm")
        let after = try Self.lint(["--cache-dir", cache, library])
        #expect(after.stdout == plain.stdout)
        #expect(Self.warnings(after.stderr).count <= 1, "\(after.stderr)")
        if damage == "garbage" { #expect(after.stderr.contains("damaged"), "\(after.stderr)") }
        let again = try Self.lint(["--cache-dir", cache, library])
        #expect(again.stdout == plain.stdout)
        // Rebuilt: either at once (not a database) or once the damage was met (cut short).
        #expect(again.stderr.isEmpty, "\(again.stderr)")
    }

    /// A cache folder that cannot be made, and a cache on a full disk (`/dev/full` as the
    /// database: writes fail with ENOSPC): one warning, the same report.
    @Test(arguments: ["not-a-folder", "full-disk", "read-only"])
    func unusableCacheCostsOneWarning(_ how: String) throws {
        let (root, library) = try Self.workspace()
        defer {
            chmod(root.appendingPathComponent("cache").path, 0o755)
            try? FileManager.default.removeItem(at: root)
        }
        var cache = root.appendingPathComponent("cache").path
        switch how {
        case "not-a-folder":
            try Data("x".utf8).write(to: URL(fileURLWithPath: cache))
            cache += "/inside"
        case "full-disk":
            guard FileManager.default.fileExists(atPath: "/dev/full") else { return }
            try FileManager.default.createDirectory(atPath: cache, withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(atPath: cache + "/lint-cache.sqlite3", withDestinationPath: "/dev/full")
        default:
            // Permissions do not bind root: this case runs only for other users.
            guard geteuid() != 0 else { return }
            try FileManager.default.createDirectory(atPath: cache, withIntermediateDirectories: true)
            chmod(cache, 0o555)
        }
        let plain = try Self.lint(["--no-cache", library])
        let result = try Self.lint(["--cache-dir", cache, library])
        #expect(result.stdout == plain.stdout)
        #expect(result.status == plain.status)
        let warnings = Self.warnings(result.stderr)
        #expect(warnings.count == 1 && warnings[0].contains("running without it"), "\(result.stderr)")
    }

    /// Three runs at once on one new cache: each reports what a run without the cache reports,
    /// none warns (WAL and the busy timeout make them wait for each other), and the run after
    /// them reads nothing.
    @Test func concurrentRunsOnOneCache() throws {
        let (root, library) = try Self.workspace()
        defer { try? FileManager.default.removeItem(at: root) }
        let cache = root.appendingPathComponent("cache").path
        let plain = try Self.lint(["--no-cache", library])
        let results = Locked<[CLI.Result]>([])
        DispatchQueue.concurrentPerform(iterations: 3) { i in
            let r = try? CLI.run(["lint", "--no-config", "--format", "json", "--jobs", "\(i + 1)", "--cache-dir", cache, library])
            if let r { results.mutate { $0.append(r) } }
        }
        #expect(results.value.count == 3)
        for r in results.value {
            #expect(r.stdout == plain.stdout)
            #expect(Self.warnings(r.stderr).isEmpty, "\(r.stderr)")
        }
        let stats = try CLI.run(["cache", "stats", "--cache-dir", cache])
        #expect(stats.stdout.contains("records: "), "\(stats.stdout)")
        #expect(try Self.lint(["--cache-dir", cache, library]).stdout == plain.stdout)
    }

    /// The README's recipe: GNU parallel runs 4 shards at once on one cache, `merge` folds them;
    /// the findings are one run's, the first time (cache filling) and the second (from it).
    @Test(.enabled(if: TestTools.which("parallel") != nil, "needs GNU parallel (Debian parallel)"))
    func parallelShardsAndMergeOnACacheMatchOneRun() throws {
        let (root, library) = try Self.workspace()
        defer { try? FileManager.default.removeItem(at: root) }
        // Without the README's caveat: a pair tied by name whose halves carry different
        // identifiers, or only one, can be split across shards (each then reports a lone half).
        for caveat in ["identifier-mismatch", "still-missing-identifier", "movie-missing-identifier"] {
            try FileManager.default.removeItem(atPath: library + "/broken/" + caveat)
        }
        let binary = try #require(CLI.binary).path
        let cache = root.appendingPathComponent("cache").path
        let whole = try CLI.run(["lint", "--no-config", "--no-cache", "--format", "jsonl", library])
        func findings(_ jsonl: String) -> [String] {
            jsonl.split(separator: "\n").filter { $0.contains("\"type\":\"finding\"") }.map(String.init).sorted()
        }
        #expect(!findings(whole.stdout).isEmpty)
        for round in 1...2 {
            let out = root.appendingPathComponent("round\(round)").path
            try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
            let script = """
                cd '\(out)' && parallel --will-cite '\(binary)' lint --no-config --cache-dir '\(cache)' --shard {}/4 \
                --format jsonl --identifiers ids-{}.jsonl '\(library)' '>' shard-{}.jsonl '2>' err-{}.txt ::: 1 2 3 4; \
                '\(binary)' merge shard-1.jsonl shard-2.jsonl shard-3.jsonl shard-4.jsonl ids-1.jsonl ids-2.jsonl ids-3.jsonl ids-4.jsonl
                """
            let merged = try ProcessRunner.run(URL(fileURLWithPath: "/bin/sh"), ["-c", script], environment: ["XDG_CACHE_HOME": TestPaths.cacheHome])
            let text = String(decoding: merged.stdout, as: UTF8.self)
            #expect(findings(text) == findings(whole.stdout), "round \(round): \(String(decoding: merged.stderr, as: UTF8.self))")
            for k in 1...4 {
                let err = (try? String(contentsOfFile: out + "/err-\(k).txt", encoding: .utf8)) ?? ""
                #expect(err.isEmpty, "shard \(k), round \(round): \(err)")
            }
        }
    }
}

/// A value shared between threads, behind a lock.
final class Locked<Value>: @unchecked Sendable {
    private var stored: Value
    private let lock = NSLock()
    init(_ value: Value) { stored = value }
    var value: Value { lock.withLock { stored } }
    func mutate(_ body: (inout Value) -> Void) { lock.withLock { body(&stored) } }
}
