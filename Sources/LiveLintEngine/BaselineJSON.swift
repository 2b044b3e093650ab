#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

#if canImport(Glibc)
private let systemRead = Glibc.read
#elseif canImport(Darwin)
private let systemRead = Darwin.read
#endif

/// Reads a baseline's JSON a piece at a time (64 KiB), handing on each entry as it is read, so
/// that a baseline of a million entries is not held as text, as a parsed tree or as a dictionary
/// (issue 13: `lint --baseline` held 399.5 MiB for 500,000 entries through `JSONDecoder`).
///
/// It reads JSON as RFC 8259 has it (what `JSONDecoder` reads, which the tests compare it with):
/// keys in any order, any white space, every string escape (`\uXXXX` surrogate pairs joined, a lone
/// surrogate refused, as `JSONDecoder` refuses it), UTF-8 checked, keys it does not know skipped
/// (nested at most 512 deep); a UTF-8 byte order mark is passed over. The layout is
/// `{"findings": [{"files": [String], "message": String, "rule": String}, …], "version": Int}`.
/// An entry's files are sorted as ``Baseline/Entry/init(rule:files:message:)`` sorts them. What
/// does not fit is refused with the line it is on.
struct BaselineJSON {
    struct Failure: Error {
        var line: Int
        var reason: String
        /// The file could not be read (not a fault of its text).
        var unreadable = false
    }

    /// Where the text comes from: a file read as it goes, or bytes held.
    private let descriptor: Int32
    private var buffer: [UInt8]
    /// Bytes of `buffer` read; `at` is the next one.
    private var end: Int
    private var at = 0
    private var line = 1
    /// Reused for each string's bytes.
    private var scratch: [UInt8] = []
    static let maximumDepth = 512

    /// Text read from `descriptor` (which the caller closes).
    init(descriptor: Int32) {
        self.descriptor = descriptor
        buffer = [UInt8](repeating: 0, count: 1 << 16)
        end = 0
    }

    /// Text held.
    init(bytes: [UInt8]) {
        descriptor = -1
        buffer = bytes
        end = bytes.count
    }

    /// Reads the whole text: each entry to `entry` as it is read; returns the version.
    mutating func read(entry: (Baseline.Entry) -> Void) throws(Failure) -> Int {
        if try peek() == 0xEF {
            for b: UInt8 in [0xEF, 0xBB, 0xBF] { try expect(b, "a JSON object") }
        }
        try skipSpace()
        try expect(UInt8(ascii: "{"), "a JSON object, {\"findings\": [...], \"version\": 1}")
        var version: Int?
        var sawFindings = false
        var firstKey = true
        while let key = try nextKey(&firstKey) {
            switch key {
            case "findings":
                guard !sawFindings else { throw fail("\"findings\" is given twice") }
                sawFindings = true
                try expect(UInt8(ascii: "["), "\"findings\": a list")
                var index = 0
                var first = true
                while try nextElement(&first, of: "\"findings\"") {
                    entry(try self.entry(index))
                    index += 1
                }
            case "version":
                version = try integer("\"version\"")
            default:
                try skipValue(depth: 1)
            }
        }
        try skipSpace()
        guard try peek() == nil else { throw fail("more text after the baseline's object") }
        guard sawFindings else { throw fail("no \"findings\" list") }
        guard let version else { throw fail("no \"version\"") }
        return version
    }

    /// One entry of the list (the `index`th, from 0, for the errors).
    private mutating func entry(_ index: Int) throws(Failure) -> Baseline.Entry {
        let what = "entry \(index + 1) of \"findings\""
        try expect(UInt8(ascii: "{"), "\(what): an object, {\"files\": [...], \"message\": \"...\", \"rule\": \"...\"}")
        var rule: String?
        var files: [String]?
        var message: String?
        var firstKey = true
        while let key = try nextKey(&firstKey) {
            switch key {
            case "rule": rule = try string("\(what): \"rule\"")
            case "message": message = try string("\(what): \"message\"")
            case "files":
                try expect(UInt8(ascii: "["), "\(what): \"files\": a list")
                var list: [String] = []
                var first = true
                while try nextElement(&first, of: "\(what): \"files\"") { list.append(try string("\(what): a file")) }
                files = list
            default: try skipValue(depth: 2)
            }
        }
        guard let rule else { throw fail("\(what) has no \"rule\"") }
        guard let files else { throw fail("\(what) has no \"files\"") }
        guard let message else { throw fail("\(what) has no \"message\"") }
        return Baseline.Entry(rule: rule, files: files, message: message)
    }

    // MARK: - Structure

    /// The next key of an object whose `{` was read, the reader left at its value; nil at the
    /// object's `}`. `first` starts true.
    private mutating func nextKey(_ first: inout Bool) throws(Failure) -> String? {
        try skipSpace()
        if first {
            first = false
            if try peek() == UInt8(ascii: "}") {
                advance()
                return nil
            }
        } else {
            switch try next() {
            case UInt8(ascii: ","): try skipSpace()
            case UInt8(ascii: "}"): return nil
            default: throw fail("',' or '}' after a value in an object")
            }
        }
        let key = try string("a key")
        try skipSpace()
        try expect(UInt8(ascii: ":"), "':' after the key \"\(key)\"")
        try skipSpace()
        return key
    }

    /// True when a list whose `[` was read has another element, the reader left at it; false at
    /// the list's `]`. `first` starts true.
    private mutating func nextElement(_ first: inout Bool, of what: String) throws(Failure) -> Bool {
        try skipSpace()
        if first {
            first = false
            if try peek() == UInt8(ascii: "]") {
                advance()
                return false
            }
        } else {
            switch try next() {
            case UInt8(ascii: ","): try skipSpace()
            case UInt8(ascii: "]"): return false
            default: throw fail("\(what): ',' or ']' after an element")
            }
        }
        return true
    }

    /// Any value, read and let go (a key this reader does not know).
    private mutating func skipValue(depth: Int) throws(Failure) {
        guard depth <= Self.maximumDepth else { throw fail("nested more than \(Self.maximumDepth) deep") }
        switch try peek() {
        case UInt8(ascii: "\""): _ = try string("a value")
        case UInt8(ascii: "{"):
            advance()
            var first = true
            while try nextKey(&first) != nil { try skipValue(depth: depth + 1) }
        case UInt8(ascii: "["):
            advance()
            var first = true
            while try nextElement(&first, of: "a list") { try skipValue(depth: depth + 1) }
        case UInt8(ascii: "t"): try word("true")
        case UInt8(ascii: "f"): try word("false")
        case UInt8(ascii: "n"): try word("null")
        default: _ = try number("a value")
        }
    }

    private mutating func word(_ w: String) throws(Failure) {
        for b in w.utf8 { try expect(b, "a value") }
    }

    // MARK: - Scalars

    /// A number, its text checked against JSON's grammar: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    private mutating func number(_ what: String) throws(Failure) -> String {
        var text = ""
        func digits(_ reader: inout BaselineJSON, into text: inout String) throws(Failure) -> Int {
            var n = 0
            while let b = try reader.peek(), b >= UInt8(ascii: "0"), b <= UInt8(ascii: "9") {
                text.unicodeScalars.append(Unicode.Scalar(b))
                reader.advance()
                n += 1
            }
            return n
        }
        if try peek() == UInt8(ascii: "-") { text += "-"; advance() }
        let first = try peek()
        let whole = try digits(&self, into: &text)
        guard whole > 0 else { throw fail("\(what): a JSON value") }
        guard first != UInt8(ascii: "0") || whole == 1 else { throw fail("\(what): a number with a leading zero") }
        if try peek() == UInt8(ascii: ".") {
            text += "."
            advance()
            guard try digits(&self, into: &text) > 0 else { throw fail("\(what): digits after '.'") }
        }
        if let e = try peek(), e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
            text += "e"
            advance()
            if let s = try peek(), s == UInt8(ascii: "+") || s == UInt8(ascii: "-") {
                text.unicodeScalars.append(Unicode.Scalar(s))
                advance()
            }
            guard try digits(&self, into: &text) > 0 else { throw fail("\(what): digits after the exponent") }
        }
        return text
    }

    /// A whole number (`1`, or written `1.0` or `1e0`, as `JSONDecoder` takes them).
    private mutating func integer(_ what: String) throws(Failure) -> Int {
        let text = try number(what)
        if let n = Int(text) { return n }
        guard let d = Double(text), let n = Int(exactly: d) else { throw fail("\(what): a whole number, not \(text)") }
        return n
    }

    /// A string, its escapes undone; `what` names it when there is none.
    private mutating func string(_ what: String) throws(Failure) -> String {
        guard try peek() == UInt8(ascii: "\"") else { throw fail("\(what): a string") }
        advance()
        scratch.removeAll(keepingCapacity: true)
        while true {
            guard let b = try next() else { throw fail("a string that does not end") }
            switch b {
            case UInt8(ascii: "\""):
                guard let s = String(validating: scratch, as: UTF8.self) else { throw fail("\(what): a string that is not UTF-8") }
                return s
            case UInt8(ascii: "\\"):
                guard let e = try next() else { throw fail("a string that does not end") }
                switch e {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scratch.append(e)
                case UInt8(ascii: "b"): scratch.append(0x08)
                case UInt8(ascii: "f"): scratch.append(0x0C)
                case UInt8(ascii: "n"): scratch.append(0x0A)
                case UInt8(ascii: "r"): scratch.append(0x0D)
                case UInt8(ascii: "t"): scratch.append(0x09)
                case UInt8(ascii: "u"):
                    var value = try hex4()
                    if (0xD800..<0xDC00).contains(value) {
                        guard try next() == UInt8(ascii: "\\"), try next() == UInt8(ascii: "u") else {
                            throw fail("\(what): a lone surrogate \\u\(String(value, radix: 16))")
                        }
                        let low = try hex4()
                        guard (0xDC00..<0xE000).contains(low) else { throw fail("\(what): a lone surrogate \\u\(String(value, radix: 16))") }
                        value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00..<0xE000).contains(value) {
                        throw fail("\(what): a lone surrogate \\u\(String(value, radix: 16))")
                    }
                    // Not a surrogate, or two joined: a scalar.
                    scratch.append(contentsOf: String(Character(Unicode.Scalar(value)!)).utf8)
                default: throw fail("\(what): an unknown escape \\\(Unicode.Scalar(e))")
                }
            case 0..<0x20:
                throw fail("\(what): a control character (U+\(String(b, radix: 16, uppercase: true))) not escaped")
            default:
                scratch.append(b)
            }
        }
    }

    private mutating func hex4() throws(Failure) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let b = try next() else { throw fail("a string that does not end") }
            let digit: UInt32
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(b - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(b - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(b - UInt8(ascii: "A") + 10)
            default: throw fail("four hex digits after \\u")
            }
            value = value << 4 | digit
        }
        return value
    }

    // MARK: - Bytes

    private mutating func skipSpace() throws(Failure) {
        while let b = try peek() {
            switch b {
            case 0x20, 0x09, 0x0D: advance()
            case 0x0A: advance()
            default: return
            }
        }
    }

    private mutating func expect(_ byte: UInt8, _ what: @autoclosure () -> String) throws(Failure) {
        guard try peek() == byte else { throw fail(what()) }
        advance()
    }

    private func fail(_ reason: String) -> Failure { Failure(line: line, reason: reason) }

    /// The next byte, not taken; nil at the end.
    private mutating func peek() throws(Failure) -> UInt8? {
        if at == end, try !refill() { return nil }
        return buffer[at]
    }

    /// Takes the byte ``peek()`` saw.
    private mutating func advance() {
        if buffer[at] == 0x0A { line += 1 }
        at += 1
    }

    private mutating func next() throws(Failure) -> UInt8? {
        guard let b = try peek() else { return nil }
        advance()
        return b
    }

    /// Reads the next piece of the file; false at its end.
    private mutating func refill() throws(Failure) -> Bool {
        guard descriptor >= 0 else { return false }
        while true {
            let n = buffer.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else { throw Failure(line: line, reason: "cannot read: \(String(cString: strerror(errno)))", unreadable: true) }
            at = 0
            end = n
            return n > 0
        }
    }
}
