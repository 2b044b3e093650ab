/// CRC-32 (ISO-HDLC, the ZIP and PNG one: polynomial 0xEDB88320 reflected, init and final xor ~0).
public enum CRC32 {
    private static let table: [UInt32] = (0..<256).map { n -> UInt32 in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 == 1 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    /// Continues `crc` (0 to start) over `bytes`.
    @_optimize(speed)
    public static func update(_ crc: UInt32, _ bytes: some Sequence<UInt8>) -> UInt32 {
        var c = ~crc
        for b in bytes { c = table[Int((c ^ UInt32(b)) & 0xFF)] ^ (c >> 8) }
        return ~c
    }

    /// The CRC-32 of `bytes`.
    public static func checksum(_ bytes: some Sequence<UInt8>) -> UInt32 { update(0, bytes) }
}
