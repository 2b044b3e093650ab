import Foundation
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
/// ``LintEngine/fileRulesSignature``): ``signature(rules:displayPath:)`` of both is stored with
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

    /// The facts of `file` (slim, as the scan holds it; its record's tracks at `tracks`) with
    /// what the file rules found on it; nil for a file a summary made from them would not match.
    init?(_ file: MediaFile, findings: [Finding], tracks: Range<Int>?, signature: UInt64, recordChecksum: Int64) {
        guard file.members == nil, file.sidecar == nil, findings.allSatisfy({ $0.repair == nil }) else { return nil }
        self.signature = signature
        self.recordChecksum = recordChecksum
        kind = file.kind
        format = file.format
        identifier = IdentifierKey(file.contentIdentifier)
        hasMotionVideo = file.still?.motionPhoto?.hasVideo == true
        error = file.error?.description
        self.tracks = tracks
        self.findings = findings
    }

    /// The summary ``FileSummary/init(_:slot:member:folders:)`` makes of the file at `path`.
    func summary(path: String, slot: Int, folders: inout RecentFolders) -> FileSummary {
        FileSummary(path: path, kind: kind, format: format, identifier: identifier, hasMotionVideo: hasMotionVideo,
                    error: error, slot: slot, folders: &folders)
    }

    /// The running executable's device, inode, size and modification time: a build of its own,
    /// whose file rules may say other things than another's (a cache outlives builds, and
    /// livelint's version does not change with each). Nil when it cannot be stat'ed (no facts
    /// are used then).
    static let buildIdentity: String? = {
        var st = stat()
        guard stat("/proc/self/exe", &st) == 0 else { return nil }
        return "\(st.st_dev) \(st.st_ino) \(st.st_size) \(st.st_mtim.tv_sec).\(st.st_mtim.tv_nsec)"
    }()

    /// What ``signature(rules:displayPath:)`` starts from for `engine`: its file rules
    /// (``LintEngine/fileRulesSignature``) under `build` (this one); nil when it is unknown.
    static func rulesSignature(_ engine: LintEngine, build: String? = buildIdentity) -> UInt64? {
        build.map { Shard.fnv1a($0 + "\n" + engine.fileRulesSignature) }
    }

    /// The signature facts are stored under: `rules` (``rulesSignature(_:)``) and the display
    /// path, which findings quote (its length first, so no two pairs of them run together).
    static func signature(rules: UInt64, displayPath: String) -> UInt64 {
        var hash = rules
        var path = displayPath
        path.withUTF8 { bytes in
            for byte in String(bytes.count).utf8 + [0] {
                hash ^= UInt64(byte)
                hash &*= 0x0000_0100_0000_01B3
            }
            for byte in bytes {
                hash ^= UInt64(byte)
                hash &*= 0x0000_0100_0000_01B3
            }
        }
        return hash
    }

    // MARK: - Encoding

    var encoded: [UInt8] {
        var w = RecordCodec.Writer()
        w.bytes += [UInt8](repeating: 0, count: 16)
        w.int(recordChecksum)
        w.string(kind.rawValue)
        w.string(format.rawValue)
        let key = identifier.packed
        w.bytes.append(key.code)
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
        Self.put(signature, at: 8, in: &bytes)
        let sum = bytes[8...].withUnsafeBytes { UInt64(bitPattern: ScanCache.checksum($0)) }
        Self.put(sum, at: 0, in: &bytes)
        return bytes
    }

    /// The facts `bytes` hold when their checksum is right, their signature is `signature` and
    /// they were made from the record of checksum `record`; nil otherwise. `names` shares the
    /// strings findings repeat (rule ids, documentation).
    static func decode(_ bytes: UnsafeRawBufferPointer, signature: UInt64, record: Int64, names: RecordCodec.Names) -> CachedFacts? {
        guard bytes.count >= 16, load(bytes, at: 8) == signature,
              load(bytes, at: 0) == UInt64(bitPattern: ScanCache.checksum(UnsafeRawBufferPointer(rebasing: bytes[8...])))
        else { return nil }
        var r = RecordCodec.Reader(bytes: bytes, names: names)
        r.offset = 16
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
              r.offset == bytes.count,
              let identifier = IdentifierKey(code: code, high: high, low: low, text: text)
        else { return nil }
        return CachedFacts(signature: signature, recordChecksum: record, kind: kind, format: format, identifier: identifier,
                           hasMotionVideo: hasMotionVideo, error: error, tracks: tracks, findings: findings)
    }

    private init(signature: UInt64, recordChecksum: Int64, kind: FileKind, format: ContainerFormat, identifier: IdentifierKey,
                 hasMotionVideo: Bool, error: String?, tracks: Range<Int>?, findings: [Finding]) {
        self.signature = signature
        self.recordChecksum = recordChecksum
        self.kind = kind
        self.format = format
        self.identifier = identifier
        self.hasMotionVideo = hasMotionVideo
        self.error = error
        self.tracks = tracks
        self.findings = findings
    }

    private static func put(_ value: UInt64, at offset: Int, in bytes: inout [UInt8]) {
        for i in 0..<8 { bytes[offset + i] = UInt8(truncatingIfNeeded: value >> (8 * UInt64(i))) }
    }

    private static func load(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> UInt64 {
        var value: UInt64 = 0
        for i in 0..<8 { value |= UInt64(bytes[offset + i]) << (8 * UInt64(i)) }
        return value
    }
}
