/// `iloc`, the item location box of HEIF (ISO/IEC 14496-12 §8.11.3): where each item's bytes are,
/// as extents relative to a base offset, in this file (construction method 0), in `idat` (1) or
/// in another item (2). Versions 0–2; field widths of 0, 4 or 8 bytes (the version-1/2 index
/// field too). Counts are checked against the bytes present before anything is allocated.
public struct ItemLocationBox: TypedBox, Hashable {
    public struct Extent: Sendable, Hashable {
        public var index: UInt64
        public var offset: UInt64
        /// 0 means "to the end of the file".
        public var length: UInt64
        public init(index: UInt64 = 0, offset: UInt64, length: UInt64) {
            self.index = index
            self.offset = offset
            self.length = length
        }
    }

    public struct Item: Sendable, Hashable {
        public var id: UInt32
        public var constructionMethod: UInt16
        public var dataReferenceIndex: UInt16
        public var baseOffset: UInt64
        public var extents: [Extent]
        public init(id: UInt32, constructionMethod: UInt16 = 0, dataReferenceIndex: UInt16 = 0, baseOffset: UInt64 = 0, extents: [Extent]) {
            self.id = id
            self.constructionMethod = constructionMethod
            self.dataReferenceIndex = dataReferenceIndex
            self.baseOffset = baseOffset
            self.extents = extents
        }
    }

    public var header: FullBoxHeader
    /// Widths in bytes (0, 4 or 8) of every extent offset, extent length, base offset and extent index.
    public var offsetSize: Int
    public var lengthSize: Int
    public var baseOffsetSize: Int
    public var indexSize: Int
    public var items: [Item]

    public var boxType: BoxType { "iloc" }

    public init(header: FullBoxHeader, offsetSize: Int, lengthSize: Int, baseOffsetSize: Int, indexSize: Int, items: [Item]) {
        self.header = header
        self.offsetSize = offsetSize
        self.lengthSize = lengthSize
        self.baseOffsetSize = baseOffsetSize
        self.indexSize = indexSize
        self.items = items
    }

    /// Bytes one item with `extents` extents takes.
    public func entrySize(extents: Int) -> Int {
        (header.version < 2 ? 2 : 4) + (header.version >= 1 ? 2 : 0) + 2 + baseOffsetSize + 2
            + extents * (indexSize + offsetSize + lengthSize)
    }

    /// True when `value` fits a field of `width` bytes.
    public static func fits(_ value: UInt64, width: Int) -> Bool {
        width == 8 || (width == 4 && value <= UInt64(UInt32.max)) || (width == 0 && value == 0)
    }

    public static func read(_ payload: ByteCursor) throws(BoxError) -> ItemLocationBox {
        var c = payload
        let header = try FullBoxHeader.read(&c)
        guard header.version <= 2 else { throw c.error(.unsupported, "iloc version \(header.version) is not read") }
        let sizes1 = try c.u8("offset and length sizes"), sizes2 = try c.u8("base offset and index sizes")
        let offsetSize = Int(sizes1 >> 4), lengthSize = Int(sizes1 & 0xF), baseSize = Int(sizes2 >> 4)
        let indexSize = header.version >= 1 ? Int(sizes2 & 0xF) : 0
        for n in [offsetSize, lengthSize, baseSize, indexSize] where ![0, 4, 8].contains(n) {
            throw c.error(.malformed, "iloc field size \(n)")
        }
        func sized(_ n: Int, _ what: String) throws(BoxError) -> UInt64 {
            switch n {
            case 4: return UInt64(try c.u32(what))
            case 8: return try c.u64(what)
            default: return 0
            }
        }
        let rawCount = header.version < 2 ? UInt32(try c.u16("item count")) : try c.u32("item count")
        let minimum = (header.version < 2 ? 2 : 4) + (header.version >= 1 ? 2 : 0) + 2 + baseSize + 2
        let count = try c.checkedCount(rawCount, entrySize: minimum, "iloc item")
        var items: [Item] = []
        items.reserveCapacity(count)
        for _ in 0..<count {
            let id = header.version < 2 ? UInt32(try c.u16("item id")) : try c.u32("item id")
            let method = header.version >= 1 ? (try c.u16("construction method")) & 0xF : 0
            let reference = try c.u16("data reference index")
            let base = try sized(baseSize, "base offset")
            let extentCount = try c.checkedCount(UInt32(try c.u16("extent count")), entrySize: max(1, indexSize + offsetSize + lengthSize), "iloc extent")
            var extents: [Extent] = []
            extents.reserveCapacity(extentCount)
            for _ in 0..<extentCount {
                let index = try sized(indexSize, "extent index")
                let offset = try sized(offsetSize, "extent offset")
                let length = try sized(lengthSize, "extent length")
                extents.append(Extent(index: index, offset: offset, length: length))
            }
            items.append(Item(id: id, constructionMethod: method, dataReferenceIndex: reference, baseOffset: base, extents: extents))
        }
        return ItemLocationBox(header: header, offsetSize: offsetSize, lengthSize: lengthSize, baseOffsetSize: baseSize,
                               indexSize: indexSize, items: items)
    }

    /// Writes every field in its declared width (values that do not fit are cut: check with ``fits(_:width:)``).
    public func write(to w: inout ByteWriter) {
        header.write(to: &w)
        w.u8(UInt8(offsetSize << 4 | lengthSize))
        w.u8(UInt8(baseOffsetSize << 4 | (header.version >= 1 ? indexSize : 0)))
        func sized(_ v: UInt64, _ n: Int) {
            if n == 4 { w.u32(UInt32(truncatingIfNeeded: v)) } else if n == 8 { w.u64(v) }
        }
        if header.version < 2 { w.u16(UInt16(truncatingIfNeeded: items.count)) } else { w.u32(UInt32(truncatingIfNeeded: items.count)) }
        for item in items {
            if header.version < 2 { w.u16(UInt16(truncatingIfNeeded: item.id)) } else { w.u32(item.id) }
            if header.version >= 1 { w.u16(item.constructionMethod & 0xF) }
            w.u16(item.dataReferenceIndex)
            sized(item.baseOffset, baseOffsetSize)
            w.u16(UInt16(truncatingIfNeeded: item.extents.count))
            for e in item.extents {
                if header.version >= 1 { sized(e.index, indexSize) }
                sized(e.offset, offsetSize)
                sized(e.length, lengthSize)
            }
        }
    }
}
