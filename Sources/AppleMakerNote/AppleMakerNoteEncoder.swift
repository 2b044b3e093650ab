import LiveModel

/// Builds Apple makernotes: `Apple iOS\0`, version, byte-order marker, one IFD at offset 14 with
/// value offsets counted from the start of the makernote, values longer than 4 bytes placed after
/// the IFD on even (word) offsets. The inverse of `AppleMakerNoteDecoder`.
public enum AppleMakerNoteEncoder {
    /// A problem building a makernote.
    public enum EncodeError: Error, Sendable, Hashable, CustomStringConvertible {
        /// An entry's data is not `count × type.size` bytes.
        case sizeMismatch(tag: UInt16, expected: Int, actual: Int)
        /// Two entries share a tag.
        case duplicateTag(UInt16)
        /// The result would not fit 32-bit offsets / 16-bit entry counts.
        case tooLarge
        /// The content identifier is not printable ASCII.
        case invalidIdentifier(String)

        public var description: String {
            switch self {
            case .sizeMismatch(let tag, let expected, let actual):
                return "makernote entry \(AppleMakerNoteDecoder.hexID(tag)) has \(actual) value bytes, its type and count need \(expected)"
            case .duplicateTag(let tag): return "makernote tag \(AppleMakerNoteDecoder.hexID(tag)) given twice"
            case .tooLarge: return "makernote too large"
            case .invalidIdentifier(let s): return "content identifier \"\(s)\" is not printable ASCII"
            }
        }
    }

    /// Encodes `entries` (sorted by tag, as TIFF wants) after the Apple header.
    /// The entries' data must already be in `byteOrder`.
    public static func encode(entries: [AppleMakerNoteEntry], version: UInt16 = 1, byteOrder: TIFFByteOrder = .bigEndian) throws(EncodeError)
        -> [UInt8]
    {
        let sorted = entries.sorted { $0.tag < $1.tag }
        for (a, b) in zip(sorted, sorted.dropFirst()) where a.tag == b.tag { throw .duplicateTag(a.tag) }
        guard sorted.count <= Int(UInt16.max) else { throw .tooLarge }
        for e in sorted {
            let (expected, overflow) = Int(e.count).multipliedReportingOverflow(by: e.type.size)
            guard !overflow, expected == e.data.count else { throw .sizeMismatch(tag: e.tag, expected: overflow ? -1 : expected, actual: e.data.count) }
        }
        let w = Writer(order: byteOrder)
        var out = AppleMakerNoteDecoder.signature
        out += [UInt8(version >> 8), UInt8(version & 0xFF)]
        out += byteOrder.marker
        out += w.u16(UInt16(sorted.count))
        var dataOffset = AppleMakerNoteDecoder.ifdOffset + 2 + sorted.count * 12 + 4
        var dataArea: [UInt8] = []
        for e in sorted {
            out += w.u16(e.tag) + w.u16(e.type.rawValue) + w.u32(e.count)
            if e.data.count <= 4 {
                out += e.data + [UInt8](repeating: 0, count: 4 - e.data.count)
            } else {
                guard dataOffset <= Int(UInt32.max) - e.data.count else { throw .tooLarge }
                out += w.u32(UInt32(dataOffset))
                dataArea += e.data
                dataOffset += e.data.count
                if dataOffset % 2 == 1 {
                    dataArea.append(0)
                    dataOffset += 1
                }
            }
        }
        out += [0, 0, 0, 0]  // next IFD: none
        return out + dataArea
    }

    /// A minimal Apple makernote carrying the Live Photo identifier in tag 0x0011 (ascii,
    /// NUL-terminated), plus `extraTags`. Version 1, big-endian, like every device writes.
    public static func makerNote(contentIdentifier: String, extraTags: [AppleMakerNoteEntry] = []) throws(EncodeError) -> [UInt8] {
        let id = try Entry.ascii(AppleMakerNoteTags.contentIdentifier, contentIdentifier, requirePrintable: true)
        return try encode(entries: extraTags.filter { $0.tag != AppleMakerNoteTags.contentIdentifier } + [id])
    }

    /// Returns `makerNote` with tag 0x0011 set to `contentIdentifier`, every other entry's value bytes kept.
    ///
    /// When the old 0x0011 is an ascii entry long enough for the new identifier, it is overwritten in
    /// place (NUL-padded, same count), so every other byte of the makernote stays identical. Otherwise
    /// the makernote is re-laid-out from its decoded entries (same version and byte order), which
    /// keeps each value byte-exact but moves offsets; entries the decoder rejected are dropped.
    public static func replacingContentIdentifier(in makerNote: [UInt8], with contentIdentifier: String) throws -> [UInt8] {
        let newEntry = try Entry.ascii(AppleMakerNoteTags.contentIdentifier, contentIdentifier, requirePrintable: true)
        let raw = try AppleMakerNoteDecoder.decodeRaw(makerNote)
        if let location = inPlaceLocation(of: AppleMakerNoteTags.contentIdentifier, in: makerNote, order: raw.byteOrder),
            location.type == .ascii, newEntry.data.count <= Int(location.count)
        {
            var out = makerNote
            let padded = newEntry.data + [UInt8](repeating: 0, count: Int(location.count) - newEntry.data.count)
            out.replaceSubrange(location.start..<(location.start + padded.count), with: padded)
            return out
        }
        var entries = raw.entries.filter { $0.tag != AppleMakerNoteTags.contentIdentifier }
        entries.append(newEntry)
        return try encode(entries: entries, version: raw.version, byteOrder: raw.byteOrder)
    }

    /// Where a tag's value bytes sit in the first IFD (only for entries whose bounds check passes).
    private static func inPlaceLocation(of tag: UInt16, in bytes: [UInt8], order: TIFFByteOrder) -> (type: TIFFType, count: UInt32, start: Int)? {
        let r = ByteReader(bytes: bytes, order: order)
        guard let n = r.u16(at: AppleMakerNoteDecoder.ifdOffset) else { return nil }
        for i in 0..<Int(n) {
            let at = AppleMakerNoteDecoder.ifdOffset + 2 + i * 12
            guard let t = r.u16(at: at), let typeNumber = r.u16(at: at + 2), let count = r.u32(at: at + 4) else { return nil }
            guard t == tag else { continue }
            guard let type = TIFFType(rawValue: typeNumber) else { return nil }
            let (size, overflow) = UInt32(type.size).multipliedReportingOverflow(by: count)
            guard !overflow else { return nil }
            let start: Int
            if size <= 4 {
                start = at + 8
            } else {
                guard let o = r.u32(at: at + 8) else { return nil }
                start = Int(o)
            }
            let (end, endOverflow) = start.addingReportingOverflow(Int(size))
            guard !endOverflow, end <= bytes.count else { return nil }
            return (type, count, start)
        }
        return nil
    }

    /// Builders for entries from typed values, in big-endian byte order (the order Apple writes).
    public enum Entry {
        /// An ascii entry: UTF-8 bytes plus a terminating NUL (counted).
        public static func ascii(_ tag: UInt16, _ text: String) -> AppleMakerNoteEntry {
            let data = Array(text.utf8) + [0]
            return AppleMakerNoteEntry(tag: tag, type: .ascii, count: UInt32(truncatingIfNeeded: data.count), data: data)
        }

        static func ascii(_ tag: UInt16, _ text: String, requirePrintable: Bool) throws(EncodeError) -> AppleMakerNoteEntry {
            if requirePrintable, text.isEmpty || !text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { throw .invalidIdentifier(text) }
            return ascii(tag, text)
        }

        public static func int32s(_ tag: UInt16, _ values: [Int32]) -> AppleMakerNoteEntry {
            let w = Writer(order: .bigEndian)
            return AppleMakerNoteEntry(
                tag: tag, type: .slong, count: UInt32(truncatingIfNeeded: values.count), data: values.flatMap { w.u32(UInt32(bitPattern: $0)) })
        }

        public static func int64u(_ tag: UInt16, _ values: [UInt64]) -> AppleMakerNoteEntry {
            let w = Writer(order: .bigEndian)
            return AppleMakerNoteEntry(tag: tag, type: .long8, count: UInt32(truncatingIfNeeded: values.count), data: values.flatMap { w.u64($0) })
        }

        public static func rational64s(_ tag: UInt16, _ values: [(numerator: Int32, denominator: Int32)]) -> AppleMakerNoteEntry {
            let w = Writer(order: .bigEndian)
            let data = values.flatMap { w.u32(UInt32(bitPattern: $0.numerator)) + w.u32(UInt32(bitPattern: $0.denominator)) }
            return AppleMakerNoteEntry(tag: tag, type: .srational, count: UInt32(truncatingIfNeeded: values.count), data: data)
        }

        public static func undefined(_ tag: UInt16, _ bytes: [UInt8]) -> AppleMakerNoteEntry {
            AppleMakerNoteEntry(tag: tag, type: .undefined, count: UInt32(truncatingIfNeeded: bytes.count), data: bytes)
        }
    }
}

struct Writer {
    let order: TIFFByteOrder

    func u16(_ v: UInt16) -> [UInt8] {
        let b = [UInt8(v >> 8), UInt8(v & 0xFF)]
        return order == .bigEndian ? b : b.reversed()
    }

    func u32(_ v: UInt32) -> [UInt8] {
        let b = (0..<4).map { UInt8((v >> (24 - 8 * UInt32($0))) & 0xFF) }
        return order == .bigEndian ? b : b.reversed()
    }

    func u64(_ v: UInt64) -> [UInt8] {
        let b = (0..<8).map { UInt8((v >> (56 - 8 * UInt64($0))) & 0xFF) }
        return order == .bigEndian ? b : b.reversed()
    }
}
