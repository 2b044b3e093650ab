import Foundation
import ISOBMFF
import LiveModel
import LiveReaders
import ZIPFoundation

/// `.livp` archives: a ZIP holding a Live Photo's still and movie. Written with members *stored*
/// (not compressed) in the layout Baidu and Aliyun accept (``build(_:date:comment:)``, our own
/// writer: ZIPFoundation cannot write an archive comment); read stored or deflated through
/// ZIPFoundation, with what livelint needs on top: a cap on member count and size, and extraction
/// into memory that refuses a member which inflates past its declared size, comes up short or
/// fails its CRC-32.
public enum LivpArchive {
    /// One member as listed in the central directory.
    public struct Member: Sendable, Hashable {
        /// The name inside the archive (`IMG_0001.JPG`), exactly as stored: it may hold folders,
        /// `..` or a leading `/`; callers that write files must check it.
        public var name: String
        /// The uncompressed size the archive declares (a claim, checked on extraction).
        public var size: Int64
        /// The CRC-32 the archive declares for the uncompressed bytes.
        public var crc32: UInt32
        /// Whether the member is compressed (deflated) rather than stored.
        public var isCompressed: Bool
        /// Position in the central directory: tells apart members that share a name.
        public var index: Int

        /// True when the name is absolute or climbs out with a `..` component: such a member must
        /// never be written under its own name.
        public var escapesArchive: Bool { name.hasPrefix("/") || name.split(separator: "/").contains("..") }
    }

    /// Why an archive could not be built or read.
    public struct ArchiveError: Error, Sendable, Hashable, CustomStringConvertible {
        public var message: String
        public init(_ message: String) { self.message = message }
        public var description: String { message }
    }

    /// The largest member ``extract(_:from:maxBytes:)`` returns by default (just under 4 GiB).
    public static let maxMemberBytes: Int64 = Int64(Int32.max) * 2

    /// Archives not backed by a file are copied to a temporary file to be read; this caps that copy.
    static let maxCopiedArchiveBytes: Int64 = 4 << 30

    /// Bytes read (or inflated) per step: large enough that a movie takes few steps, small enough
    /// that a hostile size field cannot make one step allocate much.
    static let chunkBytes = 1 << 20

    /// The bytes of a stored ZIP holding `members` (name, data) in that order, with a fixed
    /// timestamp `date` (DOS time fields, written as given), so that builds are reproducible, and
    /// `comment` as the archive comment. Names must be non-empty and distinct; each member and the
    /// whole archive must stay under 4 GiB (no ZIP64).
    ///
    /// Written here rather than with ZIPFoundation, which cannot write an archive comment and adds
    /// what the `.livp` consumers refuse: every member is stored (method 0) with its CRC-32 and sizes
    /// in the local header (no data descriptor), and no extra field anywhere, so each member's data
    /// starts exactly 30 + name length bytes after its local header (the offsets the Baidu comment
    /// gives, ``LivpComment``). Reading back goes through ZIPFoundation, an independent reader.
    public static func build(_ members: [(name: String, data: [UInt8])],
                             date: (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) = (2024, 1, 1, 0, 0, 0),
                             comment: [UInt8] = [])
        throws(ArchiveError) -> [UInt8] {
        guard (1980...2107).contains(date.year), (1...12).contains(date.month), (1...31).contains(date.day),
              (0...23).contains(date.hour), (0...59).contains(date.minute), (0...59).contains(date.second) else {
            throw ArchiveError("invalid archive date \(date)")
        }
        guard comment.count <= 0xFFFF else { throw ArchiveError("archive comment of \(comment.count) bytes, over 65,535") }
        var names = Set<String>()
        for member in members {
            guard !member.name.isEmpty, member.name.utf8.count <= 0xFFFF, names.insert(member.name).inserted else {
                throw ArchiveError("bad or repeated member name '\(member.name)'")
            }
        }
        let dosTime = UInt16(date.hour << 11 | date.minute << 5 | date.second / 2)
        let dosDate = UInt16((date.year - 1980) << 9 | date.month << 5 | date.day)
        var out: [UInt8] = []
        var central: [UInt8] = []
        func le16(_ v: UInt16, _ into: inout [UInt8]) { into += [UInt8(v & 0xFF), UInt8(v >> 8)] }
        func le32(_ v: UInt32, _ into: inout [UInt8]) { le16(UInt16(v & 0xFFFF), &into); le16(UInt16(v >> 16), &into) }
        for member in members {
            let name = Array(member.name.utf8)
            // Bit 11: the name is UTF-8 (only set when it is not plain ASCII).
            let flags: UInt16 = name.allSatisfy { $0 < 0x80 } ? 0 : 0x0800
            guard member.data.count < 0xFFFF_FFFF, out.count < 0xFFFF_FFFF - 30 - name.count - member.data.count else {
                throw ArchiveError("member '\(member.name)' does not fit a ZIP without ZIP64")
            }
            let crc = UInt32(Data(member.data).crc32(checksum: 0))
            let size = UInt32(member.data.count), offset = UInt32(out.count)
            // Local header (APPNOTE 4.3.7): version 1.0, flags, stored, time, date, CRC, sizes, name, no extra.
            le32(0x0403_4B50, &out); le16(10, &out); le16(flags, &out); le16(0, &out)
            le16(dosTime, &out); le16(dosDate, &out); le32(crc, &out); le32(size, &out); le32(size, &out)
            le16(UInt16(name.count), &out); le16(0, &out)
            out += name
            out += member.data
            // Central directory entry (4.3.12): made by Unix 3.0, regular file 0644.
            le32(0x0201_4B50, &central); le16(0x031E, &central); le16(10, &central); le16(flags, &central); le16(0, &central)
            le16(dosTime, &central); le16(dosDate, &central); le32(crc, &central); le32(size, &central); le32(size, &central)
            le16(UInt16(name.count), &central); le16(0, &central); le16(0, &central); le16(0, &central); le16(0, &central)
            le32(UInt32(0o100644) << 16, &central); le32(offset, &central)
            central += name
        }
        guard members.count <= 0xFFFF, UInt64(out.count) + UInt64(central.count) < 0xFFFF_FFFF else {
            throw ArchiveError("the archive does not fit a ZIP without ZIP64")
        }
        let centralOffset = UInt32(out.count)
        out += central
        // End of central directory (4.3.16), then the comment.
        le32(0x0605_4B50, &out); le16(0, &out); le16(0, &out)
        le16(UInt16(members.count), &out); le16(UInt16(members.count), &out)
        le32(UInt32(central.count), &out); le32(centralOffset, &out); le16(UInt16(comment.count), &out)
        out += comment
        return out
    }

    /// A `.livp` as Baidu and Aliyun accept it: the still first, then the
    /// movie, both stored under the names given (``livpMemberNames(stillName:format:)`` are the
    /// usual ones), and the archive comment giving each member's type, data offset and size
    /// (``LivpComment``).
    public static func buildLivp(still: (name: String, data: [UInt8], format: ContainerFormat), movie: (name: String, data: [UInt8]),
                                 date: (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) = (2024, 1, 1, 0, 0, 0))
        throws(ArchiveError) -> [UInt8] {
        guard let type = LivpComment.stillType(for: still.format) else {
            throw ArchiveError("a .livp holds a JPEG or HEIC still, not \(still.format.rawValue.uppercased())")
        }
        let stillOffset = 30 + still.name.utf8.count
        let movieOffset = stillOffset + still.data.count + 30 + movie.name.utf8.count
        guard movieOffset + movie.data.count < 0xFFFF_FFFF else { throw ArchiveError("the pair does not fit a .livp (4 GiB)") }
        let comment = LivpComment(stillType: type, stillOffset: UInt32(stillOffset), stillSize: UInt32(still.data.count),
                                  movieOffset: UInt32(movieOffset), movieSize: UInt32(movie.data.count))
        return try build([(still.name, still.data), (movie.name, movie.data)], date: date, comment: comment.bytes)
    }

    /// `IMG_3218.JPG` → `IMG_3218.JPG.jpeg`, `IMG_3218.JPG.mov` (the member names iCloud and Baidu use).
    public static func livpMemberNames(stillName: String, format: ContainerFormat) -> [String] {
        [stillName + (format == .jpeg ? ".jpeg" : ".heic"), stillName + ".mov"]
    }

    /// The members listed in the central directory of the ZIP in `source`, in order. At most
    /// `maxMembers` are read. Throws when no end-of-central-directory record is found or no
    /// member can be read.
    ///
    /// ZIPFoundation stops listing at the first central-directory entry it cannot read, so a
    /// damaged directory may list fewer members than it declares.
    public static func members(of source: some ByteSource, maxMembers: Int = 1_000) throws(ArchiveError) -> [Member] {
        let archive = try open(source)
        var members: [Member] = []
        for (index, entry) in archive.enumerated() {
            guard index < maxMembers else { throw ArchiveError("the archive lists more than \(maxMembers) members") }
            let name = entry.path
            guard let size = Int64(exactly: entry.uncompressedSize) else {
                throw ArchiveError("member '\(name)' declares an impossible size (\(entry.uncompressedSize) bytes)")
            }
            members.append(Member(name: name, size: size, crc32: entry.checksum, isCompressed: entry.isCompressed, index: index))
        }
        guard !members.isEmpty else { throw ArchiveError("no readable member: the ZIP central directory is empty or damaged") }
        return members
    }

    /// The bytes of a member (stored or deflated), checked against its declared size and CRC-32.
    /// Refuses members declaring more than `maxBytes`, members that are not regular files, and
    /// members that inflate past their declared size; memory grows with the bytes actually read,
    /// never with a size field.
    public static func extract(_ member: Member, from source: some ByteSource,
                               maxBytes: Int64 = maxMemberBytes) throws(ArchiveError) -> [UInt8] {
        let name = member.name
        guard member.index >= 0, member.size >= 0, member.size <= maxBytes else {
            throw ArchiveError("member '\(name)' is too large (\(member.size) bytes; the limit is \(maxBytes))")
        }
        let archive = try open(source)
        let entries = archive.makeIterator()
        var found: Entry?
        for _ in 0...member.index {
            found = entries.next()
            if found == nil { break }
        }
        guard let entry = found, entry.path == name, entry.uncompressedSize == UInt64(member.size) else {
            throw ArchiveError("member '\(name)' is not in the archive as listed")
        }
        guard entry.type == .file else { throw ArchiveError("member '\(name)' is not a regular file (\(entry.type))") }
        let declared = UInt64(member.size)
        var bytes: [UInt8] = []
        // The declared size is only a claim: reserve at most 16 MiB up front, grow as bytes arrive.
        bytes.reserveCapacity(Int(min(declared, 16 << 20)))
        let crc: UInt32
        do {
            crc = try archive.extract(entry, bufferSize: chunkBytes, skipCRC32: false) { chunk in
                // A member that inflates past its declared size is a ZIP bomb or damaged: stop.
                guard UInt64(bytes.count) + UInt64(chunk.count) <= declared else {
                    throw ArchiveError("member '\(name)' inflates past its declared size of \(declared) bytes")
                }
                // Stored data comes in full chunks until the end of the file: an empty one means truncated.
                if chunk.isEmpty, !entry.isCompressed, UInt64(bytes.count) < declared {
                    throw ArchiveError("member '\(name)' runs past the end of the archive")
                }
                bytes.append(contentsOf: chunk)
            }
        } catch let error as ArchiveError {
            throw error
        } catch {
            throw ArchiveError("member '\(name)' cannot be extracted: \(error)")
        }
        guard UInt64(bytes.count) == declared else {
            throw ArchiveError("member '\(name)' holds \(bytes.count) bytes, not the \(declared) it declares")
        }
        guard crc == entry.checksum else { throw ArchiveError("member '\(name)' fails its CRC-32 check") }
        return bytes
    }

    /// Opens `source` with ZIPFoundation: a file by its path; anything else is first copied to a
    /// temporary file (unlinked once open), because ZIPFoundation's in-memory reader traps on a
    /// hostile offset past the end of the data where its file reader just reads nothing.
    static func open(_ source: some ByteSource) throws(ArchiveError) -> Archive {
        // ZIPFoundation traps on some hostile directory values: check them first.
        if let problem = ZipGuard.check(source) { throw ArchiveError(problem.description) }
        do {
            if let file = source as? FileByteSource {
                return try Archive(url: URL(fileURLWithPath: file.path), accessMode: .read)
            }
            guard source.size <= maxCopiedArchiveBytes else {
                throw ArchiveError("the archive is too large to copy (\(source.size) bytes)")
            }
            let bytes = Data(try source.read(at: 0, count: Int(source.size)))
            let temporary = FileManager.default.temporaryDirectory.appendingPathComponent("livelint-\(UUID().uuidString).zip")
            try bytes.write(to: temporary, options: .withoutOverwriting)
            defer { try? FileManager.default.removeItem(at: temporary) }
            return try Archive(url: temporary, accessMode: .read)
        } catch let error as ArchiveError {
            throw error
        } catch let error as ReadError {
            throw ArchiveError(error.message)
        } catch Archive.ArchiveError.missingEndOfCentralDirectoryRecord {
            throw ArchiveError("no end-of-central-directory record: not a ZIP archive")
        } catch {
            throw ArchiveError("not a readable ZIP archive: \(error)")
        }
    }
}
