import Foundation
import LiveLintEngine
import LiveLintKit
import Reporters
import Testing

/// Reports written to a file a piece at a time, atomically (`--output`, `--identifiers`).
struct ReportWriterTests {
    private static func folder() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("livelint-writer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    /// The pieces land in order in the file, which replaces what was there; nothing else is left
    /// beside it.
    @Test func piecesReplaceTheFileWhole() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("report.json").path
        try ReportWriter.write("old", to: path)
        let pieces = (0..<5_000).map { "piece \($0) é\n" }  // past the 64 KiB the writer buffers
        try ReportWriter.write(to: path) { sink in pieces.forEach(sink) }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == pieces.joined())
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["report.json"])
    }

    /// A folder that does not exist is an error, and a report written to a file is the one
    /// rendered.
    @Test func aMissingFolderIsAnErrorAndTheReportIsTheRenderedOne() throws {
        #expect(throws: (any Error).self) { try ReportWriter.write("x", to: "/no/such/folder/report.json") }
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let findings = (0..<3_000).map { Finding(ruleID: "orphan-still", severity: .warning, message: "m\($0)", files: ["f\($0).JPG"],
                                                 documentation: "docs/rules/orphan-still.md") }
        let result = LintResult(root: ".", files: [], pairs: [], findings: findings,
                                summary: LintSummary(files: 0, pairs: 0, errors: 0, warnings: 3_000, infos: 0))
        for format in LintReportFormat.allCases {
            let path = dir.appendingPathComponent("report.\(format)").path
            let report = LintReport(format: format)
            try report.write(result, toFile: path)
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(report.render(result).utf8), "\(format)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).count == LintReportFormat.allCases.count)
    }

    /// A report that replaces a file keeps its mode; a new one is 0666 less the umask; a target
    /// that is not a regular file is written to as it is; a missing folder is told plainly.
    @Test func modesSpecialFilesAndErrors() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let kept = dir.appendingPathComponent("kept.json").path
        try ReportWriter.write("old", to: kept)
        #expect(chmod(kept, 0o600) == 0)
        try ReportWriter.write("new", to: kept)
        let mode = { (path: String) -> mode_t in
            var s = stat()
            _ = stat(path, &s)
            return s.st_mode & 0o7777
        }
        #expect(try mode(kept) == 0o600 && String(contentsOfFile: kept, encoding: .utf8) == "new")
        // The umask as the kernel tells it (setting it here would change it for every test).
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("Umask:") })
        let mask = try #require(mode_t(line.dropFirst("Umask:".count).trimmingCharacters(in: .whitespaces), radix: 8))
        let fresh = dir.appendingPathComponent("fresh.json").path
        try ReportWriter.write("x", to: fresh)
        #expect(mode(fresh) == 0o666 & ~mask)
        try ReportWriter.write(to: "/dev/null") { sink in sink("to the null device") }
        var null = stat()
        #expect(stat("/dev/null", &null) == 0 && null.st_mode & S_IFMT == S_IFCHR)
        do {
            try ReportWriter.write("x", to: dir.appendingPathComponent("no/such/report.json").path)
            Issue.record("a report was written into a folder that does not exist")
        } catch {
            #expect(error.localizedDescription == "No such file or directory")
        }
        #expect(try Set(FileManager.default.contentsOfDirectory(atPath: dir.path)) == ["kept.json", "fresh.json"])
    }
}
