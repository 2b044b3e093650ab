import ISOBMFF
import LiveModel

/// Checks a ZIP archive's end records and central directory before ZIPFoundation opens it.
///
/// ZIPFoundation 0.9.20 traps, rather than throws, on some hostile values: a ZIP64 local-header
/// offset above `Int64.max` ("Not enough bits to represent the passed value" in
/// `Data.readStruct`), and in-memory archives whose offsets point past the end. A trap would end
/// the whole scan, so every offset and size the central directory declares is checked here
/// against the bytes that exist (the mp4parse rule: no value from a file is trusted before it is
/// checked). Reads at most the end record window and the central directory, both bounded.
public enum ZipGuard {
    /// Most entries an archive may list (a `.livp` holds two).
    public static let defaultMaxEntries = 1_000
    /// Largest central directory read (46 bytes a entry plus names: 1,000 entries fit easily).
    public static let maxCentralDirectoryBytes: Int64 = 4 << 20

    /// A located problem, or nil when the archive's directory is consistent with the file.
    public static func check(_ source: some ByteSource, maxEntries: Int = defaultMaxEntries) -> ReadIssue? {
        inspect(source, maxEntries: maxEntries).issue
    }

    /// ``check(_:maxEntries:)``, and when the directory is consistent, the archive's layout: each
    /// member's method, extra fields and data offset (from its local header) and the archive comment.
    public static func inspect(_ source: some ByteSource, maxEntries: Int = defaultMaxEntries) -> (issue: ReadIssue?, layout: ArchiveLayout?) {
        var layout: ArchiveLayout?
        do {
            if let issue = try checkThrowing(source, maxEntries: maxEntries, layout: &layout) { return (issue, nil) }
            return (nil, layout)
        } catch {
            return (ReadIssue(error), nil)
        }
    }

    static func issue(_ message: String, _ location: String, _ offset: Int64) -> ReadIssue {
        ReadIssue(.malformed, message, location: location, offset: offset)
    }

    static func checkThrowing(_ source: some ByteSource, maxEntries: Int, layout: inout ArchiveLayout?) throws(ReadError) -> ReadIssue? {
        let size = source.size
        let eocdLength: Int64 = 22
        guard size >= eocdLength else {
            return issue("too short for a ZIP archive (\(size) bytes; the end record alone takes 22)", "zip", 0)
        }
        // The end-of-central-directory record sits in the last 22 + 65,535 (comment) bytes.
        let window = min(size, eocdLength + 0xFFFF)
        let tail = try source.read(at: size - window, count: Int(window))
        let tailStart = size - window
        var eocd: Int? = nil
        var i = tail.count - Int(eocdLength)
        while i >= 0 {
            if tail[i] == 0x50, tail[i + 1] == 0x4B, tail[i + 2] == 0x05, tail[i + 3] == 0x06 {
                let commentLength = Int(le16(tail, i + 20))
                if i + Int(eocdLength) + commentLength <= tail.count { eocd = i; break }
            }
            i -= 1
        }
        guard let e = eocd else {
            return issue("no end-of-central-directory record: not a ZIP archive, or cut short", "zip", size)
        }
        let eocdOffset = tailStart + Int64(e)
        var entries = UInt64(le16(tail, e + 10))
        var cdSize = UInt64(le32(tail, e + 12))
        var cdOffset = UInt64(le32(tail, e + 16))

        if entries == 0xFFFF || cdSize == 0xFFFF_FFFF || cdOffset == 0xFFFF_FFFF {
            // ZIP64: the locator sits just before the end record and points at the ZIP64 end record.
            guard eocdOffset >= 20 else { return issue("ZIP64 markers without a ZIP64 locator", "zip/eocd", eocdOffset) }
            let locator = try source.read(at: eocdOffset - 20, count: 20)
            guard locator.starts(with: [0x50, 0x4B, 0x06, 0x07]) else {
                return issue("ZIP64 markers without a ZIP64 locator", "zip/eocd", eocdOffset)
            }
            let z64 = le64(locator, 8)
            guard z64 <= UInt64(size), UInt64(size) - z64 >= 56 else {
                return issue("the ZIP64 end record offset \(z64) lies past the end of the file (\(size) bytes)", "zip/zip64-locator", eocdOffset - 20)
            }
            let record = try source.read(at: Int64(z64), count: 56)
            guard record.starts(with: [0x50, 0x4B, 0x06, 0x06]) else {
                return issue("no ZIP64 end record where the locator points", "zip/zip64-eocd", Int64(z64))
            }
            entries = le64(record, 32)
            cdSize = le64(record, 40)
            cdOffset = le64(record, 48)
        }
        guard entries <= UInt64(maxEntries) else {
            return ReadIssue(.limit, "the archive lists \(entries) entries, more than the \(maxEntries) read", location: "zip/eocd", offset: eocdOffset)
        }
        guard cdOffset <= UInt64(size), cdSize <= UInt64(size) - cdOffset, cdOffset + cdSize <= UInt64(eocdOffset) else {
            return issue("the central directory (offset \(cdOffset), \(cdSize) bytes) does not lie inside the file before its end record", "zip/eocd", eocdOffset)
        }
        guard Int64(cdSize) <= maxCentralDirectoryBytes else {
            return ReadIssue(.limit, "central directory of \(cdSize) bytes, over the \(maxCentralDirectoryBytes) read", location: "zip/eocd", offset: eocdOffset)
        }
        let cd = try source.read(at: Int64(cdOffset), count: Int(cdSize))
        var p = 0
        // Per entry: name, method, central extra length, local header offset, sizes.
        var listed: [(name: String, method: UInt16, extra: Int, local: UInt64, compressed: UInt64, size: UInt64)] = []
        for n in 0..<Int(entries) {
            let location = "zip/central-directory/entry[\(n)]"
            let at = Int64(cdOffset) + Int64(p)
            guard p + 46 <= cd.count, cd[p] == 0x50, cd[p + 1] == 0x4B, cd[p + 2] == 0x01, cd[p + 3] == 0x02 else {
                return issue("central directory entry \(n) is missing or cut short", location, at)
            }
            var compressed = UInt64(le32(cd, p + 20))
            var uncompressed = UInt64(le32(cd, p + 24))
            let nameLength = Int(le16(cd, p + 28)), extraLength = Int(le16(cd, p + 30)), commentLength = Int(le16(cd, p + 32))
            var localOffset = UInt64(le32(cd, p + 42))
            let extraStart = p + 46 + nameLength
            let next = extraStart + extraLength + commentLength
            guard next <= cd.count else { return issue("central directory entry \(n) runs past the directory", location, at) }
            // ZIP64 extended information (0x0001): 64-bit values for the fields set to 0xFFFFFFFF, in order.
            var q = extraStart
            while q + 4 <= extraStart + extraLength {
                let id = le16(cd, q), length = Int(le16(cd, q + 2))
                guard q + 4 + length <= extraStart + extraLength else {
                    return issue("extra field of entry \(n) runs past its declared length", location, at)
                }
                if id == 0x0001 {
                    var r = q + 4
                    func next64() -> UInt64? {
                        guard r + 8 <= q + 4 + length else { return nil }
                        defer { r += 8 }
                        return le64(cd, r)
                    }
                    if uncompressed == 0xFFFF_FFFF { uncompressed = next64() ?? uncompressed }
                    if compressed == 0xFFFF_FFFF { compressed = next64() ?? compressed }
                    if localOffset == 0xFFFF_FFFF { localOffset = next64() ?? localOffset }
                }
                q += 4 + length
            }
            guard localOffset <= UInt64(size), UInt64(size) - localOffset >= 30 else {
                return issue("entry \(n)'s local header offset \(localOffset) lies past the end of the file (\(size) bytes)", location, at)
            }
            guard compressed <= UInt64(size) - localOffset else {
                return issue("entry \(n) declares \(compressed) compressed bytes, more than the file holds after its header", location, at)
            }
            guard uncompressed <= UInt64(Int64.max) else {
                return issue("entry \(n) declares an uncompressed size of \(uncompressed) bytes", location, at)
            }
            listed.append((String(decoding: cd[(p + 46)..<extraStart], as: UTF8.self), le16(cd, p + 10), extraLength,
                           localOffset, compressed, uncompressed))
            p = next
        }
        // The layout: each local header's own name and extra lengths place the member's data.
        var laidOut: [ArchiveLayout.Entry] = []
        for entry in listed {
            let header = try source.read(at: Int64(entry.local), count: 30)
            guard header.starts(with: [0x50, 0x4B, 0x03, 0x04]) else { return nil }
            let dataOffset = Int64(entry.local) + 30 + Int64(le16(header, 26)) + Int64(le16(header, 28))
            laidOut.append(ArchiveLayout.Entry(name: entry.name, compressionMethod: entry.method,
                                               localExtraLength: Int(le16(header, 28)), centralExtraLength: entry.extra,
                                               dataOffset: dataOffset, compressedSize: entry.compressed, size: entry.size))
        }
        let commentLength = Int(le16(tail, e + 20))
        layout = ArchiveLayout(entries: laidOut, comment: Array(tail[(e + 22)..<(e + 22 + commentLength)]))
        return nil
    }

    @inline(__always) static func le16(_ b: [UInt8], _ i: Int) -> UInt16 {
        UInt16(b[i]) | UInt16(b[i + 1]) << 8
    }
    @inline(__always) static func le32(_ b: [UInt8], _ i: Int) -> UInt32 {
        UInt32(b[i]) | UInt32(b[i + 1]) << 8 | UInt32(b[i + 2]) << 16 | UInt32(b[i + 3]) << 24
    }
    @inline(__always) static func le64(_ b: [UInt8], _ i: Int) -> UInt64 {
        UInt64(le32(b, i)) | UInt64(le32(b, i + 4)) << 32
    }
}
