import Foundation
import LiveLintEngine
import LiveModel
import LiveReaders
import Reporters

/// Reads every file of a scan concurrently, a bounded number at a time, and returns them in
/// display-path order whatever the scheduling.
///
/// Each file is slimmed (``MediaFile/slimmedForLint(keeping:)``, keeping `metadataKeys`: what the
/// engine's rules read) inside its own task, right after it is
/// read, so memory holds at most `jobs` fully-read files plus one slim record per file kept;
/// with a `shard`, files of other shards are dropped there too.
enum LibraryReader {
    static func read<Entries: RandomAccessCollection & Sendable>(
        _ entries: Entries, options: InspectOptions, jobs: Int, shard: Shard? = nil, metadataKeys: Set<String>,
        progress: Progress
    ) async -> [MediaFile] where Entries.Element == LibraryWalker.Entry, Entries.Index == Int {
        var results = [MediaFile?](repeating: nil, count: entries.count)
        let limit = max(1, jobs)
        await withTaskGroup(of: (Int, MediaFile?).self) { group in
            var next = 0
            func submit() {
                guard next < entries.count else { return }
                let index = next
                let entry = entries[index]
                next += 1
                group.addTask {
                    let file = MediaInspector.inspect(path: entry.path, displayPath: entry.displayPath, options: options)
                    if let shard, !shard.contains(file) { return (index, nil) }
                    return (index, file.slimmedForLint(keeping: metadataKeys))
                }
            }
            for _ in 0..<min(limit, entries.count) { submit() }
            while let (index, file) = await group.next() {
                results[index] = file
                progress.advance(file)
                submit()
            }
        }
        return results.compactMap { $0 }
    }

    /// A sensible default for `--jobs`: the number of cores, at least 2 (I/O overlaps with parsing).
    static var defaultJobs: Int { max(2, ProcessInfo.processInfo.activeProcessorCount) }
}

/// `lint --identifiers FILE`: one JSON Lines record per still or movie that carries a content
/// identifier (`.livp` members included), for `livelint merge` to find identifiers repeated
/// across shards or runs:
///
///     {"id":"E905E6C6-…","kind":"still","path":"2021/04/IMG_0001.JPG","shard":"2/8","type":"identifier"}
///
/// Sorted by identifier, then path; keys sorted; `shard` is `1/1` without `--shard`.
enum IdentifierList {
    struct Record: Hashable {
        var id: String
        var kind: FileKind
        var path: String
        var shard: String
    }

    static func records(_ files: [MediaFile], shard: String) -> [Record] {
        var out: [Record] = []
        func add(_ file: MediaFile) {
            if (file.kind == .still || file.kind == .movie), let id = file.contentIdentifier {
                out.append(Record(id: id, kind: file.kind, path: file.path, shard: shard))
            }
            for member in file.members ?? [] { add(member) }
        }
        files.forEach(add)
        return out.sorted { ($0.id, $0.path) < ($1.id, $1.path) }
    }

    static func render(_ records: [Record]) -> String {
        var out = ""
        for r in records {
            let q = JSONText.quoted
            out += "{\"id\":\(q(r.id)),\"kind\":\(q(r.kind.rawValue)),\"path\":\(q(r.path)),"
                + "\"shard\":\(q(r.shard)),\"type\":\"identifier\"}\n"
        }
        return out
    }
}
