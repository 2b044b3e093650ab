import Testing
@testable import ISOBMFF

@Suite struct BoxHeaderTests {
    @Test func plainHeader() throws {
        let box = makeBox("free", [1, 2, 3])
        let h = try BoxHeader.parse(box, at: 100, available: Int64(box.count), topLevel: false, path: "moov")
        #expect(h.type == "free")
        #expect(h.size == 11)
        #expect(h.headerSize == 8)
        #expect(h.payloadOffset == 108)
    }

    @Test func largeSize() throws {
        let box = makeLargeBox("mdat", [9, 9])
        let h = try BoxHeader.parse(box, at: 0, available: Int64(box.count), topLevel: true, path: "")
        #expect(h.size == 18)
        #expect(h.headerSize == 16)
    }

    @Test func uuidExtendedType() throws {
        let ut = [UInt8](1...16)
        let box = makeBox("uuid", ut + [7])
        let h = try BoxHeader.parse(box, at: 0, available: Int64(box.count), topLevel: false, path: "")
        #expect(h.userType == ut)
        #expect(h.headerSize == 24)
        #expect(h.payloadSize == 1)
    }

    @Test func sizeZeroAtTopLevelRunsToEnd() throws {
        let box = makeBox("mdat", size: 0, [1, 2, 3, 4])
        let h = try BoxHeader.parse(box, at: 40, available: 1000, topLevel: true, path: "")
        #expect(h.size == 1000)
        #expect(h.extendsToEnd)
    }

    struct BadCase: Sendable, CustomStringConvertible {
        var name: String
        var bytes: [UInt8]
        var available: Int64
        var expected: String
        var description: String { name }
    }

    static let bad: [BadCase] = [
        BadCase(name: "size below header", bytes: makeBox("free", size: 7), available: 8, expected: "below its header size"),
        BadCase(name: "size past parent", bytes: makeBox("free", size: 100, [0, 0]), available: 10, expected: "larger than"),
        BadCase(name: "zero size inside a container", bytes: makeBox("free", size: 0, [0]), available: 9, expected: "only allowed at the top level"),
        BadCase(name: "64-bit size below 16", bytes: makeLargeBox("free", [], largeSize: 15), available: 16, expected: "below 16"),
        BadCase(name: "64-bit size past parent", bytes: makeLargeBox("free", [], largeSize: 1 << 40), available: 16, expected: "larger than"),
        BadCase(name: "64-bit size out of Int64 range", bytes: makeLargeBox("free", [], largeSize: .max), available: 16, expected: "out of range"),
        BadCase(name: "truncated header", bytes: [0, 0, 0], available: 3, expected: "truncated box header"),
        BadCase(name: "truncated largesize", bytes: Array(makeLargeBox("free", []).prefix(12)), available: 12, expected: "truncated 64-bit"),
        BadCase(name: "truncated uuid", bytes: makeBox("uuid", size: 20, [1, 2, 3, 4]), available: 12, expected: "truncated uuid"),
    ]

    @Test(arguments: bad) func malformedHeadersAreLocatedErrors(_ c: BadCase) {
        do {
            _ = try BoxHeader.parse(c.bytes, at: 64, available: c.available, topLevel: false, path: "moov/trak[1]")
            Issue.record("expected an error for \(c.name)")
        } catch {
            #expect(error.category == .malformed)
            #expect(error.message.contains(c.expected), "\(error.message)")
            #expect(error.offset == 64)
            #expect(error.path.hasPrefix("moov/trak[1]"))
        }
    }
}

@Suite struct ByteCursorTests {
    @Test func readsBigEndianAndStopsAtWindow() throws {
        var c = ByteCursor([0x12, 0x34, 0x56, 0x78, 0x9A, 0xBC, 0xDE, 0xF0, 0xFF], baseOffset: 10, path: "x")
        #expect(try c.u16() == 0x1234)
        #expect(try c.u32() == 0x5678_9ABC)
        var child = try c.slice(2)
        #expect(try child.u8() == 0xDE)
        #expect(try child.u8() == 0xF0)
        #expect(throws: BoxError.self) { try child.u8() }
        #expect(try c.u8() == 0xFF)
        #expect(c.isAtEnd)
    }

    @Test func truncatedReadNamesOffset() {
        var c = ByteCursor([1, 2, 3], baseOffset: 500, path: "moov/mvhd")
        _ = try? c.u8()
        do {
            _ = try c.u32("timescale")
            Issue.record("expected truncation")
        } catch {
            #expect(error.offset == 501)
            #expect(error.path == "moov/mvhd")
            #expect(error.message.contains("timescale"))
        }
    }

    @Test func hugeEntryCountIsRejectedBeforeLooping() {
        let c = ByteCursor([UInt8](repeating: 0, count: 16))
        #expect(throws: BoxError.self) { try c.checkedCount(0xFFFF_FFFF, entrySize: 8, "stco") }
        #expect(throws: BoxError.self) { try c.checkedCount(3, entrySize: 8, "stco") }
        #expect((try? c.checkedCount(2, entrySize: 8, "stco")) == 2)
        #expect(throws: BoxError.self) { try c.checkedCount(2, entrySize: .max, "x") }
    }

    @Test func fixedPoint() throws {
        var c = ByteCursor(be32(0x0001_8000) + be32(0x4000_0000))
        #expect(try c.fixed16_16() == 1.5)
        #expect(try c.fixed2_30() == 1.0)
    }
}

@Suite struct BoxTypeTests {
    @Test func copyrightSignAtoms() {
        let t = BoxType("©xyz")
        #expect(t.rawValue == 0xA978_797A)
        #expect(t.description == "©xyz")
        #expect(t.looksLikeBoxType)
        #expect(!BoxType(rawValue: 0x0000_0001).looksLikeBoxType)
        #expect(BoxType(rawValue: 0x0000_0001).description == "\\x00\\x00\\x00\\x01")
    }

    /// A box type from text: four ASCII bytes as they are (read in place), anything else one byte
    /// per scalar up to U+00FF ("?" beyond), cut at four and padded with spaces.
    @Test func fromTextOneBytePerScalar() {
        func expected(_ s: String) -> UInt32 {
            var v: UInt32 = 0
            var n = 0
            for scalar in s.unicodeScalars.prefix(4) {
                v = v << 8 | (scalar.value <= 0xFF ? scalar.value : 0x3F)
                n += 1
            }
            while n < 4 { v = v << 8 | 0x20; n += 1 }
            return v
        }
        let made = String(repeating: "m", count: 1) + "oov"  // not a literal
        for text in ["moov", "ftyp", "mp4a", "\u{7F}abc", "©xyz", "ab", "", "abcde", "é\u{301}xy", "日本語で", made, String("xmoov".dropFirst())] {
            #expect(BoxType(text).rawValue == expected(text), "\(text)")
        }
        #expect(BoxType("moov").rawValue == 0x6D6F_6F76 && BoxType(made) == "moov")
    }
}
