import LiveModel

/// Tells what a file is from its first bytes, never from its name.
///
/// Signatures: JPEG `FF D8 FF`; PNG; GIF; TIFF (`II*\0`, `MM\0*`); RIFF/WEBP; ZIP local header;
/// ISO-BMFF by its `ftyp` brands (HEIF family vs QuickTime vs MP4); and QuickTime files without
/// `ftyp`, which open directly with a classic atom (`wide`, `mdat`, `moov`, `free`, `skip`, `pnot`).
public enum Sniffer {
    /// How many leading bytes `sniff` wants to see (`ftyp` boxes list their brands here).
    public static let headerLength = 256

    public static func sniff(_ header: [UInt8]) -> ContainerFormat {
        let h = header
        func at(_ offset: Int, _ bytes: [UInt8]) -> Bool {
            guard h.count >= offset + bytes.count else { return false }
            for (i, b) in bytes.enumerated() where h[offset + i] != b { return false }
            return true
        }
        if at(0, [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if at(0, [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if at(0, Array("GIF87a".utf8)) || at(0, Array("GIF89a".utf8)) { return .gif }
        if at(0, [0x49, 0x49, 0x2A, 0x00]) || at(0, [0x4D, 0x4D, 0x00, 0x2A]) { return .tiff }
        if at(0, Array("RIFF".utf8)) && at(8, Array("WEBP".utf8)) { return .webp }
        if at(0, [0x50, 0x4B, 0x03, 0x04]) || at(0, [0x50, 0x4B, 0x05, 0x06]) { return .zip }
        if at(4, Array("ftyp".utf8)) { return sniffFtyp(h) }
        if h.count >= 8 {
            let type = String(decoding: h[4..<8], as: UTF8.self)
            let size = UInt32(h[0]) << 24 | UInt32(h[1]) << 16 | UInt32(h[2]) << 8 | UInt32(h[3])
            // A classic QuickTime atom first; size 0 ("to end") and 1 (64-bit) are valid too.
            if quickTimeLeadingAtoms.contains(type), size == 0 || size == 1 || size >= 8 {
                return .quicktime
            }
        }
        return .unknown
    }

    static let quickTimeLeadingAtoms: Set<String> = ["wide", "mdat", "moov", "free", "skip", "pnot", "junk"]

    static let heicBrands: Set<String> = ["heic", "heix", "heim", "heis", "hevc", "hevx", "hevm", "hevs"]
    static let heifBrands: Set<String> = ["mif1", "msf1", "mif2", "miaf"]
    static let avifBrands: Set<String> = ["avif", "avis"]
    static let mp4Brands: Set<String> = [
        "isom", "iso2", "iso3", "iso4", "iso5", "iso6", "iso7", "iso8", "iso9", "mp41", "mp42", "mp71",
        "avc1", "M4V ", "M4VH", "M4VP", "mmp4", "3gp4", "3gp5", "3gp6", "3g2a", "dash", "f4v ", "MSNV", "XAVC",
    ]

    /// Brands of the `ftyp` box in `h` (major first, then compatible ones), bounded by the box size.
    public static func brands(_ h: [UInt8]) -> [String] {
        guard h.count >= 16 else { return [] }
        let size = Int(UInt32(h[0]) << 24 | UInt32(h[1]) << 16 | UInt32(h[2]) << 8 | UInt32(h[3]))
        let end = min(h.count, max(16, size))
        var out = [String(decoding: h[8..<12], as: UTF8.self)]
        var i = 16
        while i + 4 <= end {
            out.append(String(decoding: h[i..<(i + 4)], as: UTF8.self))
            i += 4
        }
        return out
    }

    static func sniffFtyp(_ h: [UInt8]) -> ContainerFormat {
        let all = brands(h)
        guard let major = all.first else { return .unknown }
        let compatible = Set(all.dropFirst())
        if major == "qt  " { return .quicktime }
        if heicBrands.contains(major) { return .heic }
        if avifBrands.contains(major) { return .avif }
        if heifBrands.contains(major) {
            if !compatible.isDisjoint(with: heicBrands) { return .heic }
            if !compatible.isDisjoint(with: avifBrands) { return .avif }
            return .heif
        }
        if mp4Brands.contains(major) || major.hasPrefix("3g") { return .mp4 }
        if compatible.contains("qt  ") { return .quicktime }
        if !compatible.isDisjoint(with: heicBrands) { return .heic }
        if !compatible.isDisjoint(with: mp4Brands) { return .mp4 }
        return .unknown
    }
}
