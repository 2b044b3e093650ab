import Foundation
import TestSupport
import Testing

/// Locates the repository, the shared corpus and the built `livelint` binary, and runs it.
enum CLI {
    static let repoRoot = TestPaths.repoRoot
    static let fixtures = TestPaths.fixtures
    /// `../shared/corpus` beside the repository (tests that need it skip when it is absent).
    static let corpus = TestPaths.corpus
    static var corpusPresent: Bool { TestPaths.corpusPresent }
    /// The `livelint` executable SwiftPM built beside this test bundle.
    static let binary = TestPaths.livelintBinary

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
        var json: Any? { try? JSONSerialization.jsonObject(with: Data(stdout.utf8)) }
    }

    /// Runs `livelint args…` in `directory` with a clean, colour-free environment.
    static func run(_ args: [String], in directory: URL? = nil, environment: [String: String] = [:]) throws -> Result {
        guard let binary else { throw CLIError.noBinary }
        var env = environment
        if env["COLUMNS"] == nil { env["COLUMNS"] = "100" }
        let r = try ProcessRunner.run(binary, args, in: directory, environment: env)
        return Result(status: r.status, stdout: String(decoding: r.stdout, as: UTF8.self),
                      stderr: String(decoding: r.stderr, as: UTF8.self))
    }

    enum CLIError: Error { case noBinary }

    /// A fresh temporary folder, removed by the caller.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("livelint-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

/// The corpus manifest, as facts to test against.
struct CorpusEntry: @unchecked Sendable, CustomTestStringConvertible {
    var id: String
    var category: String
    var file: String
    var raw: [String: Any]
    var testDescription: String { "\(id) \(file)" }

    static func load() -> [CorpusEntry] {
        TestPaths.manifestEntries.compactMap { e in
            guard let id = e["id"] as? String, let category = e["category"] as? String, let file = e["file"] as? String
            else { return nil }
            return CorpusEntry(id: id, category: category, file: file, raw: e)
        }
    }

    var movie: [String: Any]? { raw["movie"] as? [String: Any] }
    var still: [String: Any]? { raw["still"] as? [String: Any] }
    var url: URL { CLI.corpus.appendingPathComponent(file) }
}
