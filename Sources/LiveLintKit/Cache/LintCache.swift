import Foundation

/// `livelint cache stats|clear`: what the lint cache in a folder holds, and removing it.
public enum LintCache {
    public struct Stats: Sendable, Hashable {
        /// The database file.
        public var path: String
        /// False when there is no cache there yet.
        public var exists: Bool
        /// Bytes on disk: the database plus its write-ahead log.
        public var bytes: Int64
        /// File records held.
        public var records: Int
        /// Records that keep their file's summary and file findings beside them (a scan past
        /// 10,000 files uses those instead of decoding the record, under the rules that made them).
        public var withFacts: Int = 0
        /// Outcomes of a library's parts kept (``OutcomeCache``: what a scan past 10,000 files
        /// found in each bucket, used again while none of its files changed).
        public var buckets: Int = 0
        /// The livelint version and record format that wrote it (empty when unknown).
        public var writtenBy: [String: String]
        /// Set when the database cannot be read (damaged, not a database): the next `lint` rebuilds it.
        public var problem: String?
    }

    /// The database file of the cache in `directory`.
    public static func databasePath(in directory: String) -> String {
        directory.hasSuffix("/") ? directory + ScanCache.fileName : directory + "/" + ScanCache.fileName
    }

    /// What the cache in `directory` holds. Never creates or changes it.
    public static func stats(directory: String) -> Stats {
        let path = databasePath(in: directory)
        var stats = Stats(path: path, exists: FileManager.default.fileExists(atPath: path), bytes: 0, records: 0, writtenBy: [:])
        guard stats.exists else { return stats }
        for suffix in ["", "-wal"] {
            let size = (try? FileManager.default.attributesOfItem(atPath: path + suffix)[.size] as? NSNumber)?.int64Value
            stats.bytes += size ?? 0
        }
        do {
            let db = try SQLiteDatabase(path: path, create: false)
            defer { db.close() }
            // One read transaction: the counts and the columns come from one snapshot, even while
            // another run rebuilds the table.
            try db.execute("BEGIN")
            defer { try? db.execute("COMMIT") }
            stats.writtenBy = try ScanCache.readMeta(db)
            let hasFacts = try ScanCache.columns(of: "files", in: db).contains { $0.hasPrefix("facts ") }
            let counts = try db.prepare("SELECT count(*), \(hasFacts ? "count(facts)" : "0") FROM files")
            if try counts.step() {
                stats.records = Int(counts.int64(0))
                stats.withFacts = Int(counts.int64(1))
            }
            if try !ScanCache.columns(of: "buckets", in: db).isEmpty {
                let buckets = try db.prepare("SELECT count(*) FROM buckets")
                if try buckets.step() { stats.buckets = Int(buckets.int64(0)) }
            }
        } catch {
            stats.problem = ScanCache.reason(error)
        }
        return stats
    }

    /// Removes the cache in `directory` (the database, its log and shared memory); true when there was one.
    @discardableResult
    public static func clear(directory: String) -> Bool {
        let path = databasePath(in: directory)
        let existed = FileManager.default.fileExists(atPath: path)
        ScanCache.removeFiles(at: path)
        return existed
    }

    /// The SQLite library in use (`3.40.1`).
    public static var sqliteVersion: String { SQLiteDatabase.libraryVersion }
}
