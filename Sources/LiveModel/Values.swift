/// A metadata value as read from a file, typed as the file declared it.
///
/// Readers map every source (TIFF types, QuickTime well-known data types, mediainfo strings)
/// onto these few cases; `bytes` keeps anything we do not interpret, so nothing is lost.
public enum MetadataValue: Sendable, Hashable {
    case string(String)
    case int(Int64)
    case uint(UInt64)
    case double(Double)
    case bytes([UInt8])
    case array([MetadataValue])
    /// An ordered dictionary (e.g. a decoded binary plist); order is the file's.
    case dictionary([KeyValue])
    case bool(Bool)

    public struct KeyValue: Sendable, Hashable {
        public var key: String
        public var value: MetadataValue
        public init(_ key: String, _ value: MetadataValue) {
            self.key = key
            self.value = value
        }
    }

    /// The value as a signed integer, when it is a whole number that fits.
    public var intValue: Int64? {
        switch self {
        case .int(let v): return v
        case .uint(let v): return v <= UInt64(Int64.max) ? Int64(v) : nil
        case .double(let d): return d.rounded() == d && abs(d) < 9.2e18 ? Int64(d) : nil
        case .bool(let b): return b ? 1 : 0
        default: return nil
        }
    }

    public var doubleValue: Double? {
        switch self {
        case .int(let v): return Double(v)
        case .uint(let v): return Double(v)
        case .double(let d): return d
        default: return nil
        }
    }

    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// A compact, human-readable rendering used by text reports.
    public var displayString: String {
        switch self {
        case .string(let s): return s
        case .int(let v): return String(v)
        case .uint(let v): return String(v)
        case .double(let d): return MetadataValue.format(d)
        case .bool(let b): return b ? "true" : "false"
        case .bytes(let b): return MetadataValue.hex(b, limit: 64)
        case .array(let a): return "[" + a.map(\.displayString).joined(separator: ", ") + "]"
        case .dictionary(let d): return "{" + d.map { "\($0.key): \($0.value.displayString)" }.joined(separator: ", ") + "}"
        }
    }

    /// Lower-case hex, space-free; long runs are cut with a byte count so text stays readable.
    public static func hex(_ bytes: [UInt8], limit: Int = .max) -> String {
        let digits = Array("0123456789abcdef")
        var out = ""
        out.reserveCapacity(min(bytes.count, limit) * 2)
        for b in bytes.prefix(limit) {
            out.append(digits[Int(b >> 4)])
            out.append(digits[Int(b & 0xF)])
        }
        if bytes.count > limit { out += "… (\(bytes.count) bytes)" }
        return out
    }

    /// Shortest round-tripping decimal, without a trailing ".0" on whole numbers.
    public static func format(_ d: Double) -> String {
        if d.isFinite, d.rounded() == d, abs(d) < 1e15 { return String(Int64(d)) }
        return "\(d)"
    }
}

/// Four-character codes (box types, handlers, sample entry formats) as readable strings.
public enum FourCC {
    public static func string(_ value: UInt32) -> String {
        let bytes = [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
        if bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) {
            return String(decoding: bytes, as: UTF8.self)
        }
        // Apple's © boxes and other non-ASCII types: keep them legible and unambiguous.
        return bytes.map { $0 >= 0x20 && $0 < 0x7F ? String(UnicodeScalar($0)) : String(format4($0)) }.joined()
    }

    private static func format4(_ b: UInt8) -> String {
        b == 0xA9 ? "©" : "\\x" + MetadataValue.hex([b])
    }

    public static func value(_ s: String) -> UInt32 {
        var v: UInt32 = 0
        for b in s.utf8.prefix(4) { v = (v << 8) | UInt32(b) }
        return v
    }
}

/// Facts about content identifiers.
public enum ContentIdentifier {
    /// True for an 8-4-4-4-12 hexadecimal UUID, either case (`E905E6C6-C747-4805-942F-9904A0281F02`).
    public static func isUUID(_ s: String) -> Bool { uuid(s) != nil }

    /// An 8-4-4-4-12 hexadecimal UUID's 128 bits and whether its letters include upper and lower
    /// case ones; nil for any other text. One pass over the bytes: every file of a scan is asked
    /// (`identifier-not-uuid`, and a scan's summary, which holds a UUID as its bits).
    public static func uuid(_ s: String) -> (high: UInt64, low: UInt64, hasUpper: Bool, hasLower: Bool)? {
        // The string's bytes read in place, not through its UTF-8 view a byte at a time (2 % of a
        // profile of a cached scan of 50,000 pairs, issue 13).
        var text = s
        return text.withUTF8(uuid)
    }

    private static func uuid(_ bytes: UnsafeBufferPointer<UInt8>) -> (high: UInt64, low: UInt64, hasUpper: Bool, hasLower: Bool)? {
        guard bytes.count == 36 else { return nil }
        var high: UInt64 = 0, low: UInt64 = 0
        var hasUpper = false, hasLower = false
        for count in 0..<36 {
            let byte = bytes[count]
            switch count {
            case 8, 13, 18, 23:
                guard byte == UInt8(ascii: "-") else { return nil }
                continue
            default:
                break
            }
            let value: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = byte - UInt8(ascii: "0")
            case UInt8(ascii: "A")...UInt8(ascii: "F"): value = byte - UInt8(ascii: "A") + 10; hasUpper = true
            case UInt8(ascii: "a")...UInt8(ascii: "f"): value = byte - UInt8(ascii: "a") + 10; hasLower = true
            default: return nil
            }
            // The first 16 hex digits (up to byte 18) are the high word.
            if count < 19 { high = high << 4 | UInt64(value) } else { low = low << 4 | UInt64(value) }
        }
        return (high, low, hasUpper, hasLower)
    }
}
