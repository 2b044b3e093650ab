import Foundation
import LiveModel

/// The shared real-device corpus (`<repo>/../shared/corpus`) and its manifest, when present.
enum MovieCorpus {
    static let directory: URL? = {
        // Resolve symlinks so the corpus is found from the checkout the file really lives in.
        let here = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
        let repo = here.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let corpus = repo.deletingLastPathComponent().appendingPathComponent("shared/corpus")
        return FileManager.default.fileExists(atPath: corpus.appendingPathComponent("manifest.json").path) ? corpus : nil
    }()

    static var isPresent: Bool { directory != nil }

    // Immutable after first use; JSON values are not Sendable, so the compiler cannot prove it.
    nonisolated(unsafe) static let entries: [[String: Any]] = {
        guard let dir = directory,
              let data = try? Data(contentsOf: dir.appendingPathComponent("manifest.json")),
              let list = try? JSONSerialization.jsonObject(with: data) as? [[String: Any]] else { return [] }
        return list
    }()

    /// Manifest ids of entries that have `movie` facts.
    static let movieIDs: [String] = entries.filter { $0["movie"] != nil }.compactMap { $0["id"] as? String }
    /// Manifest ids of every file that is not a movie (stills, motion photos).
    static let nonMovieIDs: [String] = entries.filter { $0["movie"] == nil }.compactMap { $0["id"] as? String }

    static func entry(_ id: String) -> [String: Any]? { entries.first { $0["id"] as? String == id } }

    static func path(_ id: String) -> String? {
        guard let dir = directory, let file = entry(id)?["file"] as? String else { return nil }
        return dir.appendingPathComponent(file).path
    }
}
