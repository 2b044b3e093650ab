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
        guard let item = try HEICExifItem.locate(in: bytes, strict: false) else { return nil }
        let method = item.constructionMethod
        guard item.extents.count == 1, let extent = item.extents.first, method <= 1 else {
            throw item.error(.unsupported, "the Exif item has \(item.extents.count) extents (construction method \(method))")
        }
        let origin: UInt64 = method == 1 ? UInt64(item.idatStart ?? 0) : 0
        guard let range = item.range(of: extent, fileSize: bytes.count, origin: origin) else {
            throw item.error(.malformed, "the Exif item's extent lies outside the file")
        }
        return range
    }
}
