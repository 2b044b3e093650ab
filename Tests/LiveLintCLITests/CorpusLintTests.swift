import Foundation
import Testing

/// `livelint lint` on the real device files: the nine separate-file pairs pair up with no
/// error-severity finding (despite the `_HEVC` stem, the JPEG named `.HEIC` and the QuickTime
/// named `.MP4`), the lone halves are orphans, and nothing crashes.
@Suite(.enabled(if: CLI.corpusPresent && CLI.binary != nil, "needs ../shared/corpus and the built livelint"))
struct CorpusLintTests {
    static let entries = CorpusEntry.load()

    func lint() throws -> [String: Any] {
        let result = try CLI.run(["lint", "--format", "json", "--quiet", CLI.corpus.path])
        #expect(result.status == 0 || result.status == 1, "exit \(result.status): \(result.stderr)")
        return try #require(result.json as? [String: Any], "no JSON: \(result.stderr)")
    }

    @Test func realPairsPairUpWithoutErrors() throws {
        let doc = try lint()
        let pairs = try #require(doc["pairs"] as? [[String: Any]])
        let findings = try #require(doc["findings"] as? [[String: Any]])
        let byPair = Dictionary(grouping: Self.entries.filter { $0.category.hasPrefix("pair-") }, by: { $0.raw["pair"] as? String ?? "" })
        #expect(byPair.count == 9)
        for (pairID, halves) in byPair {
            let still = try #require(halves.first { $0.category == "pair-still" }).file
            let movie = try #require(halves.first { $0.category == "pair-movie" }).file
            let record = pairs.first { $0["still"] as? String == still }
            #expect(record?["movie"] as? String == movie, "\(pairID): \(still) paired with \(String(describing: record?["movie"]))")
            #expect(record?["pairedBy"] as? String == "content-identifier")
            let errors = findings.filter {
                $0["severity"] as? String == "error" && ($0["files"] as? [String] ?? []).contains { $0 == still || $0 == movie }
            }
            #expect(errors.isEmpty, "\(pairID): \(errors)")
        }
    }

    @Test func loneHalvesAreOrphans() throws {
        let doc = try lint()
        let findings = try #require(doc["findings"] as? [[String: Any]])
        func has(_ rule: String, _ file: String) -> Bool {
            findings.contains { $0["rule"] as? String == rule && ($0["files"] as? [String] ?? []).contains(file) }
        }
        for entry in Self.entries where entry.category == "lone-still" {
            // S2 and S3 share one identifier: they are duplicates as well as orphans.
            #expect(has("orphan-still", entry.file), "\(entry.id) \(entry.file) is not reported as an orphan")
        }
        for entry in Self.entries where entry.category == "lone-movie" {
            #expect(has("orphan-movie", entry.file), "\(entry.id) \(entry.file) is not reported as an orphan")
        }
    }

    @Test func everyCorpusFileIsReadWithoutError() throws {
        let doc = try lint()
        let files = try #require(doc["files"] as? [[String: Any]])
        for entry in Self.entries {
            let file = files.first { $0["path"] as? String == entry.file }
            #expect(file != nil, "\(entry.file) missing from the report")
            #expect(file?["error"] is NSNull, "\(entry.file): \(String(describing: file?["error"]))")
        }
    }
}
