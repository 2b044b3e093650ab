@testable import ISOBMFF

/// Builds a box the way mp4parse's tests do: 32-bit size, type, payload.
func makeBox(_ type: String, _ payload: [UInt8] = []) -> [UInt8] {
    var w = ByteWriter()
    w.u32(UInt32(8 + payload.count))
    w.fourCC(BoxType(type))
    return w.bytes + payload
}

/// A box with an explicit (possibly lying) 32-bit size field.
func makeBox(_ type: String, size: UInt32, _ payload: [UInt8] = []) -> [UInt8] {
    var w = ByteWriter()
    w.u32(size)
    w.fourCC(BoxType(type))
    return w.bytes + payload
}

/// A box with a 64-bit size header (size field 1, then `largeSize`, by default the true size).
func makeLargeBox(_ type: String, _ payload: [UInt8], largeSize: UInt64? = nil) -> [UInt8] {
    var w = ByteWriter()
    w.u32(1)
    w.fourCC(BoxType(type))
    w.u64(largeSize ?? UInt64(16 + payload.count))
    return w.bytes + payload
}

func be32(_ v: UInt32) -> [UInt8] {
    var w = ByteWriter()
    w.u32(v)
    return w.bytes
}
