@testable import LiveLintEngine
@testable import LiveModel
import Testing

/// The byte arithmetic pairing, the scan rules and `extension-mismatch` do on ASCII paths
/// (``PathText/withASCII(_:_:)``) gives what the `Character` code it stands in for gives: the
/// same folder, name, name key and extension, on paths built from the pieces that matter (slashes,
/// dots, `!`, `_` and digits, a UUID, media extensions in both cases, `_HEVC`, Takeout's `(1)`).
@Suite struct PathArithmeticTests {
    static let pieces = [
        "a", "B", "IMG_0084", "/", "/", ".", ".", "..", "!", "_", "_", "0", "12", "(1)", " ", "JPG", "jpeg", "MOV",
        "heic", "livp", "gz", "_HEVC", "_hevc", "_3", "9F1C26B5-0E1A-4B3C-8D2E-1F2A3B4C5D6E", "9f1c26b5-0e1a-4b3c-8d2e-1f2a3b4c5d6e",
        "\r\n", "-",
    ]
    /// Pieces that are not ASCII: these paths take the `Character` code, so both sides agree by
    /// construction; they are here to show the byte code is not asked.
    static let wide = ["é", "e\u{301}", "\u{0600}", "日本"]

    /// A fixed pseudo-random sequence (SplitMix64), so a failure names the same path every run.
    struct Mix {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Int((z ^ (z >> 31)) % UInt64(bound))
        }
    }

    static func paths(count: Int, seed: UInt64, pieces: [String]) -> [String] {
        var mix = Mix(state: seed)
        return (0..<count).map { _ in (0..<mix.next(9)).map { _ in pieces[mix.next(pieces.count)] }.joined() }
    }

    static let edges = ["", "/", "//", "a/", "a//", ".", "..", "./x", "/.x", "a/.", "x.", "x..jpg", "a.b..jpg", "...",
                        "!", "a!", "!a", "a!b/c!d/e.JPG", "a/b.livp!IMG_1.JPG.jpeg", "_HEVC", "x_HEVC.MOV", "_1",
                        "9F1C26B5-0E1A-4B3C-8D2E-1F2A3B4C5D6E_3.mov", "IMG_0769(1).JPG", "a\r\n.jpg", "x.JPG.MOV"]

    @Test func asciiPathsSplitAsCharactersDo() {
        for path in Self.edges + Self.paths(count: 20_000, seed: 13, pieces: Self.pieces) {
            #expect(PathText.withASCII(path) { _ in true } == true, "\(path.debugDescription) is ASCII")
            let split = Pairing.split(path), expected = Pairing.characterSplit(path)
            #expect(split == expected, "split \(path.debugDescription)")
            #expect(Pairing.nameKey(split.name) == Pairing.characterNameKey(split.name), "name key \(split.name.debugDescription)")
            #expect(Pairing.nameKey(path) == Pairing.characterNameKey(path), "name key \(path.debugDescription)")
            let file = MediaFile(path: path, kind: .still, format: .jpeg)
            #expect(file.pathExtension == file.characterPathExtension, "extension \(path.debugDescription)")
        }
    }

    @Test func widePathsTakeTheCharacterCode() {
        for path in Self.paths(count: 2_000, seed: 14, pieces: Self.pieces + Self.wide) {
            let isASCII = path.utf8.allSatisfy { $0 < 0x80 }
            #expect((PathText.withASCII(path) { _ in true } != nil) == isASCII, "\(path.debugDescription)")
            #expect(Pairing.split(path) == Pairing.characterSplit(path), "split \(path.debugDescription)")
            #expect(Pairing.nameKey(path) == Pairing.characterNameKey(path), "name key \(path.debugDescription)")
            let file = MediaFile(path: path, kind: .still, format: .jpeg)
            #expect(file.pathExtension == file.characterPathExtension, "extension \(path.debugDescription)")
        }
    }

    @Test func lowerCasesASCIILettersOnly() {
        let text = "AZaz09_-.@[`{"
        let lowered = PathText.withASCII(text) { PathText.lowercasedASCII($0, 0..<$0.count) }
        #expect(lowered == text.lowercased())
        #expect(PathText.withASCII(text) { PathText.string($0, 2..<6) } == "az09")
    }
}
