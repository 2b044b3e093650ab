import AppleMakerNote
import LiveModel
import TestSupport
import Testing

/// Hand-built damaged makernotes: each must give a clear, located issue and never crash.
@Suite("Malformed Apple makernotes")
struct AppleMakerNoteMalformedTests {
    static let header: [UInt8] = Array("Apple iOS".utf8) + [0, 0, 1, 0x4D, 0x4D]

    static func be16(_ v: UInt16) -> [UInt8] { [UInt8(v >> 8), UInt8(v & 0xFF)] }
    static func be32(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8((v >> (24 - 8 * UInt32($0))) & 0xFF) } }
    static func entry(_ tag: UInt16, _ type: UInt16, _ count: UInt32, _ value: UInt32) -> [UInt8] {
        be16(tag) + be16(type) + be32(count) + be32(value)
    }

    /// A makernote whose IFD holds a good 0x0001 entry, then `bad`, then a good 0x0011 entry.
    static func withBadMiddleEntry(_ bad: [UInt8]) -> [UInt8] {
        let dataStart = UInt32(14 + 2 + 3 * 12 + 4)
        let uuid = Array("E905E6C6-C747-4805-942F-9904A0281F02".utf8) + [0]
        return header + be16(3) + entry(0x0001, 9, 1, 12) + bad + entry(0x0011, 2, 37, dataStart) + be32(0) + uuid
    }

    struct Case: Sendable, CustomStringConvertible {
        var name: String
        var bytes: [UInt8]
        var messagePart: String
        var description: String { name }
    }

    static let entryCases: [Case] = [
        Case(name: "count points past the end", bytes: withBadMiddleEntry(entry(0x0002, 7, 5000, 0x34)), messagePart: "past the end"),
        Case(name: "offset past the end", bytes: withBadMiddleEntry(entry(0x0002, 7, 16, 0xFFFF_FF00)), messagePart: "past the end"),
        Case(name: "count × size overflows", bytes: withBadMiddleEntry(entry(0x0008, 10, 0x4000_0000, 0x34)), messagePart: "overflows"),
        Case(name: "unknown TIFF type", bytes: withBadMiddleEntry(entry(0x0052, 0, 0, 0)), messagePart: "unknown TIFF type 0"),
        Case(name: "64-bit count overflow", bytes: withBadMiddleEntry(entry(0x0017, 16, 0xFFFF_FFFF, 0x34)), messagePart: "overflows"),
    ]

    @Test(arguments: entryCases)
    func badEntryIsAnIssueAndTheOthersDecode(_ c: Case) throws {
        let info = try AppleMakerNoteDecoder.decode(c.bytes)
        #expect(info.tags.map(\.tag) == [0x0001, 0x0011])
        #expect(info.contentIdentifier == "E905E6C6-C747-4805-942F-9904A0281F02")
        #expect(info.issues.count == 1)
        let issue = try #require(info.issues.first)
        #expect(issue.location == "makernote/ifd0/entry[1]")
        #expect(issue.category == .malformed)
        #expect(issue.message.contains(c.messagePart), "\(issue.message)")
        #expect(issue.message.contains("0x00"), "the issue names the tag id: \(issue.message)")
    }

    /// Decoding only some tags (lint's fast path) keeps those alone but finds the same problems.
    @Test(arguments: entryCases)
    func onlyTheAskedTagsAreKeptAndEveryEntryIsChecked(_ c: Case) throws {
        let all = try AppleMakerNoteDecoder.decode(c.bytes)
        let some = try AppleMakerNoteDecoder.decode(c.bytes, only: [0x0011])
        #expect(some.tags.map(\.tag) == [0x0011])
        #expect(some.tags.first == all.tag(0x0011))
        #expect(some.issues == all.issues)
        #expect(try AppleMakerNoteDecoder.decode(c.bytes, only: []).tags.isEmpty)
        #expect(try AppleMakerNoteDecoder.decodeRaw(c.bytes, only: [0x0001]).entries.map(\.tag) == [0x0001])
    }

    @Test func entryCountLargerThanTheBytes() throws {
        // Declares 200 entries; only one (plus the next pointer) is present.
        let bytes = Self.header + Self.be16(200) + Self.entry(0x0001, 9, 1, 7) + Self.be32(0)
        let info = try AppleMakerNoteDecoder.decode(bytes)
        #expect(info.tags.map(\.tag) == [0x0001])
        #expect(info.tag(1)?.value == .int(7))
        let issue = try #require(info.issues.first)
        #expect(issue.location == "makernote/ifd0")
        #expect(issue.message.contains("200 entries"))
    }

    @Test func wrongSignatureThrows() {
        let bytes = Array("Nikon\0\u{2}\u{10}\0\0MM\0*".utf8) + [UInt8](repeating: 0, count: 20)
        do {
            _ = try AppleMakerNoteDecoder.decode(bytes)
            Issue.record("decoded a non-Apple makernote")
        } catch {
            #expect(error.location == "makernote")
            #expect(error.message.contains("not an Apple makernote"))
        }
        #expect(!AppleMakerNoteDecoder.isAppleMakerNote(bytes))
    }

    @Test(arguments: [0, 5, 10, 13, 15])
    func truncatedHeaderThrows(length: Int) {
        let full = Self.header + Self.be16(0) + Self.be32(0)
        let bytes = Array(full.prefix(length))
        #expect(throws: ReadIssue.self) { try AppleMakerNoteDecoder.decode(bytes) }
    }

    @Test func badByteOrderMarkerThrows() {
        var bytes = Self.header + Self.be16(0) + Self.be32(0)
        bytes[12] = 0x58
        do {
            _ = try AppleMakerNoteDecoder.decode(bytes)
            Issue.record("decoded a makernote with byte order XM")
        } catch {
            #expect(error.message.contains("byte-order"))
        }
    }

    @Test func ifdLoopIsCaughtOnce() throws {
        // IFD0 at 14 has one entry and its next pointer points back to 14.
        let bytes = Self.header + Self.be16(1) + Self.entry(0x0001, 9, 1, 3) + Self.be32(14)
        let info = try AppleMakerNoteDecoder.decode(bytes)
        #expect(info.tags.count == 1)
        let issue = try #require(info.issues.first)
        #expect(issue.message.contains("loop"))
        #expect(issue.location == "makernote/ifd1")
    }

    @Test func chainOfIFDsIsCapped() throws {
        // Five IFDs chained, each one entry: only maxIFDs are read.
        var bytes = Self.header
        for i in 0..<5 {
            let next = i == 4 ? 0 : UInt32(14 + (i + 1) * 18)
            bytes += Self.be16(1) + Self.entry(UInt16(0x0100 + i), 9, 1, UInt32(i)) + Self.be32(next)
        }
        let info = try AppleMakerNoteDecoder.decode(bytes)
        #expect(info.tags.count == AppleMakerNoteDecoder.maxIFDs)
        #expect(info.issues.contains { $0.category == .limit })
    }

    @Test func nextPointerPastTheEnd() throws {
        let bytes = Self.header + Self.be16(1) + Self.entry(0x0001, 9, 1, 3) + Self.be32(9999)
        let info = try AppleMakerNoteDecoder.decode(bytes)
        #expect(info.tags.count == 1)
        #expect(info.issues.first?.message.contains("next-IFD") == true)
    }

    /// Every prefix of a real-shaped makernote decodes or throws, never traps.
    @Test func everyTruncationIsSafe() throws {
        let good = try AppleMakerNoteEncoder.makerNote(
            contentIdentifier: "E905E6C6-C747-4805-942F-9904A0281F02",
            extraTags: [AppleMakerNoteEncoder.Entry.rational64s(8, [(1, 2), (3, 4), (5, 6)]), AppleMakerNoteEncoder.Entry.int32s(1, [12])])
        let uuidEnd = try #require(good.firstRange(of: Array("E905E6C6-C747-4805-942F-9904A0281F02".utf8))).upperBound + 1
        for n in 0...good.count {
            let prefix = Array(good.prefix(n))
            let info = try? AppleMakerNoteDecoder.decode(prefix)
            // The identifier is there exactly when its 37 bytes are; otherwise its entry is an issue.
            #expect((info?.contentIdentifier != nil) == (n >= uuidEnd), "prefix \(n)")
            if n >= 16, n < uuidEnd { #expect(info?.issues.isEmpty == false, "prefix \(n)") }
        }
    }

    /// Random bytes after a valid header: the decoder must terminate without trapping.
    @Test func randomBodiesAreSafe() {
        var rng = SplitMix(seed: 0x5EED)
        for _ in 0..<2000 {
            let length = Int(rng.next() % 300)
            var bytes = Self.header
            for _ in 0..<length { bytes.append(UInt8(truncatingIfNeeded: rng.next())) }
            // Small entry counts make the random entries actually get parsed.
            if bytes.count > 15 { bytes[14] = 0; bytes[15] = UInt8(rng.next() % 24) }
            if let info = try? AppleMakerNoteDecoder.decode(bytes) {
                #expect(info.tags.count <= 24 * AppleMakerNoteDecoder.maxIFDs)
            }
        }
    }
}
