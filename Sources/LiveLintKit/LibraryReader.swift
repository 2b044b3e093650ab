import Foundation
import LiveLintEngine
import LiveModel
import LiveReaders

/// Reads every file of a scan concurrently, a bounded number at a time, and returns them in
/// display-path order whatever the scheduling.
///
/// Each file is slimmed (``MediaFile/slimmedForLint(keeping:)``, keeping what the engine's rules
/// read) and checked by the engine's file rules (``LintEngine/fileFindings(_:)``) inside its own
/// task, right after it is read, so memory holds at most `jobs` fully-read files plus one slim
/// record per file kept, and the file rules run once per file, in parallel; with a `shard`, files
/// of other shards are dropped there too.
enum LibraryReader {
    /// One file read, as the consumer of `read` sees it.
    struct Read {
        var displayPath: String
        /// Nil when the file belongs to another shard.
        var file: MediaFile?
        var findings: [Finding]
        /// `findings.count` after the baseline, when asked for (`countKept`), else 0.
        var kept: Int
    }

    /// Reads `entries`; returns the files kept, in display-path order, and what the file rules
    /// found on them (in the same order). `onRead` is called once per entry, in completion order, from the calling
    /// task; `countKept` asks for the baseline-filtered count of each file's findings (a progress
    /// display shows it; nothing else needs the extra work).
    static func read<Entries: RandomAccessCollection & Sendable>(
        _ entries: Entries, options: InspectOptions, jobs: Int, shard: Shard? = nil, engine: LintEngine,
        countKept: Bool = false, onRead: (Read) -> Void = { _ in }
    ) async -> (files: [MediaFile], fileFindings: [Finding]) where Entries.Element == LibraryWalker.Entry, Entries.Index == Int {
        var results = [MediaFile?](repeating: nil, count: entries.count)
        // Only files with findings have an entry: (index, findings), put in order at the end.
        var found: [(index: Int, findings: [Finding])] = []
        let limit = max(1, jobs)
        await withTaskGroup(of: (Int, Read).self) { group in
            var next = 0
            func submit() {
                guard next < entries.count else { return }
                let index = next
                let entry = entries[index]
                next += 1
                group.addTask {
                    let file = MediaInspector.inspect(path: entry.path, displayPath: entry.displayPath, options: options)
                    if let shard, !shard.contains(file) {
                        return (index, Read(displayPath: entry.displayPath, file: nil, findings: [], kept: 0))
                    }
                    let slim = file.slimmedForLint(keeping: engine.metadataKeys)
                    let findings = engine.fileFindings(slim)
                    let kept = countKept ? engine.countAfterBaseline(findings) : 0
                    return (index, Read(displayPath: entry.displayPath, file: slim, findings: findings, kept: kept))
                }
            }
            for _ in 0..<min(limit, entries.count) { submit() }
            while let (index, read) = await group.next() {
                results[index] = read.file
                if !read.findings.isEmpty { found.append((index, read.findings)) }
                onRead(read)
                submit()
            }
        }
        found.sort { $0.index < $1.index }
        return (results.compactMap { $0 }, found.flatMap { $0.findings })
    }
}
