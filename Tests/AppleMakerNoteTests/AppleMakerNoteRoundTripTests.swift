import AppleMakerNote
import LiveModel
import Testing

@Suite("Apple makernote encode → decode")
struct AppleMakerNoteRoundTripTests {
    static let uuid = "E905E6C6-C747-4805-942F-9904A0281F02"

    @Test func minimalMakerNoteHasTheAppleLayout() throws {
        let bytes = try AppleMakerNoteEncoder.makerNote(contentIdentifier: Self.uuid)
        #expect(Array(bytes[0..<10]) == Array("Apple iOS".utf8) + [0])
        #expect(bytes[10] == 0 && bytes[11] == 1)  // version 1
        #expect(bytes[12] == 0x4D && bytes[13] == 0x4D)  // MM
        #expect(bytes[14] == 0 && bytes[15] == 1)  // one entry
        // The 37-byte string sits right after the IFD (14 + 2 + 12 + 4 = 32), offset counted from the makernote start.
        #expect(Array(bytes[24..<28]) == [0, 0, 0, 32])
        #expect(Array(bytes[32..<68]) == Array(Self.uuid.utf8))
        #expect(bytes[68] == 0)
        let info = try AppleMakerNoteDecoder.decode(bytes)
        #expect(info.version == 1)
        #expect(info.contentIdentifier == Self.uuid)
        #expect(info.issues.isEmpty)
        let tag = try #require(info.tag(0x0011))
        #expect(tag.name == "ContentIdentifier")
        #expect(tag.aliases == ["MediaGroupUUID"])
        #expect(tag.type == "string")
        #expect(tag.count == 37)
    }

    @Test func everyTypeRoundTrips() throws {
        let w: (UInt16, TIFFType, UInt32, [UInt8]) -> AppleMakerNoteEntry = { AppleMakerNoteEntry(tag: $0, type: $1, count: $2, data: $3) }
        let entries: [AppleMakerNoteEntry] = [
            w(0x0101, .byte, 1, [200]),
            w(0x0102, .byte, 3, [1, 2, 3]),
            w(0x0103, .short, 2, [0x01, 0x02, 0xFF, 0xFF]),
            w(0x0104, .long, 1, [0x80, 0, 0, 1]),
            w(0x0105, .rational, 1, [0, 0, 0, 3, 0, 0, 0, 4]),
            w(0x0106, .sbyte, 2, [0xFF, 0x05]),
            w(0x0107, .sshort, 1, [0xFF, 0xFE, 0, 0].prefix(2).map { $0 }),
            w(0x0108, .slong, 1, [0xFF, 0xFF, 0xFF, 0xFF]),
            w(0x0109, .srational, 1, [0xFF, 0xFF, 0xFF, 0xFE, 0, 0, 0, 8]),
            w(0x010a, .float, 1, [0x3F, 0xC0, 0, 0]),
            w(0x010b, .double, 1, [0x40, 0x09, 0x21, 0xFB, 0x54, 0x44, 0x2D, 0x18]),
            w(0x010c, .ifd, 1, [0, 0, 0, 0x20]),
            w(0x010d, .long8, 1, [0, 0, 0, 2, 0, 0x50, 0x20, 0x24]),
            w(0x010e, .slong8, 1, [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFD]),
            w(0x010f, .undefined, 5, [9, 8, 7, 6, 5]),
            w(0x0110, .ascii, 6, Array("hello".utf8) + [0]),
            w(0x0111, .rational, 1, [0, 0, 0, 1, 0, 0, 0, 0]),
        ]
        let bytes = try AppleMakerNoteEncoder.encode(entries: entries)
        let raw = try AppleMakerNoteDecoder.decodeRaw(bytes)
        #expect(raw.entries == entries)
        #expect(raw.issues.isEmpty)
        let info = try AppleMakerNoteDecoder.decode(bytes)
        let values = Dictionary(uniqueKeysWithValues: info.tags.map { ($0.tag, $0.value) })
        #expect(values[0x0101] == .uint(200))
        #expect(values[0x0102] == .bytes([1, 2, 3]))
        #expect(values[0x0103] == .array([.uint(0x0102), .uint(0xFFFF)]))
        #expect(values[0x0104] == .uint(0x8000_0001))
        #expect(values[0x0105] == .double(0.75))
        #expect(values[0x0106] == .array([.int(-1), .int(5)]))
        #expect(values[0x0107] == .int(-2))
        #expect(values[0x0108] == .int(-1))
        #expect(values[0x0109] == .double(-0.25))
        #expect(values[0x010a] == .double(1.5))
        #expect(values[0x010b] == .double(Double.pi))
        #expect(values[0x010c] == .uint(0x20))
        #expect(values[0x010d] == .uint(8_595_185_700))
        #expect(values[0x010e] == .int(-3))
        #expect(values[0x010f] == .bytes([9, 8, 7, 6, 5]))
        #expect(values[0x0110] == .string("hello"))
        #expect(values[0x0111] == .string("1/0"))
        #expect(info.tag(0x0108)?.type == "int32s")
        #expect(info.tag(0x0105)?.type == "rational64u")
    }

    @Test func valuesAfterTheIFDAreWordAligned() throws {
        let entries = [
            AppleMakerNoteEncoder.Entry.undefined(0x0002, [1, 2, 3, 4, 5]),  // 5 bytes: padded to 6
            AppleMakerNoteEncoder.Entry.ascii(0x0011, Self.uuid),
        ]
        let bytes = try AppleMakerNoteEncoder.encode(entries: entries)
        let dataStart = 14 + 2 + 2 * 12 + 4
        #expect(Array(bytes[24..<28]) == [0, 0, 0, UInt8(dataStart)])
        #expect(Array(bytes[36..<40]) == [0, 0, 0, UInt8(dataStart + 6)])
        #expect(bytes.count == dataStart + 6 + 38)
        #expect(try AppleMakerNoteDecoder.decode(bytes).contentIdentifier == Self.uuid)
    }

    @Test func typedBuildersAndExtraTags() throws {
        let bytes = try AppleMakerNoteEncoder.makerNote(
            contentIdentifier: Self.uuid,
            extraTags: [
                AppleMakerNoteEncoder.Entry.int32s(0x0001, [14]),
                AppleMakerNoteEncoder.Entry.rational64s(0x0008, [(-1, 2), (3, 4), (0, 1)]),
                AppleMakerNoteEncoder.Entry.int64u(0x0017, [0]),
                AppleMakerNoteEncoder.Entry.ascii(0x0020, "62E16BF5-4BFC-4898-893D-5A4CE6B5925F"),
                AppleMakerNoteEncoder.Entry.ascii(0x0011, "IGNORED-BECAUSE-THE-ARGUMENT-WINS"),
            ])
        let info = try AppleMakerNoteDecoder.decode(bytes)
        #expect(info.tags.map(\.tag) == [0x0001, 0x0008, 0x0011, 0x0017, 0x0020])
        #expect(info.contentIdentifier == Self.uuid)
        #expect(info.tag(0x0001)?.value == .int(14))
        #expect(info.tag(0x0008)?.value == .array([.double(-0.5), .double(0.75), .double(0)]))
        #expect(info.tag(0x0017)?.value.intValue == 0)
        #expect(info.tag(0x0020)?.name == "ImageCaptureRequestID")
    }

    @Test func encoderRejectsBadInput() {
        #expect(throws: AppleMakerNoteEncoder.EncodeError.self) {
            try AppleMakerNoteEncoder.encode(entries: [AppleMakerNoteEntry(tag: 1, type: .long, count: 2, data: [0, 0, 0, 1])])
        }
        #expect(throws: AppleMakerNoteEncoder.EncodeError.duplicateTag(5)) {
            try AppleMakerNoteEncoder.encode(entries: [.init(tag: 5, type: .byte, count: 1, data: [1]), .init(tag: 5, type: .byte, count: 1, data: [2])])
        }
        #expect(throws: AppleMakerNoteEncoder.EncodeError.self) { try AppleMakerNoteEncoder.makerNote(contentIdentifier: "") }
        #expect(throws: AppleMakerNoteEncoder.EncodeError.self) { try AppleMakerNoteEncoder.makerNote(contentIdentifier: "bad\nid") }
    }

    @Test func littleEndianMakerNotesDecodeToo() throws {
        let entry = AppleMakerNoteEntry(tag: 0x0001, type: .slong, count: 1, data: [12, 0, 0, 0])
        let bytes = try AppleMakerNoteEncoder.encode(entries: [entry, AppleMakerNoteEncoder.Entry.ascii(0x0011, Self.uuid)], byteOrder: .littleEndian)
        #expect(bytes[12] == 0x49 && bytes[13] == 0x49)
        let info = try AppleMakerNoteDecoder.decode(bytes)
        #expect(info.tag(0x0001)?.value == .int(12))
        #expect(info.contentIdentifier == Self.uuid)
    }
}

@Suite("Replacing 0x0011 in an existing makernote")
struct AppleMakerNoteReplaceTests {
    static let old = "E905E6C6-C747-4805-942F-9904A0281F02"
    static let new = "0613C413-6787-42FE-833B-BEB860F385B9"

    static func sample(identifier: String?) throws -> [UInt8] {
        var entries: [AppleMakerNoteEntry] = [
            AppleMakerNoteEncoder.Entry.int32s(0x0001, [12]),
            AppleMakerNoteEncoder.Entry.undefined(0x0002, Array(0..<40)),
            AppleMakerNoteEncoder.Entry.ascii(0x0020, "62E16BF5-4BFC-4898-893D-5A4CE6B5925F"),
        ]
        if let identifier { entries.append(AppleMakerNoteEncoder.Entry.ascii(0x0011, identifier)) }
        return try AppleMakerNoteEncoder.encode(entries: entries)
    }

    @Test func sameLengthIdentifierIsPatchedInPlace() throws {
        let before = try Self.sample(identifier: Self.old)
        let after = try AppleMakerNoteEncoder.replacingContentIdentifier(in: before, with: Self.new)
        #expect(after.count == before.count)
        let changed = zip(before, after).enumerated().filter { $0.element.0 != $0.element.1 }.map(\.offset)
        // Only bytes inside the old identifier's 36 characters changed.
        let start = try #require(before.firstRange(of: Array(Self.old.utf8))).lowerBound
        #expect(!changed.isEmpty)
        #expect(changed.allSatisfy { $0 >= start && $0 < start + 36 })
        #expect(try AppleMakerNoteDecoder.decode(after).contentIdentifier == Self.new)
    }

    @Test func missingIdentifierIsAddedAndOtherValuesKept() throws {
        let before = try Self.sample(identifier: nil)
        let after = try AppleMakerNoteEncoder.replacingContentIdentifier(in: before, with: Self.new)
        let oldRaw = try AppleMakerNoteDecoder.decodeRaw(before)
        let newRaw = try AppleMakerNoteDecoder.decodeRaw(after)
        #expect(newRaw.entries.filter { $0.tag != 0x0011 } == oldRaw.entries)
        #expect(newRaw.entries.map(\.tag) == [0x0001, 0x0002, 0x0011, 0x0020])
        #expect(try AppleMakerNoteDecoder.decode(after).contentIdentifier == Self.new)
    }

    @Test func longerIdentifierReLaysOut() throws {
        let before = try Self.sample(identifier: "SHORT")
        let after = try AppleMakerNoteEncoder.replacingContentIdentifier(in: before, with: Self.new)
        #expect(after.count > before.count)
        #expect(try AppleMakerNoteDecoder.decodeRaw(after).entries.filter { $0.tag != 0x0011 }
            == AppleMakerNoteDecoder.decodeRaw(before).entries.filter { $0.tag != 0x0011 })
        #expect(try AppleMakerNoteDecoder.decode(after).contentIdentifier == Self.new)
    }

    @Test func shorterIdentifierIsNULPadded() throws {
        let before = try Self.sample(identifier: Self.old)
        let after = try AppleMakerNoteEncoder.replacingContentIdentifier(in: before, with: "ABC")
        #expect(after.count == before.count)
        let tag = try #require(try AppleMakerNoteDecoder.decode(after).tag(0x0011))
        #expect(tag.count == 37)
        #expect(tag.value == .string("ABC"))
    }

    @Test func notAnAppleMakerNoteIsRefused() {
        #expect(throws: ReadIssue.self) { try AppleMakerNoteEncoder.replacingContentIdentifier(in: Array("Nikon\0".utf8), with: Self.new) }
    }
}
