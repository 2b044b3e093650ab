/// Appends big-endian fields to a byte buffer (the writer's counterpart to `ByteCursor`).
public struct ByteWriter: Sendable {
    public var bytes: [UInt8] = []
    public init() {}
    public mutating func u8(_ v: UInt8) { bytes.append(v) }
    public mutating func u16(_ v: UInt16) { bytes += [UInt8(v >> 8), UInt8(v & 0xFF)] }
    public mutating func u24(_ v: UInt32) { bytes += [UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)] }
    public mutating func u32(_ v: UInt32) {
        bytes += [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)]
    }
    public mutating func u64(_ v: UInt64) {
        u32(UInt32(v >> 32))
        u32(UInt32(v & 0xFFFF_FFFF))
    }
    public mutating func i16(_ v: Int16) { u16(UInt16(bitPattern: v)) }
    public mutating func i32(_ v: Int32) { u32(UInt32(bitPattern: v)) }
    public mutating func i64(_ v: Int64) { u64(UInt64(bitPattern: v)) }
    /// 16.16 fixed point.
    public mutating func fixed16_16(_ v: Double) { i32(Int32(clamping: Int64((v * 65536).rounded()))) }
    public mutating func fourCC(_ t: BoxType) { u32(t.rawValue) }
    public mutating func bytes(_ b: [UInt8]) { bytes += b }
    public mutating func zeros(_ n: Int) { bytes += [UInt8](repeating: 0, count: max(0, n)) }
    /// Full-box version and flags.
    public mutating func versionAndFlags(_ version: UInt8, _ flags: UInt32) {
        u8(version)
        u24(flags)
    }
}
