import Foundation
import ISOBMFF
import LiveLintEngine
import LiveModel
import ScratchFiles

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
/// Records are read back through a read-only memory map of the file, decoded in place, its pages
/// released from the resident set every MiB decoded (they stay in the page cache); `pread`
/// when the file cannot be mapped. (Reads through a map do not count in `/proc/<pid>/io`'s
/// `rchar`: the benchmark's "bytes read beyond the cache" leaves these records out.)
///
/// Not `Sendable`: the scan's consuming task fills it, then the engine reads it, one after the
/// other; once it is full, several threads may read it, each through a reader of its own
/// (``concurrentReaders(_:)``).
final class ScanRecords: FileStore {
    /// Where a file's record is, in 8 bytes (issue 13: one slot a file of the library; the enum
    /// of a record held or spilled took 16): a record held in memory is its index in ``held``; a
    /// spilled one is the record at `offset`, `count` bytes (the file's path, its length in 4
    /// bytes then its bytes, then its ``RecordCodec`` encoding; the path waits on disk with the
    /// record, so a slot holds no string), with the file's kind and format for when it cannot be
    /// read back. A record too big for the fields, or past their offset, is held instead.
    struct Slot: Equatable, BitwiseCopyable {
        let bits: UInt64

        static let heldFlag: UInt64 = 1 << 63
        static let offsetBits = 38, countBits = 19, kindBits = 2, formatBits = 4
        /// Past this many bytes of spill file (256 GiB), records are held.
        static let maxOffset = Int64(1) << offsetBits
        /// A record of this many bytes or more (512 KiB) is held.
        static let maxCount = 1 << countBits
        static let kinds = FileKind.allCases
        static let formats = ContainerFormat.allCases

        static func held(_ index: Int) -> Slot { Slot(bits: heldFlag | UInt64(index)) }

        /// A slot that could not be read back: an empty record, which reads as lost.
        static let lost = Slot(bits: 0)

        /// A spilled record's slot, or nil when it does not fit.
        static func spilled(offset: Int64, count: Int, kind: FileKind, format: ContainerFormat) -> Slot? {
            guard offset >= 0, offset < maxOffset, count >= 0, count < maxCount,
                  let k = kinds.firstIndex(of: kind), let f = formats.firstIndex(of: format),
                  k < 1 << kindBits, f < 1 << formatBits  // a kind or format added past the fields: held
            else { return nil }
            var bits = UInt64(offset)
            bits |= UInt64(count) << offsetBits
            bits |= UInt64(k) << (offsetBits + countBits)
            bits |= UInt64(f) << (offsetBits + countBits + kindBits)
            return Slot(bits: bits)
        }

        /// The index in ``held`` of a record held in memory.
        var heldIndex: Int? { bits & Self.heldFlag != 0 ? Int(bits & ~Self.heldFlag) : nil }

        private func field(_ shift: Int, _ width: Int) -> Int { Int((bits >> UInt64(shift)) & ((1 << UInt64(width)) - 1)) }
        var offset: Int64 { Int64(field(0, Self.offsetBits)) }
        var count: Int { field(Self.offsetBits, Self.countBits) }
        var kind: FileKind { Self.kinds[field(Self.offsetBits + Self.countBits, Self.kindBits)] }
        var format: ContainerFormat { Self.formats[field(Self.offsetBits + Self.countBits + Self.kindBits, Self.formatBits)] }
    }

    /// One slot a file, written out for a library-sized scan.
    private let slots: ScratchArray<Slot>
    /// The records held in memory, in the order they were kept.
    private var held: [MediaFile] = []
    /// Bytes a slot takes in the list (for the tests).
    static var slotStride: Int { MemoryLayout<Slot>.stride }
    /// The spill file, -1 when records are held in memory.
    private var descriptor: Int32 = -1
    /// False once a write failed: later records are held (those written stay readable).
    private var spilling = false
    /// Bytes written to the spill file.
    private var end: Int64 = 0
    /// Records encoded but not written yet, written together once there are ``bufferSize`` bytes
    /// of them (one `pwrite` per 64 KiB instead of one a file: 4 % of a cached run), or before
    /// the first is read back. When the write fails, they are decoded from the buffer and held in
    /// memory, like any record that could not be written.
    private var buffer: [UInt8] = []
    /// The first slot made since the buffer was last written.
    private var firstBuffered = 0
    static let bufferSize = 1 << 16
    /// For the tests: writes fail (as on a full disk) past this many bytes of the spill file.
    private let writeLimit: Int64
    private let names: RecordCodec.Names
    /// The keys the names are seeded with (a concurrent reader's own names too).
    private let metadataKeys: Set<String>
    /// Where the temporary file is.
    private let directory: String
    /// How many records were written out (or wait in the buffer to be).
    var spilledCount: Int { slots.count - held.count }

    /// Records held in memory (`spill` false, or no temporary file could be made), or spilled
    /// past the first one.
    /// `mapsRecords` false reads every record back with `pread` (what happens when the file cannot
    /// be mapped; the tests take that path this way).
    /// With `slotsOnDisk` (a library-sized scan), the slots too go to a temporary file
    /// (`ScratchArray`) as their records are written.
    init(spill: Bool, metadataKeys: Set<String> = [], capacity: Int = 0, directory: String = ScanRecords.temporaryDirectory,
         mapsRecords: Bool = true, writeLimit: Int64 = .max, slotsOnDisk: Bool = false) {
        names = RecordCodec.Names(metadataKeys)
        self.metadataKeys = metadataKeys
        self.writeLimit = writeLimit
        mappingFailed = !mapsRecords
        self.directory = directory
        slots = ScratchArray(in: spill && slotsOnDisk ? directory : nil, prefix: "livelint-slots", lost: .lost, maps: mapsRecords)
        slots.reserveCapacity(capacity)
        if spill {
            descriptor = TemporaryFile.make(in: directory, prefix: "livelint-scan")
            spilling = descriptor >= 0
        }
    }

    deinit {
        if let mapping { munmap(mapping, mappedBytes) }
        if descriptor >= 0 { close(descriptor) }
    }

    /// True when slots wait in their temporary file (for the tests).
    var slotsWrittenOut: Bool { slots.spills }

    /// True while records are written out rather than held.
    var isSpilling: Bool { spilling }

    /// Where the temporary file goes: `$TMPDIR`, else `/var/tmp`.
    static var temporaryDirectory: String {
        if let dir = ProcessInfo.processInfo.environment["TMPDIR"], !dir.isEmpty { return dir }
        return "/var/tmp"
    }

    /// Keeps `file`; `bytes`, when given, are its ``RecordCodec`` encoding (made where the file
    /// was read, off this task). Returns its slot.
    func append(_ file: MediaFile, encoded bytes: [UInt8]?) -> Int {
        if let bytes, let slot = bytes.withUnsafeBytes({ spill(path: file.path, kind: file.kind, format: file.format, encoded: $0) }) {
            return slot
        }
        slots.append(hold(file))
        return slots.count - 1
    }

    /// Keeps the file at `path` known only by its record (a cache's, ``CachedFacts``, read where
    /// it lies): spilled as it is, or decoded and held when it cannot be. Returns its slot.
    func append(path: String, kind: FileKind, format: ContainerFormat, encoded bytes: UnsafeRawBufferPointer) -> Int {
        if let slot = spill(path: path, kind: kind, format: format, encoded: bytes) { return slot }
        let file = RecordCodec.decode(bytes, path: path, names: names)
        slots.append(hold(file ?? MediaFile(path: path, kind: kind, format: format,
                                            error: ReadIssue(.io, "livelint could not keep its record of this file"))))
        return slots.count - 1
    }

    /// `bytes` written out (buffered) as the record of the file at `path`: its slot, or nil when
    /// records are held (not spilling, or too big for a slot).
    private func spill(path: String, kind: FileKind, format: ContainerFormat, encoded bytes: UnsafeRawBufferPointer) -> Int? {
        let slot = slots.count
        let pathLength = path.utf8.count
        guard spilling,
              let spilled = Slot.spilled(offset: end + Int64(buffer.count), count: pathLength + 4 + bytes.count,
                                         kind: kind, format: format) else { return nil }
        // Copied from their bytes: the path's UTF-8 view appended as a collection was retained
        // and released at each step, a file.
        var path = path
        path.withUTF8 { path in
            withUnsafeBytes(of: UInt32(pathLength).littleEndian) { buffer.append(contentsOf: $0) }
            buffer.append(contentsOf: path)
            buffer.append(contentsOf: bytes)
        }
        slots.append(spilled)
        if buffer.count >= Self.bufferSize { flush() }
        return slot
    }

    /// `file` kept in memory: its slot.
    private func hold(_ file: MediaFile) -> Slot {
        held.append(file)
        return .held(held.count - 1)
    }

    /// Writes the buffered records to the spill file; when it cannot, holds them in memory and
    /// spills no more.
    private func flush() {
        guard !buffer.isEmpty else { return }
        guard end + Int64(buffer.count) <= writeLimit,
              buffer.withUnsafeBytes({ TemporaryFile.write(descriptor, $0, at: end) }) else {
            spilling = false
            holdBuffered()
            return
        }
        end += Int64(buffer.count)
        // The buffer keeps its room for the next 64 KiB, not what one outsized record made it.
        if buffer.capacity > 2 * Self.bufferSize { buffer = [] } else { buffer.removeAll(keepingCapacity: true) }
        firstBuffered = slots.count
        // The slots before the buffer no longer change.
        slots.writeOut(below: firstBuffered)
    }

    /// Turns the records waiting in the buffer into records held in memory.
    private func holdBuffered() {
        buffer.withUnsafeBytes { bytes in
            for slot in firstBuffered..<slots.count {
                let spilled = slots[slot]
                guard spilled.heldIndex == nil else { continue }
                let start = Int(spilled.offset - end)
                let (path, file) = decode(UnsafeRawBufferPointer(rebasing: bytes[start..<(start + spilled.count)]), names: names)
                slots[slot] = hold(file ?? MediaFile(path: path, kind: spilled.kind, format: spilled.format,
                                                     error: ReadIssue(.io, "livelint could not keep its record of this file")))
            }
        }
        buffer = []
        firstBuffered = slots.count
    }

    var count: Int { slots.count }

    /// True when `summary`'s record is held in memory.
    func isHeld(_ summary: FileSummary) -> Bool {
        flush()
        return slots[summary.slot].heldIndex != nil
    }

    func file(atSlot slot: Int) -> MediaFile { file(atSlot: slot, names: names) }

    /// Readers for `n` threads at once, each with names of its own (``RecordCodec/Names`` is not
    /// shared): once every record is kept, the spill file mapped first; nil when it cannot be
    /// mapped (a record read back with `pread` goes through one reader).
    func concurrentReaders(_ n: Int) -> [any FileStore & Sendable]? {
        flush()
        // The whole file mapped (a map made before the last records were written does not
        // cover them, and the `pread` reader is not shared).
        if end > 0, mappedRecord(offset: 0, count: 0) == nil || Int64(mappedBytes) != end { return nil }
        return (0..<n).map { _ in ConcurrentReader(records: self, names: RecordCodec.Names(metadataKeys)) }
    }

    /// One thread's reader (``concurrentReaders(_:)``): the slots are read under their own lock,
    /// the records held and the map only read, the map's pages let go under ``releaseLock``.
    private struct ConcurrentReader: FileStore, @unchecked Sendable {
        let records: ScanRecords
        let names: RecordCodec.Names
        var count: Int { records.count }
        func file(atSlot slot: Int) -> MediaFile { records.file(atSlot: slot, names: names) }
    }

    private let releaseLock = NSLock()

    private func file(atSlot slot: Int, names: RecordCodec.Names) -> MediaFile {
        flush()
        let spilled = slots[slot]
        if let index = spilled.heldIndex { return held[index] }
        var read: (path: String, file: MediaFile?) = ("", nil)
        if let mapped = mappedRecord(offset: spilled.offset, count: spilled.count) {
            // Decoded where it lies: no copy, no system call.
            read = decode(mapped, names: names)
            releaseMappedPages(after: spilled.count)
        } else if let bytes = try? readBack()?.read(at: spilled.offset, count: spilled.count) {
            read = bytes.withUnsafeBytes { decode($0, names: names) }
        }
        // When not even the path came back, the caller that knows it puts it in (``FileStore/file(_:)``).
        return read.file ?? MediaFile(path: read.path, kind: spilled.kind, format: spilled.format,
                                      error: ReadIssue(.io, "livelint could not read back its temporary record of this file (in \(directory))"))
    }

    /// A spilled record's path and file (nil when the record does not decode; the path "" when
    /// not even it can be read).
    private func decode(_ raw: UnsafeRawBufferPointer, names: RecordCodec.Names) -> (path: String, file: MediaFile?) {
        guard raw.count >= 4 else { return ("", nil) }
        let length = Int(UInt32(littleEndian: raw.loadUnaligned(as: UInt32.self)))
        guard length <= raw.count - 4 else { return ("", nil) }
        let path = String(decoding: UnsafeRawBufferPointer(rebasing: raw[4..<(4 + length)]), as: UTF8.self)
        return (path, RecordCodec.decode(UnsafeRawBufferPointer(rebasing: raw[(4 + length)...]), path: path, names: names))
    }

    // MARK: - Reading back

    /// The spill file mapped read-only once the records are read back (nil until then, or when
    /// it cannot be mapped: then each record is read with `pread`).
    private var mapping: UnsafeMutableRawPointer?
    private var mappedBytes = 0
    private var mappingFailed = false
    /// Bytes decoded from the mapping since its pages were last released.
    private var decodedSinceRelease = 0
    /// How much of the mapping a scan may keep in its resident set: the pages are the page
    /// cache's (clean, file-backed), but they count in the process's RSS until released.
    private static let residentWindow = 1 << 20

    private func mappedRecord(offset: Int64, count: Int) -> UnsafeRawBufferPointer? {
        if mapping == nil, !mappingFailed, descriptor >= 0, end > 0 {
            if let p = TemporaryFile.map(descriptor, count: Int(end)) {
                mapping = p
                mappedBytes = Int(end)
            } else {
                mappingFailed = true
            }
        }
        guard let mapping, offset >= 0, Int(offset) + count <= mappedBytes else { return nil }
        return UnsafeRawBufferPointer(start: mapping + Int(offset), count: count)
    }

    /// Drops the mapping's pages from the resident set every ``residentWindow`` bytes decoded
    /// (`MADV_DONTNEED`: they stay in the page cache and fault back in if touched again).
    private func releaseMappedPages(after count: Int) {
        releaseLock.lock()
        defer { releaseLock.unlock() }
        decodedSinceRelease += count
        guard decodedSinceRelease >= Self.residentWindow, let mapping else { return }
        TemporaryFile.release(mapping, count: mappedBytes)
        decodedSinceRelease = 0
    }

    /// The spill file read with `pread`, when it cannot be mapped (made once, at its final size).
    private var reader: FileByteSource?

    private func readBack() throws(ReadError) -> FileByteSource? {
        if reader == nil, descriptor >= 0 { reader = try FileByteSource(duplicating: descriptor, path: directory + "/livelint-scan-…") }
        return reader
    }
}
