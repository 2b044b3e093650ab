/// A bounded, big-endian reader over a window of an in-memory buffer.
///
/// A cursor never reads outside `[start, end)`. `slice(count:)` hands out a child cursor over
/// the next `count` bytes (checked against what is left), so a box parser given its own slice
/// cannot over-read into its siblings. Errors carry the cursor's `path` and the absolute file
/// offset (`baseOffset` is the file offset of `bytes[0]`). The path is a ``BoxPath``, rendered
/// as text only when an error needs it.
public struct ByteCursor: Sendable {
    public let bytes: [UInt8]
    public let start: Int
    public let end: Int
    public private(set) var position: Int
    public let baseOffset: Int64
    /// Box path used in errors (`moov/trak[1]/mdia/mdhd`).
    public var boxPath: BoxPath

    /// ``boxPath`` as text.
    public var path: String {
        get { boxPath.description }
        set { boxPath = BoxPath(newValue) }
    }

    /// A cursor over all of `bytes`, which start at file offset `baseOffset`.
    public init(_ bytes: [UInt8], baseOffset: Int64 = 0, path: String = "") {
        self.init(bytes, baseOffset: baseOffset, boxPath: BoxPath(path))
    }

    /// A cursor over all of `bytes`, which start at file offset `baseOffset`.
    public init(_ bytes: [UInt8], baseOffset: Int64 = 0, boxPath: BoxPath) {
        self.bytes = bytes
        self.start = 0
        self.end = bytes.count
        self.position = 0
        self.baseOffset = baseOffset
        self.boxPath = boxPath
    }

    /// A cursor over `bytes[start..<end]` (the caller checked the range).
    init(bytes: [UInt8], start: Int, end: Int, baseOffset: Int64, boxPath: BoxPath) {
        self.bytes = bytes
        self.start = start
        self.end = end
        self.position = start
        self.baseOffset = baseOffset
        self.boxPath = boxPath
    }

    public var remaining: Int { end - position }
    public var isAtEnd: Bool { position >= end }
    /// Absolute file offset of the next byte.
    public var fileOffset: Int64 { baseOffset + Int64(position) }
    /// Absolute file offset of this window's first byte.
    public var startOffset: Int64 { baseOffset + Int64(start) }
    /// Bytes read from this window so far.
    public var consumed: Int { position - start }

    public func error(_ category: BoxError.Category, _ message: String, at offset: Int64? = nil) -> BoxError {
        BoxError(category, message, path: path, offset: offset ?? fileOffset)
    }

    private func need(_ n: Int, _ what: String) throws(BoxError) {
        guard n >= 0, n <= remaining else {
            throw error(.malformed, "truncated: \(what) needs \(n) bytes, \(remaining) left")
        }
    }

    /// Throws the same "truncated" error a read of `n` bytes would, without moving: a group of
    /// fields checked at once keeps the error its readers always gave (`dates needs 16 bytes`).
    public func require(_ n: Int, _ what: String) throws(BoxError) {
        try need(n, what)
    }

    public mutating func skip(_ n: Int, _ what: String = "field") throws(BoxError) {
        try need(n, what)
        position += n
    }

    public mutating func u8(_ what: String = "u8") throws(BoxError) -> UInt8 {
        try need(1, what)
        defer { position += 1 }
        return bytes[position]
    }

    public mutating func u16(_ what: String = "u16") throws(BoxError) -> UInt16 {
        try need(2, what)
        defer { position += 2 }
        return UInt16(bytes[position]) << 8 | UInt16(bytes[position + 1])
    }

    public mutating func u24(_ what: String = "u24") throws(BoxError) -> UInt32 {
        try need(3, what)
        defer { position += 3 }
        return UInt32(bytes[position]) << 16 | UInt32(bytes[position + 1]) << 8 | UInt32(bytes[position + 2])
    }

    public mutating func u32(_ what: String = "u32") throws(BoxError) -> UInt32 {
        try need(4, what)
        defer { position += 4 }
        return bigEndianU32(bytes, at: position)
    }

    public mutating func u64(_ what: String = "u64") throws(BoxError) -> UInt64 {
        try need(8, what)
        defer { position += 8 }
        var v: UInt64 = 0
        for i in 0..<8 { v = v << 8 | UInt64(bytes[position + i]) }
        return v
    }

    public mutating func i16(_ what: String = "i16") throws(BoxError) -> Int16 { Int16(bitPattern: try u16(what)) }
    public mutating func i32(_ what: String = "i32") throws(BoxError) -> Int32 { Int32(bitPattern: try u32(what)) }
    public mutating func i64(_ what: String = "i64") throws(BoxError) -> Int64 { Int64(bitPattern: try u64(what)) }

    /// A 16.16 fixed-point number.
    public mutating func fixed16_16(_ what: String = "16.16 fixed") throws(BoxError) -> Double {
        Double(try i32(what)) / 65536
    }

    /// A 2.30 fixed-point number (matrix u, v, w).
    public mutating func fixed2_30(_ what: String = "2.30 fixed") throws(BoxError) -> Double {
        Double(try i32(what)) / 1_073_741_824
    }

    public mutating func fourCC(_ what: String = "fourcc") throws(BoxError) -> BoxType {
        BoxType(rawValue: try u32(what))
    }

    /// Copies the next `n` bytes (checked against what is left, so never sized by an unchecked field).
    public mutating func read(_ n: Int, _ what: String = "bytes") throws(BoxError) -> [UInt8] {
        try need(n, what)
        defer { position += n }
        return Array(bytes[position..<(position + n)])
    }

    /// The rest of the window.
    public mutating func readRest() -> [UInt8] {
        defer { position = end }
        return Array(bytes[position..<end])
    }

    /// Looks at the next `n` bytes without moving, nil when fewer are left.
    public func peek(_ n: Int) -> [UInt8]? {
        guard n >= 0, n <= remaining else { return nil }
        return Array(bytes[position..<(position + n)])
    }

    /// A child cursor over the next `count` bytes; this cursor moves past them.
    public mutating func slice(_ count: Int, path childPath: String? = nil) throws(BoxError) -> ByteCursor {
        try slice(count, boxPath: childPath.map { BoxPath($0) } ?? boxPath)
    }

    /// A child cursor over the next `count` bytes, with its own path; this cursor moves past them.
    public mutating func slice(_ count: Int, boxPath childPath: BoxPath) throws(BoxError) -> ByteCursor {
        try need(count, "slice")
        defer { position += count }
        return ByteCursor(bytes: bytes, start: position, end: position + count, baseOffset: baseOffset,
                          boxPath: childPath)
    }

    /// Checks a table's entry count against the bytes actually left before any loop or
    /// allocation uses it: `count * entrySize` must fit in `remaining`.
    public func checkedCount(_ count: UInt32, entrySize: Int, _ what: String) throws(BoxError) -> Int {
        let n = Int(count)
        let (total, overflow) = n.multipliedReportingOverflow(by: entrySize)
        guard !overflow, total <= remaining else {
            throw error(.malformed, "\(what) count \(count) needs \(overflow ? "more than Int.max" : String(total)) bytes, \(remaining) left")
        }
        return n
    }

    /// Version (1 byte) and flags (3 bytes) of a full box.
    public mutating func versionAndFlags() throws(BoxError) -> (version: UInt8, flags: UInt32) {
        let v = try u8("version")
        let f = try u24("flags")
        return (v, f)
    }

    /// The body of an `mvhd` or `mdhd`: version and flags, creation and modification dates
    /// (32-bit in version 0, 64-bit in version 1), then timescale and duration. A version-0
    /// duration of 0xFFFFFFFF means "unknown" and reads as 0.
    public mutating func timescaleAndDuration() throws(BoxError) -> (timescale: UInt32, duration: UInt64) {
        let (version, _) = try versionAndFlags()
        try skip(version == 1 ? 16 : 8, "dates")
        let timescale = try u32("timescale")
        if version == 1 { return (timescale, try u64("duration")) }
        let d = try u32("duration")
        return (timescale, d == .max ? 0 : UInt64(d))
    }
}
