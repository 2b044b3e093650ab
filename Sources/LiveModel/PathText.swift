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
