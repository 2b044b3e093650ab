import Foundation
import ScratchFiles
#if canImport(Glibc)
import Glibc
#endif

/// The version printed by `livelint --version` and written into JSON-based reports.
public let livelintVersion = "0.1.0"

/// A failure a pipeline reports to its user as it is (no such path, bad configuration, a report
/// that cannot be written): the CLI prints `livelint: <description>` and exits 2.
public struct PipelineError: Error, Sendable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// Writes a report atomically: to a new file beside the target, then renamed over it, so a
/// reader never sees half a report and an interrupted run never leaves a truncated one.
public enum ReportWriter {
    public static func write(_ text: String, to path: String) throws {
        try write(to: path) { $0(text) }
    }

    /// What `body` hands its sink, piece by piece (64 KiB written at a time), put at `path`
    /// whole: a library-sized report goes to its file without being held.
    ///
    /// The new file has no name while it is written (Linux's `O_TMPFILE`, else a hidden name
    /// beside the target, removed on failure), so a run that ends half-way (Ctrl-C, a disk that
    /// fails) leaves nothing behind; once synced it is named and renamed over the target, keeping
    /// the mode of the file it replaces (0666 less the umask for a new one). A target that is not a
    /// regular file (`/dev/stdout`, a pipe) is written to as it is; where the rename cannot replace
    /// the target (a file bind-mounted into a container: `EBUSY`), it is written over in place.
    public static func write(to path: String, _ body: ((String) -> Void) -> Void) throws {
        var target = stat()
        let exists = stat(path, &target) == 0
        if exists, target.st_mode & S_IFMT != S_IFREG {
            let fd = open(path, O_WRONLY | O_CLOEXEC)
            guard fd >= 0 else { throw WriteFailure.errno() }
            defer { close(fd) }
            try stream(body, to: fd)
            return
        }
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        let named = folder + "/.\(url.lastPathComponent).livelint-\(UUID().uuidString.prefix(8))"
        // A new file is made 0666 less the umask; one that replaces another takes its mode.
        let mode = exists ? target.st_mode & 0o7777 : 0o666
        #if os(Linux)
        // O_TMPFILE (`__O_TMPFILE | O_DIRECTORY`, the same on every Linux architecture Swift runs
        // on), which Glibc's module does not export.
        var fd = open(folder, Int32(0o20000000) | O_DIRECTORY | O_RDWR | O_CLOEXEC, mode)
        let unnamed = fd >= 0
        #else
        var fd: Int32 = -1
        let unnamed = false
        #endif
        if !unnamed {
            fd = open(named, O_CREAT | O_EXCL | O_RDWR | O_CLOEXEC, mode)
            guard fd >= 0 else { throw WriteFailure.errno() }
        }
        var isNamed = !unnamed
        defer {
            close(fd)
            if isNamed { unlink(named) }
        }
        try stream(body, to: fd)
        if exists { fchmod(fd, mode) }
        guard fsync(fd) == 0 else { throw WriteFailure.errno() }
        if unnamed {
            if linkat(AT_FDCWD, "/proc/self/fd/\(fd)", AT_FDCWD, named, AT_SYMLINK_FOLLOW) != 0 {
                // No /proc to name it through: its bytes go to a named file.
                let copy = open(named, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, mode)
                guard copy >= 0 else { throw WriteFailure.errno() }
                isNamed = true
                defer { close(copy) }
                try self.copy(fd, to: copy)
                if exists { fchmod(copy, mode) }
                guard fsync(copy) == 0 else { throw WriteFailure.errno() }
            }
            isNamed = true
        }
        if rename(named, path) == 0 {
            isNamed = false
            return
        }
        guard errno == EBUSY || errno == EXDEV || errno == EINVAL else { throw WriteFailure.errno() }
        // The target cannot be replaced: its bytes are, from the new file's.
        let out = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC)
        guard out >= 0 else { throw WriteFailure.errno() }
        defer { close(out) }
        try copy(fd, to: out)
        guard fsync(out) == 0 else { throw WriteFailure.errno() }
    }

    /// Every byte of `source` (from its start) written to `out`.
    private static func copy(_ source: Int32, to out: Int32) throws {
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var offset: off_t = 0
        while true {
            let n = buffer.withUnsafeMutableBytes { pread(source, $0.baseAddress, $0.count, offset) }
            if n < 0, errno == EINTR { continue }
            guard n >= 0 else { throw WriteFailure.errno() }
            if n == 0 { return }
            try buffer.withUnsafeBytes { try writeAll(out, UnsafeRawBufferPointer(rebasing: $0[..<n])) }
            offset += off_t(n)
        }
    }

    /// `body`'s pieces written to `fd`, 64 KiB at a time.
    private static func stream(_ body: ((String) -> Void) -> Void, to fd: Int32) throws {
        var failure: WriteFailure?
        var buffer: [UInt8] = []
        buffer.reserveCapacity(1 << 17)
        func flush() {
            guard failure == nil, !buffer.isEmpty else { return }
            do { try buffer.withUnsafeBytes { try writeAll(fd, $0) } } catch { failure = error as? WriteFailure ?? .errno() }
            buffer.removeAll(keepingCapacity: true)
        }
        body { piece in
            buffer.append(contentsOf: piece.utf8)
            if buffer.count >= 1 << 16 { flush() }
        }
        flush()
        if let failure { throw failure }
    }

    /// All of `bytes` written to `fd` where it stands (a pipe or a device has no offsets).
    private static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws {
        guard TemporaryFile.whole(bytes.count, { Glibc.write(fd, bytes.baseAddress! + $0, bytes.count - $0) }) else {
            throw WriteFailure.errno()
        }
    }

    /// A system call that failed, told as the system tells it ("No space left on device").
    struct WriteFailure: LocalizedError {
        var reason: String
        var errorDescription: String? { reason }
        static func errno() -> WriteFailure { WriteFailure(reason: String(cString: strerror(Glibc.errno))) }
    }
}
