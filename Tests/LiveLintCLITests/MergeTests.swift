import Foundation
import Testing

/// `livelint merge`: folds per-job JSON Lines reports and identifier lists into one report and
/// finds identifiers repeated across jobs.
@Suite(.enabled(if: CLI.binary != nil, "needs the built livelint"))
struct MergeTests {
    static func lines(_ text: String) -> [[String: Any]] {
        text.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    /// Two jobs over two folders that each hold a copy of one pair: neither job can see the
    /// duplicate, the merge must.
    @Test func mergeFindsADuplicateAcrossJobs() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let fm = FileManager.default
        for job in ["2019", "2020"] {
            let folder = dir.appendingPathComponent(job)
            try fm.createDirectory(at: folder, withIntermediateDirectories: true)
            for name in ["IMG_0001.JPG", "IMG_0001.MOV"] {
                try fm.copyItem(at: CLI.fixtures.appendingPathComponent("pair/\(name)"), to: folder.appendingPathComponent(name))
            }
            let result = try CLI.run(["lint", "--no-config", "--format", "jsonl", "--identifiers", "\(job).ids",
                                      "--output", "\(job).jsonl", job], in: dir)
            #expect(result.status == 0, "a lone pair is clean: \(result.stderr)")
            let ids = try String(contentsOf: dir.appendingPathComponent("\(job).ids"), encoding: .utf8)
            let records = Self.lines(ids)
            #expect(records.count == 2)
            #expect(records.allSatisfy { $0["type"] as? String == "identifier" && $0["shard"] as? String == "1/1" })
        }
        let merged = try CLI.run(["merge", "2019.jsonl", "2019.ids", "2020.jsonl", "2020.ids"], in: dir)
        #expect(merged.status == 1, "a duplicate identifier is an error: \(merged.stderr)")
        let records = Self.lines(merged.stdout)
        let findings = records.filter { $0["type"] as? String == "finding" }
        #expect(findings.count == 1)
        let finding = try #require(findings.first)
        #expect(finding["rule"] as? String == "duplicate-identifier")
        let message = try #require(finding["message"] as? String)
        #expect(message.contains("6E1F7C2A-3B4D-4E5F-8A9B-0C1D2E3F4A5B"))
        #expect(message.contains("2 stills and 2 movies across 2 jobs"))
        #expect(finding["files"] as? [String] == ["IMG_0001.JPG", "IMG_0001.MOV"])
        let summary = try #require(records.last)
        #expect(summary["type"] as? String == "summary")
        #expect(summary["files"] as? Int == 4)
        #expect(summary["pairs"] as? Int == 2)
        #expect(summary["errors"] as? Int == 1)
    }

    /// Shards of one library (by identifier) never share an identifier: the merge adds nothing
    /// and reproduces the whole run's findings and counts.
    @Test func mergingShardsReproducesTheWholeRun() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let root = CLI.fixtures.appendingPathComponent("library").path
        let whole = try CLI.run(["lint", "--no-config", "--format", "jsonl", root])
        var inputs: [String] = []
        for k in 1...3 {
            let result = try CLI.run(["lint", "--no-config", "--shard", "\(k)/3", "--format", "jsonl",
                                      "--identifiers", "ids-\(k).jsonl", "--output", "shard-\(k).jsonl", root], in: dir)
            #expect(result.status == 0 || result.status == 1, "\(result.stderr)")
            inputs += ["shard-\(k).jsonl", "ids-\(k).jsonl"]
        }
        let merged = try CLI.run(["merge"] + inputs, in: dir)
        #expect(merged.status == whole.status)
        let wholeFindings = Self.lines(whole.stdout).filter { $0["type"] as? String == "finding" }
        let mergedFindings = Self.lines(merged.stdout).filter { $0["type"] as? String == "finding" }
        // The shards may split a name pair that has only one identifier (documented caveat), so
        // compare what cannot depend on it: no cross-job duplicate appears, and counts add up.
        #expect(!mergedFindings.contains { ($0["message"] as? String ?? "").contains("across") })
        #expect(!mergedFindings.isEmpty && !wholeFindings.isEmpty)
        let wholeSummary = try #require(Self.lines(whole.stdout).last)
        let mergedSummary = try #require(Self.lines(merged.stdout).last)
        #expect(mergedSummary["files"] as? Int == wholeSummary["files"] as? Int)
    }

    @Test func mergeRefusesSomethingElse() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try "not json\n".write(to: dir.appendingPathComponent("junk.txt"), atomically: true, encoding: .utf8)
        let result = try CLI.run(["merge", "junk.txt"], in: dir)
        #expect(result.status == 2)
        #expect(result.stderr.contains("junk.txt:1"))
    }
}
