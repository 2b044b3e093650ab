import Foundation
import ScratchFiles

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
            guard fd >= 0 else { throw WriteFailure.last() }
            defer { close(fd) }
            try stream(body, to: fd)
            return
        }
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        let named = folder + "/.\(url.lastPathComponent).livelint-\(UUID().uuidString.prefix(8))"
        // A new file is made 0666 less the umask; one that replaces another takes its mode.
        let mode = exists ? target.st_mode & 0o7777 : 0o666
        // Unnamed until whole where it can be named through /proc (O_TMPFILE: `__O_TMPFILE |
        // O_DIRECTORY`, the same on every Linux architecture Swift runs on, which Glibc's module
        // does not export); else under a hidden name, removed on failure.
        var fd: Int32 = -1
        #if os(Linux)
        if access("/proc/self/fd", F_OK) == 0 { fd = open(folder, Int32(0o20000000) | O_DIRECTORY | O_RDWR | O_CLOEXEC, mode) }
        #endif
        let unnamed = fd >= 0
        if !unnamed {
            fd = open(named, O_CREAT | O_EXCL | O_RDWR | O_CLOEXEC, mode)
            guard fd >= 0 else { throw WriteFailure.last() }
        }
        var isNamed = !unnamed
        defer {
            close(fd)
            if isNamed { unlink(named) }
        }
        let size = try stream(body, to: fd)
        if exists { fchmod(fd, mode) }
        guard fsync(fd) == 0 else { throw WriteFailure.last() }
        if unnamed {
            guard linkat(AT_FDCWD, "/proc/self/fd/\(fd)", AT_FDCWD, named, AT_SYMLINK_FOLLOW) == 0 else { throw WriteFailure.last() }
            isNamed = true
        }
        if rename(named, path) == 0 {
            isNamed = false
            return
        }
        guard errno == EBUSY || errno == EXDEV || errno == EINVAL else { throw WriteFailure.last() }
        // The target cannot be replaced: its bytes are, from the new file's, 64 KiB at a time.
        let out = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC)
        guard out >= 0 else { throw WriteFailure.last() }
        defer { close(out) }
        var block = [UInt8](repeating: 0, count: 1 << 16)
        var offset = 0
        while offset < size {
            let n = min(block.count, size - offset)
            try block.withUnsafeMutableBytes { block in
                let part = UnsafeMutableRawBufferPointer(rebasing: block[..<n])
                guard TemporaryFile.read(fd, into: part, at: Int64(offset)), TemporaryFile.write(out, UnsafeRawBufferPointer(part))
                else { throw WriteFailure.last() }
            }
            offset += n
        }
        guard fsync(out) == 0 else { throw WriteFailure.last() }
    }

    /// `body`'s pieces written to `fd`, 64 KiB at a time; how many bytes.
    @discardableResult
    private static func stream(_ body: ((String) -> Void) -> Void, to fd: Int32) throws -> Int {
        var failure: WriteFailure?
        var size = 0
        var buffer: [UInt8] = []
        buffer.reserveCapacity(1 << 17)
        func flush() {
            guard failure == nil, !buffer.isEmpty else { return }
            if !buffer.withUnsafeBytes({ TemporaryFile.write(fd, $0) }) { failure = .last() }
            size += buffer.count
            buffer.removeAll(keepingCapacity: true)
        }
        body { piece in
            buffer.append(contentsOf: piece.utf8)
            if buffer.count >= 1 << 16 { flush() }
        }
        flush()
        if let failure { throw failure }
        return size
    }

    /// A system call that failed, told as the system tells it ("No space left on device").
    struct WriteFailure: LocalizedError {
        var reason: String
        var errorDescription: String? { reason }
        /// The last system call's failure.
        static func last() -> WriteFailure { WriteFailure(reason: String(cString: strerror(errno))) }
    }
}
