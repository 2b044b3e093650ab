#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// The temporary files a library-sized scan writes aside (the walk's listing, the file summaries,
/// the full records: issue 13), made the one way: in a folder the caller names (`$TMPDIR`, else
/// `/var/tmp`), unlinked as soon as made so that nothing is left behind however the run ends,
/// closed on `exec`, written with `pwrite` and read back through a read-only map (whose reads do
/// not count in `/proc/<pid>/io`'s `rchar`), or with `pread` (``read(_:into:at:)`` here, or a
/// ``FileByteSource`` made with `init(duplicating:path:)` by the modules that have ISOBMFF) when
/// it cannot be mapped.
public enum TemporaryFile {
    /// A new file in `directory`, its name starting with `prefix`, already unlinked; -1 when none
    /// can be made (no such folder, no room, no right).
    public static func make(in directory: String, prefix: String) -> Int32 {
        var template = Array((directory + "/" + prefix + "-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { return -1 }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        // A file-size limit (`ulimit -f`) then fails a write with EFBIG, handled as a full disk,
        // instead of killing the run with SIGXFSZ.
        signal(SIGXFSZ, SIG_IGN)
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        return fd
    }

    /// Writes all of `bytes` at `offset`; false when the disk refused some of them.
    public static func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, at offset: Int64) -> Bool {
        whole(bytes.count) { done in pwrite(fd, bytes.baseAddress! + done, bytes.count - done, off_t(offset) + off_t(done)) }
    }

    /// Writes all of `bytes` where `fd` stands (a pipe or a device has no offsets); false when
    /// some of them could not be.
    public static func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Bool {
        #if canImport(Glibc)
        whole(bytes.count) { done in Glibc.write(fd, bytes.baseAddress! + done, bytes.count - done) }
        #else
        whole(bytes.count) { done in Darwin.write(fd, bytes.baseAddress! + done, bytes.count - done) }
        #endif
    }

    /// Reads `bytes.count` bytes at `offset` into `bytes`; false when they cannot all be read.
    public static func read(_ fd: Int32, into bytes: UnsafeMutableRawBufferPointer, at offset: Int64) -> Bool {
        whole(bytes.count) { done in pread(fd, bytes.baseAddress! + done, bytes.count - done, off_t(offset) + off_t(done)) }
    }

    /// Calls `transfer` with the bytes done so far until `count` are (a call interrupted by a
    /// signal is made again); false when one moves none or fails.
    public static func whole(_ count: Int, _ transfer: (_ done: Int) -> Int) -> Bool {
        var done = 0
        while done < count {
            let n = transfer(done)
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { return false }
            done += n
        }
        return true
    }

    /// The first `count` bytes of the file mapped read-only; nil when they cannot be.
    public static func map(_ fd: Int32, count: Int) -> UnsafeMutableRawPointer? {
        guard count > 0 else { return nil }
        let p = mmap(nil, count, PROT_READ, MAP_SHARED, fd, 0)
        guard let p, p != MAP_FAILED else { return nil }
        return p
    }

    /// Drops `count` bytes of a map at `start` from the resident set (they stay in the page
    /// cache), from the start of the page `start` is in.
    public static func release(_ start: UnsafeRawPointer, count: Int) {
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let address = Int(bitPattern: start)
        let first = address - address % max(1, page)
        _ = madvise(UnsafeMutableRawPointer(bitPattern: first), count + (address - first), MADV_DONTNEED)
    }

    /// Ends the run: a temporary file in `directory` could not be read back (the disk failed
    /// under the scan). What it held cannot be made again, and a report without it would be wrong
    /// without a word; the run says so on stderr and exits with status 2, an internal error (as
    /// a map of such a file raises SIGBUS).
    public static func failedReadBack(in directory: String) -> Never {
        let reason = String(cString: strerror(errno))
        // The first thread to fail says so and ends the run; another (files read back on several
        // threads) waits here until it has.
        exiting.lock()
        let text = "livelint: a temporary file in \(directory) could not be read back (\(reason)): the disk failed under "
            + "the run, and no report was written\n"
        let message = Array(text.utf8)
        #if canImport(Glibc)
        _ = message.withUnsafeBytes { Glibc.write(2, $0.baseAddress, $0.count) }
        #else
        _ = message.withUnsafeBytes { Darwin.write(2, $0.baseAddress, $0.count) }
        #endif
        exit(2)
    }

    private static let exiting = NSLock()
}
