import ISOBMFF
import LiveModel

/// Sets a HEIC's XMP (exiv2 0.27 cannot write HEIC). The new packet always goes in a new `mdat`
/// at the end of the file:
/// - when the HEIC has an XMP item (`infe` of type `mime`, content type `application/rdf+xml`,
///   one extent in this file, as iPhones write it), `edit` gets its packet and only that item's
///   `iloc` entry changes, in place (the HEICExifRewriter's way with the Exif item);
/// - otherwise an item is added: its `infe` in `iinf`, its `iloc` entry; `meta` grows by those,
///   and when it comes before the media every in-file extent after it moves by as much.
/// No image byte changes: every other item's bytes are compared at their old and new places.
enum HEICXMPItem {
    static let contentType = "application/rdf+xml"

    static func settingXMP(in heic: [UInt8], _ edit: (String?) -> String) throws(BoxError) -> [UInt8] {
        let scan = TopLevel.scan(MemoryByteSource(heic))
        if let e = scan.error { throw e }
        guard let meta = scan.first("meta"), meta.headerSize == 8, meta.endOffset <= Int64(heic.count) else {
            throw BoxError(.unsupported, "no plain top-level 'meta' box")
        }
        // meta's children, as (type, whole box bytes).
        var c = ByteCursor(heic, baseOffset: 0, path: "")
        try c.skip(Int(meta.payloadOffset))
        var body = try c.slice(Int(meta.payloadSize), path: "meta")
        let metaHeader = try FullBoxHeader.read(&body)
        var children: [(type: BoxType, start: Int, bytes: [UInt8])] = []
        while body.remaining >= 8 {
            guard children.count < 1_000 else { throw body.error(.limit, "too many boxes in 'meta'") }
            let at = Int(body.fileOffset)
            let size = Int(try body.u32("box size"))
            let type = try body.fourCC("box type")
            guard size >= 8, size - 8 <= body.remaining else { throw body.error(.unsupported, "box size \(size) in 'meta'", at: Int64(at)) }
            _ = try body.slice(size - 8)
            children.append((type, at, Array(heic[at..<(at + size)])))
        }
        guard let iinfIndex = children.firstIndex(where: { $0.type == "iinf" }),
              let ilocIndex = children.firstIndex(where: { $0.type == "iloc" }) else {
            throw BoxError(.unsupported, "'meta' has no 'iinf' or 'iloc'")
        }

        // iinf: its entries as they are, the ids in use, and no XMP item yet.
        let iinfBytes = children[iinfIndex].bytes
        var iinf = ByteCursor(iinfBytes, baseOffset: Int64(children[iinfIndex].start), path: "meta/iinf")
        try iinf.skip(8)
        let iinfHeader = try FullBoxHeader.read(&iinf)
        let entryCount = iinfHeader.version == 0 ? UInt32(try iinf.u16()) : try iinf.u32()
        var ids: Set<UInt32> = []
        var entries: [UInt8] = []
        var xmpIDs: [UInt32] = []
        for _ in 0..<min(entryCount, 65_535) where iinf.remaining >= 8 {
            let start = Int(iinf.fileOffset) - children[iinfIndex].start
            let size = Int(try iinf.u32("infe size"))
            guard size >= 8, size - 4 <= iinf.remaining else { throw iinf.error(.malformed, "infe size \(size)") }
            var infe = try iinf.slice(size - 4, path: "meta/iinf/infe")
            entries += iinfBytes[start..<(start + size)]
            guard try infe.fourCC() == "infe" else { continue }
            let version = try infe.versionAndFlags().version
            guard version >= 2 else { continue }
            let id = version == 2 ? UInt32(try infe.u16()) : try infe.u32()
            ids.insert(id)
            _ = try infe.u16("protection index")
            if try infe.fourCC("item type") == "mime" {
                var strings = [String](), current: [UInt8] = []
                while infe.remaining > 0, strings.count < 2 {
                    let b = try infe.u8()
                    if b == 0 { strings.append(String(decoding: current, as: UTF8.self)); current = [] } else { current.append(b) }
                }
                // Every one: iPhones write two (exiv2 0.27 reads the last, other readers the one
                // the primary image refers to).
                if strings.count == 2, strings[1] == contentType { xmpIDs.append(id) }
            }
        }
        var iloc = try ItemLocationBox.read(ByteCursor(Array(children[ilocIndex].bytes.dropFirst(8)),
                                                       baseOffset: Int64(children[ilocIndex].start + 8), path: "meta/iloc"))
        if !xmpIDs.isEmpty {
            // Replace each packet: each item's one extent moves into a new mdat at the end.
            var data: [UInt8] = []
            for xmpID in xmpIDs {
                guard let index = iloc.items.firstIndex(where: { $0.id == xmpID }) else {
                    throw BoxError(.malformed, "the XMP item \(xmpID) has no 'iloc' entry", path: "meta/iloc")
                }
                var item = iloc.items[index]
                guard item.constructionMethod == 0, item.dataReferenceIndex == 0, item.extents.count == 1 else {
                    throw BoxError(.unsupported, "the XMP item is not one extent in this file", path: "meta/iloc")
                }
                let start = Int(item.baseOffset + item.extents[0].offset), count = Int(item.extents[0].length)
                guard start >= 0, count > 0, start + count <= heic.count else {
                    throw BoxError(.malformed, "the XMP item lies outside the file", path: "meta/iloc")
                }
                let packet = Array(edit(String(decoding: heic[start..<(start + count)], as: UTF8.self)).utf8)
                let dataAt = UInt64(heic.count + 8 + data.count)
                data += packet
                // The place goes in the base offset when there is one (extent offset 0), else in
                // the extent offset (exiv2 0.27's iloc reader looks there).
                let useBase = iloc.baseOffsetSize > 0
                item.baseOffset = useBase ? dataAt : 0
                item.extents[0] = ItemLocationBox.Extent(index: item.extents[0].index, offset: useBase ? 0 : dataAt, length: UInt64(packet.count))
                guard ItemLocationBox.fits(dataAt, width: useBase ? iloc.baseOffsetSize : iloc.offsetSize),
                      ItemLocationBox.fits(UInt64(packet.count), width: iloc.lengthSize) else {
                    throw BoxError(.limit, "the new XMP's place does not fit the 'iloc' fields")
                }
                iloc.items[index] = item
            }
            let newIloc = iloc.node.serialized()
            guard newIloc.count == children[ilocIndex].bytes.count else { throw BoxError(.limit, "'iloc' changed size") }
            var out = heic
            out.replaceSubrange(children[ilocIndex].start..<(children[ilocIndex].start + newIloc.count), with: newIloc)
            return out + BoxNode(type: "mdat", data: data).serialized()
        }
        let xmp = Array(edit(nil).utf8)
        ids.formUnion(iloc.items.map(\.id))
        let newID = (ids.max() ?? 0) + 1
        let limit: UInt32 = iloc.header.version < 2 ? 0xFFFF : UInt32.max
        guard newID <= limit, newID <= 0xFFFF || iinfHeader.version >= 1 else { throw BoxError(.unsupported, "no item id left") }

        // The new infe (v2, or v3 for a 32-bit id).
        var w = ByteWriter()
        w.versionAndFlags(newID > 0xFFFF ? 3 : 2, 0)
        if newID > 0xFFFF { w.u32(newID) } else { w.u16(UInt16(newID)) }
        w.u16(0)
        w.fourCC("mime")
        w.u8(0)
        w.bytes(Array(contentType.utf8) + [0])
        let infe = BoxNode(type: "infe", data: w.bytes).serialized()
        var iinfPayload = ByteWriter()
        iinfHeader.write(to: &iinfPayload)
        if iinfHeader.version == 0 { iinfPayload.u16(UInt16(entryCount + 1)) } else { iinfPayload.u32(entryCount + 1) }
        iinfPayload.bytes(entries + infe)
        let newIinf = BoxNode(type: "iinf", data: iinfPayload.bytes).serialized()

        // Growth of meta, and so of every in-file extent after it.
        guard iloc.offsetSize > 0, iloc.lengthSize > 0 else { throw BoxError(.unsupported, "iloc without offset or length fields") }
        let growth = (newIinf.count - iinfBytes.count) + iloc.entrySize(extents: 1)
        let metaEnd = UInt64(meta.endOffset)
        for i in iloc.items.indices where iloc.items[i].constructionMethod == 0 && iloc.items[i].dataReferenceIndex == 0 {
            var item = iloc.items[i]
            let after = item.extents.map { item.baseOffset &+ $0.offset >= metaEnd }
            if iloc.baseOffsetSize > 0, item.baseOffset >= metaEnd || (after.allSatisfy { $0 } && !after.isEmpty && item.baseOffset > 0) {
                item.baseOffset += UInt64(growth)
            } else {
                for j in item.extents.indices where after[j] { item.extents[j].offset += UInt64(growth) }
            }
            guard ItemLocationBox.fits(item.baseOffset, width: iloc.baseOffsetSize),
                  item.extents.allSatisfy({ ItemLocationBox.fits($0.offset, width: iloc.offsetSize) }) else {
                throw BoxError(.limit, "a shifted item offset does not fit its 'iloc' field")
            }
            iloc.items[i] = item
        }
        let dataAt = UInt64(heic.count + growth + 8)
        guard ItemLocationBox.fits(dataAt, width: iloc.offsetSize), ItemLocationBox.fits(UInt64(xmp.count), width: iloc.lengthSize) else {
            throw BoxError(.limit, "the XMP item's place does not fit the 'iloc' fields")
        }
        iloc.items.append(ItemLocationBox.Item(id: newID, extents: [ItemLocationBox.Extent(offset: dataAt, length: UInt64(xmp.count))]))
        let newIloc = iloc.node.serialized()

        var metaPayload = ByteWriter()
        metaHeader.write(to: &metaPayload)
        for (i, child) in children.enumerated() {
            metaPayload.bytes(i == iinfIndex ? newIinf : i == ilocIndex ? newIloc : child.bytes)
        }
        let newMeta = BoxNode(type: "meta", data: metaPayload.bytes).serialized()
        guard newMeta.count == Int(meta.size) + growth else { throw BoxError(.limit, "'meta' grew by an unexpected amount") }
        let out = Array(heic[..<Int(meta.offset)]) + newMeta + Array(heic[Int(meta.endOffset)...]) + BoxNode(type: "mdat", data: xmp).serialized()

        // Every original in-file item reads the same bytes at its new place.
        let old = try ItemLocationBox.read(ByteCursor(Array(children[ilocIndex].bytes.dropFirst(8)), baseOffset: 0, path: "meta/iloc"))
        for (before, after) in zip(old.items, iloc.items) where before.constructionMethod == 0 && before.dataReferenceIndex == 0 {
            for (e0, e1) in zip(before.extents, after.extents) {
                let s0 = Int(before.baseOffset + e0.offset), s1 = Int(after.baseOffset + e1.offset)
                let n = e0.length == 0 ? heic.count - s0 : Int(e0.length)
                guard s0 >= 0, n >= 0, s0 + n <= heic.count, s1 + n <= out.count, heic[s0..<(s0 + n)] == out[s1..<(s1 + n)] else {
                    throw BoxError(.malformed, "item \(before.id) would not read the same bytes after the XMP item is added")
                }
            }
        }
        return out
    }
}
