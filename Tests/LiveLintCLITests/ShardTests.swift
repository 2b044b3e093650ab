import Foundation
import Testing

/// `lint --shard K/N`: the shards of a library partition it (every file in exactly one shard),
/// and both halves of a pair tied by identifier land in the same shard.
@Suite(.enabled(if: CLI.binary != nil, "needs the built livelint"))
struct ShardTests {
    /// The libraries to split: the project's fixture library, and the real corpus when present.
    static var roots: [URL] {
        var roots = [CLI.fixtures.appendingPathComponent("library")]
        if CLI.corpusPresent { roots.append(CLI.corpus) }
        return roots
    }

    struct Report {
        var files: [String]
        var pairs: [[String: Any]]
        var findings: [[String: Any]]
    }

    static func lint(_ args: [String]) throws -> Report {
        let result = try CLI.run(["lint", "--format", "json", "--no-config"] + args)
        #expect(result.status == 0 || result.status == 1, "stderr: \(result.stderr)")
        let json = try #require(result.json as? [String: Any])
        let files = try #require(json["files"] as? [[String: Any]]).compactMap { $0["path"] as? String }
        return Report(files: files, pairs: try #require(json["pairs"] as? [[String: Any]]),
                      findings: try #require(json["findings"] as? [[String: Any]]))
    }

    @Test(arguments: roots, [2, 3, 5])
    func shardsPartitionTheLibraryAndKeepPairsTogether(_ root: URL, _ count: Int) throws {
        let whole = try Self.lint([root.path])
        #expect(!whole.files.isEmpty)
        var shardOf: [String: Int] = [:]
        var findings = 0
        for k in 1...count {
            let part = try Self.lint(["--shard", "\(k)/\(count)", root.path])
            for path in part.files {
                #expect(shardOf[path] == nil, "\(path) is in shards \(shardOf[path] ?? 0) and \(k)")
                shardOf[path] = k
            }
            findings += part.findings.count
        }
        // Complete and disjoint: the shards together list exactly the files of the whole run.
        #expect(Set(shardOf.keys) == Set(whole.files))
        #expect(shardOf.count == whole.files.count)
        // Pairs tied by identifier never straddle shards, and neither do name pairs in which
        // neither half has an identifier.
        var checked = 0
        for pair in whole.pairs {
            guard let still = pair["still"] as? String, let movie = pair["movie"] as? String else { continue }
            let byID = pair["pairedBy"] as? String == "content-identifier"
            let noID = pair["contentIdentifier"] is NSNull || pair["contentIdentifier"] == nil
            guard byID || noID else { continue }
            #expect(shardOf[still] == shardOf[movie], "pair \(still) + \(movie) split across shards")
            checked += 1
        }
        #expect(checked > 0)
        if root == CLI.corpus {
            // Every corpus pair is tied by identifier: the shards report exactly the whole run's findings.
            #expect(findings == whole.findings.count)
        }
    }

    @Test func shardAssignmentIsStableAcrossRuns() throws {
        let root = CLI.fixtures.appendingPathComponent("library").path
        let first = try Self.lint(["--shard", "2/3", root]).files
        let again = try Self.lint(["--shard", "2/3", "--jobs", "1", root]).files
        #expect(first == again)
        #expect(!first.isEmpty)
    }

    @Test(arguments: ["0/3", "4/3", "3", "a/b", "1/0"])
    func badShardIsAUsageError(_ value: String) throws {
        let result = try CLI.run(["lint", "--shard", value, CLI.fixtures.path])
        #expect(result.status == 2)
        #expect(result.stderr.contains("--shard"))
    }
}
