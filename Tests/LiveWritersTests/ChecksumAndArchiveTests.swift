import Foundation
import ISOBMFF
import Testing
@testable import LiveWriters

struct ChecksumTests {
    /// The SHA-256 itself is swift-crypto's; this checks the wiring: what is hashed (SOS marker to
    /// the end) and the hex form. Expected value from `printf '\xff\xda\x61\x62\x63' | sha256sum`.
    @Test func jpegImageDigestIsTheHexSHA256FromSOS() {
        let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xDA, 0x61, 0x62, 0x63]
        #expect(MediaDigest.jpegImageData(jpeg) == "9cf85f4fc15c406ac1e0446a7604e8a23b262def94c816797a314c83ab9c0b0d")
        #expect(MediaDigest.jpegImageData([0xFF, 0xD8, 0xFF, 0xD9]) == nil)
    }

    @Test func crc32KnownAnswer() {
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
        #expect(CRC32.checksum([UInt8]()) == 0)
        #expect(CRC32.update(CRC32.checksum(Array("1234".utf8)), Array("56789".utf8)) == 0xCBF4_3926)
    }
}

struct LivpArchiveTests {
    let members: [(name: String, data: [UInt8])] = [
        ("IMG_0001.JPG", Array(repeating: 0xAB, count: 1_000)), ("IMG_0001.MOV", Array(0..<255)), ("été.txt", []),
    ]

    @Test func buildThenReadRoundTrips() throws {
        let archive = try LivpArchive.build(members)
        let source = MemoryByteSource(archive)
        let found = try LivpArchive.members(of: source)
        #expect(found.map(\.name) == members.map(\.name))
        for (m, original) in zip(found, members) {
            #expect(m.method == 0)
            #expect(try LivpArchive.extract(m, from: source) == original.data)
        }
    }

    @Test func membersAreStored() throws {
        // The local header of the first member: signature, method 0 (stored), compressed size = size.
        let zip = try LivpArchive.build(members)
        #expect(Array(zip[0..<4]) == [0x50, 0x4B, 0x03, 0x04])
        #expect(zip[8] == 0 && zip[9] == 0)
        #expect(Array(zip[18..<22]) == Array(zip[22..<26]))
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
        // A compressed member is reported, not mis-read.
        var deflated = zip
        let n = zip.count
        let cdOffset = Int(zip[n - 6]) | Int(zip[n - 5]) << 8 | Int(zip[n - 4]) << 16 | Int(zip[n - 3]) << 24
        deflated[8] = 8  // local header
        deflated[cdOffset + 10] = 8  // central directory
        let d = try LivpArchive.members(of: MemoryByteSource(deflated))
        #expect(throws: LivpArchive.ArchiveError.self) { try LivpArchive.extract(d[0], from: MemoryByteSource(deflated)) }
        // A central directory said to lie past the end.
        var bad = zip
        bad[bad.count - 3] = 0x7F
        #expect(throws: LivpArchive.ArchiveError.self) { _ = try LivpArchive.members(of: MemoryByteSource(bad)) }
    }

    @Test func repeatedNamesAreRefused() {
        #expect(throws: LivpArchive.ArchiveError.self) { _ = try LivpArchive.build([("a", [1]), ("a", [2])]) }
    }
}
