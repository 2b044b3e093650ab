import LiveModel

/// Decodes QuickTime metadata payloads by their well-known data type (QuickTime File Format,
/// "Well-known types"); used for `moov/meta` `ilst` values and `mebx` samples alike.
public enum QuickTimeValueDecoder {
    /// The value of `bytes` read as well-known type `type`. A payload whose length does not fit
    /// the type, or a type we do not interpret, comes back as `.bytes`: nothing is lost.
    public static func decode(type: UInt32?, _ bytes: [UInt8]) -> MetadataValue {
        guard let type else { return .bytes(bytes) }
        switch type {
        case 1, 4:  // UTF-8 (4: sort form)
            return .string(String(decoding: bytes, as: UTF8.self))
        case 2, 5:  // UTF-16 big-endian
            guard bytes.count % 2 == 0 else { return .bytes(bytes) }
            var units: [UInt16] = []
            units.reserveCapacity(bytes.count / 2)
            var i = 0
            while i + 1 < bytes.count {
                units.append(UInt16(bytes[i]) << 8 | UInt16(bytes[i + 1]))
                i += 2
            }
            return .string(String(decoding: units, as: UTF16.self))
        case 21:  // big-endian signed, 1/2/3/4/8 bytes
            guard [1, 2, 3, 4, 8].contains(bytes.count) else { return .bytes(bytes) }
            return .int(signed(bytes))
        case 22:  // big-endian unsigned, 1/2/3/4/8 bytes
            guard [1, 2, 3, 4, 8].contains(bytes.count) else { return .bytes(bytes) }
            return .uint(unsigned(bytes))
        case 23:
            guard bytes.count == 4 else { return .bytes(bytes) }
            return .double(Double(Float(bitPattern: UInt32(unsigned(bytes)))))
        case 24:
            guard bytes.count == 8 else { return .bytes(bytes) }
            return .double(Double(bitPattern: unsigned(bytes)))
        case 65, 66, 67, 74:  // int8, int16, int32, int64
            let width = [65: 1, 66: 2, 67: 4, 74: 8][type] ?? 0
            guard bytes.count == width else { return .bytes(bytes) }
            return .int(signed(bytes))
        case 75, 76, 77, 78:  // uint8, uint16, uint32, uint64
            let width = [75: 1, 76: 2, 77: 4, 78: 8][type] ?? 0
            guard bytes.count == width else { return .bytes(bytes) }
            return .uint(unsigned(bytes))
        case 70, 71, 72:  // float32 point (x, y), dimensions (w, h), rect (x, y, w, h)
            let count = type == 72 ? 4 : 2
            guard bytes.count == count * 4 else { return .bytes(bytes) }
            return .array(floats(bytes, width: 4))
        case 79:  // 3x3 affine transform, float64
            guard bytes.count == 72 else { return .bytes(bytes) }
            return .array(floats(bytes, width: 8))
        default:
            return .bytes(bytes)
        }
    }

    static func unsigned(_ bytes: [UInt8]) -> UInt64 {
        bytes.prefix(8).reduce(0) { $0 << 8 | UInt64($1) }
    }

    static func signed(_ bytes: [UInt8]) -> Int64 {
        let n = min(bytes.count, 8)
        guard n > 0 else { return 0 }
        let u = unsigned(bytes)
        let shift = UInt64(64 - 8 * n)
        return Int64(bitPattern: u << shift) >> Int64(shift)
    }

    static func floats(_ bytes: [UInt8], width: Int) -> [MetadataValue] {
        stride(from: 0, to: bytes.count - width + 1, by: width).map { i in
            let chunk = Array(bytes[i..<(i + width)])
            if width == 4 { return .double(Double(Float(bitPattern: UInt32(unsigned(chunk))))) }
            return .double(Double(bitPattern: unsigned(chunk)))
        }
    }
}
