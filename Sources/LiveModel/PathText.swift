#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Path arithmetic on text, without Foundation: on Linux, `NSString.deletingLastPathComponent`
/// traps on any path of one character (swift-corelibs-foundation in Swift 6.3: `--cache-dir c`
/// crashed `lint`, and a one-letter output name would crash a write).
public enum PathText {
    /// The folder part of `path`, as `NSString.deletingLastPathComponent` gives it: "" for a bare
    /// name (`c`, `x.json`), "/" for a name at the root, trailing slashes ignored (`a/b/` → `a`),
    /// repeated slashes read as one (`a//b/c` → `a/b`).
    public static func parent(of path: String) -> String {
        var bytes: [UInt8] = []
        for byte in path.utf8 where !(byte == UInt8(ascii: "/") && bytes.last == UInt8(ascii: "/")) { bytes.append(byte) }
        while bytes.count > 1, bytes.last == UInt8(ascii: "/") { bytes.removeLast() }
        guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else { return "" }
        var end = slash
        while end > 0, bytes[end - 1] == UInt8(ascii: "/") { end -= 1 }
        if end == 0 { return "/" }
        return String(decoding: bytes[..<end], as: UTF8.self)
    }
}

// MARK: - Byte arithmetic on ASCII paths

extension PathText {
    /// Runs `body` on the UTF-8 bytes of `text` when every byte is ASCII, nil otherwise.
    ///
    /// In an ASCII string each byte is one `Character` (but for `\r\n`, which no path arithmetic
    /// here looks into), so finding a `/`, `.` or `!` byte gives what `lastIndex(of:)` on
    /// `Character`s gives, without the grapheme breaking that makes the latter slow: pairing, the
    /// scan rules and `extension-mismatch` split every path of a library (issue 13: a tenth of a
    /// cached run). Callers keep their `Character` code for other text, which this never changes.
    @inlinable
    public static func withASCII<R>(_ text: String, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R? {
        var text = text
        return text.withUTF8 { bytes -> R? in isASCII(bytes) ? body(bytes) : nil }
    }

    /// True when every byte is below 0x80.
    @inlinable
    public static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        for byte in bytes where byte >= 0x80 { return false }
        return true
    }

    /// How two byte strings order, byte by byte (-1, 0 or 1; a string before every longer one it
    /// begins): the order of UTF-8 paths in a listing, and of ASCII text as Swift orders it.
    public static func compare(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Int {
        let n = Swift.min(a.count, b.count)
        if n > 0, let pa = a.baseAddress, let pb = b.baseAddress {
            let c = memcmp(pa, pb, n)
            if c != 0 { return c < 0 ? -1 : 1 }
        }
        return a.count == b.count ? 0 : a.count < b.count ? -1 : 1
    }

    /// `bytes[range]` as a string, ASCII letters lower-cased.
    public static func lowercasedASCII(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
        String(unsafeUninitializedCapacity: range.count) { out in
            for (i, byte) in bytes[range].enumerated() {
                out[i] = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
            }
            return range.count
        }
    }

    /// `bytes[range]` as a string.
    public static func string(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }
}
