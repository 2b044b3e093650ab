/// What a ``ScratchRecord`` writes its value with: lengths as LEB128, strings as their UTF-8
/// behind their length, optionals behind a flag byte (``RecordReader`` reads them back).
public struct RecordWriter {
    public var bytes: [UInt8]

    public init(bytes: [UInt8] = []) { self.bytes = bytes }

    public mutating func byte(_ b: UInt8) { bytes.append(b) }

    /// A count or a length (read back by ``RecordReader/count()``, which refuses one larger than
    /// the record).
    public mutating func count(_ n: Int) { number(UInt64(n)) }

    /// Any number, as LEB128 (read back by ``RecordReader/number()``).
    public mutating func number(_ n: UInt64) {
        var v = n
        while v >= 0x80 {
            bytes.append(UInt8(v & 0x7F) | 0x80)
            v >>= 7
        }
        bytes.append(UInt8(v))
    }

    public mutating func string(_ s: String) {
        var s = s
        s.withUTF8 { utf8 in
            count(utf8.count)
            bytes.append(contentsOf: utf8)
        }
    }

    /// Bytes as they are, behind their length (read back by ``RecordReader/blob()``).
    public mutating func blob(_ b: [UInt8]) {
        count(b.count)
        bytes += b
    }

    public mutating func optional(_ s: String?) {
        guard let s else { return byte(0) }
        byte(1)
        string(s)
    }

    public mutating func optional(_ d: Double?) {
        guard let d else { return byte(0) }
        byte(1)
        double(d)
    }

    /// A number any sign, zigzagged (0, -1, 1, -2, … as 0, 1, 2, 3, …: small either way; read
    /// back by ``RecordReader/signed()``).
    public mutating func signed(_ n: Int64) { number(UInt64(bitPattern: (n << 1) ^ (n >> 63))) }

    public mutating func optional(_ n: Int64?) {
        guard let n else { return byte(0) }
        byte(1)
        signed(n)
    }

    /// Its eight bytes as they are (every NaN and signed zero kept).
    public mutating func double(_ d: Double) {
        withUnsafeBytes(of: d.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
    }
}

/// What ``RecordWriter`` wrote, every length checked against what is left (nil when it does not fit).
public struct RecordReader {
    public let bytes: UnsafeRawBufferPointer
    public private(set) var at = 0

    public init(bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    public var atEnd: Bool { at == bytes.count }

    public mutating func byte() -> UInt8? {
        guard at < bytes.count else { return nil }
        defer { at += 1 }
        return bytes[at]
    }

    /// A count or a length: nil when it is larger than the whole record (it cannot be one).
    public mutating func count() -> Int? {
        number().flatMap { $0 <= UInt64(bytes.count) ? Int($0) : nil }
    }

    /// A number ``RecordWriter/number(_:)`` wrote.
    public mutating func number() -> UInt64? {
        var v: UInt64 = 0
        var shift: UInt64 = 0
        while let b = byte() {
            // The tenth byte holds the 64th bit alone: more would not fit.
            guard shift < 63 || (shift == 63 && b <= 1) else { return nil }
            v |= UInt64(b & 0x7F) << shift
            if b < 0x80 { return v }
            shift += 7
        }
        return nil
    }

    public mutating func string() -> String? {
        guard let n = count(), n <= bytes.count - at else { return nil }
        defer { at += n }
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[at..<(at + n)]), as: UTF8.self)
    }

    /// Bytes ``RecordWriter/blob(_:)`` wrote.
    public mutating func blob() -> [UInt8]? {
        guard let n = count(), n <= bytes.count - at else { return nil }
        defer { at += n }
        return Array(UnsafeRawBufferPointer(rebasing: bytes[at..<(at + n)]))
    }

    /// An optional string: `.some(nil)` for none, nil when the bytes do not hold one.
    public mutating func optionalString() -> String?? {
        switch byte() {
        case 0: return .some(nil)
        case 1: return string().map { .some($0) }
        default: return nil
        }
    }

    public mutating func optionalDouble() -> Double?? {
        switch byte() {
        case 0: return .some(nil)
        case 1: return double().map { .some($0) }
        default: return nil
        }
    }

    public mutating func double() -> Double? {
        guard bytes.count - at >= 8 else { return nil }
        defer { at += 8 }
        return Double(bitPattern: UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: at, as: UInt64.self)))
    }

    /// A number ``RecordWriter/signed(_:)`` wrote.
    public mutating func signed() -> Int64? { number().map { Int64(bitPattern: ($0 >> 1) ^ (0 &- ($0 & 1))) } }

    public mutating func optionalSigned() -> Int64?? {
        switch byte() {
        case 0: return .some(nil)
        case 1: return signed().map { .some($0) }
        default: return nil
        }
    }
}
