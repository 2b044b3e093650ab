import AppleMakerNote
import LiveModel
import TestSupport
import Testing

@Suite("Binary plists in makernote values")
struct BinaryPlistTests {
    /// Tag 0x0003 (RunTime) of exiftool's sample `Apple.jpg` (iPhone 7, iOS 10.0.2), byte for byte.
    static let runTime: [UInt8] = [
        98, 112, 108, 105, 115, 116, 48, 48, 212, 1, 2, 3, 4, 5, 6, 7, 8, 85, 102, 108, 97, 103, 115, 85, 118, 97, 108, 117, 101, 85, 101,
        112, 111, 99, 104, 89, 116, 105, 109, 101, 115, 99, 97, 108, 101, 16, 1, 19, 0, 0, 36, 44, 41, 73, 140, 174, 16, 0, 18, 59, 154, 202,
        0, 8, 17, 23, 29, 35, 45, 47, 56, 58, 0, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 9, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 63,
    ]

    @Test func runTimeDecodesInFileOrder() throws {
        let value = try #require(BinaryPlist.decode(Self.runTime))
        #expect(
            value
                == .dictionary([
                    .init("flags", .int(1)), .init("value", .int(39_772_089_846_958)), .init("epoch", .int(0)),
                    .init("timescale", .int(1_000_000_000)),
                ]))
    }

    @Test func plistInsideAMakerNoteIsDecoded() throws {
        let bytes = try AppleMakerNoteEncoder.makerNote(
            contentIdentifier: "E905E6C6-C747-4805-942F-9904A0281F02", extraTags: [AppleMakerNoteEncoder.Entry.undefined(0x0003, Self.runTime)])
        let tag = try #require(try AppleMakerNoteDecoder.decode(bytes).tag(0x0003))
        #expect(tag.name == "RunTime")
        guard case .dictionary(let pairs) = tag.value else {
            Issue.record("RunTime is not a dictionary: \(tag.value)")
            return
        }
        #expect(pairs.map(\.key) == ["flags", "value", "epoch", "timescale"])
    }

    @Test func everyTruncationIsRefusedOrDecoded() {
        // Any cut plist either decodes (never here: the trailer is at the end) or stays bytes; never traps.
        for n in 0..<Self.runTime.count {
            #expect(BinaryPlist.decode(Array(Self.runTime.prefix(n))) == nil)
        }
    }

    @Test func corruptedPlistsNeverTrap() {
        var rng = SplitMix(seed: 42)
        var decoded = 0
        for _ in 0..<3000 {
            var bytes = Self.runTime
            for _ in 0..<(1 + Int(rng.next() % 4)) {
                let i = 8 + Int(rng.next() % UInt64(bytes.count - 8))
                bytes[i] = UInt8(truncatingIfNeeded: rng.next())
            }
            if BinaryPlist.decode(bytes) != nil { decoded += 1 }
        }
        #expect(decoded < 3000)
    }

    @Test func selfReferencingArrayIsRefused() {
        // One object: an array (0xA1) whose only element is object 0 itself.
        let body: [UInt8] = Array("bplist00".utf8) + [0xA1, 0x00]
        let table: [UInt8] = [8]
        let trailer: [UInt8] = [0, 0, 0, 0, 0, 0, 1, 1] + [0, 0, 0, 0, 0, 0, 0, 1] + [0, 0, 0, 0, 0, 0, 0, 0] + [0, 0, 0, 0, 0, 0, 0, 10]
        #expect(BinaryPlist.decode(body + table + trailer) == nil)
    }

    @Test func dataObjectBecomesBytes() {
        // One data object (0x43, 3 bytes) like tag 0x0002 AEMatrix, only smaller.
        let body: [UInt8] = Array("bplist00".utf8) + [0x43, 1, 2, 3]
        let trailer: [UInt8] = [0, 0, 0, 0, 0, 0, 1, 1] + [0, 0, 0, 0, 0, 0, 0, 1] + [0, 0, 0, 0, 0, 0, 0, 0] + [0, 0, 0, 0, 0, 0, 0, 12]
        #expect(BinaryPlist.decode(body + [8] + trailer) == .bytes([1, 2, 3]))
    }
}

@Suite("Apple makernote tag table")
struct AppleMakerNoteTagTableTests {
    @Test(arguments: [
        (UInt16(0x0001), "MakerNoteVersion"), (0x0003, "RunTime"), (0x0008, "AccelerationVector"), (0x000b, "BurstUUID"),
        (0x0011, "ContentIdentifier"), (0x0017, "LivePhotoVideoIndex"), (0x0020, "ImageCaptureRequestID"), (0x002b, "PhotoIdentifier"),
        (0x002e, "CameraType"), (0x0040, "SemanticStyle"),
    ])
    func exiftoolNames(id: UInt16, name: String) {
        #expect(AppleMakerNoteTags.name(for: id) == name)
        #expect(AppleMakerNoteTags.id(named: name) == id)
    }

    @Test func aliasesResolve() {
        #expect(AppleMakerNoteTags.aliases(for: 0x0011) == ["MediaGroupUUID"])
        #expect(AppleMakerNoteTags.id(named: "MediaGroupUUID") == 0x0011)
        #expect(AppleMakerNoteTags.id(named: "imagecapturereqestid") == 0x0020)
        #expect(AppleMakerNoteTags.id(named: "Apple_0x00ff") == 0x00ff)
        #expect(AppleMakerNoteTags.id(named: "NoSuchTag") == nil)
    }

    @Test func unknownTagsGetHexNames() {
        #expect(AppleMakerNoteTags.name(for: 0x0063) == "Apple_0x0063")
        #expect(AppleMakerNoteTags.definition(for: 0x0063) == nil)
    }

    @Test func tableIsWellFormed() {
        let ids = AppleMakerNoteTags.all.map(\.id)
        #expect(Set(ids).count == ids.count, "duplicate ids")
        #expect(ids == ids.sorted())
        for t in AppleMakerNoteTags.all {
            #expect(!t.note.isEmpty, "\(t.name) has no source note")
            #expect(!t.name.isEmpty && !t.name.contains(" "))
        }
        #expect(AppleMakerNoteTags.definition(for: 0x0017)?.note.contains("unsettled") == true)
    }
}
