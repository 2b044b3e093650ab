#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Random-access, read-only bytes: a file or a buffer.
///
/// `read(at:count:)` returns exactly `count` bytes or throws; reading past `size` is a
/// `malformed` error ("truncated"), an operating-system failure is `io`.
public protocol ByteSource: Sendable {
    var size: Int64 { get }
    func read(at offset: Int64, count: Int) throws(ReadError) -> [UInt8]
}

extension ByteSource {
    /// Throws unless `[offset, offset + count)` lies inside the source.
    func checkRange(_ offset: Int64, _ count: Int) throws(ReadError) {
        guard offset >= 0, count >= 0 else {
            throw ReadError(.malformed, "negative read range", offset: offset)
        }
        let (end, overflow) = offset.addingReportingOverflow(Int64(count))
        guard !overflow, end <= size else {
            throw ReadError(.malformed, "read of \(count) bytes past the end of the data (size \(size))", offset: offset)
        }
    }
}

/// Bytes held in memory.
public struct MemoryByteSource: ByteSource {
    public let bytes: [UInt8]
    public init(_ bytes: [UInt8]) { self.bytes = bytes }
    public var size: Int64 { Int64(bytes.count) }
    public func read(at offset: Int64, count: Int) throws(ReadError) -> [UInt8] {
        try checkRange(offset, count)
        let start = Int(offset)
        return Array(bytes[start..<(start + count)])
    }
}

/// A file opened read-only (`O_RDONLY | O_CLOEXEC`) and read with `pread`. It never writes.
/// The descriptor is closed when the last reference goes away. `bytesRead` counts every byte
/// returned, for performance reports (the movie reader never reads `mdat` payloads it does not need).
///
/// Its first ``headLength`` bytes (the whole of a small file) are read once, when it is opened,
/// and every read inside them is served from memory: sniffing, the top-level box headers, the
/// still's first read-ahead window (``head``). A small file costs one `pread` instead of one per
/// box and segment (issue 13: a fixture pair cost fifteen).
public final class FileByteSource: ByteSource, @unchecked Sendable {
    // @unchecked: `fd`, `size` and `head` are immutable after init; the counter is guarded by `lock`.
    private let fd: Int32
    public let size: Int64
    public let path: String
    /// The file's first `min(size, headLength)` bytes as read when it was opened; empty when that
    /// read failed (each read then goes to the file, and says why it fails).
    public let head: [UInt8]
    /// Bytes read when a file is opened: four pages, exiv2's read-ahead window.
    public static let headLength = 16 * 1024
    private let lock = Lock()
    private var _bytesRead: Int64 = 0
    private var _reads: Int = 0

    /// Calls `body` with the open descriptor, for a reader that reads the same file by other means
    /// (exiv2, with `pread`): valid during the call only, never to be closed or moved (`lseek`).
    public func withDescriptor<T>(_ body: (Int32) throws -> T) rethrows -> T {
        try body(fd)
    }

    /// Opens `path`. Throws `io` when it cannot be opened or is not a regular file.
    public convenience init(path: String) throws(ReadError) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw ReadError(.io, "cannot open \(path): \(String(cString: strerror(errno)))")
        }
        try self.init(owning: fd, path: path)
    }

    /// Reads the file `descriptor` is open on (a copy of it, closed with this source; the file's
    /// size is taken now), shown as `path` in errors: a file that has no name, say an unlinked
    /// temporary file.
    public convenience init(duplicating descriptor: Int32, path: String) throws(ReadError) {
        let fd = fcntl(descriptor, F_DUPFD_CLOEXEC, 0)
        guard fd >= 0 else {
            throw ReadError(.io, "cannot read \(path): \(String(cString: strerror(errno)))")
        }
        try self.init(owning: fd, path: path)
    }

    private init(owning fd: Int32, path: String) throws(ReadError) {
        self.path = path
        var st = stat()
        guard fstat(fd, &st) == 0 else {
            let message = String(cString: strerror(errno))
            close(fd)
            throw ReadError(.io, "cannot stat \(path): \(message)")
        }
        guard (st.st_mode & S_IFMT) == S_IFREG else {
            close(fd)
            throw ReadError(.io, "\(path) is not a regular file")
        }
        self.fd = fd
        self.size = Int64(st.st_size)
        let headCount = Int(min(Int64(st.st_size), Int64(Self.headLength)))
        self.head = (try? Self.readFully(fd, at: 0, count: headCount)) ?? []
    }

    deinit { close(fd) }

    /// Total bytes returned by `read` so far.
    public var bytesRead: Int64 { lock.withLock { _bytesRead } }
    /// Number of `read` calls so far.
    public var readCount: Int { lock.withLock { _reads } }

    public func read(at offset: Int64, count: Int) throws(ReadError) -> [UInt8] {
        try checkRange(offset, count)
        if count == 0 { return [] }
        let bytes = offset + Int64(count) <= Int64(head.count)
            ? Array(head[Int(offset)..<(Int(offset) + count)])
            : try Self.readFully(fd, at: offset, count: count)
        lock.withLock {
            _bytesRead += Int64(count)
            _reads += 1
        }
        return bytes
    }

    /// `count` bytes of the file `fd` is open on, from `offset`, with `pread`; throws `io` when the
    /// system refuses or the file ends first.
    private static func readFully(_ fd: Int32, at offset: Int64, count: Int) throws(ReadError) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: count)
        var done = 0
        var failure: Int32 = 0
        buffer.withUnsafeMutableBytes { raw in
            guard let base = raw.baseAddress else { return }
            while done < count {
                let n = pread(fd, base + done, count - done, off_t(offset + Int64(done)))
                if n < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                if n == 0 { return }  // file shrank under us
                done += n
            }
        }
        if failure != 0 {
            throw ReadError(.io, "read failed: \(String(cString: strerror(failure)))", offset: offset)
        }
        guard done == count else {
            throw ReadError(.io, "file ended after \(done) of \(count) bytes (changed while reading?)", offset: offset)
        }
        return buffer
    }
}

/// A minimal mutex (pthread), so the module needs neither Foundation nor newer OS versions.
final class Lock: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }
    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }
    func withLock<T>(_ body: () -> T) -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body()
    }
}
