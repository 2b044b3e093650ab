/// Version and flags, the first four bytes of every ISO "full box" (ISO/IEC 14496-12 §4.2).
public struct FullBoxHeader: Sendable, Hashable {
    public var version: UInt8
    /// 24 bits.
    public var flags: UInt32

    public init(version: UInt8 = 0, flags: UInt32 = 0) {
        self.version = version
        self.flags = flags
    }

    public static func read(_ c: inout ByteCursor) throws(BoxError) -> FullBoxHeader {
        let (version, flags) = try c.versionAndFlags()
        return FullBoxHeader(version: version, flags: flags)
    }

    public func write(to w: inout ByteWriter) {
        w.versionAndFlags(version, flags & 0x00FF_FFFF)
    }
}

/// A box whose payload this module can write: its type and its payload bytes. Each box family
/// (`Boxes/*.swift`) reads with a static `read` from a cursor over the payload and writes with
/// `write(to:)`, side by side, so a field is changed in one place (alfg/mp4-rust `mp4box/*.rs`,
/// Bento4 `Ap4*Atom.cpp`).
public protocol TypedBox: Sendable {
    /// The type this value is written as (for a family such as `stsz`/`stz2`, the member it is).
    var boxType: BoxType { get }
    /// Appends the payload: everything after the box header.
    func write(to w: inout ByteWriter)
}

extension TypedBox {
    /// The payload bytes.
    public var payload: [UInt8] {
        var w = ByteWriter()
        write(to: &w)
        return w.bytes
    }

    /// The box as a data node, ready to go into a tree.
    public var node: BoxNode { BoxNode(type: boxType, data: payload) }
}

extension BoxNode {
    /// A cursor over this data box's payload at its absolute file offset (the header skipped), so
    /// errors name `path` and the offset in the file, wherever the box tree itself started.
    public func payloadCursor(path: BoxPath) -> ByteCursor {
        ByteCursor(data ?? [], baseOffset: (offset ?? 0) + Int64(headerSize), boxPath: path)
    }
}

/// A table of fixed-size entries left in the payload, checked once (`count * entrySize` bytes are
/// present) and decoded entry by entry on demand, so a reader that needs one sample never decodes a
/// whole table and no allocation is sized by the file.
public struct EntryTable: Sendable {
    /// Cursor positioned at the first entry; its window holds at least `count * entrySize` bytes.
    let cursor: ByteCursor
    public let count: Int
    public let entrySize: Int

    /// Reads the entry count (`entry count`) and checks `count * entrySize` against the bytes
    /// left (`what` names the entry, e.g. `stco entry`); moves `c` past the table.
    ///
    /// The count check is reported as the readers always reported it: measured from the count
    /// field (they evaluated the cursor before reading the count), so its text and offset stay
    /// the same. A table that passes that check but lacks up to four bytes is then refused as
    /// truncated here, where the old readers failed on their last entry.
    init(reading c: inout ByteCursor, entrySize: Int, _ what: String) throws(BoxError) {
        let atCount = c
        let raw = try c.u32("entry count")
        count = try atCount.checkedCount(raw, entrySize: entrySize, what)
        self.entrySize = entrySize
        cursor = c
        try c.skip(count * entrySize, what)
    }

    /// `count` entries of `entrySize` bytes at `c` (a table built in code).
    init(_ c: inout ByteCursor, count raw: UInt32, entrySize: Int, _ what: String) throws(BoxError) {
        count = try c.checkedCount(raw, entrySize: entrySize, what)
        self.entrySize = entrySize
        cursor = c
        try c.skip(count * entrySize, what)
    }

    /// An empty table.
    init(entrySize: Int) {
        cursor = ByteCursor([])
        count = 0
        self.entrySize = entrySize
    }

    /// Big-endian `UInt32` at byte `byte` of entry `index` (both checked by the caller's range).
    func u32(_ index: Int, _ byte: Int = 0) -> UInt32 {
        precondition(index >= 0 && index < count && byte + 4 <= entrySize, "entry table index out of range")
        return bigEndianU32(cursor.bytes, at: cursor.position + index * entrySize + byte)
    }

    func u64(_ index: Int, _ byte: Int = 0) -> UInt64 {
        UInt64(u32(index, byte)) << 32 | UInt64(u32(index, byte + 4))
    }

    /// An error located just after entry `index` (where a reader that had read the table entry
    /// by entry stood when it found the entry wrong), under the table's box path.
    public func error(_ category: BoxError.Category, _ message: String, afterEntry index: Int) -> BoxError {
        cursor.error(category, message, at: cursor.fileOffset + Int64((index + 1) * entrySize))
    }

    /// An error located at the end of the table.
    public func errorAtEnd(_ category: BoxError.Category, _ message: String) -> BoxError {
        error(category, message, afterEntry: count - 1)
    }
}
