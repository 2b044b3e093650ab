/// A four-character box, handler or sample-entry code, kept as its 32-bit value.
///
/// String literals map each Unicode scalar up to U+00FF to one byte, so `"©xyz"` is the
/// Apple `udta` atom `A9 78 79 7A`.
public struct BoxType: Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible {
    public var rawValue: UInt32

    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public init(_ string: String) {
        // Fast path for the common case, a 4-byte ASCII literal (`"moov"`): literals are
        // converted at every comparison, so this is hot in box parsing.
        // Read in place (a literal is contiguous, and a four-byte string is stored inline): no
        // iterator over the UTF-8 view, which was 1 % of an uncached scan.
        let ascii = string.utf8.withContiguousStorageIfAvailable { b -> UInt32? in
            guard b.count == 4, (b[0] | b[1] | b[2] | b[3]) < 0x80 else { return nil }
            return UInt32(b[0]) << 24 | UInt32(b[1]) << 16 | UInt32(b[2]) << 8 | UInt32(b[3])
        }
        if let ascii = ascii ?? nil {
            rawValue = ascii
            return
        }
        var v: UInt32 = 0
        var n = 0
        for scalar in string.unicodeScalars.prefix(4) {
            v = (v << 8) | (scalar.value <= 0xFF ? scalar.value : 0x3F)
            n += 1
        }
        while n < 4 { v = (v << 8) | 0x20; n += 1 }
        rawValue = v
    }

    public init(stringLiteral value: String) { self.init(value) }

    /// The type `name` spells when it is four ASCII letters or digits (`mdia`, `avc1`), which
    /// ``description`` renders back unchanged; nil otherwise (and for a string not stored
    /// contiguously, which callers then keep as text: it renders the same). Read in place, as
    /// ``init(_:)`` reads; the two are not one helper taking the byte test as a closure: on the
    /// literal path, which box parsing takes at every comparison, that cost 2 % of an uncached
    /// scan's CPU (50,000 fixture pairs, five alternating rounds).
    public init?(alphanumeric name: String) {
        let type = name.utf8.withContiguousStorageIfAvailable { b -> UInt32? in
            guard b.count == 4, b.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7A) }) else {
                return nil
            }
            return bigEndianU32(b, at: 0)
        }
        guard let type, let type else { return nil }
        rawValue = type
    }

    /// The four bytes, big-endian.
    public var bytes: [UInt8] {
        [UInt8(rawValue >> 24), UInt8((rawValue >> 16) & 0xFF), UInt8((rawValue >> 8) & 0xFF), UInt8(rawValue & 0xFF)]
    }

    /// Printable ASCII as is, 0xA9 as `©`, anything else as `\xNN`.
    public var description: String {
        let b = bytes
        if b.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return String(decoding: b, as: UTF8.self) }
        var s = ""
        for b in bytes {
            if b >= 0x20 && b < 0x7F {
                s.unicodeScalars.append(UnicodeScalar(b))
            } else if b == 0xA9 {
                s += "©"
            } else {
                let digits = Array("0123456789abcdef")
                s += "\\x" + String(digits[Int(b >> 4)]) + String(digits[Int(b & 0xF)])
            }
        }
        return s
    }

    /// True when all four bytes are printable ASCII or `©` (used to tell boxes from garbage).
    public var looksLikeBoxType: Bool {
        bytes.allSatisfy { ($0 >= 0x20 && $0 < 0x7F) || $0 == 0xA9 }
    }
}

extension BoxType {
    /// A box whose header carries a 16-byte extended type after its size.
    static let uuid: BoxType = "uuid"
}

/// The big-endian `UInt32` at `at` in `bytes`; the caller checked that its four bytes are there.
@inline(__always)
func bigEndianU32<Bytes: RandomAccessCollection>(_ bytes: Bytes, at i: Int) -> UInt32 where Bytes.Element == UInt8, Bytes.Index == Int {
    UInt32(bytes[i]) << 24 | UInt32(bytes[i + 1]) << 16 | UInt32(bytes[i + 2]) << 8 | UInt32(bytes[i + 3])
}
