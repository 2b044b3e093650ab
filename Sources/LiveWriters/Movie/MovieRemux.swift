import ISOBMFF
import LiveModel
import LiveReaders

/// QuickTime ↔ MP4 without touching a sample: the two differ here only in the `ftyp` brands
/// (`qt  ` against `mp42`/`isom`); every other box keeps its type and its bytes, so the sample
/// tables, edit lists, keys and timed-metadata tracks mean the same on both sides.
///
/// An `ftyp` is rewritten in place, at its own size (padded with more brands, or with a `free`
/// box), so no byte after it moves. A movie without `ftyp` (classic QuickTime, starting with
/// `wide` or `mdat`) gets one put first, and every chunk offset (`stco`/`co64`) shifts by its size.
public enum MovieRemux {
    public enum Brand: Sendable {
        /// `ftyp mp42`, compatible `isom` (and `mp42`): what Motion Photo readers expect.
        case mp4
        /// `ftyp qt  `, compatible `qt  `: what Apple writes for Live Photo movies.
        case quickTime

        var major: [UInt8] { Array((self == .mp4 ? "mp42" : "qt  ").utf8) }
        var minor: [UInt8] { self == .mp4 ? [0, 0, 0, 0] : [0x20, 0x05, 0x03, 0x00] }
        var compatible: [[UInt8]] { self == .mp4 ? [Array("isom".utf8), Array("mp42".utf8)] : [Array("qt  ".utf8)] }
    }

    /// The movie in `source` rebranded as `brand` (unchanged when it already is).
    public static func rebrand(_ source: some ByteSource, as brand: Brand) throws(BoxError) -> [UInt8] {
        let scan = TopLevel.scan(source)
        if let e = scan.error { throw e }
        guard let moovHeader = scan.first("moov") else { throw BoxError(.malformed, "no 'moov' box", offset: 0) }
        if let moof = scan.first("moof") {
            throw BoxError(.unsupported, "fragmented movies ('moof') are not re-muxed", path: "moof", offset: moof.offset)
        }
        var bytes = try source.read(at: 0, count: Int(source.size))
        if let ftyp = scan.boxes.first, ftyp.type == "ftyp" {
            guard ftyp.size >= 16, ftyp.size <= 4096, ftyp.headerSize == 8 else {
                throw BoxError(.malformed, "'ftyp' of \(ftyp.size) bytes", path: "ftyp", offset: ftyp.offset)
            }
            bytes.replaceSubrange(0..<Int(ftyp.size), with: try box(brand, size: Int(ftyp.size)))
            return bytes
        }
        // No ftyp: put one first and shift every chunk offset by its size.
        let ftyp = try box(brand, size: 8 + 8 + 4 * brand.compatible.count)
        guard moovHeader.payloadSize <= BoxLimits.maxLoadedBoxBytes else {
            throw BoxError(.limit, "'moov' is too large to rewrite", path: "moov", offset: moovHeader.offset)
        }
        let moovBytes = try source.read(at: moovHeader.payloadOffset, count: Int(moovHeader.payloadSize))
        let tree = BoxTree.parse(moovBytes, baseOffset: moovHeader.payloadOffset, path: "moov", ancestors: ["moov"])
        if let first = tree.issues.first { throw first }
        var moov = BoxNode(type: "moov", children: tree.nodes)
        try QuickTimeWriter.shiftChunkOffsets(in: &moov, after: 0, by: Int64(ftyp.count), skip: nil)
        let newMoov = moov.serialized()
        guard Int64(newMoov.count) == moovHeader.size else {
            throw BoxError(.limit, "'moov' changed size while shifting chunk offsets", path: "moov", offset: moovHeader.offset)
        }
        bytes.replaceSubrange(Int(moovHeader.offset)..<Int(moovHeader.offset + moovHeader.size), with: newMoov)
        return ftyp + bytes
    }

    /// Exactly `size` bytes: an `ftyp` with the brand's major, minor and compatible brands, then
    /// a `free` box after it for what is left (or more compatible brands when under 8 bytes are left).
    static func box(_ brand: Brand, size: Int) throws(BoxError) -> [UInt8] {
        guard size >= 16, size % 4 == 0 else {
            throw BoxError(.unsupported, "an 'ftyp' of \(size) bytes cannot be rebranded in place", path: "ftyp", offset: 0)
        }
        var brands = Array(brand.compatible.prefix((size - 16) / 4))
        var rest = size - 16 - 4 * brands.count
        if rest > 0, rest < 8 {
            while rest > 0 { brands.append(brand.compatible[0]); rest -= 4 }
        }
        let ftypSize = 16 + 4 * brands.count
        var out = be32(UInt32(ftypSize)) + Array("ftyp".utf8) + brand.major + brand.minor + brands.flatMap { $0 }
        if rest >= 8 { out += be32(UInt32(rest)) + Array("free".utf8) + [UInt8](repeating: 0, count: rest - 8) }
        return out
    }

    static func be32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)] }
}
