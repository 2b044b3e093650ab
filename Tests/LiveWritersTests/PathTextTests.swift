import LiveModel
import Testing

/// `PathText.parent(of:)` gives what `NSString.deletingLastPathComponent` gives, without its trap
/// on one-character paths (swift-corelibs-foundation on Linux).
@Suite struct PathTextTests {
    @Test(arguments: [
        ("c", ""), ("x.json", ""), ("ab", ""), ("", ""),
        ("a/c", "a"), ("a/b/c.jpg", "a/b"), ("a/b/", "a"), ("a//b", "a"), ("a//b/c", "a/b"), ("a/b//c", "a/b"),
        ("/x", "/"), ("/", "/"), ("//", "/"), ("/a/b", "/a"), ("./c", "."), ("../c", ".."),
    ])
    func parent(_ path: String, _ expected: String) {
        #expect(PathText.parent(of: path) == expected)
    }
}
