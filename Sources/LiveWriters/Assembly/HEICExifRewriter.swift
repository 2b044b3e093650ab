import AppleMakerNote
import CExiv2Shim
import ISOBMFF
import LiveModel
import LiveReaders

/// Rewrites a HEIC's Exif item when its makernote cannot be re-keyed in place: a HEIC with no
/// Apple makernote (a converter's output), or one whose makernote has no tag 0x0011.
///
/// exiv2 0.27 cannot write HEIF, but it can re-encode a bare Exif TIFF structure
/// (`llx_tiff_set_makernote`). So: the Exif item is located through `meta/iinf` (an `infe` v2/v3
/// of type `Exif`) and `meta/iloc` (one extent, construction method 0, in this file); its TIFF
/// (after the item's 4-byte `tiff_header_offset` prefix and the bytes it skips) gets the new
/// makernote through exiv2; the new item payload, with the same prefix, is appended to the file in
/// a new top-level `mdat`; and only that item's `iloc` extent offset and length are overwritten,
/// in their existing field widths. `meta` keeps its size, every other byte of the original file
/// stays where it was (the old Exif bytes become unreferenced), so the image items are untouched.
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

    /// exiv2's half: the TIFF with the new makernote.
    static func rewriteTIFF(_ tiff: [UInt8], makerNote: [UInt8]?, makeIfAbsent: String?) throws(LivePhotoWriteError) -> [UInt8] {
        var out: UnsafeMutablePointer<UInt8>?
        var outLength = 0
        var message: UnsafeMutablePointer<CChar>?
        let status = tiff.withUnsafeBufferPointer { t in
            withOptionalBytes(makerNote) { m, mCount in
                withOptionalCString(makeIfAbsent) { make in
                    llx_tiff_set_makernote(t.baseAddress, t.count, m, mCount, make, &out, &outLength, &message)
                }
            }
        }
        defer {
            llx_free(out)
            llx_free(message)
        }
        guard status == LLX_OK, let out else {
            let text = "HEIC Exif: " + (message.map { String(cString: $0) } ?? "exiv2 could not rewrite the Exif")
            throw status == LLX_ERR_UNSUPPORTED ? .unsupported(text) : .malformed(text)
        }
        return Array(UnsafeBufferPointer(start: out, count: outLength))
    }

    private static func withOptionalBytes<R>(_ bytes: [UInt8]?, _ body: (UnsafePointer<UInt8>?, Int) -> R) -> R {
        guard let bytes else { return body(nil, 0) }
        // A non-NULL pointer even for an empty makernote: NULL means "remove".
        if bytes.isEmpty { return withUnsafePointer(to: UInt8(0)) { body($0, 0) } }
        return bytes.withUnsafeBufferPointer { body($0.baseAddress, $0.count) }
    }

    private static func withOptionalCString<R>(_ s: String?, _ body: (UnsafePointer<CChar>?) -> R) -> R {
        guard let s else { return body(nil) }
        return s.withCString { body($0) }
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

    /// The Exif item, nil when the file has no `meta` / no item of type `Exif`.
    static func exifItem(_ bytes: [UInt8]) throws(BoxError) -> ExifItem? {
        let scan = TopLevel.scan(MemoryByteSource(bytes))
        if let e = scan.error { throw e }
        guard let meta = scan.first("meta") else { throw BoxError(.unsupported, "no top-level 'meta' box") }
        guard meta.endOffset <= Int64(bytes.count) else { throw BoxError(.malformed, "'meta' is truncated", path: "meta", offset: meta.offset) }
        var c = ByteCursor(bytes, baseOffset: 0, path: "")
        try c.skip(Int(meta.payloadOffset))
        var body = try c.slice(Int(meta.payloadSize), path: "meta")
        _ = try body.versionAndFlags()
        var iinf: ByteCursor?, iloc: ByteCursor?
        var children = 0
        while body.remaining >= 8 {
            children += 1
            guard children <= 10_000 else { throw body.error(.limit, "too many boxes in 'meta'") }
            let at = body.fileOffset
            let size32 = try body.u32("box size")
            let type = try body.fourCC("box type")
            let payload: Int
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
            let child = try body.slice(payload, path: "meta/\(type)")
            if type == "iinf", iinf == nil { iinf = child }
            if type == "iloc", iloc == nil { iloc = child }
        }
        guard var iinf else { throw BoxError(.malformed, "'meta' has no 'iinf' (item information) box", path: "meta", offset: meta.offset) }
        guard var iloc else { throw BoxError(.malformed, "'meta' has no 'iloc' (item location) box", path: "meta", offset: meta.offset) }

        // iinf: the id of the item whose type is 'Exif'.
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

        // iloc: that item's one extent, and where its fields sit.
        let ilocVersion = try iloc.versionAndFlags().version
        guard ilocVersion <= 2 else { throw iloc.error(.unsupported, "iloc version \(ilocVersion)") }
        let sizes1 = try iloc.u8(), sizes2 = try iloc.u8()
        let offsetSize = Int(sizes1 >> 4), lengthSize = Int(sizes1 & 0xF), baseSize = Int(sizes2 >> 4)
        let indexSize = ilocVersion >= 1 ? Int(sizes2 & 0xF) : 0
        for n in [offsetSize, lengthSize, baseSize, indexSize] where ![0, 4, 8].contains(n) {
            throw iloc.error(.malformed, "iloc field size \(n)")
        }
        func sized(_ n: Int) throws(BoxError) -> UInt64 {
            switch n {
            case 4: return UInt64(try iloc.u32())
            case 8: return try iloc.u64()
            default: return 0
            }
        }
        let items = ilocVersion < 2 ? Int(try iloc.u16()) : Int(try iloc.u32())
        for _ in 0..<min(items, 65_536) {
            let id = ilocVersion < 2 ? UInt32(try iloc.u16()) : try iloc.u32()
            let method = ilocVersion >= 1 ? (try iloc.u16()) & 0xF : 0
            let reference = try iloc.u16("data reference index")
            let base = try sized(baseSize)
            let extentCount = Int(try iloc.u16())
            var extents: [(offset: UInt64, offsetField: Int, length: UInt64, lengthField: Int)] = []
            for _ in 0..<extentCount {
                _ = try sized(indexSize)
                let offsetField = Int(iloc.fileOffset)
                let offset = try sized(offsetSize)
                let lengthField = Int(iloc.fileOffset)
                let length = try sized(lengthSize)
                extents.append((offset, offsetField, length, lengthField))
            }
            guard id == exifID else { continue }
            guard method == 0 else {
                throw iloc.error(.unsupported, method == 1
                    ? "the Exif item is stored in 'idat' (construction method 1); moving it is not supported"
                    : "the Exif item uses construction method \(method)")
            }
            guard reference == 0 else { throw iloc.error(.unsupported, "the Exif item lives in another file (data reference \(reference))") }
            guard extents.count == 1, let extent = extents.first else {
                throw iloc.error(.unsupported, "the Exif item has \(extents.count) extents; only one is rewritten")
            }
            guard offsetSize > 0 else { throw iloc.error(.unsupported, "the iloc has no offset field (offset_size 0)") }
            let (start, o1) = base.addingReportingOverflow(extent.offset)
            let length = extent.length == 0 ? UInt64(bytes.count) &- start : extent.length
            let (end, o2) = start.addingReportingOverflow(length)
            guard !o1, !o2, start <= end, end <= UInt64(bytes.count) else {
                throw iloc.error(.malformed, "the Exif item's extent (offset \(start), length \(extent.length)) lies outside the \(bytes.count)-byte file")
            }
            return ExifItem(range: Int(start)..<Int(end), offsetField: extent.offsetField, offsetSize: offsetSize,
                            lengthField: extent.lengthField, lengthSize: lengthSize, baseOffset: base)
        }
        throw BoxError(.malformed, "the Exif item \(exifID) has no 'iloc' entry", path: "meta/iloc")
    }
}
