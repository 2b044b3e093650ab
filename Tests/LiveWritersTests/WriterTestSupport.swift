import Foundation
import ISOBMFF
import LiveModel
import LiveReaders
@testable import LiveWriters

/// Fixtures and corpus locations, temporary folders, small helpers.
enum W {
    static let repoRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let fixtures = repoRoot.appendingPathComponent("Fixtures")
    static func base(_ name: String) -> String { fixtures.appendingPathComponent("base/\(name)").path }
    static let corpus = repoRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus")
    static var corpusPresent: Bool { FileManager.default.fileExists(atPath: corpus.appendingPathComponent("manifest.json").path) }

    /// The corpus pairs (still path, movie path) from the manifest; empty without the corpus.
    static func corpusPairs() -> [(id: String, still: String, movie: String)] {
        guard let data = try? Data(contentsOf: corpus.appendingPathComponent("manifest.json")),
              let list = try? JSONSerialization.jsonObject(with: data) as? [[String: Any]] else { return [] }
        var byPair: [String: (String?, String?)] = [:]
        for e in list {
            guard let pair = e["pair"] as? String, let file = e["file"] as? String, let category = e["category"] as? String else { continue }
            var v = byPair[pair] ?? (nil, nil)
            if category == "pair-still" { v.0 = corpus.appendingPathComponent(file).path } else { v.1 = corpus.appendingPathComponent(file).path }
            byPair[pair] = v
        }
        return byPair.compactMap { key, v in v.0.flatMap { s in v.1.map { (key, s, $0) } } }.sorted { $0.id < $1.id }
    }

    static func temporaryDirectory() throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("livelint-writers-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url.path
    }

    static func bytes(_ path: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) }
    static func write(_ bytes: [UInt8], _ path: String) throws { try Data(bytes).write(to: URL(fileURLWithPath: path)) }

    static func movie(_ path: String) -> MovieInfo? {
        MovieReader.read(path: path, options: MovieReadOptions(samples: .stillImageTimeOnly, maxSamplesPerTrack: 16)).movie
    }

    static func digests(_ path: String) throws -> [TrackDigest] { try MediaDigest.tracks(of: FileByteSource(path: path)) }

    /// Files in `folder` whose names mark them as our temporary files.
    static func leftovers(_ folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.contains(".livelint-") }
    }
}
