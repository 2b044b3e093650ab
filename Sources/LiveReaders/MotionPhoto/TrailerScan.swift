import ISOBMFF
import LiveModel

/// Byte-level searches after a still's primary image: where a JPEG's primary image ends, where
/// an MP4 `ftyp` starts. Both read in bounded windows (never the whole file at once) and stop at
/// the end of the data, so a hostile file costs at most one pass over its bytes.
enum TrailerScan {
    /// Bytes read at a time.
    static let window = 1 << 20

    /// The offset just past the primary image's EOI marker (`FF D9`): the header segments are
    /// walked by their lengths, entropy-coded data is skipped up to the next marker (`FF` not
    /// followed by `00`, a restart marker or fill), progressive scans included. Nil when the
    /// structure breaks or the data ends first.
    static func jpegPrimaryEnd(_ source: some ByteSource) -> Int64? {
        let size = source.size
        var offset: Int64 = 2
        var segments = 0
        func bytes(_ at: Int64, _ count: Int) -> [UInt8]? {
            guard at >= 0, at < size else { return nil }
            return try? source.read(at: at, count: Int(min(Int64(count), size - at)))
        }
        guard let soi = bytes(0, 2), soi == [0xFF, 0xD8] else { return nil }
        while segments < JPEGSegments.maxSegments {
            segments += 1
            guard let head = bytes(offset, 4), head.count >= 2, head[0] == 0xFF else { return nil }
            let marker = head[1]
            switch marker {
            case 0xFF: offset += 1; continue
            case 0xD9: return offset + 2
            case 0x01, 0xD0...0xD7: offset += 2; continue
            default: break
            }
            guard head.count == 4 else { return nil }
            let length = Int64(head[2]) << 8 | Int64(head[3])
            guard length >= 2 else { return nil }
            offset += 2 + length
            guard marker == 0xDA else { continue }
            // Entropy-coded data: find the next real marker.
            guard let next = nextMarker(source, from: offset) else { return nil }
            offset = next
        }
        return nil
    }

    /// The offset of the next `FF xx` marker at or after `from` whose `xx` is not `00`, a restart
    /// marker (`D0`–`D7`) or another `FF`.
    private static func nextMarker(_ source: some ByteSource, from: Int64) -> Int64? {
        var at = from
        let size = source.size
        // Small windows: a scan of a progressive JPEG ends long before a megabyte.
        var step = 64 << 10
        while at < size - 1 {
            let count = Int(min(Int64(step), size - at))
            step = min(window, step * 2)
            guard let chunk = try? source.read(at: at, count: count) else { return nil }
            let found: Int? = chunk.withUnsafeBufferPointer { buf in
                var i = 0
                while i < buf.count - 1 {
                    if buf[i] == 0xFF {
                        let b = buf[i + 1]
                        if b != 0x00, b != 0xFF, !(0xD0...0xD7).contains(b) { return i }
                    }
                    i += 1
                }
                return nil
            }
            if let found { return at + Int64(found) }
            // Step back one byte so an FF at the end of this window is seen with its successor.
            at += Int64(max(1, count - 1))
        }
        return nil
    }

    /// True when an ISO-BMFF `ftyp` box starts at `offset` and fits before `end`: the type, a
    /// size from 12 to 4096 bytes, and a printable major brand.
    static func isFtyp(_ source: some ByteSource, at offset: Int64, end: Int64) -> Bool {
        guard offset >= 0, offset + 12 <= end, end <= source.size,
              let b = try? source.read(at: offset, count: 12) else { return false }
        guard b[4] == UInt8(ascii: "f"), b[5] == UInt8(ascii: "t"), b[6] == UInt8(ascii: "y"), b[7] == UInt8(ascii: "p") else { return false }
        let size = Int64(b[0]) << 24 | Int64(b[1]) << 16 | Int64(b[2]) << 8 | Int64(b[3])
        guard size >= 12, size <= 4096, offset + size <= end else { return false }
        return b[8..<12].allSatisfy { $0 >= 0x20 && $0 < 0x7F }
    }

    /// The offset of the first `ftyp` box (``isFtyp(_:at:end:)``) that starts in `[from, end)`.
    static func findFtyp(_ source: some ByteSource, from: Int64, end: Int64) -> Int64? {
        let pattern: [UInt8] = Array("ftyp".utf8)
        var at = max(0, from)
        let limit = min(end, source.size)
        while at + 8 <= limit {
            let count = Int(min(Int64(window), limit - at))
            guard let chunk = try? source.read(at: at, count: count) else { return nil }
            var candidates: [Int] = []
            chunk.withUnsafeBufferPointer { buf in
                var i = 4
                while i + 4 <= buf.count {
                    if buf[i] == pattern[0], buf[i + 1] == pattern[1], buf[i + 2] == pattern[2], buf[i + 3] == pattern[3] {
                        candidates.append(i - 4)
                    }
                    i += 1
                }
            }
            for c in candidates where isFtyp(source, at: at + Int64(c), end: limit) { return at + Int64(c) }
            if count < 8 { return nil }
            // Overlap by 7 bytes so a size + type split between windows is still found.
            at += Int64(count - 7)
        }
        return nil
    }
}

/// A Samsung SEF trailer (`SEFH` … `SEFT`) at the end of a JPEG: a directory of records laid out
/// backwards from the directory (exiftool `Samsung.pm` `ProcessSamsung`; MotionPhoto2
/// `SamsungTags.py`). The file ends with the directory's length (little-endian 32 bits) and
/// `SEFT`; the directory starts with `SEFH`, a version and a count, then 12-byte entries (2 bytes
/// 0, the record type, its distance back from the directory, its size); a record starts with 4
/// bytes, its name's length, its name (`MotionPhoto_Data`), then its data.
struct SEFTrailer {
    struct Record {
        var type: UInt16
        var name: String
        /// Where the record's data (after its name) starts, and how long it is.
        var dataOffset: Int64
        var dataLength: Int64
    }
    var start: Int64
    var records: [Record]

    static let maxRecords = 256
    static let maxDirectoryBytes: Int64 = 12 + 12 * Int64(maxRecords)

    /// The trailer at the end of `source`, nil when the file does not end with `SEFT`; a trailer
    /// that ends with `SEFT` but does not hold together is a located issue.
    static func read(_ source: some ByteSource, issues: inout [ReadIssue]) -> SEFTrailer? {
        let size = source.size
        guard size >= 8, let tail = try? source.read(at: size - 8, count: 8), Array(tail[4..<8]) == Array("SEFT".utf8) else { return nil }
        let length = Int64(le32(tail, 0))
        let dirPos = size - 8 - length
        // A directory is 12 bytes a record (Samsung writes a handful): never allocate more.
        guard length <= maxDirectoryBytes else {
            issues.append(ReadIssue(.limit, "the Samsung trailer's directory declares \(length) bytes, more than \(maxDirectoryBytes)",
                                    location: "sef/SEFT", offset: size - 8))
            return nil
        }
        guard length >= 12, dirPos >= 0, let dir = try? source.read(at: dirPos, count: Int(length)),
              Array(dir[0..<4]) == Array("SEFH".utf8) else {
            issues.append(ReadIssue(.malformed, "the Samsung trailer's directory (\(length) bytes before SEFT) is not a SEFH block", location: "sef/SEFH", offset: max(0, dirPos)))
            return nil
        }
        let count = Int(le32(dir, 8))
        guard count <= maxRecords, 12 + 12 * count <= dir.count else {
            issues.append(ReadIssue(count > maxRecords ? .limit : .malformed,
                                    "the Samsung trailer lists \(count) records, more than its \(length)-byte directory holds",
                                    location: "sef/SEFH", offset: dirPos + 8))
            return nil
        }
        var records: [Record] = []
        var start = dirPos
        for i in 0..<count {
            let entry = 12 + 12 * i
            let type = UInt16(dir[entry + 2]) | UInt16(dir[entry + 3]) << 8
            let back = Int64(le32(dir, entry + 4)), recordSize = Int64(le32(dir, entry + 8))
            let at = dirPos - back
            guard back <= dirPos, recordSize >= 8, recordSize <= back,
                  let head = try? source.read(at: at, count: 8) else {
                issues.append(ReadIssue(.malformed, "Samsung trailer record \(i) points \(back) bytes back for \(recordSize) bytes, outside the file",
                                        location: "sef/record[\(i)]", offset: dirPos + Int64(entry)))
                continue
            }
            let nameLength = Int64(le32(head, 4))
            guard nameLength <= recordSize - 8, nameLength <= 256,
                  let nameBytes = try? source.read(at: at + 8, count: Int(nameLength)) else {
                issues.append(ReadIssue(.malformed, "Samsung trailer record \(i) has a name of \(nameLength) bytes, longer than the record",
                                        location: "sef/record[\(i)]", offset: at))
                continue
            }
            start = min(start, at)
            records.append(Record(type: type, name: String(decoding: nameBytes, as: UTF8.self),
                                  dataOffset: at + 8 + nameLength, dataLength: recordSize - 8 - nameLength))
        }
        return SEFTrailer(start: start, records: records)
    }

    func record(named name: String) -> Record? { records.first { $0.name == name } }

    private static func le32(_ b: [UInt8], _ i: Int) -> UInt32 {
        UInt32(b[i]) | UInt32(b[i + 1]) << 8 | UInt32(b[i + 2]) << 16 | UInt32(b[i + 3]) << 24
    }
}

/// A window of another source: bytes `[base, base + size)` seen as `[0, size)`. The embedded
/// video of a motion photo is read through one, so the movie reader's bounds are the video's.
public struct SliceByteSource<Base: ByteSource>: ByteSource {
    public let base: Base
    public let offset: Int64
    public let size: Int64

    public init(_ base: Base, offset: Int64, size: Int64) {
        self.base = base
        self.offset = offset
        self.size = size
    }

    public func read(at offset: Int64, count: Int) throws(ReadError) -> [UInt8] {
        guard offset >= 0, count >= 0, offset + Int64(count) <= size else {
            throw ReadError(.malformed, "read of \(count) bytes past the end of the embedded data (size \(size))", offset: offset)
        }
        return try base.read(at: self.offset + offset, count: count)
    }
}
