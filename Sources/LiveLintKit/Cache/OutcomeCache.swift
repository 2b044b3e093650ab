import CSQLite
import Foundation
import LiveLintEngine

/// The buckets' outcomes of library-sized scans (``BucketOutcomes``), kept in the lint cache's
/// database in a table of their own, `buckets`: a row a bucket, its key (16 bytes), the scope of
/// the scan that kept it, the last run that used it and when, and the outcome's bytes behind
/// their checksum (``ScanCache/checksum(_:)``: bytes damaged in any way are not used).
///
/// A scope is what was scanned and how (the folders, hidden files, the shard, the rules and
/// consumers: ``scope(roots:includeHidden:shard:configuration:)``), not the build. A run that
/// finishes (``finish()``) deletes the rows of its scope that it did not use (a bucket changed
/// since or gone, or kept by another build), and the rows of any scope unused for ``unusedFor``.
/// So the table holds about one row for each bucket of each library and configuration scanned
/// lately, not one for every state a library or livelint went through. Two runs at once on one scope may drop
/// rows the other used; that costs the next run time, never a finding (a row is found only under
/// the key of the files and configuration it was made from).
///
/// It is opened after the files are read, when the file cache worked without a warning, and
/// used by the engine's one task; an error (a full disk, a table another build made in an
/// incompatible way, a damaged database) gives one warning, and the run goes on without it.
final class OutcomeCache: BucketOutcomes, @unchecked Sendable {
    let seed: UInt64
    let findingsLimit: Int
    private let scope: Int64
    private let run = Int64.random(in: 1...Int64.max)
    private var database: SQLiteDatabase?
    private var select: SQLiteStatement?
    private var insert: SQLiteStatement?
    private var touch: SQLiteStatement?
    private let warn: (String) -> Void
    private let path: String
    /// The engine's task alone uses it; the lock makes that safe whoever calls.
    private let lock = NSLock()
    /// True once an outcome was asked for (a run that asked for none drops nothing).
    private var asked = false

    static let createTable = """
        CREATE TABLE IF NOT EXISTS buckets(
            key BLOB PRIMARY KEY, scope INTEGER NOT NULL, run INTEGER NOT NULL, used INTEGER NOT NULL,
            outcome BLOB NOT NULL) WITHOUT ROWID
        """

    /// Rows no run used for this long (in seconds: 30 days) are deleted by the next that finishes.
    static let unusedFor: Int64 = 30 * 86_400

    /// The run's start, in seconds since 1970 (what `used` holds).
    private let now = Int64(Date().timeIntervalSince1970)

    /// The cache at `path` (the file cache's database), for a run of `seed`
    /// (``seed(configuration:build:)``) in `scope`; nil when the table cannot be opened
    /// (then `warn` was called). A bucket with more than `findingsLimit` findings keeps none.
    init?(path: String, seed: UInt64, scope: UInt64, findingsLimit: Int = BucketOutcome.findingsLimit,
          warn: @escaping (String) -> Void) {
        self.path = path
        self.seed = seed
        self.findingsLimit = findingsLimit
        self.scope = Int64(bitPattern: scope)
        self.warn = warn
        do {
            let db = try SQLiteDatabase(path: path, create: false)
            database = db
            try db.execute("PRAGMA synchronous=NORMAL")
            // Each row is read or written once: a small page cache (256 KiB, not SQLite's 2 MiB).
            try db.execute("PRAGMA cache_size=-256")
            // A table of another layout (made by another build) is made anew.
            let columns = try ScanCache.columns(of: "buckets", in: db)
            if !columns.isEmpty, columns != Self.columns { try db.execute("DROP TABLE buckets") }
            try db.execute(Self.createTable)
            select = try db.prepare("SELECT outcome FROM buckets WHERE key = ?")
            insert = try db.prepare("INSERT OR REPLACE INTO buckets(key, scope, run, used, outcome) VALUES (?, ?, ?, ?, ?)")
            touch = try db.prepare("UPDATE buckets SET run = ?, used = ? WHERE key = ?")
        } catch {
            fail(error)
            return nil
        }
    }

    /// The outcomes of a scan by `engine` (its records keeping the timeline or not) of the folders
    /// `cache` scans, with hidden files or not, of `shard`, in `cache`'s database; nil when the
    /// build is unknown (nothing would tell two builds' outcomes apart) or the table cannot be
    /// opened (then `warn` was called).
    static func opened(beside cache: ScanCache, engine: LintEngine, keepTimeline: Bool, includeHidden: Bool, shard: Shard?,
                       findingsLimit: Int, warn: @escaping (String) -> Void) -> OutcomeCache? {
        let configuration = configuration(engine: engine, keepTimeline: keepTimeline)
        guard let seed = seed(configuration: configuration) else { return nil }
        let scope = scope(roots: cache.roots, includeHidden: includeHidden, shard: shard, configuration: configuration)
        return OutcomeCache(path: cache.path, seed: seed, scope: scope, findingsLimit: findingsLimit, warn: warn)
    }

    /// The columns of the table this build makes.
    static let columns = ScanCache.columns(of: "buckets", madeBy: createTable)

    /// What an outcome depends on besides its files and the build: the engine's rules and
    /// consumers (``LintEngine/outcomeSignature``) and whether the records keep the timeline.
    static func configuration(engine: LintEngine, keepTimeline: Bool) -> String {
        "\(engine.outcomeSignature)timeline: \(keepTimeline)\n"
    }

    /// What the keys start from: the build (`build`; nil when unknown: no seed) and `configuration`.
    static func seed(configuration: String, build: String? = CachedFacts.buildIdentity) -> UInt64? {
        build.map { Shard.fnv1a("outcomes\n\($0)\n\(configuration)") }
    }

    /// The scope of a scan of `roots` (absolute), with hidden files or not, of `shard`, under `configuration`.
    static func scope(roots: [String], includeHidden: Bool, shard: Shard?, configuration: String) -> UInt64 {
        Shard.fnv1a("\(includeHidden)\n\(shard?.description ?? "")\n\(configuration)" + roots.sorted().joined(separator: "\n"))
    }

    func outcome(under key: BucketKey) -> [UInt8]? {
        lock.lock()
        defer { lock.unlock() }
        guard let select, let touch else { return nil }
        asked = true
        let bytes = Self.bytes(of: key)
        do {
            // The checksum first, then the outcome; a row that does not match is not used (the
            // bucket is checked again and its row replaced). The statement is reset before the
            // row is touched.
            select.bind(1, bytes)
            let found = try select.step() ? select.withBlob(0, { Self.unframed($0) }) : nil
            select.reset()
            guard let outcome = found else { return nil }
            touch.bind(1, run)
            touch.bind(2, now)
            touch.bind(3, bytes)
            defer { touch.reset() }
            try touch.step()
            return outcome
        } catch {
            fail(error)
            return nil
        }
    }

    func keep(_ outcome: [UInt8], under key: BucketKey) {
        lock.lock()
        defer { lock.unlock() }
        guard let insert else { return }
        do {
            insert.bind(1, Self.bytes(of: key))
            insert.bind(2, scope)
            insert.bind(3, run)
            insert.bind(4, now)
            insert.bind(5, Self.framed(outcome))
            defer { insert.reset() }
            try insert.step()
        } catch {
            fail(error)
        }
    }

    /// Deletes the rows of this run's scope that it did not use and those no run used for
    /// ``unusedFor`` (when it asked for any: a run none of whose buckets had a key, every file
    /// with a Takeout sidecar say, leaves them), and closes the database: call once the engine
    /// is done.
    func finish() {
        lock.lock()
        defer { lock.unlock() }
        guard let database else { return }
        guard asked else { return close() }
        do {
            let delete = try database.prepare("DELETE FROM buckets WHERE (scope = ? AND run <> ?) OR used < ?")
            delete.bind(1, scope)
            delete.bind(2, run)
            delete.bind(3, now - Self.unusedFor)
            try delete.step()
        } catch {
            fail(error)
        }
        close()
    }

    private static func bytes(of key: BucketKey) -> [UInt8] {
        withUnsafeBytes(of: (key.high.bigEndian, key.low.bigEndian)) { Array($0) }
    }

    /// `outcome` behind its checksum (``ScanCache/seal(_:)``).
    static func framed(_ outcome: [UInt8]) -> [UInt8] {
        var row = [UInt8](repeating: 0, count: 8) + outcome
        ScanCache.seal(&row)
        return row
    }

    /// The outcome `row` frames (``framed(_:)``), when its checksum matches.
    static func unframed(_ row: UnsafeRawBufferPointer) -> [UInt8]? {
        ScanCache.unsealed(row).map { Array($0) }
    }

    private func fail(_ error: any Error) {
        close()
        warn("the cache \(path) cannot keep what the rules found in each part of the library (\(ScanCache.reason(error))): "
             + "checking every part again")
    }

    private func close() {
        select = nil
        insert = nil
        touch = nil
        database?.close()
        database = nil
    }
}
