import Foundation
import ISOBMFF
#if os(Linux)
import Synchronization
#endif
import LiveLintEngine
import LiveModel
import ScratchFiles

/// A scan's file summaries (``FileSummary``) written to a temporary file as they are made, and read
/// back by index (docs/flat-memory.md, step 2), so that a library's summaries, 53 MiB a million
/// files, need not all be in memory at once.
///
/// Two files, made in `$TMPDIR`, else `/var/tmp`, and unlinked as soon as made (nothing is left
/// behind however the run ends): the summaries back to back (``SummaryCodec``), and their offsets,
/// 8 bytes each. Both are written 64 KiB at a time and, once ``finish()`` is called, read through
/// read-only maps whose pages leave the resident set every MiB read. What a write could not put on
/// disk (a full disk) stays in memory and is read from there: memory, never the report, pays. A
/// summary read back shares its folder with the one read before it when they have the same
/// (``RecentFolders``), as the read makes them.
///
/// One task appends, then calls ``finish()``; after that, reads may come from any task (the maps
/// do not change; a lock guards the folders shared by summaries read back).
final class SummaryFile: SummaryStore, @unchecked Sendable {
    private let data: SpillFile
    private let offsets: SpillFile
    /// How many summaries were appended.
    private(set) var count = 0
    private var folders = RecentFolders()
    private let lock = NSLock()
    /// Bytes read since the maps' pages last left the resident set.
    private let readSinceRelease = ReadCounter()
    private static let residentWindow = 1 << 20

    /// Nil when a temporary file cannot be made in `directory`. For the tests: `writeLimit`,
    /// writes fail (as on a full disk) past that many bytes of summaries; `maps` false, the files
    /// are read back as if they could not be mapped.
    init?(directory: String = ScanRecords.temporaryDirectory, writeLimit: Int64 = .max, maps: Bool = true) {
        guard let data = SpillFile(in: directory, writeLimit: writeLimit, maps: maps),
              let offsets = SpillFile(in: directory, maps: maps) else { return nil }
        self.data = data
        self.offsets = offsets
    }

    /// True while every summary appended went to disk (false: some wait in memory).
    var isOnDisk: Bool { !data.failed && !offsets.failed }

    /// Appends `summary`.
    func append(_ summary: FileSummary) {
        var offset = UInt64(data.size).littleEndian
        withUnsafeBytes(of: &offset) { offsets.append($0) }
        data.append { SummaryCodec.encode(summary, into: &$0) }
        count += 1
    }

    /// Ends the writing: what is buffered goes to disk (or stays in memory) and both files are
    /// mapped for reading.
    func finish() {
        data.finish()
        offsets.finish()
    }

    /// Summary `i`, read back (after ``finish()``).
    func summary(_ i: Int) -> FileSummary {
        read(i) ?? FileSummary(Self.lost, slot: -1)
    }

    /// Summary `i`, or nil when it cannot be read back.
    func read(_ i: Int) -> FileSummary? {
        guard let bytes = bytes(i) else { return nil }
        lock.lock()
        defer { lock.unlock() }
        return SummaryCodec.decode(bytes, folders: &folders)
    }

    /// `summary(i).scanned`, read without making the summary.
    func scanned(_ i: Int) -> ScannedFile {
        guard let bytes = bytes(i), let f = SummaryCodec.fields(bytes) else { return FileSummary(Self.lost, slot: -1).scanned }
        return ScannedFile(path: f.path, kind: f.kind, format: f.format, error: f.error, sidecar: f.sidecar)
    }

    /// What a pair's record takes from file `i`, read without making the summary.
    func half(_ i: Int) -> RecordHalf {
        guard let bytes = bytes(i), let f = SummaryCodec.fields(bytes) else { return RecordHalf(FileSummary(Self.lost, slot: -1)) }
        return RecordHalf(path: f.path, contentIdentifier: f.identifier.string, sidecar: f.sidecar)
    }

    /// What stands for a summary that cannot be read back (the disk failed under the scan): a
    /// file reported unreadable rather than dropped.
    private static let lost = MediaFile(path: "", kind: .unknown, format: .unknown,
                                        error: ReadIssue(.io, "the scan's temporary file could not be read back"))

    /// The encoding of summary `i` (after ``finish()``), or nil.
    private func bytes(_ i: Int) -> UnsafeRawBufferPointer? {
        guard i >= 0, i < count, let startBytes = offsets.bytes(at: Int64(i) * 8, count: 8) else { return nil }
        let start = Int64(UInt64(littleEndian: startBytes.loadUnaligned(as: UInt64.self)))
        var end = data.size
        if i + 1 < count {
            guard let endBytes = offsets.bytes(at: Int64(i + 1) * 8, count: 8) else { return nil }
            end = Int64(UInt64(littleEndian: endBytes.loadUnaligned(as: UInt64.self)))
        }
        guard start >= 0, start <= end, let bytes = data.bytes(at: start, count: Int(end - start)) else { return nil }
        // Every MiB read, the maps' pages leave the resident set (they stay in the page cache).
        if readSinceRelease.add(bytes.count + 8, reaching: Self.residentWindow) {
            data.releasePages()
            offsets.releasePages()
        }
        return bytes
    }
}

/// A count shared by the tasks that read a ``SummaryFile``: an atomic where the Synchronization
/// module's is there (Linux; macOS 15, past the package's macOS 13), a lock elsewhere.
private final class ReadCounter: @unchecked Sendable {
    #if os(Linux)
    private let value = Atomic<Int>(0)

    /// Adds `n`; true (and back to 0) when the count reaches `limit`.
    func add(_ n: Int, reaching limit: Int) -> Bool {
        guard value.add(n, ordering: .relaxed).newValue >= limit else { return false }
        value.store(0, ordering: .relaxed)
        return true
    }
    #else
    private var value = 0
    private let lock = NSLock()

    /// Adds `n`; true (and back to 0) when the count reaches `limit`.
    func add(_ n: Int, reaching limit: Int) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        value += n
        guard value >= limit else { return false }
        value = 0
        return true
    }
    #endif
}

/// An unlinked temporary file (``TemporaryFile``) written at its end, 64 KiB at a time, then mapped
/// read-only. What could not be put on disk (a write refused, a map refused) is held in memory
/// instead, after what is on disk (the buffer always starts where a whole append starts), and read
/// from there.
final class SpillFile {
    private let descriptor: Int32
    private var buffer: [UInt8] = []
    /// Bytes on disk.
    private var written: Int64 = 0
    private(set) var failed = false
    private let writeLimit: Int64
    private var mapping: UnsafeMutableRawPointer?
    private var mappedCount = 0
    /// What is not on disk (or could not be mapped), once finished: the bytes from ``heldStart`` on.
    private var held = UnsafeMutableRawBufferPointer(start: nil, count: 0)
    private var heldStart: Int64 = 0
    private static let bufferSize = 64 * 1024

    /// For the tests: `maps` false reads the file back as if it could not be mapped.
    private let maps: Bool

    init?(in directory: String, writeLimit: Int64 = .max, maps: Bool = true) {
        descriptor = TemporaryFile.make(in: directory, prefix: "livelint-summaries")
        guard descriptor >= 0 else { return nil }
        self.writeLimit = writeLimit
        self.maps = maps
        buffer.reserveCapacity(Self.bufferSize)
    }

    deinit {
        if let mapping { munmap(mapping, mappedCount) }
        held.deallocate()
        close(descriptor)
    }

    /// Bytes appended so far.
    private(set) var size: Int64 = 0

    func append(_ bytes: UnsafeRawBufferPointer) {
        append { $0.append(contentsOf: bytes) }
    }

    /// Appends what `write` appends to the bytes it is given (written in place: no array of
    /// its own).
    func append(_ write: (inout [UInt8]) -> Void) {
        let before = buffer.count
        write(&buffer)
        size += Int64(buffer.count - before)
        if !failed, buffer.count >= Self.bufferSize { flush() }
    }

    private func flush() {
        guard !failed, !buffer.isEmpty else { return }
        guard written + Int64(buffer.count) <= writeLimit,
              buffer.withUnsafeBytes({ TemporaryFile.write(descriptor, $0, at: written) }) else {
            failed = true
            return
        }
        written += Int64(buffer.count)
        buffer.removeAll(keepingCapacity: true)
    }

    /// Writes what waits and maps what is on disk (what cannot be mapped is read back into memory).
    func finish() {
        flush()
        mapping = maps ? TemporaryFile.map(descriptor, count: Int(written)) : nil
        mappedCount = mapping == nil ? 0 : Int(written)
        // Held in memory: the bytes not written, and those written when they cannot be mapped.
        heldStart = mapping == nil ? 0 : written
        let count = Int(size - heldStart)
        guard count > 0 else {
            buffer = []
            return
        }
        held = .allocate(byteCount: count, alignment: 8)
        let onDisk = Int(written - heldStart)
        if onDisk > 0, let bytes = try? FileByteSource(duplicating: descriptor, path: "the summaries' temporary file").read(at: heldStart, count: onDisk) {
            bytes.withUnsafeBytes { UnsafeMutableRawBufferPointer(rebasing: held[..<onDisk]).copyMemory(from: $0) }
        } else if onDisk > 0 {
            // Not even read back: what was written is lost (what it held reads as nothing); what
            // never was is still here.
            held.deallocate()
            heldStart = written
            held = .allocate(byteCount: buffer.count, alignment: 8)
            buffer.withUnsafeBytes { held.copyMemory(from: $0) }
            buffer = []
            return
        }
        buffer.withUnsafeBytes { UnsafeMutableRawBufferPointer(rebasing: held[onDisk...]).copyMemory(from: $0) }
        buffer = []
    }

    /// `count` bytes at `offset`, from the map or from memory (after ``finish()``); nil when they
    /// are past the end or were lost.
    func bytes(at offset: Int64, count: Int) -> UnsafeRawBufferPointer? {
        guard offset >= 0, count >= 0 else { return nil }
        if offset + Int64(count) <= Int64(mappedCount), let mapping {
            return UnsafeRawBufferPointer(start: mapping + Int(offset), count: count)
        }
        let at = offset - heldStart
        guard at >= 0, at + Int64(count) <= Int64(held.count) else { return nil }
        return UnsafeRawBufferPointer(rebasing: held[Int(at)..<Int(at) + count])
    }

    /// Drops the map's pages from the resident set (they stay in the page cache).
    func releasePages() {
        if let mapping { TemporaryFile.release(mapping, count: mappedCount) }
    }
}

/// A ``FileSummary`` as bytes, and back: everything it holds (path, kind, format, identifier,
/// whether a still holds a motion photo's video, error, sidecar, a `.livp`'s members, a member's
/// index, the record's slot), so that the summary read back is the one written.
///
/// Little-endian: a flags byte (motion video, error, sidecar, members, identifier text), the kind's and the format's
/// index among their cases, the identifier's form code, a UUID's two 64-bit halves or a text's
/// length and bytes, the slot and the member index (32 bits each), the path's length (32 bits) and
/// bytes, then the error's and the sidecar's, then the members, each as its length and encoding.
enum SummaryCodec {
    private static let kinds = FileKind.allCases
    private static let formats = ContainerFormat.allCases

    static func encode(_ s: FileSummary) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(48)
        encode(s, into: &out)
        return out
    }

    /// ``encode(_:)``, appended to `out`.
    static func encode(_ s: FileSummary, into out: inout [UInt8]) {
        func u32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { out.append(contentsOf: $0) } }
        func u64(_ v: UInt64) { withUnsafeBytes(of: v.littleEndian) { out.append(contentsOf: $0) } }
        func text(_ t: String) {
            u32(UInt32(t.utf8.count))
            out.append(contentsOf: t.utf8)
        }
        let members = s.members
        let id = s.identifierKey.packed
        var flags: UInt8 = 0
        if id.text != nil { flags |= 16 }
        if s.hasMotionVideo { flags |= 1 }
        if s.error != nil { flags |= 2 }
        if s.sidecarPath != nil { flags |= 4 }
        if members != nil { flags |= 8 }
        out.append(flags)
        out.append(UInt8(kinds.firstIndex(of: s.kind) ?? 0))
        out.append(UInt8(formats.firstIndex(of: s.format) ?? 0))
        out.append(id.code)
        u64(id.high)
        u64(id.low)
        if let t = id.text { text(t) }
        u32(UInt32(bitPattern: Int32(truncatingIfNeeded: s.slot)))
        u32(UInt32(bitPattern: s.member))
        // The path from its folder's bytes and its name's (no string of it made).
        PathFolder.withBytes(s.folder) { head in
            s.withNameBytes { tail in
                u32(UInt32(head.count + tail.count))
                out.append(contentsOf: head)
                out.append(contentsOf: tail)
            }
        }
        if let e = s.error { text(e) }
        if let c = s.sidecarPath { text(c) }
        if let members {
            u32(UInt32(members.count))
            for m in members {
                let bytes = encode(m)
                u32(UInt32(bytes.count))
                out += bytes
            }
        }
    }

    /// What a result reads of a summary (``ScannedFile``, a pair record's half), from its
    /// encoding: no summary, folder or members made.
    struct Fields {
        var path: String
        var kind: FileKind
        var format: ContainerFormat
        var identifier: IdentifierKey
        var error: String?
        var sidecar: String?
    }

    /// The ``Fields`` of the summary `bytes` hold (its members not looked at); nil when they do
    /// not hold one.
    static func fields(_ bytes: UnsafeRawBufferPointer) -> Fields? {
        var reader = Reader(bytes)
        guard let head = reader.head() else { return nil }
        return Fields(path: String(decoding: head.path, as: UTF8.self), kind: head.kind, format: head.format,
                      identifier: head.identifier, error: head.error, sidecar: head.sidecar)
    }

    /// The summary `bytes` hold, its folder shared through `folders`; nil when they do not hold one.
    static func decode(_ bytes: UnsafeRawBufferPointer, folders: inout RecentFolders) -> FileSummary? {
        var reader = Reader(bytes)
        guard let head = reader.head() else { return nil }
        var members: [FileSummary]?
        if head.flags & 8 != 0 {
            guard let n = reader.u32().map(Int.init) else { return nil }
            var list: [FileSummary] = []
            for _ in 0..<n {
                guard let member = reader.bytes(), let m = decode(member, folders: &folders) else { return nil }
                list.append(m)
            }
            members = list
        }
        guard reader.atEnd else { return nil }
        return FileSummary(pathBytes: head.path, kind: head.kind, format: head.format, identifier: head.identifier,
                           hasMotionVideo: head.flags & 1 != 0, error: head.error, sidecar: head.sidecar, members: members,
                           member: Int(Int32(bitPattern: head.member)), slot: Int(Int32(bitPattern: head.slot)), folders: &folders)
    }

    /// Everything an encoding holds before its members.
    private struct Head {
        var flags: UInt8
        var kind: FileKind
        var format: ContainerFormat
        var identifier: IdentifierKey
        var slot: UInt32
        var member: UInt32
        var path: UnsafeBufferPointer<UInt8>
        var error: String?
        var sidecar: String?
    }

    /// Reads an encoding from its start, every size checked before it is trusted.
    private struct Reader {
        let raw: UnsafeRawBufferPointer
        var at = 0

        init(_ raw: UnsafeRawBufferPointer) { self.raw = raw }

        var atEnd: Bool { at == raw.count }

        private func has(_ n: Int) -> Bool { n >= 0 && n <= raw.count - at }

        mutating func u8() -> UInt8? {
            guard has(1) else { return nil }
            defer { at += 1 }
            return raw[at]
        }

        mutating func u32() -> UInt32? {
            guard has(4) else { return nil }
            defer { at += 4 }
            return UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: at, as: UInt32.self))
        }

        mutating func u64() -> UInt64? {
            guard has(8) else { return nil }
            defer { at += 8 }
            return UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: at, as: UInt64.self))
        }

        /// A length (32 bits) and that many bytes.
        mutating func bytes() -> UnsafeRawBufferPointer? {
            guard let n = u32().map(Int.init), has(n) else { return nil }
            defer { at += n }
            return UnsafeRawBufferPointer(rebasing: raw[at..<(at + n)])
        }

        mutating func text() -> String? { bytes().map { String(decoding: $0, as: UTF8.self) } }

        /// The fields before the members.
        mutating func head() -> Head? {
            guard let flags = u8(), let k = u8().map(Int.init), let f = u8().map(Int.init), k < kinds.count, f < formats.count,
                  let code = u8(), let high = u64(), let low = u64() else { return nil }
            var idText: String?
            if flags & 16 != 0 {
                guard let t = text() else { return nil }
                idText = t
            }
            guard let identifier = IdentifierKey(code: code, high: high, low: low, text: idText),
                  let slot = u32(), let member = u32(), let path = bytes() else { return nil }
            var error: String?, sidecar: String?
            if flags & 2 != 0 { guard let e = text() else { return nil }; error = e }
            if flags & 4 != 0 { guard let c = text() else { return nil }; sidecar = c }
            return Head(flags: flags, kind: kinds[k], format: formats[f], identifier: identifier, slot: slot, member: member,
                        path: path.bindMemory(to: UInt8.self), error: error, sidecar: sidecar)
        }
    }
}
