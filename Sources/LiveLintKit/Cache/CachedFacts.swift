import Foundation
import ISOBMFF
import LiveLintEngine
import LiveModel

/// What a scan makes of a file besides its record, kept in the cache beside it so that a file
/// found unchanged is neither decoded nor checked again while the library is read (issue 13: on a
/// cached scan of 50,000 pairs, decoding each record there and running the file rules on it took
/// about a sixth of the time, and the record is decoded again anyway when its pair's rules run).
///
/// It holds the file's summary (``FileSummary``: kind, format, identifier, the error's text), what
/// the file rules found on it (``LintEngine/fileFindings(_:)``), and where the movie's tracks lie
/// in its record (a run that draws no timeline cuts them, ``RecordCodec/cut(_:tracks:)``). The
/// findings hold for one display path and one set of file rules (their severities and options,
/// ``LintEngine/fileRulesSignature``): ``signature(rules:pathHash:)`` of both is stored with
/// them, with the running build's identity (``buildIdentity``: a rule's code or wording may change
/// while livelint's version does not), and facts of another signature are not used (the file is
/// decoded and checked, and the facts kept anew). They also hold the checksum of the record they
/// were made from, and are used only beside that record. A file whose facts would not be all a summary holds (a `.livp` archive's
/// members, a Takeout sidecar, read fresh every time) or whose findings carry a repair gets none.
///
/// Stored as a checksum (``ScanCache/checksum(_:)`` of the rest), the signature (8 bytes each, little-endian),
/// then ``RecordCodec``'s encodings; anything damaged decodes to nil, which costs a decoding.
/// A change to the layout bumps ``ScanCache/tableFormat``.
struct CachedFacts: Sendable {
    var signature: UInt64
    /// ``ScanCache/checksum(_:)`` of the record the facts were made from.
    var recordChecksum: Int64
    var kind: FileKind
    var format: ContainerFormat
    var identifier: IdentifierKey
    var hasMotionVideo: Bool
    /// ``ReadIssue/description`` of the file's error.
    var error: String?
    /// Where the movie's tracks lie in the record (``RecordCodec/Encoded/tracks``).
    var tracks: Range<Int>?
    var findings: [Finding]

    /// The summary ``FileSummary/init(_:slot:member:folders:)`` makes of the file at `path`.
    func summary(path: String, slot: Int, folders: inout RecentFolders) -> FileSummary {
        FileSummary(path: path, kind: kind, format: format, identifier: identifier, hasMotionVideo: hasMotionVideo,
                    error: error, slot: slot, folders: &folders)
    }

    /// The running executable's build ID (the linker's `NT_GNU_BUILD_ID` note, a hash of what it
    /// linked), in hex: a build of its own, whose file rules may say other things than another's
    /// (a cache outlives builds, and livelint's version does not change with each). Read from the
    /// first few KiB of `/proc/self/exe` (its ELF program headers, then its notes). Nil for an
    /// executable without one, or that cannot be read (then no facts are kept or used). The
    /// executable's device, inode, size and time were not enough: a reproducible build fixes the
    /// time, and a reworded message can leave the size as it was.
    static let buildIdentity: String? = {
        // The project's bounds-checked reader (its first 16 KiB, read on opening, hold the
        // header and the program headers).
        guard let exe = try? FileByteSource(path: "/proc/self/exe") else { return nil }
        func read(_ offset: UInt64, _ count: Int) -> [UInt8]? {
            guard count > 0, count <= 1 << 16, offset <= UInt64(Int64.max) else { return nil }
            return try? exe.read(at: Int64(offset), count: count)
        }
        return read(0, 64).flatMap { header in buildID(elfHeader: header, read: read) }
            .map { $0.map { String(format: "%02x", $0) }.joined() }
    }()

    /// The build ID of the 64-bit little-endian ELF file whose first 64 bytes are `header`, its
    /// other bytes read through `read(offset, count)`; nil when it is no such file or has none.
    static func buildID(elfHeader header: [UInt8], read: (UInt64, Int) -> [UInt8]?) -> [UInt8]? {
        guard header.count >= 64, header[0..<4] == [0x7F, 0x45, 0x4C, 0x46], header[4] == 2, header[5] == 1 else { return nil }
        func u16(_ b: [UInt8], _ at: Int) -> Int { Int(UInt16(littleEndian: b.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: at, as: UInt16.self) })) }
        func u32(_ b: [UInt8], _ at: Int) -> UInt32 { UInt32(littleEndian: b.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: at, as: UInt32.self) }) }
        func u64(_ b: [UInt8], _ at: Int) -> UInt64 { UInt64(littleEndian: b.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: at, as: UInt64.self) }) }
        let tableOffset = u64(header, 32), entrySize = u16(header, 54), entries = u16(header, 56)
        guard entrySize >= 56, let table = read(tableOffset, entrySize * entries) else { return nil }
        for i in 0..<entries {
            let entry = i * entrySize
            guard u32(table, entry) == 4,  // PT_NOTE
                  let notes = read(u64(table, entry + 8), Int(clamping: u64(table, entry + 32))) else { continue }
            if let id = notes.withUnsafeBytes({ buildID(inNotes: $0) }) { return id }
        }
        return nil
    }

    /// The descriptor of the first `GNU` note of type 3 (`NT_GNU_BUILD_ID`) among ELF `notes`,
    /// each a name size, a descriptor size and a type (4 bytes each), then the name and the
    /// descriptor, each padded to 4 bytes; nil when there is none or the notes run past their end.
    static func buildID(inNotes notes: UnsafeRawBufferPointer) -> [UInt8]? {
        var offset = 0
        while notes.count - offset >= 12 {
            func u32(_ at: Int) -> UInt32 { UInt32(littleEndian: notes.loadUnaligned(fromByteOffset: offset + at, as: UInt32.self)) }
            let nameSize = Int(u32(0)), descriptorSize = Int(u32(4)), type = u32(8)
            let name = offset + 12, descriptor = name + (nameSize + 3) & ~3
            let next = descriptor + (descriptorSize + 3) & ~3
            guard nameSize <= notes.count, descriptorSize <= notes.count, next <= notes.count else { return nil }
            if type == 3, nameSize == 4, Array(notes[name..<(name + 4)]) == Array("GNU\0".utf8), descriptorSize > 0 {
                return Array(notes[descriptor..<(descriptor + descriptorSize)])
            }
            offset = next
        }
        return nil
    }

    /// What ``signature(rules:pathHash:)`` starts from for `engine`: its file rules
    /// (``LintEngine/fileRulesSignature``) under `build` (this one); nil when it is unknown.
    static func rulesSignature(_ engine: LintEngine, build: String? = buildIdentity) -> UInt64? {
        build.map { Shard.fnv1a($0 + "\n" + engine.fileRulesSignature) }
    }

    /// The signature facts are stored under: `rules` (``rulesSignature(_:)``) and the display
    /// path, which findings quote, by its ``pathHash(_:)``.
    static func signature(rules: UInt64, pathHash: UInt64) -> UInt64 {
        Mix.combine(rules, pathHash)
    }

    /// ``RecordCodec/hash(_:)`` of a display path's bytes (which counts their length): what the
    /// facts' signature and the file's bucket key (``FileKey``) take of it.
    static func pathHash(_ displayPath: String) -> UInt64 {
        var path = displayPath
        return path.withUTF8 { RecordCodec.hash(UnsafeRawBufferPointer($0)) }
    }

    // MARK: - Encoding

    var encoded: [UInt8] {
        var w = RecordCodec.Writer()
        // The checksum and the signature, put in below.
        for _ in 0..<16 { w.byte(0) }
        w.int(recordChecksum)
        w.string(kind.rawValue)
        w.string(format.rawValue)
        let key = identifier.packed
        w.byte(key.code)
        w.uint(key.high)
        w.uint(key.low)
        w.optional(key.text) { $0.string($1) }
        w.bool(hasMotionVideo)
        w.optional(error) { $0.string($1) }
        w.optional(tracks) { $0.uint(UInt64($1.lowerBound)); $0.uint(UInt64($1.upperBound)) }
        w.array(findings) { w, f in
            w.string(f.ruleID); w.string(f.severity.rawValue); w.string(f.message)
            w.array(f.files) { $0.string($1) }
            w.optional(f.fixHint) { $0.string($1) }
            w.string(f.documentation)
        }
        var bytes = w.bytes
        withUnsafeBytes(of: signature.littleEndian) { bytes.replaceSubrange(8..<16, with: $0) }
        ScanCache.seal(&bytes)
        return bytes
    }

    /// The facts `bytes` hold when their checksum is right, their signature is `signature` and
    /// they were made from the record of checksum `record`; nil otherwise. `names` shares the
    /// strings findings repeat (rule ids, documentation).
    static func decode(_ bytes: UnsafeRawBufferPointer, signature: UInt64, record: Int64, names: RecordCodec.Names) -> CachedFacts? {
        guard let sealed = ScanCache.unsealed(bytes), sealed.count >= 8,
              UInt64(littleEndian: sealed.loadUnaligned(as: UInt64.self)) == signature else { return nil }
        // After the checksum and the signature.
        var r = RecordCodec.Reader(bytes: UnsafeRawBufferPointer(rebasing: sealed[8...]), names: names)
        guard r.int64() == record,
              let kind = r.slice().flatMap(RecordCodec.kinds.value),
              let format = r.slice().flatMap(RecordCodec.formats.value),
              let code = r.byte(), let high = r.uint(), let low = r.uint(),
              let text = r.optional({ $0.string() }), let hasMotionVideo = r.bool(),
              let error = r.optional({ $0.string() }),
              let tracks = r.optional({ r -> Range<Int>? in
                  guard let lower = r.uint(), let upper = r.uint(), lower <= upper, upper <= UInt64(Int.max) else { return nil }
                  return Int(lower)..<Int(upper)
              }),
              let findings = r.array({ r -> Finding? in
                  guard let id = r.name(), let severity = r.string().flatMap(Severity.init(rawValue:)),
                        let message = r.string(), let files = r.array({ $0.string() }),
                        let hint = r.optional({ $0.string() }), let documentation = r.name() else { return nil }
                  return Finding(ruleID: id, severity: severity, message: message, files: files, fixHint: hint,
                                 documentation: documentation)
              }),
              r.atEnd,
              let identifier = IdentifierKey(code: code, high: high, low: low, text: text)
        else { return nil }
        return CachedFacts(signature: signature, recordChecksum: record, kind: kind, format: format, identifier: identifier,
                           hasMotionVideo: hasMotionVideo, error: error, tracks: tracks, findings: findings)
    }
}

extension CachedFacts {
    /// The facts of `file` (slim, as the scan holds it; its record's tracks at `tracks`) with
    /// what the file rules found on it; nil for a file a summary made from them would not match.
    init?(_ file: MediaFile, findings: [Finding], tracks: Range<Int>?, signature: UInt64, recordChecksum: Int64) {
        guard file.members == nil, file.sidecar == nil, findings.allSatisfy({ $0.repair == nil }) else { return nil }
        self.signature = signature
        self.recordChecksum = recordChecksum
        kind = file.kind
        format = file.format
        identifier = IdentifierKey(file.contentIdentifier)
        hasMotionVideo = file.hasMotionVideo
        error = file.error?.description
        self.tracks = tracks
        self.findings = findings
    }
}
