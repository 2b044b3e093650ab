import CSQLite

/// What SQLite said when a call failed: its result code and message.
struct SQLiteError: Error, Sendable, CustomStringConvertible {
    var code: Int32
    var message: String

    var description: String { "\(message) (SQLite code \(code))" }

    /// The primary result code (the low byte of an extended code).
    var primary: Int32 { code & 0xFF }
    /// The database file is not a database, or is damaged.
    var isCorrupt: Bool { primary == SQLITE_CORRUPT || primary == SQLITE_NOTADB }
    /// Another connection holds the lock longer than the busy timeout.
    var isBusy: Bool { primary == SQLITE_BUSY || primary == SQLITE_LOCKED }
}

/// One SQLite connection, the thin wrapper the lint cache needs: open, execute, prepare.
/// Not `Sendable`: one thread uses it at a time (either of the scan's two, under ``ScanCache``'s
/// lock: its reading connection steps on the lookahead's thread in a library-sized scan, and a
/// failure met there closes both).
final class SQLiteDatabase {
    private(set) var handle: OpaquePointer?

    /// Opens (creating when asked) the database at `path`. `busyTimeout` in milliseconds: how long a
    /// statement waits for another connection's lock before failing with `SQLITE_BUSY`.
    init(path: String, create: Bool = true, busyTimeout: Int32 = 10_000) throws(SQLiteError) {
        var db: OpaquePointer?
        let flags = (create ? SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE : SQLITE_OPEN_READWRITE)
            | SQLITE_OPEN_NOMUTEX
        let rc = sqlite3_open_v2(path, &db, flags, nil)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            sqlite3_close(db)
            throw SQLiteError(code: rc, message: message)
        }
        handle = db
        sqlite3_extended_result_codes(db, 1)
        sqlite3_busy_timeout(db, busyTimeout)
    }

    deinit { close() }

    func close() {
        // Statements are finalized by their owners first; v2 defers the close until they are.
        if let handle { sqlite3_close_v2(handle) }
        handle = nil
    }

    /// Runs `sql` (one or more statements, no results).
    func execute(_ sql: String) throws(SQLiteError) {
        guard let handle else { throw SQLiteError(code: SQLITE_MISUSE, message: "database closed") }
        var message: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &message)
        if rc != SQLITE_OK {
            let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(handle))
            sqlite3_free(message)
            throw SQLiteError(code: rc, message: text)
        }
    }

    func prepare(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        try SQLiteStatement(database: self, sql: sql)
    }

    /// The error for the last failed call on this connection.
    func lastError(_ rc: Int32) -> SQLiteError {
        SQLiteError(code: rc, message: handle.map { String(cString: sqlite3_errmsg($0)) } ?? "database closed")
    }

    /// The one-row, one-column answer of `sql` as text (a pragma), nil when there is no row.
    func text(_ sql: String) throws(SQLiteError) -> String? {
        let statement = try prepare(sql)
        guard try statement.step() else { return nil }
        return statement.text(0)
    }

    /// SQLite's version, `3.40.1`.
    static var libraryVersion: String { String(cString: sqlite3_libversion()) }
}

/// A prepared statement: bind, step, read columns, reset.
final class SQLiteStatement {
    private var handle: OpaquePointer?
    private let database: SQLiteDatabase

    /// `SQLITE_TRANSIENT`: SQLite copies bound text and blobs before the call returns.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    fileprivate init(database: SQLiteDatabase, sql: String) throws(SQLiteError) {
        self.database = database
        var statement: OpaquePointer?
        let rc = sqlite3_prepare_v2(database.handle, sql, -1, &statement, nil)
        guard rc == SQLITE_OK, let statement else { throw database.lastError(rc) }
        handle = statement
    }

    deinit { sqlite3_finalize(handle) }

    func bind(_ index: Int32, _ value: Int64) { sqlite3_bind_int64(handle, index, value) }
    func bind(_ index: Int32, _ value: String) { sqlite3_bind_text(handle, index, value, -1, Self.transient) }
    func bind(_ index: Int32, _ bytes: [UInt8]) {
        bytes.withUnsafeBytes { raw in
            // A zero-length blob still needs a non-nil pointer, or SQLite binds NULL.
            _ = sqlite3_bind_blob(handle, index, raw.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(raw.count), Self.transient)
        }
    }

    /// Steps once: true for a row, false when done; throws on an error.
    @discardableResult
    func step() throws(SQLiteError) -> Bool {
        let rc = sqlite3_step(handle)
        switch rc {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            let error = database.lastError(rc)
            sqlite3_reset(handle)
            throw error
        }
    }

    /// Ready to bind and step again (bindings are cleared).
    func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }
    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }
    func text(_ column: Int32) -> String? {
        guard let p = sqlite3_column_text(handle, column) else { return nil }
        return String(cString: p)
    }
    /// The column's text as UTF-8 bytes (no terminating NUL), valid inside `body` only.
    func withText<R>(_ column: Int32, _ body: (UnsafeRawBufferPointer) -> R) -> R {
        let p = sqlite3_column_text(handle, column)
        let n = Int(sqlite3_column_bytes(handle, column))
        return body(UnsafeRawBufferPointer(start: n == 0 ? nil : UnsafeRawPointer(p), count: n))
    }
    /// The column's bytes, valid until the next step or reset: read them inside `body`.
    func withBlob<R>(_ column: Int32, _ body: (UnsafeRawBufferPointer) -> R) -> R {
        let p = sqlite3_column_blob(handle, column)
        let n = Int(sqlite3_column_bytes(handle, column))
        return body(UnsafeRawBufferPointer(start: n == 0 ? nil : p, count: n))
    }
}
