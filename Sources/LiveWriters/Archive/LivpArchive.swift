import Foundation
import ISOBMFF

/// `.livp` archives: a ZIP holding a Live Photo's still and movie, members *stored* (not
/// compressed), as iCloud exports them. Writes and reads stored ZIPs without ZIP64 (every member
/// and the whole archive below 4 GiB), every header field bounds-checked against the file.
public enum LivpArchive {
    /// One member as written or found.
    public struct Member: Sendable, Hashable {
        /// The name inside the archive (`IMG_0001.JPG`).
        public var name: String
        /// Where the member's data lies in the archive file.
        public var dataOffset: Int64
        public var size: Int64
        public var crc32: UInt32
        /// ZIP compression method (0 = stored, 8 = deflated).
        public var method: UInt16
    }

    /// Why an archive could not be built or read.
    public struct ArchiveError: Error, Sendable, Hashable, CustomStringConvertible {
        public var message: String
        public init(_ message: String) { self.message = message }
        public var description: String { message }
    }

    /// The bytes of a stored ZIP holding `members` (name, data) in that order, with a fixed
    /// timestamp `date` (DOS time, local-time fields as given), so that builds are reproducible.
    public static func build(_ members: [(name: String, data: [UInt8])],
                             date: (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) = (2024, 1, 1, 0, 0, 0))
        throws(ArchiveError) -> [UInt8] {
        let dosTime = UInt16(date.hour << 11 | date.minute << 5 | date.second / 2)
        let dosDate = UInt16(max(0, date.year - 1980) << 9 | date.month << 5 | date.day)
        var out: [UInt8] = []
        var central: [UInt8] = []
        var names = Set<String>()
        for member in members {
            let name = Array(member.name.utf8)
            guard !name.isEmpty, name.count <= 0xFFFF, names.insert(member.name).inserted else {
                throw ArchiveError("bad or repeated member name '\(member.name)'")
            }
            guard member.data.count < Int(UInt32.max), out.count < Int(UInt32.max) - member.data.count - 30 - name.count else {
                throw ArchiveError("the archive would exceed 4 GiB (ZIP64 is not written)")
            }
            let crc = CRC32.checksum(member.data)
            let flags: UInt16 = name.allSatisfy { $0 < 0x80 } ? 0 : 0x0800  // bit 11: UTF-8 names
            let offset = UInt32(out.count)
            var local = le32(0x0403_4B50) + le16(10) + le16(flags) + le16(0) + le16(dosTime) + le16(dosDate)
            local += le32(crc) + le32(UInt32(member.data.count)) + le32(UInt32(member.data.count))
            local += le16(UInt16(name.count)) + le16(0) + name
            out += local
            out += member.data
            var entry = le32(0x0201_4B50) + le16(0x031E) + le16(10) + le16(flags) + le16(0) + le16(dosTime) + le16(dosDate)
            entry += le32(crc) + le32(UInt32(member.data.count)) + le32(UInt32(member.data.count))
            entry += le16(UInt16(name.count)) + le16(0) + le16(0) + le16(0) + le16(0)
            entry += le32(UInt32(0o100644) << 16) + le32(offset) + name
            central += entry
        }
        guard members.count <= 0xFFFF, out.count + central.count < Int(UInt32.max) - 22 else {
            throw ArchiveError("the archive would exceed ZIP's limits (ZIP64 is not written)")
        }
        let cdOffset = UInt32(out.count)
        out += central
        out += le32(0x0605_4B50) + le16(0) + le16(0) + le16(UInt16(members.count)) + le16(UInt16(members.count))
        out += le32(UInt32(central.count)) + le32(cdOffset) + le16(0)
        return out
    }

    /// The members listed in the central directory of the ZIP in `source`, checked against
    /// their local headers. At most `maxMembers` are read.
    public static func members(of source: some ByteSource, maxMembers: Int = 1_000) throws(ArchiveError) -> [Member] {
        let size = source.size
        guard size >= 22 else { throw ArchiveError("too short to be a ZIP archive (\(size) bytes)") }
        let tailLength = Int(min(size, 22 + 0xFFFF))
        let tail = try read(source, size - Int64(tailLength), tailLength)
        var eocd: Int?
        var i = tail.count - 22
        while i >= 0 {
            if tail[i] == 0x50, tail[i + 1] == 0x4B, tail[i + 2] == 0x05, tail[i + 3] == 0x06 { eocd = i; break }
            i -= 1
        }
        guard let eocd else { throw ArchiveError("no end-of-central-directory record: not a ZIP archive") }
        let count = Int(u16(tail, eocd + 10))
        let cdSize = Int64(u32(tail, eocd + 12)), cdOffset = Int64(u32(tail, eocd + 16))
        guard count != 0xFFFF, cdOffset != 0xFFFF_FFFF else { throw ArchiveError("ZIP64 archives are not read") }
        guard count <= maxMembers else { throw ArchiveError("the archive lists \(count) members, more than \(maxMembers)") }
        guard cdOffset + cdSize <= size else { throw ArchiveError("the central directory lies outside the file") }
        let cd = try read(source, cdOffset, Int(cdSize))
        var members: [Member] = []
        var p = 0
        for _ in 0..<count {
            guard p + 46 <= cd.count, u32(cd, p) == 0x0201_4B50 else { throw ArchiveError("damaged central directory entry at byte \(cdOffset + Int64(p))") }
            let method = u16(cd, p + 10), crc = u32(cd, p + 16)
            let compressed = Int64(u32(cd, p + 20)), uncompressed = Int64(u32(cd, p + 24))
            let nameLength = Int(u16(cd, p + 28)), extraLength = Int(u16(cd, p + 30)), commentLength = Int(u16(cd, p + 32))
            let localOffset = Int64(u32(cd, p + 42))
            let end = p + 46 + nameLength + extraLength + commentLength
            guard end <= cd.count else { throw ArchiveError("central directory entry runs past its end") }
            let name = String(decoding: cd[(p + 46)..<(p + 46 + nameLength)], as: UTF8.self)
            p = end
            guard localOffset + 30 <= size else { throw ArchiveError("member '\(name)' has its header outside the file") }
            let local = try read(source, localOffset, 30)
            guard u32(local, 0) == 0x0403_4B50 else { throw ArchiveError("member '\(name)' has no local header") }
            let dataOffset = localOffset + 30 + Int64(u16(local, 26)) + Int64(u16(local, 28))
            guard dataOffset + compressed <= size else { throw ArchiveError("member '\(name)' runs past the end of the archive") }
            guard method != 0 || compressed == uncompressed else { throw ArchiveError("stored member '\(name)' has two sizes") }
            members.append(Member(name: name, dataOffset: dataOffset, size: compressed, crc32: crc, method: method))
        }
        return members
    }

    /// The bytes of a stored member, CRC-checked.
    public static func extract(_ member: Member, from source: some ByteSource) throws(ArchiveError) -> [UInt8] {
        guard member.method == 0 else {
            throw ArchiveError("member '\(member.name)' is compressed (method \(member.method)); only stored members are unpacked")
        }
        guard member.size <= Int64(Int32.max) * 2 else { throw ArchiveError("member '\(member.name)' is too large") }
        let bytes = try read(source, member.dataOffset, Int(member.size))
        guard CRC32.checksum(bytes) == member.crc32 else { throw ArchiveError("member '\(member.name)' fails its CRC-32 check") }
        return bytes
    }

    static func read(_ source: some ByteSource, _ offset: Int64, _ count: Int) throws(ArchiveError) -> [UInt8] {
        do { return try source.read(at: offset, count: count) } catch { throw ArchiveError(error.message) }
    }

    static func le16(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
    static func le32(_ v: UInt32) -> [UInt8] { [UInt8(v & 0xFF), UInt8((v >> 8) & 0xFF), UInt8((v >> 16) & 0xFF), UInt8(v >> 24)] }
    static func u16(_ b: [UInt8], _ i: Int) -> UInt16 { UInt16(b[i]) | UInt16(b[i + 1]) << 8 }
    static func u32(_ b: [UInt8], _ i: Int) -> UInt32 { UInt32(b[i]) | UInt32(b[i + 1]) << 8 | UInt32(b[i + 2]) << 16 | UInt32(b[i + 3]) << 24 }
}
