import Foundation

/// The version printed by `livelint --version` and written into JSON-based reports.
public let livelintVersion = "0.1.0"

/// A failure a pipeline reports to its user as it is (no such path, bad configuration, a report
/// that cannot be written): the CLI prints `livelint: <description>` and exits 2.
public struct PipelineError: Error, Sendable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// Writes a report atomically: to a temporary file beside the target, then renamed over it, so a
/// reader never sees half a report and an interrupted run never leaves a truncated one.
public enum ReportWriter {
    public static func write(_ text: String, to path: String) throws {
        try write(to: path) { $0(text) }
    }

    /// What `body` hands its sink, piece by piece, written to a new file beside `path` (made with
    /// the permissions the umask leaves of 0666, as any new file) and renamed over it once whole:
    /// a library-sized report goes to its file without being held whole. The new file is removed
    /// when a piece cannot be written (a full disk), and the error thrown.
    public static func write(to path: String, _ body: ((String) -> Void) -> Void) throws {
        let url = URL(fileURLWithPath: path)
        let temporary = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).livelint-\(UUID().uuidString)").path
        guard FileManager.default.createFile(atPath: temporary, contents: nil),
              let handle = FileHandle(forWritingAtPath: temporary) else {
            throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: path])
        }
        var failure: (any Error)?
        var buffer = Data()
        func flush() {
            guard failure == nil, !buffer.isEmpty else { return }
            do { try handle.write(contentsOf: buffer) } catch { failure = error }
            buffer.removeAll(keepingCapacity: true)
        }
        body { piece in
            buffer.append(contentsOf: piece.utf8)
            if buffer.count >= 1 << 16 { flush() }
        }
        flush()
        do {
            if let failure { throw failure }
            try handle.synchronize()
            try handle.close()
            if rename(temporary, path) != 0 { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        } catch {
            try? handle.close()
            try? FileManager.default.removeItem(atPath: temporary)
            throw error
        }
    }
}
