import LiveModel

/// A JSON value with a deterministic writer: keys sorted by their UTF-8 bytes, 2-space
/// pretty-printing (or one compact line), and no way to produce an invalid document
/// (non-finite doubles become `null`; see `JSON.number(_:)` for metadata values).
///
/// Foundation's `JSONSerialization` is not used on purpose: its number formatting and slash
/// escaping differ between platforms, and golden files must be byte-stable.
enum JSON: Equatable {
    case null
    case bool(Bool)
    case int(Int64)
    case uint(UInt64)
    case double(Double)
    case string(String)
    case array([JSON])
    case object([String: JSON])

    /// `.string` or `.null`.
    static func string(_ s: String?) -> JSON { s.map(JSON.string) ?? .null }
    /// A finite double as a number; NaN and infinities as `null` (JSON has no spelling for them).
    static func number(_ d: Double?) -> JSON {
        guard let d, d.isFinite else { return .null }
        return .double(d)
    }
    static func integer<I: BinaryInteger>(_ i: I?) -> JSON {
        guard let i else { return .null }
        if let v = Int64(exactly: i) { return .int(v) }
        if let v = UInt64(exactly: i) { return .uint(v) }
        return .null
    }

    /// Pretty-printed with 2-space indentation, `"key": value`, ending without a newline.
    func pretty() -> String {
        var out = ""
        write(into: &out, indent: 0, pretty: true)
        return out
    }

    /// One line, no insignificant whitespace (JSON Lines).
    func compact() -> String {
        var out = ""
        write(into: &out, indent: 0, pretty: false)
        return out
    }

    /// Appends this value to `out` as if it sat `indent` levels deep in a pretty-printed document
    /// (what `pretty()` writes for a nested value), or compactly.
    func write(into out: inout String, indent: Int, pretty: Bool) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .int(let i): out += String(i)
        case .uint(let u): out += String(u)
        case .double(let d): out += JSON.format(d)
        case .string(let s): JSON.quote(s, into: &out)
        case .array(let items):
            if items.isEmpty { out += "[]"; return }
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += "," }
                if pretty { JSON.newline(&out, indent + 1) }
                item.write(into: &out, indent: indent + 1, pretty: pretty)
            }
            if pretty { JSON.newline(&out, indent) }
            out += "]"
        case .object(let members):
            if members.isEmpty { out += "{}"; return }
            out += "{"
            // Byte order, not String's Unicode collation, so every platform sorts alike.
            let keys = members.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            for (i, key) in keys.enumerated() {
                if i > 0 { out += "," }
                if pretty { JSON.newline(&out, indent + 1) }
                JSON.quote(key, into: &out)
                out += pretty ? ": " : ":"
                members[key, default: .null].write(into: &out, indent: indent + 1, pretty: pretty)
            }
            if pretty { JSON.newline(&out, indent) }
            out += "}"
        }
    }

    private static func newline(_ out: inout String, _ indent: Int) {
        out += "\n"
        out += String(repeating: "  ", count: indent)
    }

    /// Shortest round-tripping form; whole numbers without a fraction (`2`, not `2.0`).
    /// Swift prints `1e-05`, `1.5e+20`: valid JSON numbers.
    static func format(_ d: Double) -> String {
        d.isFinite ? MetadataValue.format(d) : "null"
    }

    /// A byte JSON escapes in a string (control characters, `"`, `\\`, DEL).
    static func needsEscape(_ byte: UInt8) -> Bool { JSONQuote.needsEscape(byte, escapingDelete: true) }

    /// `s` as a JSON string literal, DEL escaped too (``JSONQuote``).
    static func quote(_ s: String, into out: inout String) { JSONQuote.append(s, to: &out, escapingDelete: true) }
}

extension JSON {
    /// A `MetadataValue` as natural JSON: strings, numbers, booleans, arrays, objects.
    /// Bytes become one lower-case hex string (`"0a1b"`); NaN and ±infinity become the strings
    /// `"NaN"`, `"Infinity"`, `"-Infinity"` so the value is kept and the document stays valid.
    /// A dictionary with a repeated key keeps the first value (JSON objects cannot repeat keys).
    init(_ value: MetadataValue) {
        switch value {
        case .string(let s): self = .string(s)
        case .int(let i): self = .int(i)
        case .uint(let u): self = .uint(u)
        case .bool(let b): self = .bool(b)
        case .bytes(let b): self = .string(MetadataValue.hex(b))
        case .double(let d):
            if d.isFinite { self = .double(d) } else if d.isNaN { self = .string("NaN") } else {
                self = .string(d > 0 ? "Infinity" : "-Infinity")
            }
        case .array(let a): self = .array(a.map(JSON.init))
        case .dictionary(let kvs): self = .object(JSON.firstWins(kvs.map { ($0.key, JSON($0.value)) }))
        }
    }

    /// An object from ordered pairs, keeping the first value of a repeated key.
    static func firstWins(_ pairs: [(String, JSON)]) -> [String: JSON] {
        var out: [String: JSON] = [:]
        for (k, v) in pairs where out[k] == nil { out[k] = v }
        return out
    }

    /// A `ReadIssue` as `{category, location, message, offset}` (location/offset null when unknown).
    init(_ issue: ReadIssue) {
        self = .object([
            "message": .string(issue.message),
            "category": .string(issue.category.rawValue),
            "location": .string(issue.location),
            "offset": .integer(issue.offset),
        ])
    }
}

/// JSON text for writers outside this module (`lint --identifiers`), escaped exactly as the
/// reports escape it.
public enum JSONText {
    /// `s` as a JSON string literal (RFC 8259; control characters and DEL as `\u00XX`).
    public static func quoted(_ s: String) -> String {
        var out = ""
        JSON.quote(s, into: &out)
        return out
    }
}

/// A document written as UTF-8 bytes. A library-sized report appends a few short pieces per file
/// and pair; appending them to a `String` took its general append path each time, half of the
/// JSON reporter's time on a cached scan of 50,000 pairs (issue 13).
struct JSONBytes {
    var bytes: [UInt8] = []

    var count: Int { bytes.count }

    /// The bytes as text (they are UTF-8: every piece appended was).
    var text: String { String(decoding: bytes, as: UTF8.self) }

    /// The bytes as text, handed to `body` in pieces of at most about `limit` bytes, each cut
    /// after a line's end (never inside a character). A piece's text is then a block the
    /// allocator keeps for reuse: one larger than its threshold for blocks of their own (128
    /// KiB, `HeapTrim.fixMapThreshold()`) was mapped afresh and faulted in for each (issue 13:
    /// a fifth of a cached run's JSON report).
    func texts(upTo limit: Int, _ body: (String) -> Void) {
        bytes.withUnsafeBufferPointer { all in
            var start = 0
            while start < all.count {
                var end = min(all.count, start + max(1, limit))
                if end < all.count {
                    // After the last line's end in the piece; a line longer than the piece goes whole.
                    var cut = end
                    while cut > start, all[cut - 1] != 0x0A { cut -= 1 }
                    if cut > start {
                        end = cut
                    } else {
                        while end < all.count, all[end - 1] != 0x0A { end += 1 }
                    }
                }
                body(String(decoding: UnsafeBufferPointer(rebasing: all[start..<end]), as: UTF8.self))
                start = end
            }
        }
    }

    mutating func append(_ literal: StaticString) {
        literal.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    mutating func append(_ s: String) {
        bytes.append(contentsOf: s.utf8)
    }

    /// `s` as a JSON string literal, as ``JSON/quote(_:into:)`` writes it.
    mutating func quote(_ s: String) {
        let plain = s.utf8.withContiguousStorageIfAvailable { utf8 -> Bool in
            guard !utf8.contains(where: JSON.needsEscape) else { return false }
            bytes.append(0x22)
            bytes.append(contentsOf: utf8)
            bytes.append(0x22)
            return true
        }
        if plain != true { append(JSONText.quoted(s)) }
    }

    /// `value` pretty-printed as it sits `indent` levels deep (``JSON/write(into:indent:pretty:)``).
    mutating func append(_ value: JSON, indent: Int) {
        var text = ""
        value.write(into: &text, indent: indent, pretty: true)
        append(text)
    }
}
