import Foundation
import ISOBMFF
import Testing
@testable import LiveWriters

struct ChecksumTests {
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
    ])
    func sha256KnownAnswers(input: String, digest: String) {
        #expect(SHA256Hasher.hex(Array(input.utf8)) == digest)
    }

    @Test func sha256StreamingEqualsOneShot() {
        let data = (0..<10_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        for split in [0, 1, 63, 64, 65, 127, 5_000, 9_999] {
            var h = SHA256Hasher()
            h.update(data[0..<split])
            h.update(data[split...])
            #expect(SHA256Hasher.hexString(h.finalize()) == SHA256Hasher.hex(data), "split at \(split)")
        }
        // One million 'a' (FIPS 180-2 appendix B.3), fed in uneven pieces.
        var h = SHA256Hasher()
        let piece = [UInt8](repeating: 0x61, count: 999)
        var left = 1_000_000
        while left > 0 { let n = min(left, piece.count); h.update(piece[0..<n]); left -= n }
        #expect(SHA256Hasher.hexString(h.finalize()) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
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
