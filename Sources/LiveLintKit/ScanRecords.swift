import Foundation
import LiveLintEngine
import LiveModel

/// The full records of a scan, one slot per file in the order they were kept, while pairing and
/// the scan rules work on summaries (``FileSummary``): in memory for a small scan, and for a
/// library-sized one written (``RecordCodec``, about 300 bytes a file) to a temporary file that is
/// unlinked as soon as it is made, each read back and decoded when its pair's rules run (issue 13:
/// the records were most of a large scan's memory).
///
/// The temporary file is made in `$TMPDIR`, else `/var/tmp` (on disk where `/tmp` may be memory).
/// A file that cannot be written there (full disk, no such folder) keeps its record in memory
/// instead and the rest of the scan does too: memory, never the report, pays. A file whose
/// record cannot be encoded (one with a Takeout sidecar, which the codec does not carry) is kept
/// in memory. A record that cannot be read back is reported on that file as an I/O error.
///
/// Not `Sendable`: the scan's consuming task fills it, then the engine reads it, one after the other.
final class ScanRecords: FileStore {
    private enum Slot {
        case held(MediaFile)
        /// The record at `offset`, `count` bytes, of the file shown as `path`.
        case spilled(path: String, offset: Int64, count: Int32, kind: FileKind, format: ContainerFormat)
    }

    private var slots: [Slot] = []
    /// The spill file, -1 when records are held in memory.
    private var descriptor: Int32 = -1
    /// False once a write failed: later records are held (those written stay readable).
    private var spilling = false
    private var end: Int64 = 0
    private let names: RecordCodec.Names
    /// Where the temporary file is.
    private let directory: String
    /// How many records were written out.
    private(set) var spilledCount = 0

    /// Records held in memory (`spill` false, or no temporary file could be made), or spilled
    /// past the first one.
    init(spill: Bool, metadataKeys: Set<String> = [], capacity: Int = 0, directory: String = ScanRecords.temporaryDirectory) {
        names = RecordCodec.Names(metadataKeys)
        self.directory = directory
        slots.reserveCapacity(capacity)
        if spill {
            descriptor = Self.makeTemporaryFile(in: directory)
            spilling = descriptor >= 0
        }
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// True while records are written out rather than held.
    var isSpilling: Bool { spilling }

    /// Where the temporary file goes: `$TMPDIR`, else `/var/tmp`.
    static var temporaryDirectory: String {
        if let dir = ProcessInfo.processInfo.environment["TMPDIR"], !dir.isEmpty { return dir }
        return "/var/tmp"
    }

    private static func makeTemporaryFile(in directory: String) -> Int32 {
        var template = Array((directory + "/livelint-scan-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { return -1 }
        // Gone from the folder at once: nothing is left behind, whatever ends the run.
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        return fd
    }

    /// Keeps `file`; `bytes`, when given, are its ``RecordCodec`` encoding (made where the file
    /// was read, off this task). Returns its slot.
    func append(_ file: MediaFile, encoded bytes: [UInt8]?) -> Int {
        let slot = slots.count
        if spilling, let bytes, let offset = write(bytes) {
            slots.append(.spilled(path: file.path, offset: offset, count: Int32(bytes.count), kind: file.kind, format: file.format))
            spilledCount += 1
        } else {
            slots.append(.held(file))
        }
        return slot
    }

    /// Appends `bytes` to the spill file; nil, and no more spilling, when it cannot.
    private func write(_ bytes: [UInt8]) -> Int64? {
        guard bytes.count < Int(Int32.max) else { return nil }
        let offset = end
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { pwrite(descriptor, $0.baseAddress! + done, bytes.count - done, off_t(offset) + off_t(done)) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else {
                spilling = false
                return nil
            }
            done += n
        }
        end += Int64(bytes.count)
        return offset
    }

    var count: Int { slots.count }

    /// True when `summary`'s record is held in memory.
    func isHeld(_ summary: FileSummary) -> Bool {
        if case .held = slots[Int(summary.slot)] { return true }
        return false
    }

    func file(atSlot slot: Int) -> MediaFile {
        switch slots[slot] {
        case .held(let file):
            return file
        case let .spilled(path, offset, count, kind, format):
            var bytes = [UInt8](repeating: 0, count: Int(count))
            var done = 0
            while done < bytes.count {
                let n = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + done, $0.count - done, off_t(offset) + off_t(done)) }
                if n < 0, errno == EINTR { continue }
                guard n > 0 else { break }
                done += n
            }
            if done == bytes.count, let file = bytes.withUnsafeBytes({ RecordCodec.decode($0, path: path, names: names) }) {
                return file
            }
            return MediaFile(path: path, kind: kind, format: format,
                             error: ReadIssue(.io, "livelint could not read back its temporary record of this file (in \(directory))"))
        }
    }
}
