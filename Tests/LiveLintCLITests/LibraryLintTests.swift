import Foundation
import Testing

/// End to end: `livelint lint` on the sample library the fixture builder makes
/// (`Fixtures/library`): good pairs give no findings, and each broken variant triggers the rule
/// its folder is named after.
@Suite(.enabled(if: CLI.binary != nil, "needs the built livelint"))
struct LibraryLintTests {
    static let library = CLI.fixtures.appendingPathComponent("library")

    func lintJSON(_ args: [String] = [], path: URL = library) throws -> (status: Int32, doc: [String: Any]) {
        let result = try CLI.run(["lint", "--format", "json"] + args + [path.path])
        let doc = try #require(result.json as? [String: Any], "no JSON on stdout; stderr: \(result.stderr)")
        return (result.status, doc)
    }

    static let brokenFolders: [String] = {
        let url = library.appendingPathComponent("broken")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
        return names.filter { !["orphans", "unreadable"].contains($0) }.sorted()
    }()

    @Test("each broken/<rule> folder triggers that rule", arguments: brokenFolders)
    func brokenVariantTriggersItsRule(_ folder: String) throws {
        let (status, doc) = try lintJSON()
        #expect(status == 1)
        let findings = try #require(doc["findings"] as? [[String: Any]])
        let here = findings.filter { ($0["files"] as? [String] ?? []).contains { $0.hasPrefix("broken/\(folder)/") } }
        #expect(here.contains { $0["rule"] as? String == folder }, "no \(folder) finding; got \(here.map { $0["rule"] ?? "" })")
    }

    @Test func orphansAndUnreadableFiles() throws {
        let (_, doc) = try lintJSON()
        let findings = try #require(doc["findings"] as? [[String: Any]])
        func rules(for file: String) -> Set<String> {
            Set(findings.filter { ($0["files"] as? [String] ?? []).contains(file) }.compactMap { $0["rule"] as? String })
        }
        #expect(rules(for: "broken/orphans/IMG_0110.JPG") == ["orphan-still"])
        #expect(rules(for: "broken/orphans/IMG_0111.MOV") == ["orphan-movie"])
        #expect(rules(for: "broken/unreadable/IMG_0300.JPG") == ["unreadable-file"])
        // A file that is not media at all is accounted for in `files`, with its error, but is no finding.
        #expect(rules(for: "broken/unreadable/notes.txt").isEmpty)
        let files = try #require(doc["files"] as? [[String: Any]])
        let notes = try #require(files.first { $0["path"] as? String == "broken/unreadable/notes.txt" })
        #expect(notes["kind"] as? String == "unknown")
        #expect(notes["error"] is String)
    }

    /// A report that cannot be written to stdout (a full disk: `/dev/full`) ends the run with
    /// the reason on stderr and exit code 2, whatever the format; nothing passes for whole.
    @Test(arguments: ["json", "text", "sarif"])
    func aReportThatCannotBeWrittenFails(format: String) throws {
        guard FileManager.default.fileExists(atPath: "/dev/full"), let binary = CLI.binary else { return }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        let quoted = [binary.path, "lint", "--no-cache", "--format", format, Self.library.path].map { "'" + $0 + "'" }
        process.arguments = ["-c", quoted.joined(separator: " ") + " > /dev/full"]
        let stderr = Pipe()
        process.standardError = stderr
        try process.run()
        let message = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 2, "\(format): \(message)")
        #expect(message.contains("livelint: cannot write to standard output: " + String(cString: strerror(ENOSPC))), "\(format)")
    }

    @Test func goodPairsHaveNoFindings() throws {
        let (_, doc) = try lintJSON()
        let findings = try #require(doc["findings"] as? [[String: Any]])
        let good = findings.filter { ($0["files"] as? [String] ?? []).contains { $0.hasPrefix("2024/") } }
        #expect(good.isEmpty, "findings on good pairs: \(good)")
        let pairs = try #require(doc["pairs"] as? [[String: Any]])
        let goodPairs = pairs.filter { ($0["still"] as? String)?.hasPrefix("2024/") == true }
        // IMG_0001, IMG_0002, IMG_0003 (+ _HEVC movie) and the .livp's two members.
        #expect(goodPairs.count == 4)
        let hevc = try #require(goodPairs.first { ($0["still"] as? String) == "2024/06/IMG_0003.JPG" })
        #expect(hevc["movie"] as? String == "2024/06/IMG_0003_HEVC.MOV")
        #expect(hevc["pairedBy"] as? String == "content-identifier")
        let livp = try #require(goodPairs.first { ($0["still"] as? String)?.contains(".livp!") == true })
        #expect(livp["pairedBy"] as? String == "content-identifier" || livp["pairedBy"] as? String == "archive")
    }

    @Test func everyFileIsAccountedFor() throws {
        let (_, doc) = try lintJSON()
        let files = try #require(doc["files"] as? [[String: Any]])
        let reported = Set(files.compactMap { $0["path"] as? String })
        let enumerator = try #require(FileManager.default.enumerator(atPath: Self.library.path))
        var onDisk = Set<String>()
        while let path = enumerator.nextObject() as? String {
            // Hidden files (the library's .livelint.yml) are skipped by design without --include-hidden.
            if path.split(separator: "/").contains(where: { $0.hasPrefix(".") }) { continue }
            var isDir: ObjCBool = false
            if FileManager.default.fileExists(atPath: Self.library.appendingPathComponent(path).path, isDirectory: &isDir), !isDir.boolValue {
                onDisk.insert(path)
            }
        }
        #expect(onDisk.isSubset(of: reported), "missing from the report: \(onDisk.subtracting(reported).sorted())")
    }

    @Test func cleanPairExitsZero() throws {
        let result = try CLI.run(["lint", CLI.fixtures.appendingPathComponent("pair").path])
        #expect(result.status == 0, "stdout: \(result.stdout) stderr: \(result.stderr)")
        #expect(result.stdout.contains("2 files, 1 pair: 0 errors, 0 warnings"))
    }

    @Test func failOnWarningTurnsWarningsIntoExitOne() throws {
        let dir = CLI.fixtures.appendingPathComponent("library/broken/missing-still-image-time")
        #expect(try CLI.run(["lint", dir.path]).status == 0)
        #expect(try CLI.run(["lint", "--fail-on", "warning", dir.path]).status == 1)
    }

    @Test func everyReportFormatRuns() throws {
        for format in ["text", "json", "jsonl", "sarif", "junit", "github"] {
            let result = try CLI.run(["lint", "--format", format, Self.library.path])
            #expect(result.status == 1, "\(format): exit \(result.status), stderr \(result.stderr)")
            #expect(!result.stdout.isEmpty, "\(format) printed nothing")
        }
    }

    @Test func outputFileGetsTheReportAndStdoutStaysEmpty() throws {
        let tmp = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: tmp) }
        let out = tmp.appendingPathComponent("report.sarif")
        let result = try CLI.run(["lint", "--format", "sarif", "--output", out.path, Self.library.path])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        let sarif = try JSONSerialization.jsonObject(with: Data(contentsOf: out)) as? [String: Any]
        #expect(sarif?["version"] as? String == "2.1.0")
    }

    @Test func baselineAcceptsKnownFindings() throws {
        let tmp = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: tmp) }
        let baseline = tmp.appendingPathComponent("baseline.json")
        let write = try CLI.run(["lint", "--quiet", "--write-baseline", baseline.path, Self.library.path])
        #expect(write.status == 0, "stderr: \(write.stderr)")
        let (status, doc) = try lintJSON(["--baseline", baseline.path])
        #expect(status == 0)
        #expect((doc["findings"] as? [Any])?.isEmpty == true)
        let summary = try #require(doc["summary"] as? [String: Any])
        #expect((summary["baselined"] as? Int ?? 0) > 10)
    }

    @Test func configurationDisablesAndOverrides() throws {
        let tmp = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: tmp) }
        let config = tmp.appendingPathComponent("livelint.yml")
        try "version: 1\nrules:\n  orphan-still: off\n  orphan-movie: error\n".write(to: config, atomically: true, encoding: .utf8)
        let (_, doc) = try lintJSON(["--config", config.path])
        let findings = try #require(doc["findings"] as? [[String: Any]])
        #expect(!findings.contains { $0["rule"] as? String == "orphan-still" })
        let orphanMovie = try #require(findings.first { $0["rule"] as? String == "orphan-movie" })
        #expect(orphanMovie["severity"] as? String == "error")
    }

    @Test("bad usage and bad configuration exit 2 with a clear message")
    func usageErrorsExitTwo() throws {
        let tmp = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: tmp) }
        let badConfig = tmp.appendingPathComponent("bad.yml")
        try "version: 1\nrules:\n  no-such-rule: off\n".write(to: badConfig, atomically: true, encoding: .utf8)

        let cases: [([String], String)] = [
            (["lint", "--format", "xml", "."], "xml"),
            (["lint", "/no/such/folder"], "no such file or folder"),
            (["lint", "--config", badConfig.path, Self.library.path], "no-such-rule"),
            (["lint", "--jobs", "0", "."], "--jobs"),
            (["frobnicate"], "frobnicate"),
            (["rules", "no-such-rule"], "no rule named"),
        ]
        for (args, mention) in cases {
            let result = try CLI.run(args)
            #expect(result.status == 2, "\(args): exit \(result.status)")
            #expect(result.stderr.contains(mention), "\(args): stderr \(result.stderr)")
        }
    }

    @Test func committedFixturesAreUpToDate() throws {
        let builder = try #require(CLI.binary?.deletingLastPathComponent().appendingPathComponent("livelint-fixtures"))
        guard FileManager.default.isExecutableFile(atPath: builder.path) else { return }
        let process = Process()
        process.executableURL = builder
        process.arguments = ["--check", "--fixtures", CLI.fixtures.path]
        let pipe = Pipe()
        process.standardError = pipe
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let stderr = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(stderr)")
    }
}
