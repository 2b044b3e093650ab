/// What a ``ScratchRecord`` writes its value with: lengths as LEB128, strings as their UTF-8
/// behind their length, optionals behind a flag byte (``RecordReader`` reads them back).
public struct RecordWriter {
    public var bytes: [UInt8]

    @inlinable public init(bytes: [UInt8] = []) { self.bytes = bytes }

    @inlinable public mutating func byte(_ b: UInt8) { bytes.append(b) }

    /// A count or a length (read back by ``RecordReader/count()``, which refuses one larger than
    /// the record).
    @inlinable public mutating func count(_ n: Int) { number(UInt64(n)) }

    /// Any number, as LEB128 (read back by ``RecordReader/number()``).
    @inlinable public mutating func number(_ n: UInt64) {
        var v = n
        while v >= 0x80 {
            bytes.append(UInt8(v & 0x7F) | 0x80)
            v >>= 7
        }
        bytes.append(UInt8(v))
    }

    @inlinable public mutating func string(_ s: String) {
        var s = s
        s.withUTF8 { utf8 in
            count(utf8.count)
            bytes.append(contentsOf: utf8)
        }
    }

    /// Bytes as they are, behind their length (read back by ``RecordReader/blob()``).
    @inlinable public mutating func blob(_ b: [UInt8]) {
        count(b.count)
        bytes += b
    }

    @inlinable public mutating func optional(_ s: String?) {
        guard let s else { return byte(0) }
        byte(1)
        string(s)
    }

    @inlinable public mutating func optional(_ d: Double?) {
        guard let d else { return byte(0) }
        byte(1)
        double(d)
    }

    /// A number any sign, zigzagged (0, -1, 1, -2, … as 0, 1, 2, 3, …: small either way; read
    /// back by ``RecordReader/signed()``).
    @inlinable public mutating func signed(_ n: Int64) { number(UInt64(bitPattern: (n << 1) ^ (n >> 63))) }

    @inlinable public mutating func optional(_ n: Int64?) {
        guard let n else { return byte(0) }
        byte(1)
        signed(n)
    }

    /// Its eight bytes as they are (every NaN and signed zero kept).
    @inlinable public mutating func double(_ d: Double) {
        withUnsafeBytes(of: d.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
    }
}

/// What ``RecordWriter`` wrote, every length checked against what is left (nil when it does not fit).
public struct RecordReader {
    public let bytes: UnsafeRawBufferPointer
    /// Where the next value begins.
    @usableFromInline var position = 0
    public var at: Int { position }

    @inlinable public init(bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    @inlinable public var atEnd: Bool { position == bytes.count }

    @inlinable public mutating func byte() -> UInt8? {
        guard position < bytes.count else { return nil }
        defer { position += 1 }
        return bytes[position]
    }

    /// A count or a length: nil when it is larger than the whole record (it cannot be one).
    @inlinable public mutating func count() -> Int? {
        number().flatMap { $0 <= UInt64(bytes.count) ? Int($0) : nil }
    }

    /// A number ``RecordWriter/number(_:)`` wrote.
    @inlinable public mutating func number() -> UInt64? {
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

    /// The bytes behind a length (a string's, a blob's), where they lie: nil when the length is
    /// more than is left.
    @inlinable public mutating func slice() -> UnsafeRawBufferPointer? {
        guard let n = number(), n <= UInt64(bytes.count - position) else { return nil }
        defer { position += Int(n) }
        return UnsafeRawBufferPointer(rebasing: bytes[position..<(position + Int(n))])
    }

    @inlinable public mutating func string() -> String? { slice().map { String(decoding: $0, as: UTF8.self) } }

    /// Bytes ``RecordWriter/blob(_:)`` wrote.
    @inlinable public mutating func blob() -> [UInt8]? { slice().map { Array($0) } }

    /// An optional string: `.some(nil)` for none, nil when the bytes do not hold one.
    @inlinable public mutating func optionalString() -> String?? {
        switch byte() {
        case 0: return .some(nil)
        case 1: return string().map { .some($0) }
        default: return nil
        }
    }

    @inlinable public mutating func optionalDouble() -> Double?? {
        switch byte() {
        case 0: return .some(nil)
        case 1: return double().map { .some($0) }
        default: return nil
        }
    }

    @inlinable public mutating func double() -> Double? {
        guard bytes.count - position >= 8 else { return nil }
        defer { position += 8 }
        return Double(bitPattern: UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: position, as: UInt64.self)))
    }

    /// A number ``RecordWriter/signed(_:)`` wrote.
    @inlinable public mutating func signed() -> Int64? { number().map { Int64(bitPattern: ($0 >> 1) ^ (0 &- ($0 & 1))) } }

    @inlinable public mutating func optionalSigned() -> Int64?? {
        switch byte() {
        case 0: return .some(nil)
        case 1: return signed().map { .some($0) }
        default: return nil
        }
    }
}
