import LiveModel

/// One raw IFD entry of an Apple makernote: the tag, its TIFF type and count, and the value's bytes
/// exactly as stored (in the makernote's byte order). The encoder writes these back unchanged.
public struct AppleMakerNoteEntry: Sendable, Hashable {
    public var tag: UInt16
    public var type: TIFFType
    public var count: UInt32
    /// The value bytes (`count × type.size` of them), in the makernote's byte order.
    public var data: [UInt8]

    /// An entry from raw value bytes. `data.count` must be `count × type.size` (the encoder checks).
    public init(tag: UInt16, type: TIFFType, count: UInt32, data: [UInt8]) {
        self.tag = tag
        self.type = type
        self.count = count
        self.data = data
    }
}

/// What the raw decode of a makernote yields: the header fields, the entries that decoded, and the
/// problems found in the others.
public struct AppleMakerNoteRaw: Sendable, Hashable {
    public var version: UInt16
    public var byteOrder: TIFFByteOrder
    public var entries: [AppleMakerNoteEntry]
    public var issues: [ReadIssue]
}

/// Decodes an Apple makernote: `Apple iOS\0`, a 2-byte version, `MM`, then a TIFF IFD at offset 14
/// whose value offsets count from the start of the makernote (exiftool `MakerNotes.pm`, `Apple.pm`).
///
/// Every size is overflow-checked and bounds-checked against the makernote. A bad entry becomes an
/// issue located at `makernote/ifdN/entry[M]` and the other entries still decode; a header that is not
/// Apple's is a thrown `ReadIssue`. Next-IFD pointers are followed at most `maxIFDs` times, never twice
/// to the same offset.
public enum AppleMakerNoteDecoder {
    /// `Apple iOS\0`.
    public static let signature: [UInt8] = Array("Apple iOS".utf8) + [0]
    /// Byte offset of the IFD (signature + version + byte-order marker).
    public static let ifdOffset = 14
    /// At most this many IFDs are read (Apple writes one).
    public static let maxIFDs = 4
    /// Binary plists larger than this stay bytes.
    public static let maxPlistSize = 64 * 1024
    /// At most this many value bytes are copied out of one makernote, all entries together
    /// (entries may all point at the same bytes, so the makernote's size is no bound); entries
    /// past it are a `limit` issue. Apple's makernotes hold a few kilobytes.
    public static let maxValueBytes = 1 << 20

    /// True when `bytes` start with `Apple iOS\0`.
    public static func isAppleMakerNote(_ bytes: [UInt8]) -> Bool {
        bytes.count >= signature.count && Array(bytes[0..<signature.count]) == signature
    }

    /// Decodes the makernote into the model: entries typed as `MetadataValue`, named from `AppleMakerNoteTags`.
    ///
    /// With `only`, just those tags are copied out and decoded (lint asks for the content
    /// identifier alone); every entry is still bounds-checked, so the issues are the same.
    public static func decode(_ bytes: [UInt8], only: Set<UInt16>? = nil) throws(ReadIssue) -> AppleMakerNoteInfo {
        let raw = try decodeRaw(bytes, only: only)
        var tags: [MakerAppleTag] = []
        tags.reserveCapacity(raw.entries.count)
        // One plist budget for the whole makernote: many small plists must not add up to millions of objects.
        var plistBudget = BinaryPlist.Budget()
        for e in raw.entries {
            tags.append(
                MakerAppleTag(
                    tag: e.tag, name: AppleMakerNoteTags.name(for: e.tag), aliases: AppleMakerNoteTags.aliases(for: e.tag),
                    type: e.type.name, count: e.count, value: value(of: e, byteOrder: raw.byteOrder, plistBudget: &plistBudget)
                ))
        }
        return AppleMakerNoteInfo(version: raw.version, tags: tags, issues: raw.issues)
    }

    /// Decodes the makernote into raw entries (value bytes as stored), for rewriting it; with
    /// `only`, the entries of those tags alone (the others are checked, not copied).
    public static func decodeRaw(_ bytes: [UInt8], only: Set<UInt16>? = nil) throws(ReadIssue) -> AppleMakerNoteRaw {
        guard bytes.count >= signature.count, Array(bytes[0..<signature.count]) == signature else {
            let head = MetadataValue.hex(Array(bytes.prefix(10)))
            throw ReadIssue(.notMedia, "not an Apple makernote: it does not start with \"Apple iOS\\0\" (starts with \(head.isEmpty ? "nothing" : head))", location: "makernote")
        }
        guard bytes.count >= ifdOffset + 2 else {
            throw ReadIssue(.malformed, "Apple makernote header truncated: \(bytes.count) bytes, the IFD needs at least \(ifdOffset + 2)", location: "makernote")
        }
        let version = UInt16(bytes[10]) << 8 | UInt16(bytes[11])
        let order: TIFFByteOrder
        switch (bytes[12], bytes[13]) {
        case (0x4D, 0x4D): order = .bigEndian
        case (0x49, 0x49): order = .littleEndian
        default:
            throw ReadIssue(.malformed, "Apple makernote byte-order marker is \(MetadataValue.hex([bytes[12], bytes[13]])), not MM or II", location: "makernote")
        }
        let reader = ByteReader(bytes: bytes, order: order)
        var entries: [AppleMakerNoteEntry] = []
        var issues: [ReadIssue] = []
        var visited: Set<Int> = []
        var valueBudget = maxValueBytes
        var next = ifdOffset
        var index = 0
        while next != 0 {
            let location = "makernote/ifd\(index)"
            if index >= maxIFDs {
                issues.append(ReadIssue(.limit, "more than \(maxIFDs) IFDs chained; the rest are not read", location: location))
                break
            }
            if visited.contains(next) {
                issues.append(ReadIssue(.malformed, "IFD loop: the next-IFD pointer returns to makernote byte \(next)", location: location))
                break
            }
            visited.insert(next)
            guard let nextPointer = readIFD(at: next, index: index, reader: reader, only: only, entries: &entries,
                                             issues: &issues, valueBudget: &valueBudget) else { break }
            next = nextPointer
            index += 1
        }
        return AppleMakerNoteRaw(version: version, byteOrder: order, entries: entries, issues: issues)
    }

    /// Reads one IFD; returns the next-IFD offset (0 when none) or nil when the chain must stop.
    private static func readIFD(
        at offset: Int, index: Int, reader: ByteReader, only: Set<UInt16>?, entries: inout [AppleMakerNoteEntry],
        issues: inout [ReadIssue], valueBudget: inout Int
    ) -> Int? {
        let location = "makernote/ifd\(index)"
        guard let declared = reader.u16(at: offset) else {
            issues.append(ReadIssue(.malformed, "IFD at makernote byte \(offset) is past the end (\(reader.count) bytes)", location: location))
            return nil
        }
        let available = (reader.count - offset - 2) / 12
        var count = Int(declared)
        if count > available {
            issues.append(ReadIssue(.malformed, "IFD declares \(declared) entries but only \(max(0, available)) fit in the makernote", location: location))
            count = max(0, available)
        }
        for i in 0..<count {
            let at = offset + 2 + i * 12
            // The location is text only when an issue needs it (every entry of every still is read).
            if let e = readEntry(at: at, location: { "\(location)/entry[\(i)]" }, reader: reader, issues: &issues) {
                // Every good entry is charged, kept or not, so `only` finds the same issues and
                // stops at the same place as a full decode.
                guard e.range.count <= valueBudget else {
                    issues.append(ReadIssue(.limit, "values add up to more than \(maxValueBytes) bytes; this entry and the rest are not read",
                                            location: "\(location)/entry[\(i)]"))
                    return nil
                }
                valueBudget -= e.range.count
                if let only, !only.contains(e.tag) { continue }
                entries.append(AppleMakerNoteEntry(tag: e.tag, type: e.type, count: e.count, data: Array(reader.bytes[e.range])))
            }
        }
        guard count == Int(declared), let next = reader.u32(at: offset + 2 + count * 12) else { return nil }
        if next == 0 { return 0 }
        guard Int(next) < reader.count else {
            issues.append(ReadIssue(.malformed, "next-IFD pointer \(next) is past the end of the makernote (\(reader.count) bytes)", location: location))
            return nil
        }
        return Int(next)
    }

    /// One entry, bounds-checked, its value located but not copied; nil when it is bad (an issue says why).
    private static func readEntry(at: Int, location: () -> String, reader: ByteReader,
                                  issues: inout [ReadIssue]) -> (tag: UInt16, type: TIFFType, count: UInt32, range: Range<Int>)? {
        guard let tag = reader.u16(at: at), let typeNumber = reader.u16(at: at + 2), let count = reader.u32(at: at + 4) else {
            issues.append(ReadIssue(.malformed, "entry truncated", location: location()))
            return nil
        }
        func issue(_ problem: String) {
            issues.append(ReadIssue(.malformed, "tag \(AppleMakerNoteTags.name(for: tag)) (\(hexID(tag)))\(problem)", location: location()))
        }
        guard let type = TIFFType(rawValue: typeNumber) else {
            issue(" has unknown TIFF type \(typeNumber)")
            return nil
        }
        let (size, overflow) = UInt32(type.size).multipliedReportingOverflow(by: count)
        guard !overflow else {
            issue(": count \(count) × \(type.size) bytes overflows")
            return nil
        }
        let start: Int
        if size <= 4 {
            start = at + 8
        } else {
            guard let offset = reader.u32(at: at + 8) else {
                issue(": value offset truncated")
                return nil
            }
            start = Int(offset)
        }
        let (end, endOverflow) = start.addingReportingOverflow(Int(size))
        guard !endOverflow, start <= reader.count, end <= reader.count else {
            issue(": \(size) value bytes at makernote byte \(start) run past the end (\(reader.count) bytes)")
            return nil
        }
        return (tag, type, count, start..<end)
    }

    /// The typed value of a raw entry.
    public static func value(of entry: AppleMakerNoteEntry, byteOrder: TIFFByteOrder) -> MetadataValue {
        var plistBudget = BinaryPlist.Budget()
        return value(of: entry, byteOrder: byteOrder, plistBudget: &plistBudget)
    }

    static func value(of entry: AppleMakerNoteEntry, byteOrder: TIFFByteOrder, plistBudget: inout BinaryPlist.Budget) -> MetadataValue {
        let r = ByteReader(bytes: entry.data, order: byteOrder)
        let n = min(Int(entry.count), entry.data.count / entry.type.size)
        func list(_ element: (Int) -> MetadataValue?) -> MetadataValue {
            var values: [MetadataValue] = []
            values.reserveCapacity(n)
            for i in 0..<n {
                if let v = element(i) { values.append(v) }
            }
            return values.count == 1 ? values[0] : .array(values)
        }
        switch entry.type {
        case .ascii:
            var end = entry.data.count
            while end > 0 && entry.data[end - 1] == 0 { end -= 1 }
            return .string(String(decoding: entry.data[0..<end], as: UTF8.self))
        case .undefined:
            if entry.data.starts(with: BinaryPlist.magic), let decoded = BinaryPlist.decode(entry.data, maxSize: maxPlistSize, budget: &plistBudget) {
                return decoded
            }
            return .bytes(entry.data)
        case .byte:
            return n == 1 ? .uint(UInt64(entry.data[0])) : .bytes(entry.data)
        case .sbyte:
            return list { .int(Int64(Int8(bitPattern: entry.data[$0]))) }
        case .short:
            return list { r.u16(at: $0 * 2).map { .uint(UInt64($0)) } }
        case .sshort:
            return list { r.u16(at: $0 * 2).map { .int(Int64(Int16(bitPattern: $0))) } }
        case .long, .ifd:
            return list { r.u32(at: $0 * 4).map { .uint(UInt64($0)) } }
        case .slong:
            return list { r.u32(at: $0 * 4).map { .int(Int64(Int32(bitPattern: $0))) } }
        case .long8, .ifd8:
            return list { r.u64(at: $0 * 8).map { .uint($0) } }
        case .slong8:
            return list { r.u64(at: $0 * 8).map { .int(Int64(bitPattern: $0)) } }
        case .rational:
            return list { i in
                guard let num = r.u32(at: i * 8), let den = r.u32(at: i * 8 + 4) else { return nil }
                return den == 0 ? .string("\(num)/0") : .double(Double(num) / Double(den))
            }
        case .srational:
            return list { i in
                guard let num = r.u32(at: i * 8), let den = r.u32(at: i * 8 + 4) else { return nil }
                let sn = Int32(bitPattern: num), sd = Int32(bitPattern: den)
                return sd == 0 ? .string("\(sn)/0") : .double(Double(sn) / Double(sd))
            }
        case .float:
            return list { r.u32(at: $0 * 4).map { .double(Double(Float(bitPattern: $0))) } }
        case .double:
            return list { r.u64(at: $0 * 8).map { .double(Double(bitPattern: $0)) } }
        }
    }

    static func hexID(_ tag: UInt16) -> String {
        let h = String(tag, radix: 16)
        return "0x" + String(repeating: "0", count: max(0, 4 - h.count)) + h
    }
}

/// Bounds-checked big/little-endian reads from a byte array: every read returns nil past the end.
struct ByteReader {
    let bytes: [UInt8]
    let order: TIFFByteOrder
    var count: Int { bytes.count }

    func u16(at offset: Int) -> UInt16? {
        guard offset >= 0, offset <= bytes.count - 2 else { return nil }
        let a = UInt16(bytes[offset]), b = UInt16(bytes[offset + 1])
        return order == .bigEndian ? a << 8 | b : b << 8 | a
    }

    func u32(at offset: Int) -> UInt32? {
        guard offset >= 0, offset <= bytes.count - 4 else { return nil }
        var v: UInt32 = 0
        for i in 0..<4 {
            let b = UInt32(bytes[offset + (order == .bigEndian ? i : 3 - i)])
            v = v << 8 | b
        }
        return v
    }

    func u64(at offset: Int) -> UInt64? {
        guard offset >= 0, offset <= bytes.count - 8 else { return nil }
        var v: UInt64 = 0
        for i in 0..<8 {
            let b = UInt64(bytes[offset + (order == .bigEndian ? i : 7 - i)])
            v = v << 8 | b
        }
        return v
    }
}
