#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import LiveModel

/// Why a safe write did not happen. In every case the target is left as it was.
public struct SafeWriteError: Error, Sendable, CustomStringConvertible {
    /// The file that was to be written.
    public var target: String
    /// What went wrong, for a person.
    public var reason: String
    /// True when the new bytes were written but failed verification (a bug in a writer, caught).
    public var verificationFailed: Bool

    public init(target: String, reason: String, verificationFailed: Bool = false) {
        self.target = target
        self.reason = reason
        self.verificationFailed = verificationFailed
    }

    public var description: String { "\(target): \(reason)" }
}

/// Writes files so that a reader (or a crash) only ever sees the old file or the complete new one.
///
/// The protocol, for each target: the bytes go to a new temporary file in the target's folder
/// (`.<name>.livelint-XXXXXX`, created with `O_EXCL`), are flushed with `fsync`, the file is closed
/// and read back from disk, the caller's check runs on the temporary path, and only then is it
/// renamed over the target (`rename(2)` is atomic within one file system) and the folder synced.
/// A failed check deletes the temporary file. With `preservingAttributesOf`, the temporary file
/// gets that file's permission bits (and owner, when allowed) before the rename and its
/// modification time after the content is final.
///
/// Use it in two phases when several files must change together: ``stage(_:for:)`` every file,
/// verify each, then ``StagedFile/commit()`` each (or ``StagedFile/discard()`` all on failure).
public enum AtomicWriter {
    /// Writes `bytes` to a temporary file beside `target` and syncs it. Nothing at `target` changes.
    public static func stage(_ bytes: [UInt8], for target: String) throws(SafeWriteError) -> StagedFile {
        let folder = PathText.parent(of: target)
        let name = (target as NSString).lastPathComponent
        guard !name.isEmpty else { throw SafeWriteError(target: target, reason: "not a file path") }
        var template = Array(((folder.isEmpty ? "." : folder) + "/." + name + ".livelint-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else {
            throw SafeWriteError(target: target, reason: "cannot create a temporary file in \(folder.isEmpty ? "." : folder): \(errnoText())")
        }
        let tempPath = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        FaultInjection.checkpoint()  // temporary file exists, empty
        do throws(SafeWriteError) {
            // Two halves, so that a fault can land in the middle of the data.
            let half = bytes.count / 2
            try writeAll(fd, bytes[0..<half], tempPath: tempPath, target: target)
            FaultInjection.checkpoint()
            try writeAll(fd, bytes[half...], tempPath: tempPath, target: target)
            FaultInjection.checkpoint()
            guard fsync(fd) == 0 else { throw SafeWriteError(target: target, reason: "cannot sync the temporary file: \(errnoText())") }
            FaultInjection.checkpoint()
        } catch {
            close(fd)
            unlink(tempPath)
            throw error
        }
        close(fd)
        // Read it back from disk: what the checks see is what was stored.
        guard let stored = FileManager.default.contents(atPath: tempPath), stored.count == bytes.count,
              stored.withUnsafeBytes({ a in bytes.withUnsafeBytes { b in memcmp(a.baseAddress!, b.baseAddress!, b.count) == 0 } }) || bytes.isEmpty else {
            unlink(tempPath)
            throw SafeWriteError(target: target, reason: "the temporary file did not read back as written", verificationFailed: true)
        }
        return StagedFile(target: target, temporaryPath: tempPath, size: bytes.count)
    }

    /// Stages, verifies with `verify` (given the temporary path; throw to refuse) and commits one file.
    public static func write(_ bytes: [UInt8], to target: String, preservingAttributesOf original: String? = nil,
                             verify: (String) throws -> Void) throws(SafeWriteError) {
        let staged = try stage(bytes, for: target)
        try staged.verify(verify)
        try staged.commit(preservingAttributesOf: original)
    }

    static func writeAll(_ fd: Int32, _ bytes: ArraySlice<UInt8>, tempPath: String, target: String) throws(SafeWriteError) {
        var done = 0
        let total = bytes.count
        let failure: SafeWriteError? = bytes.withUnsafeBytes { raw -> SafeWriteError? in
            while done < total {
                let n = systemWrite(fd, raw.baseAddress!.advanced(by: done), total - done)
                if n < 0 {
                    if errno == EINTR { continue }
                    return SafeWriteError(target: target, reason: "cannot write the temporary file: \(errnoText())")
                }
                done += n
            }
            return nil
        }
        if let failure { throw failure }
    }

    /// The process umask, read once at first use (reading it means setting it, so only once).
    static let umaskValue: mode_t = {
        let mask = umask(0o022)
        umask(mask)
        return mask
    }()

    static func errnoText() -> String { String(cString: strerror(errno)) }
}

/// `write(2)`, named apart from `AtomicWriter.write`.
private func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    write(fd, buffer, count)
}

/// A temporary file holding complete, synced new content for `target`, not yet in place.
public struct StagedFile: Sendable {
    /// The file this content is for.
    public let target: String
    /// Where the content is now (beside the target).
    public let temporaryPath: String
    public let size: Int

    /// Runs `check` on the temporary path; when it throws, deletes the temporary file and throws
    /// a verification failure carrying the check's message.
    public func verify(_ check: (String) throws -> Void) throws(SafeWriteError) {
        do {
            try check(temporaryPath)
        } catch {
            discard()
            throw SafeWriteError(target: target, reason: "verification failed, nothing written: \(error)", verificationFailed: true)
        }
        FaultInjection.checkpoint()
    }

    /// Moves the content over the target. With `original`, copies its permission bits, owner (when
    /// allowed) and modification time first. Syncs the folder after the rename.
    public func commit(preservingAttributesOf original: String? = nil) throws(SafeWriteError) {
        if let original {
            var st = stat()
            guard stat(original, &st) == 0 else {
                discard()
                throw SafeWriteError(target: target, reason: "cannot read the attributes of \(original): \(AtomicWriter.errnoText())")
            }
            guard chmod(temporaryPath, st.st_mode & 0o7777) == 0 else {
                let why = AtomicWriter.errnoText()
                discard()
                throw SafeWriteError(target: target, reason: "cannot set permissions: \(why)")
            }
            _ = chown(temporaryPath, st.st_uid, st.st_gid)  // only root may give files away; keep going otherwise
            var times = [st.st_atim, st.st_mtim]
            guard utimensat(AT_FDCWD, temporaryPath, &times, 0) == 0 else {
                let why = AtomicWriter.errnoText()
                discard()
                throw SafeWriteError(target: target, reason: "cannot set the modification time: \(why)")
            }
            FaultInjection.checkpoint()
        } else {
            // mkstemp creates 0600; a new file gets the mode any new file would (0666 less the umask).
            _ = chmod(temporaryPath, 0o666 & ~AtomicWriter.umaskValue)
        }
        guard rename(temporaryPath, target) == 0 else {
            let why = AtomicWriter.errnoText()
            discard()
            throw SafeWriteError(target: target, reason: "cannot move the new file into place: \(why)")
        }
        FaultInjection.checkpoint()
        let folder = PathText.parent(of: target)
        let dfd = open(folder.isEmpty ? "." : folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if dfd >= 0 {
            _ = fsync(dfd)  // make the rename durable; some file systems refuse, which is harmless
            close(dfd)
        }
        FaultInjection.checkpoint()
    }

    /// Deletes the temporary file; the target is untouched.
    public func discard() {
        unlink(temporaryPath)
    }
}

/// Test hook: when the environment variable `LIVELINT_FAULT_STEP` is `K` (≥ 1), the process
/// exits abruptly (`_exit(70)`, no cleanup, like a crash or a kill) at the K-th checkpoint of
/// the safe-write protocol. Checkpoints sit after each step of ``AtomicWriter``: temporary file
/// created, half the data written, all written, synced, verified, attributes set, renamed,
/// folder synced. Unset (the normal case), checkpoints cost one comparison.
public enum FaultInjection {
    /// The variable's name.
    public static let environmentVariable = "LIVELINT_FAULT_STEP"
    /// The exit status of an injected fault.
    public static let exitStatus: Int32 = 70

    private static let target: Int = {
        guard let text = ProcessInfo.processInfo.environment[environmentVariable], let k = Int(text), k > 0 else { return 0 }
        return k
    }()
    private static let counter = Counter()

    static func checkpoint() {
        guard target > 0 else { return }
        if counter.next() == target { _exit(exitStatus) }
    }

    private final class Counter: @unchecked Sendable {
        // @unchecked: `value` is only touched under `lock`.
        private let lock = NSLock()
        private var value = 0
        func next() -> Int {
            lock.lock()
            defer { lock.unlock() }
            value += 1
            return value
        }
    }
}
