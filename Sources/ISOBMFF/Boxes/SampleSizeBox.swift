/// Sample sizes: `stsz` (32-bit entries, or one size for every sample) and `stz2` (compact 4-, 8-
/// or 16-bit entries), ISO/IEC 14496-12 §8.7.3. One family, read once: the header is checked
/// against the bytes present and the entries are decoded on demand (`size(at:)`), so a reader
/// that wants the sample count or one sample never decodes the whole table.
public struct SampleSizeBox: TypedBox {
    public var header: FullBoxHeader
    /// `stsz`: the size of every sample, or 0 when each has its own entry. Always 0 for `stz2`.
    public let uniformSize: UInt32
    /// Bits per entry: 32 for `stsz`, 4, 8 or 16 for `stz2`.
    public let fieldSize: Int
    public let sampleCount: UInt32
    /// The entries (absent when `uniformSize` is set), checked to be present.
    private let table: ByteCursor

    public var boxType: BoxType { fieldSize == 32 ? "stsz" : "stz2" }

    /// One size for `count` samples (`stsz` with no entries).
    public init(uniformSize: UInt32, count: UInt32) {
        header = FullBoxHeader()
        self.uniformSize = uniformSize
        fieldSize = 32
        sampleCount = count
        table = ByteCursor([])
    }

    /// One entry per sample: `stsz` when `fieldSize` is 32, else `stz2` with 4-, 8- or 16-bit
    /// entries (each size must fit; the caller picks the width).
    public init(sizes: [UInt32], fieldSize: Int = 32) {
        precondition([4, 8, 16, 32].contains(fieldSize), "field size must be 4, 8, 16 or 32")
        header = FullBoxHeader()
        uniformSize = 0
        self.fieldSize = fieldSize
        sampleCount = UInt32(sizes.count)
        var w = ByteWriter()
        switch fieldSize {
        case 4:
            for i in stride(from: 0, to: sizes.count, by: 2) {
                let high = UInt8(sizes[i] & 0xF), low = i + 1 < sizes.count ? UInt8(sizes[i + 1] & 0xF) : 0
                w.u8(high << 4 | low)
            }
        case 8: for s in sizes { w.u8(UInt8(truncatingIfNeeded: s)) }
        case 16: for s in sizes { w.u16(UInt16(truncatingIfNeeded: s)) }
        default: for s in sizes { w.u32(s) }
        }
        table = ByteCursor(w.bytes)
    }

    private init(header: FullBoxHeader, uniformSize: UInt32, fieldSize: Int, sampleCount: UInt32, table: ByteCursor) {
        self.header = header
        self.uniformSize = uniformSize
        self.fieldSize = fieldSize
        self.sampleCount = sampleCount
        self.table = table
    }

    /// Reads a `stsz` or `stz2` payload (`type` says which). Errors: a truncated header, an
    /// entry count larger than the bytes left (`stsz entry count … needs … bytes`), an `stz2`
    /// field size other than 4, 8 or 16.
    public static func read(_ payload: ByteCursor, type: BoxType) throws(BoxError) -> SampleSizeBox {
        var c = payload
        let header = try FullBoxHeader.read(&c)
        if type == "stz2" {
            try c.skip(3, "reserved")
            let bits = try c.u8("field size")
            let count = try c.u32("sample count")
            guard [4, 8, 16].contains(bits) else { throw c.error(.malformed, "stz2 field size \(bits) is not 4, 8 or 16") }
            let bytes = (UInt64(count) * UInt64(bits) + 7) / 8
            guard bytes <= UInt64(c.remaining) else {
                throw c.error(.malformed, "stz2 count \(count) needs \(bytes) bytes, \(c.remaining) left")
            }
            return SampleSizeBox(header: header, uniformSize: 0, fieldSize: Int(bits), sampleCount: count, table: c)
        }
        let fixed = try c.u32("sample size")
        let count = try c.u32("sample count")
        if fixed == 0 { _ = try c.checkedCount(count, entrySize: 4, "stsz entry") }
        return SampleSizeBox(header: header, uniformSize: fixed, fieldSize: 32, sampleCount: count, table: c)
    }

    /// The size of sample `index` (0-based, below `sampleCount`).
    public func size(at index: Int) -> UInt32 {
        precondition(index >= 0 && index < Int(sampleCount), "sample index out of range")
        if uniformSize != 0 { return uniformSize }
        let b = table.bytes, base = table.position
        switch fieldSize {
        case 4:
            let byte = b[base + index / 2]
            return UInt32(index % 2 == 0 ? byte >> 4 : byte & 0xF)
        case 8: return UInt32(b[base + index])
        case 16: return UInt32(b[base + 2 * index]) << 8 | UInt32(b[base + 2 * index + 1])
        default:
            return bigEndianU32(b, at: base + 4 * index)
        }
    }

    /// The sizes of the first `limit` samples.
    public func sizes(limit: Int) -> [Int] {
        let n = min(Int(sampleCount), max(0, limit))
        if uniformSize != 0 { return [Int](repeating: Int(uniformSize), count: n) }
        var out: [Int] = []
        out.reserveCapacity(n)
        for i in 0..<n { out.append(Int(size(at: i))) }
        return out
    }

    public func write(to w: inout ByteWriter) {
        header.write(to: &w)
        let entryBytes = uniformSize != 0 ? 0 : (Int(sampleCount) * fieldSize + 7) / 8
        if fieldSize == 32 {
            w.u32(uniformSize)
            w.u32(sampleCount)
        } else {
            w.zeros(3)
            w.u8(UInt8(fieldSize))
            w.u32(sampleCount)
        }
        if let entries = table.peek(entryBytes) { w.bytes(entries) }
    }
}
