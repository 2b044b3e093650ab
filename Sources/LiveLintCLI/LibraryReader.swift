import Foundation
import LiveModel
import LiveReaders

/// Reads every file of a scan concurrently, a bounded number at a time, and returns them in
/// display-path order whatever the scheduling.
enum LibraryReader {
    static func read(_ entries: [LibraryWalker.Entry], options: InspectOptions, jobs: Int,
                     progress: Progress) async -> [MediaFile] {
        var results = [MediaFile?](repeating: nil, count: entries.count)
        let limit = max(1, jobs)
        await withTaskGroup(of: (Int, MediaFile).self) { group in
            var next = 0
            func submit() {
                guard next < entries.count else { return }
                let index = next
                let entry = entries[index]
                next += 1
                group.addTask {
                    (index, MediaInspector.inspect(path: entry.path, displayPath: entry.displayPath, options: options))
                }
            }
            for _ in 0..<min(limit, entries.count) { submit() }
            while let (index, file) = await group.next() {
                results[index] = file
                progress.advance()
                submit()
            }
        }
        return results.compactMap { $0 }
    }

    /// A sensible default for `--jobs`: the number of cores, at least 2 (I/O overlaps with parsing).
    static var defaultJobs: Int { max(2, ProcessInfo.processInfo.activeProcessorCount) }
}
