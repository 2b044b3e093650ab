import Foundation
import ISOBMFF
import Testing
@testable import LiveWriters

struct ChecksumTests {
    /// The SHA-256 itself is libcrypto's (``SHA256Digest``); this checks the wiring: what is hashed
    /// (SOS marker to the end) and the hex form. Expected value from
    /// `printf '\xff\xda\x61\x62\x63' | sha256sum`.
    @Test func jpegImageDigestIsTheHexSHA256FromSOS() {
        let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xDA, 0x61, 0x62, 0x63]
        #expect(MediaDigest.jpegImageData(jpeg) == "9cf85f4fc15c406ac1e0446a7604e8a23b262def94c816797a314c83ab9c0b0d")
        #expect(MediaDigest.jpegImageData([0xFF, 0xD8, 0xFF, 0xD9]) == nil)
    }

    /// Fed in pieces (as track samples are, chunk by chunk) or at once, the digest is the same;
    /// nothing fed gives SHA-256's empty digest (`printf '' | sha256sum`).
    @Test func digestInPiecesEqualsDigestAtOnce() {
        let bytes = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        var pieces = SHA256Digest()
        for start in stride(from: 0, to: bytes.count, by: 4_096) { pieces.update(bytes[start..<min(start + 4_096, bytes.count)]) }
        #expect(pieces.finalize() == SHA256Digest.hex(bytes))
        #expect(SHA256Digest.hex([UInt8]()) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }
}

struct LivpArchiveTests {
    let members: [(name: String, data: [UInt8])] = [
        ("IMG_0001.JPG", Array(repeating: 0xAB, count: 1_000)), ("IMG_0001.MOV", Array(0..<255)), ("été.txt", []),
    ]

    /// A ZIP written by Python's `zipfile` with one *deflated* member, `IMG_0001.JPG`, holding
    /// `"livelint "` 200 times (1,800 bytes in 25).
    static let deflatedZip: [UInt8] = Array(Data(base64Encoded:
        "UEsDBBQAAAAIAAAAIVgsvvf3GQAAAAgHAAAMAAAASU1HXzAwMDEuSlBHy8ksS83JzCtRyBlljDJGGaOMUcYoY+QxAFBLAQIUAxQAAAAIAAAAIVgsvvf3GQAAAAgHAAAMAAAAAAAAAAAAAACAAQAAAABJTUdfMDAwMS5KUEdQSwUGAAAAAAEAAQA6AAAAQwAAAAAA") ?? Data())
    static let deflatedContent = Array(String(repeating: "livelint ", count: 200).utf8)

    /// Offset of the first central directory entry (`PK\1\2`).
    static func centralDirectory(_ zip: [UInt8]) -> Int? {
        (0..<(zip.count - 3)).first { zip[$0] == 0x50 && zip[$0 + 1] == 0x4B && zip[$0 + 2] == 1 && zip[$0 + 3] == 2 }
    }

    static func setLE32(_ zip: inout [UInt8], at offset: Int, _ value: UInt32) {
        for i in 0..<4 { zip[offset + i] = UInt8(truncatingIfNeeded: value >> (8 * UInt32(i))) }
    }

    @Test func buildThenReadRoundTrips() throws {
        let archive = try LivpArchive.build(members)
        let source = MemoryByteSource(archive)
        let found = try LivpArchive.members(of: source)
        #expect(found.map(\.name) == members.map(\.name))
        for (m, original) in zip(found, members) {
            #expect(!m.isCompressed)
            #expect(m.size == Int64(original.data.count))
            #expect(try LivpArchive.extract(m, from: source) == original.data)
        }
    }

    @Test func roundTripsThroughAFile() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("livp-\(UUID().uuidString).livp").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let archive = try LivpArchive.build(members)
        #expect(FileManager.default.createFile(atPath: path, contents: Data(archive)))
        let source = try FileByteSource(path: path)
        let found = try LivpArchive.members(of: source)
        #expect(found.count == members.count)
        for (m, original) in zip(found, members) { #expect(try LivpArchive.extract(m, from: source) == original.data) }
    }

    @Test func membersAreStoredWithAFixedDate() throws {
        // The local header of the first member: signature, method 0 (stored), DOS time 00:00:00 and
        // date 2024-01-01 ((2024 - 1980) << 9 | 1 << 5 | 1 = 0x5821), compressed size = size = 1000.
        let zip = try LivpArchive.build(members)
        #expect(Array(zip[0..<4]) == [0x50, 0x4B, 0x03, 0x04])
        #expect(zip[8] == 0 && zip[9] == 0)
        #expect(Array(zip[10..<14]) == [0, 0, 0x21, 0x58])
        #expect(Array(zip[18..<22]) == Array(zip[22..<26]))
        #expect(Array(zip[22..<26]) == [0xE8, 0x03, 0, 0])
        #expect(try LivpArchive.build(members) == zip, "builds are reproducible")
    }

    @Test func damagedArchivesAreRejectedNotCrashed() throws {
        let zip = try LivpArchive.build(members)
        // A flipped data byte fails the CRC.
        var flipped = zip
        flipped[100] ^= 0xFF  // inside the first member's data
        let m = try LivpArchive.members(of: MemoryByteSource(flipped))
        #expect(throws: LivpArchive.ArchiveError.self) { try LivpArchive.extract(m[0], from: MemoryByteSource(flipped)) }
        // No prefix of the archive holds its end record: every truncation throws.
        for cut in stride(from: 0, to: zip.count, by: 7) {
            #expect(throws: LivpArchive.ArchiveError.self) { _ = try LivpArchive.members(of: MemoryByteSource(Array(zip[0..<cut]))) }
        }
        // A stored member relabelled as deflated is refused, not mis-read.
        guard let cd = Self.centralDirectory(zip) else { Issue.record("no central directory"); return }
        var relabelled = zip
        relabelled[8] = 8  // local header
        relabelled[cd + 10] = 8  // central directory
        let d = try LivpArchive.members(of: MemoryByteSource(relabelled))
        #expect(d[0].isCompressed)
        #expect(throws: LivpArchive.ArchiveError.self) { try LivpArchive.extract(d[0], from: MemoryByteSource(relabelled)) }
        // A stored member declaring more bytes than the file holds runs past the end.
        var long = zip
        Self.setLE32(&long, at: cd + 20, 0x7FFF_0000)
        Self.setLE32(&long, at: cd + 24, 0x7FFF_0000)
        // ZipGuard refuses it while listing, before ZIPFoundation sees the directory.
        #expect(throws: LivpArchive.ArchiveError.self) { _ = try LivpArchive.members(of: MemoryByteSource(long)) }
        // A central directory said to lie past the end.
        var bad = zip
        bad[bad.count - 3] = 0x7F
        #expect(throws: LivpArchive.ArchiveError.self) { _ = try LivpArchive.members(of: MemoryByteSource(bad)) }
        // Not a ZIP at all.
        #expect(throws: LivpArchive.ArchiveError.self) { _ = try LivpArchive.members(of: MemoryByteSource(Array(repeating: 0, count: 100))) }
    }

    @Test func deflatedMemberUnpacks() throws {
        let source = MemoryByteSource(Self.deflatedZip)
        let found = try LivpArchive.members(of: source)
        #expect(found.map(\.name) == ["IMG_0001.JPG"])
        #expect(found.first?.isCompressed == true)
        #expect(found.first?.size == Int64(Self.deflatedContent.count))
        let member = try #require(found.first)
        #expect(try LivpArchive.extract(member, from: source) == Self.deflatedContent)
        #expect(throws: LivpArchive.ArchiveError.self) { try LivpArchive.extract(member, from: source, maxBytes: 1_000) }
    }

    @Test func memberInflatingPastItsDeclaredSizeIsRefused() throws {
        let cd = try #require(Self.centralDirectory(Self.deflatedZip))
        // Declares 100 bytes, inflates to 1,800: stopped at the first chunk past 100.
        var small = Self.deflatedZip
        Self.setLE32(&small, at: cd + 24, 100)
        let s = try #require(try LivpArchive.members(of: MemoryByteSource(small)).first)
        #expect(s.size == 100)
        #expect(throws: LivpArchive.ArchiveError.self) { try LivpArchive.extract(s, from: MemoryByteSource(small)) }
        // Declares nearly 4 GiB, inflates to 1,800: refused as short, with nothing sized by the claim.
        var large = Self.deflatedZip
        Self.setLE32(&large, at: cd + 24, 0xFFFF_0000)
        let l = try #require(try LivpArchive.members(of: MemoryByteSource(large)).first)
        #expect(throws: LivpArchive.ArchiveError.self) { try LivpArchive.extract(l, from: MemoryByteSource(large)) }
    }

    @Test func escapingNamesAreFlagged() throws {
        let zip = try LivpArchive.build([("../evil.JPG", [1]), ("/etc/x.MOV", [2]), ("a/../b.JPG", [3]), ("dir/IMG.JPG", [4]), ("..a.JPG", [5])])
        let found = try LivpArchive.members(of: MemoryByteSource(zip))
        #expect(found.map(\.escapesArchive) == [true, true, true, false, false])
    }

    @Test func badOrRepeatedNamesAreRefused() {
        #expect(throws: LivpArchive.ArchiveError.self) { _ = try LivpArchive.build([("a", [1]), ("a", [2])]) }
        #expect(throws: LivpArchive.ArchiveError.self) { _ = try LivpArchive.build([("", [1])]) }
    }
}
