import Foundation
import TestSupport
import Testing

/// python3 with PyYAML (pre-commit brings it) on PATH.
enum ActionGate {
    static let enabled: Bool = {
        guard let python = TestTools.which("python3"), let r = try? TestTools.run(python, ["-c", "import yaml"]) else { return false }
        return r.status == 0
    }()
}

/// The GitHub Action (`action.yml`): its shell steps run locally, as the runner would, by
/// `Scripts/run_action.py` (inputs, expressions, `if:`, step outputs and the job summary file),
/// with `livelint` set to the binary under test so the install and build steps are skipped (they
/// need apt and a release build; CI's package step covers the release build). The upload step
/// is not run: the test checks what it would be given.
@Suite(.enabled(if: ActionGate.enabled))
struct GitHubActionTests {
    struct Run {
        var report: [String: Any]
        var steps: [[String: Any]] { report["steps"] as? [[String: Any]] ?? [] }
        var uses: [[String: Any]] { report["uses"] as? [[String: Any]] ?? [] }
        var outputs: [String: String] { report["outputs"] as? [String: String] ?? [:] }
        var summary: String { report["summary"] as? String ?? "" }
        var failed: Bool { report["failed"] as? Bool ?? false }
        func step(_ name: String) -> [String: Any]? { steps.first { $0["name"] as? String == name } }
    }

    static func run(_ inputs: [String: String]) throws -> (Run, URL) {
        let binary = try #require(CLI.binary)
        let ws = try CLI.temporaryDirectory()
        try FileManager.default.copyItem(at: CLI.fixtures.appendingPathComponent("library"), to: ws.appendingPathComponent("library"))
        var args = [CLI.repoRoot.appendingPathComponent("Tests/LiveLintCLITests/Scripts/run_action.py").path,
                    CLI.repoRoot.appendingPathComponent("action.yml").path, "--workspace", ws.path,
                    "--runner-temp", ws.appendingPathComponent("runner-temp").path,
                    "--input", "livelint=\(binary.path)"]
        for (k, v) in inputs.sorted(by: { $0.key < $1.key }) { args += ["--input", "\(k)=\(v)"] }
        let r = try ProcessRunner.run(URL(fileURLWithPath: try #require(TestTools.which("python3"))), args, timeout: 120)
        #expect(r.status == 0, "\(String(decoding: r.stderr, as: UTF8.self))")
        let report = try #require(try JSONSerialization.jsonObject(with: r.stdout) as? [String: Any])
        return (Run(report: report), ws)
    }

    @Test func brokenLibraryFailsUploadsSARIFAndSummarises() throws {
        let (run, ws) = try Self.run(["path": "library"])
        defer { try? FileManager.default.removeItem(at: ws) }
        #expect(run.step("Install exiv2 and libmediainfo (development packages)")?["skipped"] as? Bool == true)
        #expect(run.outputs["exit-code"] == "1")
        #expect(run.failed)
        #expect(run.step("Verdict")?["status"] as? Int == 1)
        // The SARIF the upload step would get: every finding of the JSON report.
        let sarifPath = try #require(run.outputs["sarif-file"])
        let upload = try #require(run.uses.first)
        #expect(upload["uses"] as? String == "github/codeql-action/upload-sarif@v3")
        #expect((upload["with"] as? [String: String])?["sarif_file"] == sarifPath)
        let sarif = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: sarifPath))) as? [String: Any])
        let results = ((sarif["runs"] as? [[String: Any]])?.first?["results"] as? [Any])?.count
        let json = try CLI.run(["lint", "--format", "json", "--quiet", ws.appendingPathComponent("library").path])
        #expect(results == ((json.json as? [String: Any])?["findings"] as? [Any])?.count)
        #expect(results ?? 0 > 10)
        #expect(run.summary.hasPrefix("## livelint: library\n"))
        #expect(run.summary.contains("| `identifier-mismatch` | error | 1 |"))
    }

    @Test func cleanFolderPasses() throws {
        let (run, ws) = try Self.run(["path": "library/2024"])
        defer { try? FileManager.default.removeItem(at: ws) }
        #expect(run.outputs["exit-code"] == "0" && !run.failed)
        #expect(run.summary.contains("✅ **0** errors"))
        #expect(run.uses.count == 1)
    }

    @Test func failOnNeverOnlyReportsAndSarifCanBeOff() throws {
        let (never, ws1) = try Self.run(["path": "library", "fail-on": "never"])
        defer { try? FileManager.default.removeItem(at: ws1) }
        #expect(never.outputs["exit-code"] == "0" && !never.failed)
        #expect(never.summary.contains("❌ **7** errors"))

        let (noSarif, ws2) = try Self.run(["path": "library", "sarif": "false", "args": "--no-config"])
        defer { try? FileManager.default.removeItem(at: ws2) }
        #expect(noSarif.uses.isEmpty)
        #expect(noSarif.outputs["sarif-file"] == "" && noSarif.outputs["exit-code"] == "1" && noSarif.failed)

        // warning also fails on warnings; a clean folder still passes.
        let (warning, ws3) = try Self.run(["path": "library/2024 library/broken/missing-still-image-time", "fail-on": "warning"])
        defer { try? FileManager.default.removeItem(at: ws3) }
        #expect(warning.outputs["exit-code"] == "1")
        let (errorOnly, ws5) = try Self.run(["path": "library/2024 library/broken/missing-still-image-time"])
        defer { try? FileManager.default.removeItem(at: ws5) }
        #expect(errorOnly.outputs["exit-code"] == "0" && errorOnly.summary.contains("**1** warnings"))

        let (bad, ws4) = try Self.run(["path": "library", "fail-on": "sometimes"])
        defer { try? FileManager.default.removeItem(at: ws4) }
        #expect(bad.step("Lint")?["status"] as? Int == 2 && bad.failed)
        #expect(bad.step("Verdict")?["status"] as? Int == 2)
    }
}
