import Foundation
import TestSupport
import LiveModel

/// The shared real-device corpus (`<repo>/../shared/corpus`) and its manifest, when present.
enum MovieCorpus {
    static let directory: URL? = TestPaths.corpusPresent ? TestPaths.corpus : nil

    static var isPresent: Bool { directory != nil }

    nonisolated(unsafe) static let entries: [[String: Any]] = TestPaths.manifestEntries

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
