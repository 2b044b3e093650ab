import AppleMakerNote
import ISOBMFF
import LiveModel

/// Re-keys the Apple makernote inside a HEIC's Exif item, in place.
///
/// exiv2 0.27 cannot write HEIF, so this is the one HEIC edit livelint makes: the Exif item is
/// found through `meta/iinf` (item type `Exif`) and `meta/iloc` (its one extent, in the file or in
/// `idat`), the makernote by its `Apple iOS\0` signature inside that extent, and tag 0x0011 is
/// overwritten where it stands when the new identifier fits its ascii value (a UUID replacing a
/// UUID always does). Nothing else in the file moves, so no offset anywhere needs fixing.
/// Creating a makernote, or adding 0x0011 to one, means rewriting the Exif item and its `iloc`
/// extent: this editor reports that as unsupported and `HEICExifRewriter` does it.
public enum HEICMakerNoteEditor {
    /// The result of an in-place edit: the new bytes and the byte range that may differ.
    public struct Edit: Sendable {
        public var bytes: [UInt8]
        /// The Exif item's extent; every changed byte lies inside it.
        public var exifRange: Range<Int>
    }

    /// Returns `heic` with makernote tag 0x0011 set to `identifier`, same size, or throws
    /// `.unsupported` (no Exif item, no Apple makernote, no 0x0011 long enough) or `.malformed`.
    public static func replacingContentIdentifier(in heic: [UInt8], with identifier: String) throws(LivePhotoWriteError) -> Edit {
        let range: Range<Int>?
        do throws(BoxError) { range = try exifItemRange(heic) } catch { throw .malformed("HEIC: \(error.description)") }
        guard let range else { throw .unsupported("the HEIC has no Exif item; creating one is not supported (exiv2 cannot write HEIC)") }
        let signature = AppleMakerNoteDecoder.signature
        guard let start = find(signature, in: heic, range: range) else {
            throw .unsupported("the HEIC's Exif has no Apple makernote; creating one in a HEIC is not supported")
        }
        let old = Array(heic[start..<range.upperBound])
        let new: [UInt8]
        do { new = try AppleMakerNoteEncoder.replacingContentIdentifier(in: old, with: identifier) } catch {
            throw .malformed("HEIC makernote: \(error)")
        }
        guard new.count == old.count else {
            throw .unsupported("the HEIC's makernote has no ContentIdentifier (0x0011) long enough to overwrite in place; adding one to a HEIC is not supported")
        }
        var out = heic
        out.replaceSubrange(start..<range.upperBound, with: new)
        return Edit(bytes: out, exifRange: range)
    }

    static func find(_ needle: [UInt8], in bytes: [UInt8], range: Range<Int>) -> Int? {
        guard let first = needle.first, range.count >= needle.count else { return nil }
        var i = range.lowerBound
        while i + needle.count <= range.upperBound {
            if bytes[i] == first && bytes[i..<(i + needle.count)].elementsEqual(needle) { return i }
            i += 1
        }
        return nil
    }

    /// The byte range of the `Exif` item's data, nil when there is none. Only single-extent items
    /// stored in the file (construction method 0) or in `idat` (1) are located.
    static func exifItemRange(_ bytes: [UInt8]) throws(BoxError) -> Range<Int>? {
        let source = MemoryByteSource(bytes)
        let scan = TopLevel.scan(source)
        if let e = scan.error { throw e }
        guard let meta = scan.first("meta") else { return nil }
        var c = ByteCursor(bytes, baseOffset: 0, path: "")
        try c.skip(Int(meta.payloadOffset))
        var body = try c.slice(Int(meta.payloadSize), path: "meta")
        _ = try body.versionAndFlags()
        var iinf: ByteCursor?, iloc: ByteCursor?
        var idatStart: Int?
        var children = 0
        while body.remaining >= 8 {
            children += 1
            guard children <= 10_000 else { throw body.error(.limit, "too many boxes in 'meta'") }
            let at = body.fileOffset
            let size32 = try body.u32("box size")
            let type = try body.fourCC("box type")
            var payload: Int
            if size32 == 1 {
                let size64 = try body.u64("box size")
                guard size64 >= 16, size64 - 16 <= UInt64(body.remaining) else { throw body.error(.malformed, "bad 64-bit box size", at: at) }
                payload = Int(size64 - 16)
            } else if size32 == 0 {
                payload = body.remaining
            } else {
                guard size32 >= 8, Int(size32) - 8 <= body.remaining else { throw body.error(.malformed, "box size \(size32) runs past 'meta'", at: at) }
                payload = Int(size32) - 8
            }
            if type == "idat" { idatStart = Int(body.fileOffset) }
            let child = try body.slice(payload, path: "meta/\(type)")
            if type == "iinf" { iinf = child }
            if type == "iloc" { iloc = child }
        }
        guard var iinf, var iloc else { return nil }

        // iinf: the item id whose type is 'Exif'.
        let iinfVersion = try iinf.versionAndFlags().version
        let entries = iinfVersion == 0 ? Int(try iinf.u16()) : Int(try iinf.u32())
        var exifID: UInt32?
        for _ in 0..<min(entries, 65_536) where iinf.remaining >= 8 {
            let size = try iinf.u32("infe size")
            guard size >= 8 else { throw iinf.error(.malformed, "infe size \(size)") }
            var infe = try iinf.slice(Int(size) - 4, path: "meta/iinf/infe")
            guard try infe.fourCC() == "infe" else { continue }
            let version = try infe.versionAndFlags().version
            guard version >= 2 else { continue }
            let id = version == 2 ? UInt32(try infe.u16()) : try infe.u32()
            _ = try infe.u16("protection index")
            if try infe.fourCC("item type") == "Exif" {
                exifID = id
                break
            }
        }
        guard let exifID else { return nil }

        // iloc: that item's extent.
        let ilocVersion = try iloc.versionAndFlags().version
        guard ilocVersion <= 2 else { throw iloc.error(.unsupported, "iloc version \(ilocVersion)") }
        let sizes1 = try iloc.u8(), sizes2 = try iloc.u8()
        let offsetSize = Int(sizes1 >> 4), lengthSize = Int(sizes1 & 0xF), baseSize = Int(sizes2 >> 4)
        let indexSize = ilocVersion >= 1 ? Int(sizes2 & 0xF) : 0
        func sized(_ n: Int) throws(BoxError) -> UInt64 {
            switch n {
            case 0: return 0
            case 4: return UInt64(try iloc.u32())
            case 8: return try iloc.u64()
            default: throw iloc.error(.malformed, "iloc field size \(n)")
            }
        }
        let items = ilocVersion < 2 ? Int(try iloc.u16()) : Int(try iloc.u32())
        for _ in 0..<min(items, 65_536) {
            let id = ilocVersion < 2 ? UInt32(try iloc.u16()) : try iloc.u32()
            let method = ilocVersion >= 1 ? (try iloc.u16()) & 0xF : 0
            _ = try iloc.u16("data reference index")
            let base = try sized(baseSize)
            let extents = Int(try iloc.u16())
            var found: [(UInt64, UInt64)] = []
            for _ in 0..<extents {
                _ = try sized(indexSize)
                let offset = try sized(offsetSize), length = try sized(lengthSize)
                found.append((offset, length))
            }
            guard id == exifID else { continue }
            guard found.count == 1, method <= 1 else {
                throw iloc.error(.unsupported, "the Exif item has \(found.count) extents (construction method \(method))")
            }
            let origin: UInt64 = method == 1 ? UInt64(idatStart ?? 0) : 0
            let (s1, o1) = origin.addingReportingOverflow(base)
            let (start, o2) = s1.addingReportingOverflow(found[0].0)
            let length = found[0].1 == 0 ? UInt64(bytes.count) &- start : found[0].1
            let (end, o3) = start.addingReportingOverflow(length)
            guard !o1, !o2, !o3, start <= end, end <= UInt64(bytes.count) else {
                throw iloc.error(.malformed, "the Exif item's extent lies outside the file")
            }
            return Int(start)..<Int(end)
        }
        return nil
    }
}
