import ISOBMFF

/// A HEIC's `Exif` item as `meta` declares it: the one `meta` parser shared by the in-place
/// makernote editor (``HEICMakerNoteEditor``) and the Exif item rewriter (``HEICExifRewriter``).
///
/// ``locate(in:strict:)`` finds `iinf`, `iloc` and `idat` in the top-level `meta`, the id of the
/// first `infe` (v2/v3) of type `Exif`, and that item's `iloc` entry (versions 0–2; offset,
/// length, base offset and index fields of 0, 4 or 8 bytes). It reports the entry as written and
/// judges nothing about it: which construction methods, data references and extent counts are
/// acceptable is each caller's policy, and ``range(fileSize:origin:)`` turns a one-extent item
/// into bytes of the file.
struct HEICExifItem {
    /// One `iloc` extent, with where its fields sit so they can be overwritten in place.
    struct Extent {
        /// The extent offset, relative to the item's base offset (and to `idat` for method 1).
        var offset: UInt64
        /// The extent length; 0 means "to the end of the file".
        var length: UInt64
        /// File position of the offset field (``HEICExifItem/offsetSize`` bytes wide).
        var offsetField: Int
        /// File position of the length field (``HEICExifItem/lengthSize`` bytes wide).
        var lengthField: Int
    }

    /// The item's id (from its `infe`).
    var itemID: UInt32
    /// The `iloc` construction method: 0 = in this file, 1 = in `idat`, 2 = item offset.
    var constructionMethod: UInt16
    /// The `iloc` data reference index: 0 = this file.
    var dataReferenceIndex: UInt16
    /// Added to every extent offset.
    var baseOffset: UInt64
    /// Width in bytes of every extent offset field (0, 4 or 8).
    var offsetSize: Int
    /// Width in bytes of every extent length field (0, 4 or 8).
    var lengthSize: Int
    /// The extents, in `iloc` order.
    var extents: [Extent]
    /// File position of the `idat` payload, nil when `meta` has none.
    var idatStart: Int?
    /// File position just past the item's `iloc` entry: where errors about the entry point.
    var entryEnd: Int64

    /// An error about the item's `iloc` entry, located like the parser's own errors.
    func error(_ category: BoxError.Category, _ message: String) -> BoxError {
        BoxError(category, message, path: "meta/iloc", offset: entryEnd)
    }

    /// The bytes of a one-extent item: `origin` (the `idat` payload for method 1, else 0) plus
    /// the base offset plus the extent offset, for the extent length (0 = to the end of the
    /// file). Nil when `extent` runs outside a `fileSize`-byte file or its sums overflow.
    func range(of extent: Extent, fileSize: Int, origin: UInt64 = 0) -> Range<Int>? {
        let (s1, o1) = origin.addingReportingOverflow(baseOffset)
        let (start, o2) = s1.addingReportingOverflow(extent.offset)
        let length = extent.length == 0 ? UInt64(fileSize) &- start : extent.length
        let (end, o3) = start.addingReportingOverflow(length)
        guard !o1, !o2, !o3, start <= end, end <= UInt64(fileSize) else { return nil }
        return Int(start)..<Int(end)
    }

    /// The Exif item of `bytes`, nil when it has no item of type `Exif`.
    ///
    /// `strict` (the rewriter's lookup) also throws when `meta`, `iinf`, `iloc` or the item's
    /// `iloc` entry is missing, checks that `meta` is not truncated, and uses the first `iinf` /
    /// `iloc` / `idat`; otherwise (the in-place editor's lookup) those absences return nil and the
    /// last of each box is used. Field sizes other than 0, 4 and 8 throw either way.
    static func locate(in bytes: [UInt8], strict: Bool) throws(BoxError) -> HEICExifItem? {
        let scan = TopLevel.scan(MemoryByteSource(bytes))
        if let e = scan.error { throw e }
        guard let meta = scan.first("meta") else {
            if strict { throw BoxError(.unsupported, "no top-level 'meta' box") }
            return nil
        }
        if strict {
            guard meta.endOffset <= Int64(bytes.count) else { throw BoxError(.malformed, "'meta' is truncated", path: "meta", offset: meta.offset) }
        }
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
            if type == "idat", !strict || idatStart == nil { idatStart = Int(body.fileOffset) }
            let child = try body.slice(payload, path: "meta/\(type)")
            if type == "iinf", !strict || iinf == nil { iinf = child }
            if type == "iloc", !strict || iloc == nil { iloc = child }
        }
        guard var iinf else {
            if strict { throw BoxError(.malformed, "'meta' has no 'iinf' (item information) box", path: "meta", offset: meta.offset) }
            return nil
        }
        guard var iloc else {
            if strict { throw BoxError(.malformed, "'meta' has no 'iloc' (item location) box", path: "meta", offset: meta.offset) }
            return nil
        }

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

        // iloc: that item's entry, and where its extent fields sit.
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
            var extents: [Extent] = []
            for _ in 0..<extentCount {
                _ = try sized(indexSize)
                let offsetField = Int(iloc.fileOffset)
                let offset = try sized(offsetSize)
                let lengthField = Int(iloc.fileOffset)
                let length = try sized(lengthSize)
                extents.append(Extent(offset: offset, length: length, offsetField: offsetField, lengthField: lengthField))
            }
            guard id == exifID else { continue }
            return HEICExifItem(itemID: id, constructionMethod: method, dataReferenceIndex: reference, baseOffset: base,
                                offsetSize: offsetSize, lengthSize: lengthSize, extents: extents, idatStart: idatStart,
                                entryEnd: iloc.fileOffset)
        }
        if strict { throw BoxError(.malformed, "the Exif item \(exifID) has no 'iloc' entry", path: "meta/iloc") }
        return nil
    }
}
