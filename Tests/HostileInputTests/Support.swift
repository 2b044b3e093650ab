import Foundation
import TestSupport
import Testing

/// Where things are: the repository, its fixtures, the shared corpus, the built `livelint`
/// (from the shared `TestSupport` target).
enum Paths {
    static let repoRoot = TestPaths.repoRoot
    static let fixtures = TestPaths.fixtures
    static let malformed = fixtures.appendingPathComponent("malformed")
    /// `../shared/corpus` beside the repository (absent on some machines: corpus parts are skipped).
    static let corpus = TestPaths.corpus
    static var corpusPresent: Bool { TestPaths.corpusPresent }
    /// The `livelint` executable SwiftPM built beside this test bundle.
    static let binary = TestPaths.livelintBinary

    /// A fresh temporary folder; the caller removes it.
    static func temporaryDirectory(_ label: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("livelint-hostile-\(label)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Every regular file under `root`, sorted by path.
    static func files(under root: URL) -> [URL] {
        guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey]) else { return [] }
        var out: [URL] = []
        for case let url as URL in walker where (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
            out.append(url)
        }
        return out.sorted { $0.path < $1.path }
    }
}

/// Runs the built `livelint` with a clean environment and a wall-clock limit.
enum LiveLint {
    struct Result {
        var status: Int32
        /// True when the process died of a signal (a crash), not an exit.
        var signaled: Bool
        var timedOut: Bool
        var seconds: Double
        var stdout: Data
        var stderr: String
        var json: Any? { try? JSONSerialization.jsonObject(with: stdout) }
    }

    enum Failure: Error { case noBinary }

    static func run(_ args: [String], timeout: Double = 300) throws -> Result {
        guard let binary = Paths.binary else { throw Failure.noBinary }
        let r = try ProcessRunner.run(binary, args, timeout: timeout)
        return Result(status: r.status, signaled: r.signaled, timedOut: r.timedOut, seconds: r.seconds,
                      stdout: r.stdout, stderr: String(decoding: r.stderr, as: UTF8.self))
    }
}

/// A fingerprint of a folder: every file's path, size, modification time and content hash (FNV-1a 64),
/// so "nothing was written" can be checked byte for byte, new files and touched files included.
enum TreeHash {
    struct Entry: Hashable {
        var path: String
        var size: Int
        var modified: Date
        var hash: UInt64
    }

    static func snapshot(_ root: URL) throws -> [Entry] {
        var out: [Entry] = []
        guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else { return [] }
        for case let url as URL in walker {
            let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
            let relative = String(url.path.dropFirst(root.path.count))
            let modified = attributes[.modificationDate] as? Date ?? .distantPast
            if attributes[.type] as? FileAttributeType == .typeRegular {
                let data = try Data(contentsOf: url)
                out.append(Entry(path: relative, size: data.count, modified: modified, hash: fnv1a(data)))
            } else {
                out.append(Entry(path: relative + "/", size: 0, modified: modified, hash: 0))
            }
        }
        return out.sorted { $0.path < $1.path }
    }

    static func fnv1a(_ data: Data) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in data {
            h ^= UInt64(b)
            h = h &* 0x100_0000_01b3
        }
        return h
    }
}
