import AppleMakerNote
import CExiv2
import ISOBMFF
import LiveModel

/// How much `StillReader` reads.
public struct StillReadOptions: Sendable {
    /// false for the lint fast path: only what rules need (makernote, Make/Model/DateTimeOriginal,
    /// dimensions, GCamera/MotionPhoto XMP), true for dump (every Exif/XMP/IPTC value).
    public var allProperties: Bool = true
    /// The makernote tags decoded, nil for all of them. The others are still bounds-checked (the
    /// same issues are found) but neither copied nor decoded: lint asks for
    /// ``lintMakerNoteTags`` alone, which spares it the binary plists of every still.
    public var makerNoteTags: Set<UInt16>?
    /// The exiv2 key prefixes the fast path keeps; nil for ``lintKeyPrefixes`` (every exiv2 entry
    /// of the table). A scan passes only what its enabled rules read (issue 13).
    public var keyPrefixes: [String]?

    public init(allProperties: Bool = true, makerNoteTags: Set<UInt16>? = nil, keyPrefixes: [String]? = nil) {
        self.allProperties = allProperties
        self.makerNoteTags = makerNoteTags
        self.keyPrefixes = keyPrefixes
    }

    /// The makernote tags the lint path decodes: the makernote entries of `MetadataKey.table` (the
    /// content identifier, 0x0011).
    public static let lintMakerNoteTags: Set<UInt16> = Set(MetadataKey.table.compactMap(\.makerNoteTag))

    /// The exiv2 key prefixes the fast path keeps (`allProperties == false`): the exiv2 entries of
    /// `MetadataKey.table`, in its order. Rules declare entries of that table in
    /// `RuleDescription.readsMetadata`, so every still key they declare is among these (a test checks).
    public static let lintKeyPrefixes: [String] = MetadataKey.table.filter { $0.reader == .exiv2 }.map(\.key)
}

/// What `StillReader` returns: the still (nil when the file could not be read), the error that
/// stopped reading, and problems that did not.
public struct StillReadResult: Sendable {
    public var still: StillInfo?
    public var error: ReadIssue?
    public var warnings: [ReadIssue]

    public init(still: StillInfo? = nil, error: ReadIssue? = nil, warnings: [ReadIssue] = []) {
        self.still = still
        self.error = error
        self.warnings = warnings
    }
}

/// Reads a still image (JPEG, HEIC/HEIF, AVIF, PNG, TIFF, WebP: whatever exiv2 0.27 reads) into
/// `StillInfo`, through the exiv2 shim, and decodes an Apple makernote found in it.
///
/// Never writes to the file, never prints, never throws: failures come back in `error`.
/// Safe to call from several threads on different files.
public enum StillReader {
    /// The exiv2 key of the raw makernote (exiv2 0.27 has no Apple makernote decoder and keeps it raw).
    public static let makerNoteKey = MetadataKey.makerNote.key

    /// Reads the file at `path` (through ``read(source:options:)`` once it is open; exiv2 says why
    /// a path that does not open as a regular file cannot be read).
    public static func read(path: String, options: StillReadOptions = .init()) -> StillReadResult {
        if let source = try? FileByteSource(path: path) { return read(source: source, options: options) }
        return run(options) { prefixes, count, out, error in llx_read_path(path, prefixes, count, out, error) }
    }

    /// Reads the file `source` has open (shown as its path): exiv2 reads through the same
    /// descriptor, with no second open and no lookup of the path (each was a path walk in the
    /// kernel, per still), and starts from the bytes the source read when it opened the file.
    public static func read(source: FileByteSource, options: StillReadOptions = .init()) -> StillReadResult {
        read(source: source, options: options, fromHead: true)
    }

    /// `fromHead` false: exiv2 reads every byte through the descriptor (tests compare the two).
    static func read(source: FileByteSource, options: StillReadOptions, fromHead: Bool) -> StillReadResult {
        let head = fromHead ? source.head : []
        let result = source.withDescriptor { fd in
            head.withUnsafeBufferPointer { head in
                run(options) { prefixes, count, out, error in
                    llx_read_fd(fd, source.size, source.path, head.baseAddress, head.count, prefixes, count, out, error)
                }
            }
        }
        guard let error = result.error, error.category != .io,
              let head = try? source.read(at: 0, count: Int(min(source.size, diagnosisWindow)))
        else { return result }
        return StillReadResult(error: located(error, head: head, size: source.size))
    }

    /// Reads an image held in memory (e.g. a `.livp` member).
    public static func read(bytes: [UInt8], options: StillReadOptions = .init()) -> StillReadResult {
        let result = bytes.withUnsafeBufferPointer { buffer in
            run(options) { prefixes, count, out, error in
                llx_read_buffer(buffer.baseAddress, buffer.count, prefixes, count, out, error)
            }
        }
        guard let error = result.error else { return result }
        return StillReadResult(error: located(error, head: Array(bytes.prefix(Int(diagnosisWindow))), size: Int64(bytes.count)))
    }

    /// How much of a refused file is walked to locate the damage.
    static let diagnosisWindow: Int64 = 1 << 20

    /// exiv2 says what failed, not where: for a JPEG, walk the header segments to name the
    /// segment and byte where the file breaks, and keep exiv2's words after it.
    static func located(_ error: ReadIssue, head: [UInt8], size: Int64) -> ReadIssue {
        guard head.starts(with: [0xFF, 0xD8]), var issue = JPEGSegments.diagnose(head, fileSize: size) else { return error }
        issue.message += "; \(error.message)"
        return issue
    }

    /// The raw `Exif.Photo.MakerNote` bytes of the file at `path` (nil when it has none or cannot be
    /// read), e.g. to re-key it with `AppleMakerNoteEncoder.replacingContentIdentifier`.
    public static func makerNoteBytes(path: String) -> [UInt8]? {
        rawMakerNote { prefixes, count, out, error in llx_read_path(path, prefixes, count, out, error) }
    }

    /// The raw `Exif.Photo.MakerNote` bytes of an image in memory (nil when it has none).
    public static func makerNoteBytes(bytes: [UInt8]) -> [UInt8]? {
        bytes.withUnsafeBufferPointer { buffer in
            rawMakerNote { prefixes, count, out, error in llx_read_buffer(buffer.baseAddress, buffer.count, prefixes, count, out, error) }
        }
    }

    private static func rawMakerNote(_ call: ShimRead) -> [UInt8]? {
        var info: UnsafeMutablePointer<llx_image_info>?
        var message: UnsafeMutablePointer<CChar>?
        let status = withCStrings([makerNoteKey]) { prefixes in call(prefixes.baseAddress, prefixes.count, &info, &message) }
        defer {
            llx_image_info_free(info)
            llx_free(message)
        }
        guard status == LLX_OK, let info, let base = info.pointee.properties else { return nil }
        for p in UnsafeBufferPointer(start: base, count: info.pointee.property_count) {
            guard let key = p.key, String(cString: key) == makerNoteKey else { continue }
            return p.raw.map { Array(UnsafeBufferPointer(start: $0, count: p.raw_len)) } ?? []
        }
        return nil
    }

    private typealias ShimRead = (
        UnsafePointer<UnsafePointer<CChar>?>?, Int, UnsafeMutablePointer<UnsafeMutablePointer<llx_image_info>?>,
        UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>
    ) -> llx_status

    private static func run(_ options: StillReadOptions, _ call: ShimRead) -> StillReadResult {
        var info: UnsafeMutablePointer<llx_image_info>?
        var message: UnsafeMutablePointer<CChar>?
        let status: llx_status
        if options.allProperties {
            status = call(nil, 0, &info, &message)
        } else {
            status = withCStrings(options.keyPrefixes ?? StillReadOptions.lintKeyPrefixes) { prefixes in
                call(prefixes.baseAddress, prefixes.count, &info, &message)
            }
        }
        defer {
            llx_image_info_free(info)
            llx_free(message)
        }
        guard status == LLX_OK, let info else {
            let text = message.map { String(cString: $0) } ?? "exiv2 could not read the image"
            return StillReadResult(error: ReadIssue(category(of: status), text))
        }
        return StillReadResult(still: makeStill(info.pointee, makerNoteTags: options.makerNoteTags))
    }

    private static func category(of status: llx_status) -> ReadIssue.Category {
        switch status {
        case LLX_ERR_IO: return .io
        case LLX_ERR_NOT_IMAGE: return .notMedia
        case LLX_ERR_UNSUPPORTED: return .unsupported
        default: return .malformed
        }
    }

    private static func withCStrings<R>(_ strings: [String], _ body: (UnsafeBufferPointer<UnsafePointer<CChar>?>) -> R) -> R {
        let copies: [UnsafeMutablePointer<CChar>?] = strings.map { s in
            let utf8 = Array(s.utf8CString)
            let p = UnsafeMutablePointer<CChar>.allocate(capacity: utf8.count)
            p.initialize(from: utf8, count: utf8.count)
            return p
        }
        defer { copies.forEach { $0?.deallocate() } }
        let pointers = copies.map { UnsafePointer($0) }
        return pointers.withUnsafeBufferPointer(body)
    }

    private static func makeStill(_ info: llx_image_info, makerNoteTags: Set<UInt16>?) -> StillInfo {
        var still = StillInfo(
            width: info.width > 0 ? Int(info.width) : nil,
            height: info.height > 0 ? Int(info.height) : nil)
        var makerNoteBytes: [UInt8]?
        var decodedMakerNoteGroup = false
        if let base = info.properties, info.property_count > 0 {
            let props = UnsafeBufferPointer(start: base, count: info.property_count)
            still.properties.reserveCapacity(props.count)
            for p in props {
                guard let keyPointer = p.key else { continue }
                let key = String(cString: keyPointer)
                let type = p.type_name.map { String(cString: $0) } ?? "Unknown"
                let raw: [UInt8]? = p.raw.map { Array(UnsafeBufferPointer(start: $0, count: p.raw_len)) }
                let text = p.value.map { String(cString: $0) }
                if key == makerNoteKey {
                    makerNoteBytes = raw ?? []
                    still.properties.append(MetadataProperty(key: key, type: type, value: .string(makerNoteSummary(raw ?? []))))
                    continue
                }
                if key.hasPrefix(MetadataKey.makerNoteGroup.key) { decodedMakerNoteGroup = true }
                still.properties.append(
                    MetadataProperty(key: key, type: type, value: PropertyValue.typed(family: p.family, type: type, text: text, raw: raw)))
            }
        }
        if let bytes = makerNoteBytes {
            if AppleMakerNoteDecoder.isAppleMakerNote(bytes) {
                do {
                    still.makerNote = try AppleMakerNoteDecoder.decode(bytes, only: makerNoteTags)
                } catch {
                    still.makerNoteIssue = error
                }
            } else {
                let head = String(decoding: bytes.prefix(12).map { $0 >= 0x20 && $0 < 0x7F ? $0 : UInt8(ascii: ".") }, as: UTF8.self)
                still.makerNoteIssue = ReadIssue(
                    .unsupported, "the MakerNote is not Apple's (\(bytes.count) bytes starting \"\(head)\")", location: "exif/MakerNote")
            }
        } else if decodedMakerNoteGroup {
            // exiv2 recognised another maker's makernote and decoded it (Exif.Canon.*, Exif.Samsung2.*, …).
            still.makerNoteIssue = ReadIssue(.unsupported, "the MakerNote is another maker's (exiv2 decoded it), not Apple's", location: "exif/MakerNote")
        }
        return still
    }

    private static func makerNoteSummary(_ bytes: [UInt8]) -> String {
        AppleMakerNoteDecoder.isAppleMakerNote(bytes) ? "\(bytes.count) bytes (Apple iOS makernote)" : "\(bytes.count) bytes"
    }
}

/// Turns exiv2's text and bytes into typed `MetadataValue`s.
enum PropertyValue {
    static func typed(family: llx_family, type: String, text: String?, raw: [UInt8]?) -> MetadataValue {
        if let raw {
            // Exif undefined / byte values: text when it reads as text (ExifVersion "0232"), else bytes.
            if !raw.isEmpty, raw.count <= 256 {
                var printable = raw
                while let last = printable.last, last == 0 { printable.removeLast() }
                if !printable.isEmpty, printable.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) {
                    return .string(String(decoding: printable, as: UTF8.self))
                }
            }
            return .bytes(raw)
        }
        guard let text else { return .string("") }
        guard family == LLX_EXIF else { return .string(text) }
        let parts = text.split(separator: " ", omittingEmptySubsequences: true)
        func many(_ convert: (Substring) -> MetadataValue?) -> MetadataValue {
            let values = parts.compactMap(convert)
            guard values.count == parts.count, !values.isEmpty else { return .string(text) }
            return values.count == 1 ? values[0] : .array(values)
        }
        switch type {
        case "Short", "Long", "Ifd":
            return many { UInt64($0).map { .uint($0) } }
        case "SShort", "SLong":
            return many { Int64($0).map { .int($0) } }
        case "Float", "Double":
            return many { Double($0).map { .double($0) } }
        case "Rational", "SRational":
            return many { part in
                let nd = part.split(separator: "/")
                guard nd.count == 2, let n = Double(nd[0]), let d = Double(nd[1]), d != 0 else { return nil }
                return .double(n / d)
            }
        default:
            return .string(text)
        }
    }
}
