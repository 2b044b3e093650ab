import ISOBMFF
import LiveModel

/// The SHA-256 of one track's sample bytes, in decode order, read through its sample tables
/// (`stsz`, `stsc`, `stco`/`co64`). Two movies whose tracks have equal digests carry the same
/// media, whatever else changed around it (boxes moved, offsets shifted, metadata added).
public struct TrackDigest: Sendable, Hashable, CustomStringConvertible {
    public var trackID: UInt32
    /// `hdlr` handler type (`vide`, `soun`, `meta`, …).
    public var handler: String
    public var sampleCount: Int
    public var byteCount: Int64
    /// Lower-case hex SHA-256 of the concatenated samples.
    public var sha256: String

    public var description: String {
        "track \(trackID) (\(handler)): \(sampleCount) samples, \(byteCount) bytes, sha256 \(sha256.prefix(16))…"
    }
}

/// Hashes media so that a rewrite can prove it left the media alone.
public enum MediaDigest {
    /// One digest per `trak` of the movie in `source`, in file order.
    ///
    /// Throws for movies whose sample tables cannot be followed: no `moov`, a damaged `moov`,
    /// `stz2` compact sizes, a chunk outside the file. Every count is checked against the bytes
    /// present; every sum is overflow-checked; reads go chunk by chunk in pieces of at most 8 MiB.
    public static func tracks(of source: some ByteSource) throws(BoxError) -> [TrackDigest] {
        let scan = TopLevel.scan(source)
        if let e = scan.error { throw e }
        guard let moovHeader = scan.first("moov") else { throw BoxError(.malformed, "no 'moov' box", offset: 0) }
        guard moovHeader.payloadSize <= BoxLimits.maxLoadedBoxBytes else {
            throw BoxError(.limit, "'moov' is too large to load", path: "moov", offset: moovHeader.offset)
        }
        let moovBytes = try source.read(at: moovHeader.payloadOffset, count: Int(moovHeader.payloadSize))
        let tree = BoxTree.parse(moovBytes, baseOffset: moovHeader.payloadOffset, path: "moov", ancestors: ["moov"])
        if let first = tree.issues.first { throw first }
        var digests: [TrackDigest] = []
        for (index, trak) in tree.nodes.filter({ $0.type == "trak" }).enumerated() {
            digests.append(try digest(trak, path: "moov/trak[\(index + 1)]", source: source))
        }
        return digests
    }

    /// ``tracks(of:)`` for the movie file at `path`.
    public static func tracks(ofFileAt path: String) throws(BoxError) -> [TrackDigest] {
        try tracks(of: FileByteSource(path: path))
    }

    static func digest(_ trak: BoxNode, path: String, source: some ByteSource) throws(BoxError) -> TrackDigest {
        let id = QuickTimeWriter.trackID(of: trak)
        var handler = "?"
        if let hdlr = trak.descendant(["mdia", "hdlr"]), hdlr.data != nil,
           let box = try? HandlerBox.read(hdlr.payloadCursor(path: BoxPath()), keepRemainder: false) {
            handler = FourCC.string(box.handlerType.rawValue)
        }
        guard let stbl = trak.descendant(["mdia", "minf", "stbl"]) else {
            return TrackDigest(trackID: id, handler: handler, sampleCount: 0, byteCount: 0, sha256: SHA256Digest.hex([UInt8]()))
        }
        let stblPath = BoxPath(path).appending("mdia").appending("minf").appending("stbl")
        if stbl.child("stz2") != nil { throw BoxError(.unsupported, "compact sample sizes ('stz2') are not hashed", path: stblPath.appending("stz2").description) }

        // The tables' errors count from each box's first byte (not its payload), as this digest
        // always reported them.
        func table(_ box: BoxNode) -> ByteCursor {
            ByteCursor(box.data ?? [], baseOffset: box.offset ?? 0, boxPath: stblPath.appending(box.type))
        }

        // Sample sizes, decoded one by one as the walk needs them.
        var uniformSize: Int64 = 0
        var sizes: SampleSizeBox?
        var sampleCount = 0
        if let stsz = stbl.child("stsz") {
            let box = try SampleSizeBox.read(table(stsz), type: "stsz")
            if box.uniformSize == 0 {
                sizes = box
            } else {
                // Uniform sizes (PCM audio): the table has no entries, so bound the count by the file.
                let (total, overflow) = Int64(box.sampleCount).multipliedReportingOverflow(by: Int64(box.uniformSize))
                guard !overflow, total <= source.size else {
                    throw BoxError(.malformed, "\(box.sampleCount) samples of \(box.uniformSize) bytes do not fit the file",
                                   path: stblPath.appending("stsz").description, offset: stsz.offset ?? 0)
                }
                uniformSize = Int64(box.uniformSize)
            }
            sampleCount = Int(box.sampleCount)
        }

        // Sample-to-chunk runs.
        let runs = try stbl.child("stsc").map { stsc throws(BoxError) in try SampleToChunkBox.read(table(stsc)) }
        let runCount = runs?.entryCount ?? 0

        // Chunk offsets: the first `stco` or `co64`, every entry checked before the walk.
        var chunks: ChunkOffsetBox?
        for box in stbl.children where box.type == "stco" || box.type == "co64" {
            let offsets = try ChunkOffsetBox.read(table(box), type: box.type)
            for i in 0..<offsets.entryCount where offsets.offset(at: i) > UInt64(Int64.max) {
                throw offsets.entries.error(.malformed, "chunk offset \(offsets.offset(at: i)) is out of range", afterEntry: i)
            }
            chunks = offsets
            break
        }

        var hasher = SHA256Digest()
        var next = 0  // next sample index
        var bytes: Int64 = 0
        var run = 0
        for chunkIndex in 0..<(chunks?.entryCount ?? 0) {
            guard next < sampleCount, let runs, let chunks else { break }
            let chunkOffset = Int64(chunks.offset(at: chunkIndex))
            let chunkNumber = UInt32(truncatingIfNeeded: chunkIndex + 1)
            while run + 1 < runCount && runs.entry(at: run + 1).firstChunk <= chunkNumber { run += 1 }
            guard run < runCount, runs.entry(at: run).firstChunk <= chunkNumber else { continue }
            let inChunk = min(Int(runs.entry(at: run).samplesPerChunk), sampleCount - next)
            var length: Int64 = 0
            if let sizes {
                for i in next..<(next + inChunk) { length += Int64(sizes.size(at: i)) }  // ≤ 2^32 × 2^32: fits Int64
            } else {
                length = Int64(inChunk) * uniformSize  // ≤ count × size, checked above
            }
            let (end, overflow) = chunkOffset.addingReportingOverflow(length)
            guard !overflow, chunkOffset >= 0, end <= source.size else {
                throw BoxError(.malformed, "chunk \(chunkIndex + 1) (\(length) bytes at \(chunkOffset)) lies outside the file", path: stblPath.description, offset: chunkOffset)
            }
            var at = chunkOffset
            while at < end {
                let piece = Int(min(end - at, 8 << 20))
                hasher.update(try source.read(at: at, count: piece))
                at += Int64(piece)
            }
            bytes += length
            next += inChunk
        }
        guard next == sampleCount else {
            throw BoxError(.malformed, "the chunk tables place \(next) of \(sampleCount) samples", path: stblPath.description)
        }
        return TrackDigest(trackID: id, handler: handler, sampleCount: sampleCount, byteCount: bytes,
                           sha256: hasher.finalize())
    }

    /// SHA-256 of a JPEG's entropy-coded data: from the first SOS marker to the end of the file.
    /// Metadata edits (APP segments) leave it unchanged. Nil when no SOS is found before the end.
    public static func jpegImageData(_ bytes: [UInt8]) -> String? {
        guard let sos = try? JPEGLayout.scanSOS(bytes) else { return nil }
        return SHA256Digest.hex(bytes[sos...])
    }
}

extension JPEGLayout {
    /// Offset of the SOS marker (FF DA), walking segment lengths as `scan` does.
    static func scanSOS(_ b: [UInt8]) throws(JPEGExifWriter.WriteError) -> Int {
        guard b.count >= 4, b[0] == 0xFF, b[1] == 0xD8 else { throw .notJPEG("no SOI") }
        var pos = 2
        while pos < b.count {
            guard b[pos] == 0xFF else { throw .notJPEG("expected a marker at byte \(pos)") }
            let markerStart = pos
            while pos < b.count && b[pos] == 0xFF { pos += 1 }
            guard pos < b.count else { break }
            let marker = b[pos]
            pos += 1
            if marker == 0xDA { return markerStart }
            if marker == 0x01 || (0xD0...0xD7).contains(marker) { continue }
            guard pos + 2 <= b.count else { break }
            let length = Int(b[pos]) << 8 | Int(b[pos + 1])
            guard length >= 2 else { throw .notJPEG("segment length \(length)") }
            pos += length
        }
        throw .notJPEG("no SOS marker")
    }
}
