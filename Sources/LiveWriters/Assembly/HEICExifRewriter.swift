import AppleMakerNote
import ISOBMFF
import LiveModel
import LiveReaders

/// Rewrites a HEIC's Exif item when its makernote cannot be re-keyed in place: a HEIC with no
/// Apple makernote (a converter's output), or one whose makernote has no tag 0x0011.
///
/// exiv2 0.27 cannot write HEIF, but it can re-encode a bare Exif TIFF structure (through
/// `LiveReaders.StillExifEditor`, which keeps exiv2 behind `LiveReaders`). So: the Exif item is
/// located through `meta/iinf` (an `infe` v2/v3 of type `Exif`) and `meta/iloc` (one extent,
/// construction method 0, in this file); its TIFF (after the item's 4-byte `tiff_header_offset`
/// prefix and the bytes it skips) gets the new makernote through exiv2; the new item payload, with
/// the same prefix, is appended to the file in a new top-level `mdat`; and only that item's `iloc`
/// extent offset and length are overwritten, in their existing field widths. `meta` keeps its
/// size, every other byte of the original file stays where it was (the old Exif bytes become
/// unreferenced), so the image items are untouched.
public enum HEICExifRewriter {
    /// A rewritten HEIC: the original bytes, with `ilocFields` overwritten, followed by an `mdat`.
    public struct Rewrite: Sendable {
        /// The new file.
        public var bytes: [UInt8]
        /// The bytes of the Exif item's `iloc` extent fields: the only bytes below the original
        /// size that differ from the original.
        public var ilocFields: Range<Int>
        /// How many bytes were appended after the original file (the new `mdat`).
        public var appendedBytes: Int
        /// The new Exif item's extent (inside the appended `mdat`).
        public var exifRange: Range<Int>
    }

    /// The located Exif item.
    struct ExifItem {
        /// The item's bytes in the file.
        var range: Range<Int>
        /// Where the extent's offset field sits, and its width (4 or 8).
        var offsetField: Int
        var offsetSize: Int
        /// Where the extent's length field sits, and its width (0, 4 or 8).
        var lengthField: Int
        var lengthSize: Int
        /// The item's base offset (added to the extent offset).
        var baseOffset: UInt64
    }

    /// Largest Exif item rewritten (exiv2 works on it in memory; Apple's are a few KiB).
    public static let maxExifBytes = 16 << 20

    /// Returns `heic` with makernote tag 0x0011 set to `identifier`: the existing Apple makernote
    /// keeps every other entry (re-laid-out when 0x0011 is added), a missing or foreign makernote
    /// is replaced by a minimal Apple one, and Make is set to `Apple` when the Exif has none.
    /// Throws `.unsupported` (no Exif item, Exif in `idat`, several extents, an offset that does
    /// not fit the `iloc` field width, a last box running to the end of the file) or `.malformed`.
    public static func settingContentIdentifier(_ identifier: String, in heic: [UInt8]) throws(LivePhotoWriteError) -> Rewrite {
        let makerNote: [UInt8]
        do {
            if let existing = StillReader.makerNoteBytes(bytes: heic), AppleMakerNoteDecoder.isAppleMakerNote(existing) {
                makerNote = try AppleMakerNoteEncoder.replacingContentIdentifier(in: existing, with: identifier)
            } else {
                makerNote = try AppleMakerNoteEncoder.makerNote(contentIdentifier: identifier)
            }
        } catch {
            throw .malformed("the HEIC's makernote: \(error)")
        }
        return try replacingMakerNote(in: heic, with: makerNote, makeIfAbsent: "Apple")
    }

    /// Returns `heic` with its Exif makernote replaced by `makerNote` (removed when nil), and
    /// `Exif.Image.Make` set to `makeIfAbsent` when given and the Exif has no Make. Same layout
    /// rules and errors as ``settingContentIdentifier(_:in:)``.
    public static func replacingMakerNote(in heic: [UInt8], with makerNote: [UInt8]?, makeIfAbsent: String?) throws(LivePhotoWriteError) -> Rewrite {
        let item: ExifItem
        do throws(BoxError) {
            guard let found = try exifItem(heic) else {
                throw BoxError(.unsupported, "the HEIC has no Exif item; creating one is not supported")
            }
            item = found
        } catch {
            throw error.category == .unsupported ? .unsupported("HEIC: \(error.description)") : .malformed("HEIC: \(error.description)")
        }
        let payload = heic[item.range]
        guard payload.count >= 4 else { throw .malformed("HEIC: the Exif item is \(payload.count) bytes, shorter than its 4-byte header offset") }
        guard payload.count <= maxExifBytes else { throw .unsupported("HEIC: the Exif item is larger than \(maxExifBytes >> 20) MiB") }
        let p = payload.startIndex
        let skip = UInt32(payload[p]) << 24 | UInt32(payload[p + 1]) << 16 | UInt32(payload[p + 2]) << 8 | UInt32(payload[p + 3])
        guard skip <= UInt32(payload.count - 4) else {
            throw .malformed("HEIC: the Exif item's TIFF header offset \(skip) runs past its \(payload.count) bytes")
        }
        let tiffStart = p + 4 + Int(skip)
        let tiff = Array(heic[tiffStart..<item.range.upperBound])
        let newTIFF = try rewriteTIFF(tiff, makerNote: makerNote, makeIfAbsent: makeIfAbsent)
        let newPayload = Array(heic[p..<tiffStart]) + newTIFF

        // The new mdat at the end of the file.
        guard try lastBoxHasSize(heic) else {
            throw .unsupported("HEIC: the last top-level box runs to the end of the file (size 0); nothing can be appended after it")
        }
        let (mdatSize, o1) = newPayload.count.addingReportingOverflow(8)
        guard !o1, mdatSize <= Int(UInt32.max) else { throw .unsupported("HEIC: the new Exif item is too large") }
        let newStart = heic.count + 8
        let (rel, o2) = UInt64(newStart).subtractingReportingOverflow(item.baseOffset)
        guard !o2 else { throw .unsupported("HEIC: the Exif item's base offset \(item.baseOffset) lies past the end of the file") }
        guard fits(rel, width: item.offsetSize) else {
            throw .unsupported("HEIC: the new Exif offset \(rel) does not fit the iloc offset field (\(item.offsetSize) bytes)")
        }
        if item.lengthSize > 0 {
            guard fits(UInt64(newPayload.count), width: item.lengthSize) else {
                throw .unsupported("HEIC: the new Exif length \(newPayload.count) does not fit the iloc length field (\(item.lengthSize) bytes)")
            }
        }
        var out = heic
        out.reserveCapacity(heic.count + mdatSize)
        write(rel, width: item.offsetSize, at: item.offsetField, in: &out)
        if item.lengthSize > 0 { write(UInt64(newPayload.count), width: item.lengthSize, at: item.lengthField, in: &out) }
        out += [UInt8(mdatSize >> 24 & 0xFF), UInt8(mdatSize >> 16 & 0xFF), UInt8(mdatSize >> 8 & 0xFF), UInt8(mdatSize & 0xFF)]
        out += Array("mdat".utf8)
        out += newPayload
        let lowest = min(item.offsetField, item.lengthSize > 0 ? item.lengthField : item.offsetField)
        let highest = max(item.offsetField + item.offsetSize, item.lengthField + item.lengthSize)
        return Rewrite(bytes: out, ilocFields: lowest..<highest, appendedBytes: mdatSize, exifRange: newStart..<out.count)
    }

    /// exiv2's half, behind `LiveReaders`: the TIFF with the new makernote.
    static func rewriteTIFF(_ tiff: [UInt8], makerNote: [UInt8]?, makeIfAbsent: String?) throws(LivePhotoWriteError) -> [UInt8] {
        do throws(ReadIssue) {
            return try StillExifEditor.settingMakerNote(inTIFF: tiff, makerNote: makerNote, makeIfAbsent: makeIfAbsent)
        } catch {
            let text = "HEIC Exif: " + error.message
            throw error.category == .unsupported ? .unsupported(text) : .malformed(text)
        }
    }

    static func fits(_ value: UInt64, width: Int) -> Bool {
        width >= 8 || (width == 4 && value <= UInt64(UInt32.max))
    }

    static func write(_ value: UInt64, width: Int, at offset: Int, in bytes: inout [UInt8]) {
        for i in 0..<width { bytes[offset + i] = UInt8(truncatingIfNeeded: value >> (8 * UInt64(width - 1 - i))) }
    }

    /// False when the last top-level box has size 0 ("to the end of the file").
    static func lastBoxHasSize(_ bytes: [UInt8]) throws(LivePhotoWriteError) -> Bool {
        let scan = TopLevel.scan(MemoryByteSource(bytes))
        if let e = scan.error { throw .malformed("HEIC: \(e.description)") }
        guard let last = scan.boxes.last else { throw .malformed("HEIC: no boxes") }
        guard last.endOffset == Int64(bytes.count) else {
            throw .malformed("HEIC: the file does not end at its last box (\(scan.warnings.first?.description ?? "trailing bytes"))")
        }
        return !last.extendsToEnd
    }

    /// The Exif item, nil when the file has no item of type `Exif`; throws when it has no
    /// `meta` / `iinf` / `iloc`, or when the item is not one extent in this file.
    static func exifItem(_ bytes: [UInt8]) throws(BoxError) -> ExifItem? {
        guard let item = try HEICExifItem.locate(in: bytes, strict: true) else { return nil }
        let method = item.constructionMethod
        guard method == 0 else {
            throw item.error(.unsupported, method == 1
                ? "the Exif item is stored in 'idat' (construction method 1); moving it is not supported"
                : "the Exif item uses construction method \(method)")
        }
        let reference = item.dataReferenceIndex
        guard reference == 0 else { throw item.error(.unsupported, "the Exif item lives in another file (data reference \(reference))") }
        guard item.extents.count == 1, let extent = item.extents.first else {
            throw item.error(.unsupported, "the Exif item has \(item.extents.count) extents; only one is rewritten")
        }
        guard item.offsetSize > 0 else { throw item.error(.unsupported, "the iloc has no offset field (offset_size 0)") }
        guard let range = item.range(of: extent, fileSize: bytes.count) else {
            let start = item.baseOffset &+ extent.offset
            throw item.error(.malformed, "the Exif item's extent (offset \(start), length \(extent.length)) lies outside the \(bytes.count)-byte file")
        }
        return ExifItem(range: range, offsetField: extent.offsetField, offsetSize: item.offsetSize,
                        lengthField: extent.lengthField, lengthSize: item.lengthSize, baseOffset: item.baseOffset)
    }
}
