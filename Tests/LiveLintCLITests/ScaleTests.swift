import Foundation
import LiveReaders
import Rules
import TestSupport
import Testing

/// Library-scale behaviour that can be asserted (speed is measured by `livelint-bench`, not
/// by timed tests): output independent of scheduling, silence off a terminal, identifier lists.
@Suite(.enabled(if: CLI.binary != nil, "needs the built livelint"))
struct ScaleTests {
    static var roots: [URL] {
        var roots = [CLI.fixtures.appendingPathComponent("library")]
        if CLI.corpusPresent { roots.append(CLI.corpus) }
        return roots
    }

    @Test(arguments: roots, ["json", "jsonl", "text"])
    func outputIsTheSameWhateverTheNumberOfJobs(_ root: URL, _ format: String) throws {
        let one = try CLI.run(["lint", "--no-config", "--format", format, "--jobs", "1", root.path])
        #expect(one.status == 0 || one.status == 1)
        #expect(!one.stdout.isEmpty)
        for jobs in ["2", "8", "64"] {
            let many = try CLI.run(["lint", "--no-config", "--format", format, "--jobs", jobs, root.path])
            #expect(many.status == one.status)
            #expect(many.stdout == one.stdout, "--jobs \(jobs) changed the \(format) report")
        }
    }

    @Test func noProgressWhenStderrIsNotATerminal() throws {
        let result = try CLI.run(["lint", "--no-config", CLI.fixtures.appendingPathComponent("library").path])
        #expect(result.status == 1)
        #expect(result.stderr.isEmpty, "progress leaked into a non-terminal stderr: \(result.stderr)")
    }

    @Test func identifierListIsSortedAndCoversEveryHalfWithAnIdentifier() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let root = CLI.fixtures.appendingPathComponent("library").path
        let result = try CLI.run(["lint", "--no-config", "--format", "json", "--identifiers", "ids.jsonl", root], in: dir)
        #expect(result.status == 1)
        let text = try String(contentsOf: dir.appendingPathComponent("ids.jsonl"), encoding: .utf8)
        let records = text.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: String]
        }
        #expect(records.count == text.split(separator: "\n").count, "every line is a flat JSON object")
        let keys = records.map { ($0["id"] ?? "", $0["path"] ?? "") }
        #expect(keys.map { "\($0.0)\u{0}\($0.1)" } == keys.map { "\($0.0)\u{0}\($0.1)" }.sorted())
        // Each complete pair tied by identifier contributes its still and its movie.
        let json = try #require(result.json as? [String: Any])
        let pairs = try #require(json["pairs"] as? [[String: Any]])
        let listed = Set(records.compactMap { $0["path"] })
        var checked = 0
        for pair in pairs where pair["pairedBy"] as? String == "content-identifier" {
            if let still = pair["still"] as? String { #expect(listed.contains(still)) }
            if let movie = pair["movie"] as? String { #expect(listed.contains(movie)) }
            checked += 1
        }
        #expect(checked > 0)
        #expect(records.allSatisfy { ["still", "movie"].contains($0["kind"] ?? "") && $0["shard"] == "1/1" })
    }
}

/// libmediainfo (and the ~30 libraries it links: libcurl, GnuTLS, Kerberos…) is loaded only when
/// a file's stream properties are asked for (`dump`), never by `lint`, nor is libcrypto (only
/// writes are verified with SHA-256): glibc's loader says which
/// objects it opens (`LD_DEBUG=files`).
@Suite(.enabled(if: CLI.binary != nil, "needs the built livelint"))
struct LazyMediaInfoTests {
    static let movie = CLI.fixtures.appendingPathComponent("pair/IMG_0001.MOV").path

    @Test func lintNeverLoadsLibMediaInfo() throws {
        let result = try CLI.run(["lint", "--no-config", CLI.fixtures.appendingPathComponent("pair").path],
                                 environment: ["LD_DEBUG": "files"])
        #expect(result.status == 0)
        #expect(result.stderr.contains("file=libexiv2"), "LD_DEBUG printed nothing: \(result.stderr.prefix(200))")
        #expect(!result.stderr.contains("libmediainfo"))
        #expect(!result.stderr.contains("libcurl"))
        // libcrypto is for verifying writes (fix, make, pack): loaded on first use too.
        #expect(!result.stderr.contains("libcrypto"))
    }

    @Test func dumpLoadsItAndReadsStreamProperties() throws {
        let result = try CLI.run(["dump", "--format", "json", Self.movie], environment: ["LD_DEBUG": "files"])
        #expect(result.status == 0)
        #expect(result.stderr.contains("libmediainfo.so"))
        // The properties it is loaded for are in the report.
        #expect(result.stdout.contains("\"streamProperties\""))
    }
}

/// `lint` asks exiv2 only for keys under `StillReadOptions.lintKeyPrefixes`: every still key a
/// built-in rule declares must be under one, or the rule would see it in its examples (built in
/// memory) and never on a real file.
@Test func everyDeclaredStillKeyIsReadByTheFastPath() {
    let declared = builtinRules.flatMap { $0.description.readsMetadata.map(\.key) }
        .filter { $0.hasPrefix("Exif.") || $0.hasPrefix("Xmp.") || $0.hasPrefix("Iptc.") }
    #expect(!declared.isEmpty)
    for key in declared {
        #expect(StillReadOptions.lintKeyPrefixes.contains { key.hasPrefix($0) }, "\(key) is declared but exiv2 is never asked for it")
    }
}

/// On a terminal (a pseudo-terminal from util-linux `script`), lint draws a progress line on
/// stderr — files, pairs, findings so far, rate — and ends with the totals; `--quiet` draws nothing.
@Suite(.enabled(if: CLI.binary != nil && TestTools.which("script") != nil, "needs the built livelint and script(1)"))
struct ProgressOnATerminalTests {
    static func onATerminal(_ arguments: [String]) throws -> String {
        // The cache of this test process, never the developer's (script(1) passes the environment on).
        let command = "XDG_CACHE_HOME='\(TestPaths.cacheHome)' "
            + ([CLI.binary?.path ?? "livelint"] + arguments).map { "'\($0)'" }.joined(separator: " ") + " > /dev/null"
        return try TestTools.run(TestTools.which("script") ?? "/usr/bin/script", ["-qec", command, "/dev/null"]).out
    }

    @Test func progressCountsFilesPairsAndFindings() throws {
        let library = CLI.fixtures.appendingPathComponent("library").path
        let shown = try Self.onATerminal(["lint", "--no-config", library])
        let lines = shown.split(whereSeparator: { $0 == "\r" || $0 == "\n" })
        let last = try #require(lines.last { $0.contains("reading ") })
        #expect(last.contains("files,") && last.contains("pairs,") && last.contains("findings so far,") && last.contains("files/s"), "\(last)")
        // The final reading line has every file; the file rules' findings are already counted.
        let reading = try #require(last.split(separator: " ").dropFirst().first?.split(separator: "/"))
        #expect(reading.count == 2 && reading[0] == reading[1])
        let soFar = try #require(Int(last.components(separatedBy: " findings so far")[0].split(separator: " ").last ?? ""))
        #expect(soFar > 0)
        let total = try #require(lines.last { $0.contains("livelint: ") })
        let all = try #require(Int(total.components(separatedBy: " findings")[0].split(separator: " ").last ?? ""))
        #expect(all >= soFar, "\(total)")
        #expect(try Self.onATerminal(["lint", "--quiet", "--no-config", library]).isEmpty)
    }

    /// `fix` draws the scan's progress as lint does and wipes it before the first pair's outcome;
    /// `--quiet` draws none.
    @Test func fixDrawsTheScansProgressThenItsOutcomes() throws {
        let library = CLI.fixtures.appendingPathComponent("library").path
        let shown = try Self.onATerminal(["fix", "--dry-run", library])
        let lines = shown.split(whereSeparator: { $0 == "\r" || $0 == "\n" })
        let last = try #require(lines.last { $0.contains("reading ") })
        let reading = try #require(last.split(separator: " ").dropFirst().first?.split(separator: "/"))
        #expect(reading.count == 2 && reading[0] == reading[1] && Int(reading[0]) ?? 0 > 40, "\(last)")
        #expect(last.contains("19 pairs,"), "\(last)")
        #expect(shown.contains("\r\u{1B}[2Klivelint: would repair 8 pairs, 9 already fine"), "\(shown)")
        #expect(shown.hasSuffix("would repair 8 pairs, 9 already fine\r\n") || shown.hasSuffix("would repair 8 pairs, 9 already fine\n"))
        #expect(!(try Self.onATerminal(["fix", "--dry-run", "--quiet", library])).contains("reading "))
    }
}
