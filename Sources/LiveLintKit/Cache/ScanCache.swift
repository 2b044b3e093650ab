import CSQLite
import Foundation
import Synchronization
import LiveLintEngine
import LiveModel

/// Where `lint` keeps its cache, and whether it uses one.
public enum CacheSetting: Sendable, Hashable {
    /// No cache: every file is read.
    case off
    /// The cache in this folder (created when missing).
    case directory(String)

    /// `$XDG_CACHE_HOME/livelint`, else `~/.cache/livelint` (the XDG Base Directory default), as
    /// `environment` gives them; nil when neither variable is set.
    public static func defaultDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        // The specification: a relative XDG_CACHE_HOME is invalid and must be ignored.
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") { return xdg + "/livelint" }
        if let home = environment["HOME"], !home.isEmpty { return home + "/.cache/livelint" }
        return nil
    }
}

/// The lint cache: an SQLite database of slim file records (``RecordCodec``), one per path, each
/// stored with the ``FileStamp`` it was read under and the set of metadata keys kept.
///
/// A record is reused only when the file's device, inode, size, mtime and ctime (nanoseconds) and
/// the metadata keys are unchanged, and the database was written by this livelint version and
/// record format; every other file is read again, and its record replaced. The database is in WAL
/// mode with a busy timeout, so runs at once on one cache each see a consistent database and wait
/// for each other's short write transactions. A cache that cannot be used (damaged, from another
/// version, unwritable, a full disk, locked too long) costs speed, never correctness: one warning,
/// then the run reads what it must. A damaged or other-version database is rebuilt.
///
/// One lock guards it: lookups (a thread of their own in a library-sized scan, ``CacheLookahead``)
/// and stores (the task delivering the scan's files) may come from two threads, one at a time.
final class ScanCache: @unchecked Sendable {
    static let fileName = "lint-cache.sqlite3"
    /// Records of files whose ctime is this close to the moment they were stat'ed are not kept:
    /// a file rewritten again within the file system's timestamp granularity could keep the same
    /// stamp (git's "racily clean" entries). Such files are read again next time.
    static let settleNanoseconds: Int64 = 1_000_000_000
    /// Records written together in one transaction, at most.
    static let batch = 2_000
    /// How long a record may wait before those waiting are written.
    static let flushInterval: Duration = .milliseconds(250)

    /// A record to keep: ``RecordCodec/encode(_:)`` of a slim file, the file's key (``key(for:)``)
    /// and the stamp it was read under.
    struct Record: Sendable {
        let key: String
        let stamp: FileStamp
        let bytes: [UInt8]
        /// ``ScanCache/checksum(_:)`` of `bytes`, worked out where the record is made.
        let checksum: Int64
        /// What the scan made of the file besides (``CachedFacts``, encoded), when it keeps any.
        var facts: [UInt8]?

        init(key: String, stamp: FileStamp, bytes: [UInt8], facts: [UInt8]? = nil) {
            self.key = key
            self.stamp = stamp
            self.bytes = bytes
            checksum = bytes.withUnsafeBytes { ScanCache.checksum($0) }
            self.facts = facts
        }
    }

    /// Facts made for a record already in the cache (a hit whose facts were missing or of another
    /// signature): written to its row only while the row still holds the record of `checksum`
    /// they were made from (another run may have replaced it meanwhile).
    struct FactsUpdate: Sendable {
        var key: String
        var checksum: Int64
        var facts: [UInt8]
    }

    /// A record found valid: the file decoded, or, when facts of the signature asked for are kept
    /// with it, those facts instead (the file is not decoded then).
    enum Hit {
        /// `bytes` when kept (`keepingBytes`), and
        /// what a caller that asked for facts and got none needs to store them: the record's
        /// checksum and where its movie's tracks lie.
        case file(MediaFile, bytes: [UInt8]?, checksum: Int64, tracks: Range<Int>?)
        /// The facts, and the record's bytes as kept (cut when `droppingTracks`), appended to the
        /// caller's buffer at `record`: no array made for them.
        case facts(CachedFacts, record: Range<Int>)
    }

    let path: String
    /// Two connections: one reads the records in key order through one cursor (a snapshot taken
    /// at the start of the scan), the other writes new records in short transactions.
    private var database: SQLiteDatabase?
    private var readDatabase: SQLiteDatabase?
    private var cursor: SQLiteStatement?
    private var insert: SQLiteStatement?
    /// The cursor's state: whether it stands on a row, and the last key asked for.
    private var onRow = false
    private var lastKey: [UInt8] = []
    /// Records waiting to be written. They are written together in one short transaction when
    /// ``batch`` wait or the first has waited ``flushInterval``, and at the end, so the write lock
    /// is held only while inserting, never while files are read: runs at once on one cache (the
    /// README's parallel shards) wait milliseconds for each other, not a batch of reads, which on
    /// a slow disk could outlast the busy timeout and cost a run its cache.
    private var waiting: [Record] = []
    private var waitingFacts: [FactsUpdate] = []
    private var updateFacts: SQLiteStatement?
    private var firstWaiting: ContinuousClock.Instant?
    private let keySignature: Int64
    private let names: RecordCodec.Names
    /// Set by the scan's task alone (``handOverWarning(to:)``), read by ``handOverWarning()``.
    private var warn: (String) -> Void
    private var warned = false
    /// The run's one warning, made under the lock and handed to `warn` outside it by the scan's
    /// task alone (its progress display is that task's): by ``handOverWarning()``, which a store
    /// and ``finish()`` call, and the scan after the opening (``handOverWarning(to:)``: the cache
    /// may be opened on another thread, beside the walk) and after each file's lookup.
    /// ``lookup(key:displayPath:stamp:keepingBytes:droppingTracks:facts:appendingTo:)`` never
    /// does: it may run on the lookahead's thread (``CacheLookahead``).
    private var heldWarning: String?
    /// True while a warning is held: the scan's check after each lookup reads this, not the lock.
    private let warningHeld = Atomic<Bool>(false)
    /// True while lookups can hit (the cursor is open), read without the lock.
    private let usable = Atomic<Bool>(false)
    /// The current directory, for making relative paths absolute (the key of a record).
    private let workingDirectory: String

    /// The scanned folders, as absolute key prefixes ending in `/`, and whether hidden files are
    /// listed: what decides that a record the cursor steps over is of a file that is gone.
    let roots: [String]
    private let includeHidden: Bool
    /// Keys of records of files no longer listed, deleted by ``finish()``; the key before the
    /// current one (empty after a seek).
    private var stale: [String] = []
    private var lastStaleBound: [UInt8] = []
    static let maxStale = 100_000

    /// Held by every method that reads or changes the databases or the cursor.
    private let lock = NSLock()

    /// Opens the cache in `directory` for an engine that keeps `metadataKeys`; `warn` is called at
    /// most once, with a line for the user, when the cache cannot be used (then every lookup misses).
    /// What the opening notes waits for the first store, ``finish()`` or ``handOverWarning(to:)``
    /// (which gives `warn` too: a cache opened beside the walk, on another thread than the scan's).
    init(directory: String, metadataKeys: Set<String>, roots: [String] = [], includeHidden: Bool = false,
         warn: @escaping (String) -> Void = { _ in }) {
        path = directory.hasSuffix("/") ? directory + Self.fileName : directory + "/" + Self.fileName
        keySignature = Int64(bitPattern: Shard.fnv1a(metadataKeys.sorted().joined(separator: "\n")))
        names = RecordCodec.Names(metadataKeys)
        self.warn = warn
        let cwd = FileManager.default.currentDirectoryPath
        workingDirectory = cwd
        self.roots = roots.map { root in
            let trimmed = root.hasSuffix("/") ? root : root + "/"
            if trimmed.hasPrefix("/") { return trimmed }
            let relative = trimmed.hasPrefix("./") ? String(trimmed.dropFirst(2)) : trimmed
            return relative == "./" || relative.isEmpty ? (cwd.hasSuffix("/") ? cwd : cwd + "/")
                : (cwd.hasSuffix("/") ? cwd : cwd + "/") + relative
        }
        self.includeHidden = includeHidden
        defer { usable.store(cursor != nil, ordering: .releasing) }
        if let problem = Self.makeDirectories(directory) {
            disable("cannot create the cache folder \(directory) (\(problem)): running without it")
            return
        }
        open(retrying: true)
    }

    /// `mkdir -p`; nil when the folder exists or was made, else what went wrong (`Not a directory`).
    static func makeDirectories(_ path: String) -> String? {
        var st = stat()
        if stat(path, &st) == 0 { return (st.st_mode & S_IFMT) == S_IFDIR ? nil : String(cString: strerror(ENOTDIR)) }
        let parent = PathText.parent(of: path)
        if !parent.isEmpty, parent != path, let problem = makeDirectories(parent) { return problem }
        guard mkdir(path, 0o755) == 0 || errno == EEXIST else { return String(cString: strerror(errno)) }
        return nil
    }

    /// The table's layout: 2 since each record's facts are kept beside it (``CachedFacts``) and
    /// checksums are ``checksum(_:)``'s, 3 since the facts carry their record's checksum; 1 (no
    /// such key) before.
    static let tableFormat = 3

    /// The database's identity: which livelint, record format and table layout wrote it.
    static var identity: [String: String] {
        ["livelint": livelintVersion, "format": String(RecordCodec.format), "table": String(tableFormat)]
    }

    /// How many times an open that SQLite refused at once as busy is tried again.
    static let busyRetries = 10

    private func open(retrying: Bool, busyRetries: Int = ScanCache.busyRetries) {
        let started = ContinuousClock.now
        do {
            let db = try SQLiteDatabase(path: path)
            database = db
            _ = try db.text("PRAGMA journal_mode=WAL")
            try db.execute("PRAGMA synchronous=NORMAL")
            try db.execute("BEGIN IMMEDIATE")
            try db.execute("CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL)")
            let stored = try Self.readMeta(db)
            // The table's columns, checked too: a livelint that knew no "table" key rebuilds the
            // table its own way and leaves the key another wrote (issue 13: seen with an older build
            // and this one taking turns on one cache).
            let columns = try Self.columns(of: "files", in: db)
            if stored != Self.identity || (!columns.isEmpty && columns != Self.columns) {
                if stored == Self.identity {
                    let names = columns.map { $0.split(separator: " ").first.map(String.init) ?? $0 }
                    note("the cache \(path) holds a table another livelint made (its columns: \(names.joined(separator: ", "))): rebuilding it")
                } else if !stored.isEmpty {
                    note("the cache \(path) was written by livelint \(stored["livelint"] ?? "?") "
                         + "(record format \(stored["format"] ?? "?"), table format \(stored["table"] ?? "1")): rebuilding it")
                }
                // Another version's table may have other columns: made anew, not emptied (the
                // buckets' outcomes too: ``OutcomeCache``).
                try db.execute("DROP TABLE IF EXISTS files")
                try db.execute("DROP TABLE IF EXISTS buckets")
                try db.execute("DELETE FROM meta")
                let set = try db.prepare("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)")
                for (key, value) in Self.identity.sorted(by: { $0.key < $1.key }) {
                    set.bind(1, key)
                    set.bind(2, value)
                    try set.step()
                    set.reset()
                }
            }
            try db.execute(Self.createTable)
            try db.execute("COMMIT")
            let reader = try SQLiteDatabase(path: path, create: false)
            readDatabase = reader
            // One ordered pass reads each page once: a small page cache (2 MiB) is enough.
            try reader.execute("PRAGMA cache_size=-2048")
            cursor = try reader.prepare("""
                SELECT path, device, inode, size, mtime, ctime, keys, checksum, record, facts FROM files
                WHERE path >= ? ORDER BY path
                """)
            insert = try db.prepare("""
                INSERT OR REPLACE INTO files(path, device, inode, size, mtime, ctime, keys, checksum, record, facts)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
            updateFacts = try db.prepare("UPDATE files SET facts = ? WHERE path = ? AND checksum = ?")
        } catch where error.isCorrupt && retrying {
            note("the cache \(path) is damaged (\(error.message)): rebuilding it")
            closeDatabase()
            Self.removeFiles(at: path)
            open(retrying: false)
        } catch where error.primary == SQLITE_BUSY && busyRetries > 0
                        && ContinuousClock.now - started < .seconds(1) {
            // Refused at once, not after the busy timeout: SQLite answers busy without waiting when
            // waiting could deadlock, as when several runs make a new cache at the same moment and
            // one asks for the log mode while another reads (seen about once in 600 runs with 16
            // shards at once). Tried again shortly, the race is over.
            closeDatabase()
            usleep(useconds_t(20_000 + Int.random(in: 0..<30_000)))
            open(retrying: retrying, busyRetries: busyRetries - 1)
        } catch {
            disable("cannot use the cache \(path) (\(Self.reason(error))): running without it")
        }
    }

    static let createTable = """
        CREATE TABLE IF NOT EXISTS files(
            path TEXT PRIMARY KEY, device INTEGER NOT NULL, inode INTEGER NOT NULL, size INTEGER NOT NULL,
            mtime INTEGER NOT NULL, ctime INTEGER NOT NULL, keys INTEGER NOT NULL, checksum INTEGER NOT NULL,
            record BLOB NOT NULL, facts BLOB) WITHOUT ROWID
        """

    /// The columns of the table this build makes; empty if that fails, which only costs a rebuild.
    static let columns = columns(of: "files", madeBy: createTable)

    /// ``columns(of:in:)`` of `table` as `create` makes it, in a database in memory; empty if that
    /// fails.
    static func columns(of table: String, madeBy create: String) -> [String] {
        guard let db = try? SQLiteDatabase(path: ":memory:") else { return [] }
        defer { db.close() }
        guard (try? db.execute(create)) != nil else { return [] }
        return (try? columns(of: table, in: db)) ?? []
    }

    /// The columns of `table` in `db`, in order, each as its name, declared type, whether it may
    /// not be null and its place in the primary key; empty when there is no such table.
    static func columns(of table: String, in db: SQLiteDatabase) throws(SQLiteError) -> [String] {
        let statement = try db.prepare("SELECT name, type, \"notnull\", pk FROM pragma_table_info(?) ORDER BY cid")
        statement.bind(1, table)
        var out: [String] = []
        while try statement.step() {
            out.append("\(statement.text(0) ?? "") \(statement.text(1) ?? "") \(statement.int64(2)) \(statement.int64(3))")
        }
        return out
    }

    static func readMeta(_ db: SQLiteDatabase) throws(SQLiteError) -> [String: String] {
        let statement = try db.prepare("SELECT key, value FROM meta")
        var out: [String: String] = [:]
        while try statement.step() {
            if let k = statement.text(0), let v = statement.text(1) { out[k] = v }
        }
        return out
    }

    /// The record's key: the path made absolute (not resolved: a miss only costs a read).
    func key(for openPath: String) -> String {
        if openPath.hasPrefix("/") { return openPath }
        let relative = openPath.hasPrefix("./") ? String(openPath.dropFirst(2)) : openPath
        return workingDirectory.hasSuffix("/") ? workingDirectory + relative : workingDirectory + "/" + relative
    }

    /// The file's cached record, shown as `displayPath`, when it is still valid for `stamp`.
    ///
    /// Keys are looked up through one cursor walking the table in key order, as a scan asks for
    /// them (the walker lists paths in byte order): a step or two per file instead of a B-tree
    /// search, and each page read once. A key before the last one, or far ahead, re-seeks.
    /// With `keepingBytes`, the record's bytes as stored come too (a spilling scan keeps them as
    /// they are instead of encoding the file again), without the movie's tracks when
    /// `droppingTracks` (a run that draws no timeline, ``RecordCodec/cut(_:tracks:)``). With `facts`, the
    /// signature of the facts wanted (``CachedFacts/signature(rules:pathHash:)``), a hit whose
    /// row keeps facts of that signature gives them, its record's bytes appended to `buffer` (as
    /// kept, cut when `droppingTracks`), without decoding the file. Facts are given only with
    /// `keepingBytes`. A warning it makes waits for ``handOverWarning()``.
    func lookup(key: String, displayPath: String, stamp: FileStamp, keepingBytes: Bool, droppingTracks: Bool,
                facts: UInt64?, appendingTo buffer: inout [UInt8]) -> Hit? {
        lock.lock()
        defer { lock.unlock() }
        return lookupLocked(key: key, displayPath: displayPath, stamp: stamp, keepingBytes: keepingBytes,
                            droppingTracks: droppingTracks, facts: facts, buffer: &buffer)
    }

    /// `body` under the lock; then the warning it made, if any, handed to `warn` outside it.
    private func locked<R>(_ body: () -> R) -> R {
        lock.lock()
        let result = body()
        lock.unlock()
        handOverWarning()
        return result
    }

    /// From now on hands the run's warning to `warn`, starting with the one held, if any (from
    /// the scan's task, for a cache opened elsewhere).
    func handOverWarning(to warn: @escaping (String) -> Void) {
        self.warn = warn
        handOverWarning()
    }

    /// Hands the warning held, if any, to `warn` (from the scan's task: see ``heldWarning``).
    func handOverWarning() {
        guard warningHeld.load(ordering: .acquiring) else { return }
        lock.lock()
        let message = heldWarning
        heldWarning = nil
        warningHeld.store(false, ordering: .releasing)
        lock.unlock()
        if let message { warn(message) }
    }

    private func lookupLocked(key: String, displayPath: String, stamp: FileStamp, keepingBytes: Bool, droppingTracks: Bool,
                              facts: UInt64?, buffer: inout [UInt8]) -> Hit? {
        guard let cursor else { return nil }
        var key = key
        return key.withUTF8 { keyBytes -> Hit? in
            do {
                let ahead = keyBytes.lexicographicallyPrecedes(lastKey) == false
                if !ahead || lastKey.isEmpty { try seek(keyBytes) }
                // The two keys' buffers trade places, their room kept (no array made a file).
                if ahead && !lastKey.isEmpty { swap(&lastStaleBound, &lastKey) } else { lastStaleBound.removeAll(keepingCapacity: true) }
                lastKey.removeAll(keepingCapacity: true)
                lastKey.append(contentsOf: keyBytes)
                var skipped = 0
                while onRow {
                    let order = cursor.withText(0) { Self.compare($0, keyBytes) }
                    if order > 0 { break }
                    if order < 0 {
                        // A record between two listed files of one scanned folder is of a file
                        // no longer there (deleted, renamed): dropped at the end of the scan.
                        let row = cursor.withText(0) { String(decoding: $0, as: UTF8.self) }
                        if stale.count < Self.maxStale,
                           Self.isStale(row, between: lastStaleBound, and: keyBytes, roots: roots, includeHidden: includeHidden) {
                            stale.append(row)
                        }
                        skipped += 1
                        if skipped > 64 {
                            try seek(keyBytes)
                            skipped = Int.min  // seek once only
                        } else {
                            onRow = try cursor.step()
                        }
                        continue
                    }
                    let file = matching(stamp: stamp, displayPath: displayPath, keepingBytes: keepingBytes,
                                        droppingTracks: droppingTracks, facts: keepingBytes ? facts : nil, buffer: &buffer)
                    onRow = try cursor.step()
                    return file
                }
                return nil
            } catch {
                fail(error)
                return nil
            }
        }
    }

    /// True when `row` (a key the cursor passed between the listed keys `before` and `after`) is
    /// of a file the walk would have listed: both keys and the row under one scanned folder, and
    /// no hidden component unless hidden files are listed.
    static func isStale(_ row: String, between before: [UInt8], and after: UnsafeBufferPointer<UInt8>,
                        roots: [String], includeHidden: Bool) -> Bool {
        guard !before.isEmpty else { return false }
        let afterKey = String(decoding: after, as: UTF8.self), beforeKey = String(decoding: before, as: UTF8.self)
        guard let root = roots.first(where: { row.hasPrefix($0) && beforeKey.hasPrefix($0) && afterKey.hasPrefix($0) })
        else { return false }
        return includeHidden || !row.dropFirst(root.count).split(separator: "/").contains { $0.hasPrefix(".") }
    }

    /// Puts the cursor on the first row at or after `key`.
    private func seek(_ key: UnsafeBufferPointer<UInt8>) throws(SQLiteError) {
        guard let cursor else { return }
        cursor.reset()
        cursor.bind(1, String(decoding: key, as: UTF8.self))
        onRow = try cursor.step()
    }

    /// The record on the cursor's row when its stamp, keys and checksum match: its facts of the
    /// signature `facts` when the row keeps them, else the file decoded.
    private func matching(stamp: FileStamp, displayPath: String, keepingBytes: Bool,
                          droppingTracks: Bool, facts signature: UInt64?, buffer: inout [UInt8]) -> Hit? {
        guard let cursor,
              cursor.int64(1) == stamp.device, cursor.int64(2) == stamp.inode, cursor.int64(3) == stamp.size,
              cursor.int64(4) == stamp.modified, cursor.int64(5) == stamp.changed, cursor.int64(6) == keySignature
        else { return nil }
        let checksum = cursor.int64(7)
        let facts = signature.flatMap { signature in
            cursor.isNull(9) ? nil : cursor.withBlob(9) { CachedFacts.decode($0, signature: signature, record: checksum, names: names) }
        }
        return cursor.withBlob(8) { bytes -> Hit? in
            guard Self.checksum(bytes) == checksum else { return nil }
            // Copied once from the row: cut there when the run drops the timeline.
            if let facts, facts.tracks.map({ $0.upperBound <= bytes.count }) ?? true {
                let start = buffer.count
                RecordCodec.append(bytes, cutting: droppingTracks ? facts.tracks : nil, to: &buffer)
                return .facts(facts, record: start..<buffer.count)
            }
            guard let (file, tracks) = RecordCodec.decodeNotingTracks(bytes, path: displayPath, names: names) else { return nil }
            guard keepingBytes else { return .file(file, bytes: nil, checksum: checksum, tracks: tracks) }
            // Room for the whole record made once (cutting appends it in three pieces).
            var kept: [UInt8] = []
            kept.reserveCapacity(bytes.count)
            RecordCodec.append(bytes, cutting: droppingTracks ? tracks : nil, to: &kept)
            return .file(file, bytes: kept, checksum: checksum, tracks: tracks)
        }
    }

    /// memcmp order of two UTF-8 strings (SQLite's BINARY collation, the walker's order).
    private static func compare(_ a: UnsafeRawBufferPointer, _ b: UnsafeBufferPointer<UInt8>) -> Int {
        PathText.compare(a.assumingMemoryBound(to: UInt8.self), b)
    }

    /// Keeps `record`, unless its file changed too close to `now` (the scan's start) to be trusted.
    func store(_ record: Record, now: Int64) {
        locked {
            guard insert != nil, database != nil, now - record.stamp.changed >= Self.settleNanoseconds else { return }
            if waiting.isEmpty, waitingFacts.isEmpty { firstWaiting = .now }
            waiting.append(record)
            flushIfDue()
        }
    }

    /// Keeps `update`'s facts with the record already cached.
    func store(_ update: FactsUpdate) {
        locked {
            guard updateFacts != nil, database != nil else { return }
            if waiting.isEmpty, waitingFacts.isEmpty { firstWaiting = .now }
            waitingFacts.append(update)
            flushIfDue()
        }
    }

    private func flushIfDue() {
        if waiting.count + waitingFacts.count >= Self.batch
            || firstWaiting.map({ ContinuousClock.now - $0 >= Self.flushInterval }) == true {
            flush()
        }
    }

    /// Writes the waiting records in one transaction.
    private func flush() {
        let records = waiting, updates = waitingFacts
        waiting = []
        waitingFacts = []
        firstWaiting = nil
        guard !records.isEmpty || !updates.isEmpty, let insert, let updateFacts, let database else { return }
        var inTransaction = false
        do {
            try database.execute("BEGIN IMMEDIATE")
            inTransaction = true
            for record in records {
                insert.bind(1, record.key)
                insert.bind(2, record.stamp.device)
                insert.bind(3, record.stamp.inode)
                insert.bind(4, record.stamp.size)
                insert.bind(5, record.stamp.modified)
                insert.bind(6, record.stamp.changed)
                insert.bind(7, keySignature)
                insert.bind(8, record.checksum)
                insert.bind(9, record.bytes)
                if let facts = record.facts { insert.bind(10, facts) }
                try insert.step()
                insert.reset()
            }
            for update in updates {
                updateFacts.bind(1, update.facts)
                updateFacts.bind(2, update.key)
                updateFacts.bind(3, update.checksum)
                try updateFacts.step()
                updateFacts.reset()
            }
            try database.execute("COMMIT")
        } catch {
            insert.reset()
            updateFacts.reset()
            if inTransaction { try? database.execute("ROLLBACK") }
            fail(error)
        }
    }

    /// Commits what was stored; call once the scan's reading is done.
    func finish() {
        locked(finishLocked)
    }

    private func finishLocked() {
        // The reader's snapshot ends first, so the last commit can checkpoint the log.
        cursor = nil
        readDatabase?.close()
        readDatabase = nil
        flush()
        do {
            if !stale.isEmpty, let database {
                try database.execute("BEGIN IMMEDIATE")
                let delete = try database.prepare("DELETE FROM files WHERE path = ?")
                for key in stale {
                    delete.bind(1, key)
                    try delete.step()
                    delete.reset()
                }
                try database.execute("COMMIT")
            }
        } catch { fail(error) }
        closeDatabase()
    }

    /// An error while in use: one warning, and no cache for the rest of the run (what was committed stays).
    /// A damaged database (found mid-run, say a truncated file) is removed, so the next run rebuilds it.
    private func fail(_ error: any Error) {
        waiting = []
        waitingFacts = []
        if let e = error as? SQLiteError, e.isCorrupt {
            disable("the cache \(path) is damaged (\(e.message)): reading the remaining files without it; the next run rebuilds it")
            Self.removeFiles(at: path)
            return
        }
        disable("the cache \(path) stopped working (\(Self.reason(error))): reading the remaining files without it")
    }

    private func disable(_ message: String) {
        closeDatabase()
        note(message)
    }

    /// The run's one warning, held for the scan's task to hand over (``handOverWarning()``).
    private func note(_ message: String) {
        guard !warned else { return }
        warned = true
        heldWarning = message
        warningHeld.store(true, ordering: .releasing)
    }

    private func closeDatabase() {
        usable.store(false, ordering: .releasing)
        cursor = nil
        insert = nil
        updateFacts = nil
        onRow = false
        readDatabase?.close()
        readDatabase = nil
        database?.close()
        database = nil
    }

    /// True while lookups can hit.
    var isUsable: Bool { usable.load(ordering: .acquiring) }

    /// True once the run's one warning was made (the cache failed, or was rebuilt).
    var hasWarned: Bool {
        lock.lock()
        defer { lock.unlock() }
        return warned
    }

    static func reason(_ error: any Error) -> String {
        if let e = error as? SQLiteError {
            switch e.primary {
            case SQLITE_FULL: return "disk full"
            case SQLITE_READONLY, SQLITE_CANTOPEN, SQLITE_PERM, SQLITE_AUTH: return "not writable: \(e.message)"
            case SQLITE_BUSY, SQLITE_LOCKED: return "locked by another process for too long"
            default: return e.message
            }
        }
        if let e = error as? CocoaError, let underlying = e.userInfo[NSUnderlyingErrorKey] as? NSError {
            return underlying.localizedDescription
        }
        return error.localizedDescription
    }

    /// ``RecordCodec/hash(_:)`` of a record's bytes: a damaged record that still decodes is not
    /// trusted. (It was 64-bit FNV-1a, a byte a step, until the table's format 2: 3 % of a cached
    /// scan of 50,000 pairs went to it, issue 13.)
    static func checksum(_ bytes: UnsafeRawBufferPointer) -> Int64 {
        Int64(bitPattern: RecordCodec.hash(bytes))
    }

    /// Puts in `bytes`' first 8 (kept free for it) the ``checksum(_:)`` of the rest, little-endian:
    /// how a row's facts and a bucket's outcome are kept (``unsealed(_:)``).
    static func seal(_ bytes: inout [UInt8]) {
        let sum = bytes[8...].withUnsafeBytes { checksum($0) }
        withUnsafeBytes(of: sum.littleEndian) { bytes.replaceSubrange(0..<8, with: $0) }
    }

    /// What `row` holds after its checksum (``seal(_:)``), when the checksum matches.
    static func unsealed(_ row: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer? {
        guard row.count >= 8 else { return nil }
        let rest = UnsafeRawBufferPointer(rebasing: row[8...])
        return checksum(rest) == Int64(littleEndian: row.loadUnaligned(as: Int64.self)) ? rest : nil
    }

    /// Removes the database and its WAL and shared-memory files.
    static func removeFiles(at path: String) {
        for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) }
    }
}
