import Foundation
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
/// It takes what `JSONDecoder` (swift-foundation's `JSONScanner`) takes for this layout, which the
/// tests compare it with: keys in any order, any white space, a comma before a closing bracket,
/// every string escape (`\uXXXX` surrogate pairs joined, a lone surrogate refused), UTF-8 checked,
/// the first of a key given twice, values under keys it does not know checked only for their
/// shape (as the scanner checks them), at most 512 lists and objects deep. A UTF-8 byte order
/// mark is passed over; text in UTF-16 or UTF-32 is turned into UTF-8 whole by the caller
/// (``Baseline/load(from:scratch:runSize:)``). The layout is
/// `{"findings": [{"files": [String], "message": String, "rule": String}, …], "version": Int}`.
/// An entry's files are sorted as ``Baseline/Entry/init(rule:files:message:)`` sorts them (a
/// baseline edited by hand with its files out of order matches as one written by livelint). What
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
    /// Lists and objects open at most, the outermost one counted (JSONDecoder's limit).
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

    /// The encoding JSON text starting with `bytes` (its first four, or all if fewer) is in, as
    /// swift-foundation tells it: a byte order mark, else where the zero bytes of the first
    /// character are; nil for UTF-8. As there, `FF FE` is UTF-16's mark even before `00 00`.
    static func wideEncoding(of bytes: some Collection<UInt8>) -> String.Encoding? {
        let b = Array(bytes.prefix(4)) + [UInt8](repeating: 0xAA, count: max(0, 4 - bytes.count))
        switch (b[0], b[1], b[2], b[3]) {
        case (0xEF, 0xBB, 0xBF, _): return nil
        case (0x00, 0x00, 0xFE, 0xFF): return .utf32BigEndian
        case (0x00, 0x00, 0x00, _) where bytes.count >= 4: return .utf32BigEndian
        case (_, 0x00, 0x00, 0x00) where bytes.count >= 4 && b[0] != 0: return .utf32LittleEndian
        case (0xFE, 0xFF, _, _): return .utf16BigEndian
        case (0xFF, 0xFE, _, _): return .utf16LittleEndian
        case (0x00, _, _, _) where bytes.count >= 2: return .utf16BigEndian
        case (_, 0x00, _, _) where bytes.count >= 2 && b[0] != 0: return .utf16LittleEndian
        default: return nil
        }
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
            case "findings" where !sawFindings:
                sawFindings = true
                try expect(UInt8(ascii: "["), "\"findings\": a list")
                var index = 0
                var first = true
                while try nextElement(&first, of: "\"findings\"") {
                    entry(try self.entry(index))
                    index += 1
                }
            case "version" where version == nil:
                version = try integer("\"version\"")
            default:
                // A key this reader does not know, or one given again (the first counts).
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
        func what(_ part: String) -> String { "entry \(index + 1) of \"findings\"" + part }
        try expect(UInt8(ascii: "{"), what(": an object, {\"files\": [...], \"message\": \"...\", \"rule\": \"...\"}"))
        var rule: String?
        var files: [String]?
        var message: String?
        var firstKey = true
        while let key = try nextKey(&firstKey) {
            switch key {
            case "rule" where rule == nil: rule = try string(what(": \"rule\""))
            case "message" where message == nil: message = try string(what(": \"message\""))
            case "files" where files == nil:
                try expect(UInt8(ascii: "["), what(": \"files\": a list"))
                var list: [String] = []
                var first = true
                while try nextElement(&first, of: what(": \"files\"")) { list.append(try string(what(": a file"))) }
                files = list
            default: try skipValue(depth: 3)
            }
        }
        guard let rule else { throw fail(what(" has no \"rule\"")) }
        guard let files else { throw fail(what(" has no \"files\"")) }
        guard let message else { throw fail(what(" has no \"message\"")) }
        return Baseline.Entry(rule: rule, files: files, message: message)
    }

    // MARK: - Structure

    /// The next key of an object whose `{` was read, the reader left at its value; nil at the
    /// object's `}` (also after a last comma). `first` starts true.
    private mutating func nextKey(_ first: inout Bool) throws(Failure) -> String? {
        guard try another(&first, closing: UInt8(ascii: "}"), "in an object") else { return nil }
        let key = try string("a key")
        try skipSpace()
        try expect(UInt8(ascii: ":"), "':' after the key \"\(key)\"")
        try skipSpace()
        return key
    }

    /// True when a list whose `[` was read has another element, the reader left at it; false at
    /// the list's `]` (also after a last comma). `first` starts true.
    private mutating func nextElement(_ first: inout Bool, of what: @autoclosure () -> String) throws(Failure) -> Bool {
        try another(&first, closing: UInt8(ascii: "]"), what())
    }

    /// True when a list or an object whose opening bracket was read has another member, the
    /// reader left at it (after the comma before it, unless `first`); false, the bracket taken,
    /// at its `closing` bracket, also after a last comma (JSONDecoder takes one).
    private mutating func another(_ first: inout Bool, closing: UInt8, _ what: @autoclosure () -> String) throws(Failure) -> Bool {
        try skipSpace()
        if first {
            first = false
        } else {
            switch try next() {
            case UInt8(ascii: ","): try skipSpace()
            case closing: return false
            default: throw fail("\(what()): ',' or '\(Unicode.Scalar(closing))' after a value")
            }
        }
        if try peek() == closing {
            advance()
            return false
        }
        return true
    }

    /// Any value, read and let go (a key this reader does not know, in a list or object `depth`
    /// deep): checked only for its shape, as JSONDecoder's scanner checks a value no key asks for
    /// (a string to its closing quote, a number as its characters, words spelt out).
    private mutating func skipValue(depth: Int) throws(Failure) {
        switch try peek() {
        case UInt8(ascii: "\""):
            advance()
            while true {
                switch try next() {
                case nil: throw fail("a string that does not end")
                case UInt8(ascii: "\""): return
                case UInt8(ascii: "\\"): guard try next() != nil else { throw fail("a string that does not end") }
                default: continue
                }
            }
        case UInt8(ascii: "{"):
            guard depth < Self.maximumDepth else { throw fail("nested more than \(Self.maximumDepth) deep") }
            advance()
            var first = true
            while try nextKey(&first) != nil { try skipValue(depth: depth + 1) }
        case UInt8(ascii: "["):
            guard depth < Self.maximumDepth else { throw fail("nested more than \(Self.maximumDepth) deep") }
            advance()
            var first = true
            while try nextElement(&first, of: "a list") { try skipValue(depth: depth + 1) }
        case UInt8(ascii: "t"): try word("true")
        case UInt8(ascii: "f"): try word("false")
        case UInt8(ascii: "n"): try word("null")
        case let b? where b == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(b):
            while let c = try peek(), Self.numberCharacters.contains(c) { advance() }
        default: throw fail("a JSON value")
        }
    }

    /// What a number no key asks for may be made of.
    private static let numberCharacters: Set<UInt8> = Set("0123456789.+-eE".utf8)

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
    private mutating func string(_ what: @autoclosure () -> String) throws(Failure) -> String {
        guard try peek() == UInt8(ascii: "\"") else { throw fail("\(what()): a string") }
        advance()
        scratch.removeAll(keepingCapacity: true)
        while true {
            guard let b = try next() else { throw fail("a string that does not end") }
            switch b {
            case UInt8(ascii: "\""):
                guard let s = String(bytes: scratch, encoding: .utf8) else { throw fail("\(what()): a string that is not UTF-8") }
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
                            throw fail("\(what()): a lone surrogate \\u\(String(value, radix: 16))")
                        }
                        let low = try hex4()
                        guard (0xDC00..<0xE000).contains(low) else { throw fail("\(what()): a lone surrogate \\u\(String(value, radix: 16))") }
                        value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00..<0xE000).contains(value) {
                        throw fail("\(what()): a lone surrogate \\u\(String(value, radix: 16))")
                    }
                    // Not a surrogate, or two joined: a scalar.
                    scratch.append(contentsOf: String(Character(Unicode.Scalar(value)!)).utf8)
                default: throw fail("\(what()): an unknown escape \\\(Unicode.Scalar(e))")
                }
            case 0..<0x20:
                throw fail("\(what()): a control character (U+\(String(b, radix: 16, uppercase: true))) not escaped")
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
            case 0x20, 0x09, 0x0D, 0x0A: advance()
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
