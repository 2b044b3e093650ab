import LiveModel

/// A small, bounds-checked reader for Apple binary property lists (`bplist00`), enough for the
/// makernote's values (tag 0x0003 RunTime is a CMTime dictionary, 0x0002 a data object, others small
/// dictionaries and arrays).
///
/// Written here rather than calling Foundation's `PropertyListSerialization` for two reasons:
/// dictionaries keep the file's key order (`MetadataValue.dictionary` is ordered; Foundation's is
/// not), and the module stays pure Swift over `[UInt8]`, so the decoder can be fuzzed on its own.
/// Format: CoreFoundation `CFBinaryPList.c` (the trailer, offset table and object markers).
/// Anything unexpected (a reference past the table, a cycle, too deep, too many objects) makes
/// `decode` return nil and the caller keeps the raw bytes.
public enum BinaryPlist {
    public static let magic: [UInt8] = Array("bplist00".utf8)
    /// Nesting deeper than this is refused.
    public static let maxDepth = 16
    /// At most this many objects are decoded per plist (an object referenced twice counts twice).
    public static let maxObjects = 10_000
    /// At most this many bytes of data and string payloads are copied out per plist (objects may
    /// be referenced many times, so the plist's own size is no bound).
    public static let maxOutputBytes = 1 << 20

    /// What a decode may still produce; shared by several decodes to bound them together.
    struct Budget {
        var objects = BinaryPlist.maxObjects
        var bytes = BinaryPlist.maxOutputBytes
    }

    /// Decodes `bytes` into a `MetadataValue` (dictionaries in file order, data as `.bytes`, dates as
    /// `.double` seconds since 2001-01-01, UIDs as `.uint`), or nil when it is not a plist we read.
    public static func decode(_ bytes: [UInt8], maxSize: Int = 64 * 1024) -> MetadataValue? {
        var budget = Budget()
        return decode(bytes, maxSize: maxSize, budget: &budget)
    }

    /// `decode` drawing on (and using up) a shared budget: nil once it runs out.
    static func decode(_ bytes: [UInt8], maxSize: Int, budget: inout Budget) -> MetadataValue? {
        guard bytes.count <= maxSize, bytes.count >= magic.count + 32, bytes.starts(with: magic) else { return nil }
        var parser = Parser(bytes: bytes, budget: budget)
        defer { budget = parser.budget }
        return parser.run()
    }

    private struct Parser {
        let bytes: [UInt8]
        var offsetSize = 0
        var refSize = 0
        var objectCount = 0
        var tableOffset = 0
        var budget: Budget
        var onStack: Set<Int> = []

        init(bytes: [UInt8], budget: Budget) {
            self.bytes = bytes
            self.budget = budget
        }

        /// Takes `n` output bytes from the budget; false when they are not there.
        mutating func spend(bytes n: Int) -> Bool {
            guard n >= 0, n <= budget.bytes else { return false }
            budget.bytes -= n
            return true
        }

        func uint(at offset: Int, size: Int) -> UInt64? {
            guard size >= 1, size <= 8, offset >= 0, offset <= bytes.count - size else { return nil }
            var v: UInt64 = 0
            for i in 0..<size { v = v << 8 | UInt64(bytes[offset + i]) }
            return v
        }

        mutating func run() -> MetadataValue? {
            let t = bytes.count - 32
            offsetSize = Int(bytes[t + 6])
            refSize = Int(bytes[t + 7])
            guard (1...8).contains(offsetSize), (1...8).contains(refSize),
                let count = uint(at: t + 8, size: 8), let top = uint(at: t + 16, size: 8), let table = uint(at: t + 24, size: 8),
                count <= UInt64(bytes.count), top < count, table <= UInt64(t)
            else { return nil }
            objectCount = Int(count)
            tableOffset = Int(table)
            // The offset table must lie between the header and the trailer.
            let (tableBytes, overflow) = objectCount.multipliedReportingOverflow(by: offsetSize)
            guard !overflow, tableOffset >= BinaryPlist.magic.count, tableBytes <= t - tableOffset else { return nil }
            return object(Int(top), depth: 0)
        }

        func offset(of ref: Int) -> Int? {
            guard ref >= 0, ref < objectCount, let o = uint(at: tableOffset + ref * offsetSize, size: offsetSize),
                o >= UInt64(BinaryPlist.magic.count), o < UInt64(tableOffset)
            else { return nil }
            return Int(o)
        }

        /// Reads the length that follows a marker whose low nibble is 0xF (an int object), returning
        /// the length and where the payload starts.
        func length(marker: UInt8, at offset: Int) -> (Int, Int)? {
            let low = Int(marker & 0x0F)
            if low != 0x0F { return (low, offset + 1) }
            guard offset + 1 < bytes.count, bytes[offset + 1] >> 4 == 0x1 else { return nil }
            let size = 1 << Int(bytes[offset + 1] & 0x0F)
            guard size <= 8, let v = uint(at: offset + 2, size: size), v <= UInt64(bytes.count) else { return nil }
            return (Int(v), offset + 2 + size)
        }

        func slice(_ start: Int, _ length: Int) -> ArraySlice<UInt8>? {
            let (end, overflow) = start.addingReportingOverflow(length)
            guard !overflow, start >= 0, length >= 0, end <= tableOffset else { return nil }
            return bytes[start..<end]
        }

        mutating func refs(at start: Int, count: Int) -> [Int]? {
            let (total, overflow) = count.multipliedReportingOverflow(by: refSize)
            guard !overflow, slice(start, total) != nil else { return nil }
            var out: [Int] = []
            out.reserveCapacity(count)
            for i in 0..<count {
                guard let r = uint(at: start + i * refSize, size: refSize), r < UInt64(objectCount) else { return nil }
                out.append(Int(r))
            }
            return out
        }

        mutating func object(_ ref: Int, depth: Int) -> MetadataValue? {
            guard depth <= BinaryPlist.maxDepth, budget.objects > 0, !onStack.contains(ref), let at = offset(of: ref) else { return nil }
            budget.objects -= 1
            let marker = bytes[at]
            switch marker >> 4 {
            case 0x0:
                switch marker {
                case 0x08: return .bool(false)
                case 0x09: return .bool(true)
                default: return nil
                }
            case 0x1:
                let size = 1 << Int(marker & 0x0F)
                if size == 16 {
                    // 128-bit ints: CoreFoundation writes the high 8 bytes as 0 for values that fit.
                    guard let hi = uint(at: at + 1, size: 8), hi == 0, let lo = uint(at: at + 9, size: 8) else { return nil }
                    return .uint(lo)
                }
                guard size <= 8, let v = uint(at: at + 1, size: size) else { return nil }
                // 8-byte ints are signed; smaller ones unsigned (CFBinaryPList.c).
                return size == 8 ? .int(Int64(bitPattern: v)) : .int(Int64(v))
            case 0x2:
                switch marker & 0x0F {
                case 2: return uint(at: at + 1, size: 4).map { .double(Double(Float(bitPattern: UInt32($0)))) }
                case 3: return uint(at: at + 1, size: 8).map { .double(Double(bitPattern: $0)) }
                default: return nil
                }
            case 0x3:
                guard marker == 0x33 else { return nil }
                return uint(at: at + 1, size: 8).map { .double(Double(bitPattern: $0)) }
            case 0x4:
                guard let (n, start) = length(marker: marker, at: at), let s = slice(start, n), spend(bytes: n) else { return nil }
                return .bytes(Array(s))
            case 0x5:
                guard let (n, start) = length(marker: marker, at: at), let s = slice(start, n), spend(bytes: n) else { return nil }
                return .string(String(decoding: s, as: UTF8.self))
            case 0x6:
                guard let (n, start) = length(marker: marker, at: at) else { return nil }
                let (byteCount, overflow) = n.multipliedReportingOverflow(by: 2)
                guard !overflow, let s = slice(start, byteCount), spend(bytes: byteCount) else { return nil }
                var units: [UInt16] = []
                units.reserveCapacity(n)
                var i = s.startIndex
                while i + 1 < s.endIndex {
                    units.append(UInt16(s[i]) << 8 | UInt16(s[i + 1]))
                    i += 2
                }
                return .string(String(decoding: units, as: UTF16.self))
            case 0x8:
                let size = Int(marker & 0x0F) + 1
                return uint(at: at + 1, size: size).map { .uint($0) }
            case 0xA:
                guard let (n, start) = length(marker: marker, at: at), let children = refs(at: start, count: n) else { return nil }
                onStack.insert(ref)
                defer { onStack.remove(ref) }
                var values: [MetadataValue] = []
                values.reserveCapacity(children.count)
                for c in children {
                    guard let v = object(c, depth: depth + 1) else { return nil }
                    values.append(v)
                }
                return .array(values)
            case 0xD:
                guard let (n, start) = length(marker: marker, at: at) else { return nil }
                let (valuesAt, overflow) = start.addingReportingOverflow(n &* refSize)
                guard !overflow, n <= objectCount, let keys = refs(at: start, count: n), let vals = refs(at: valuesAt, count: n) else {
                    return nil
                }
                onStack.insert(ref)
                defer { onStack.remove(ref) }
                var pairs: [MetadataValue.KeyValue] = []
                pairs.reserveCapacity(n)
                for (k, v) in zip(keys, vals) {
                    guard let key = object(k, depth: depth + 1), let value = object(v, depth: depth + 1) else { return nil }
                    pairs.append(.init(key.stringValue ?? key.displayString, value))
                }
                return .dictionary(pairs)
            default:
                return nil
            }
        }
    }
}
