import ISOBMFF
import TestSupport

/// Makes damaged copies of a media file: truncations, box sizes set to 0, 1 (a 64-bit size past
/// the end), 7 and 0xFFFFFFFF, bit flips inside `moov` (or a HEIC's `meta`) and inside the Apple
/// makernote, and makernote IFD fields set to hostile values. Deterministic for a given seed.
struct Mutator {
    struct Variant {
        /// What was done, usable in a file name (`trunc-1234`, `size7-moov.trak[2]@1180`).
        var name: String
        var bytes: [UInt8]
    }

    struct Budget {
        /// Truncation points spread over the file (plus the box-boundary ones).
        var truncations: Int
        /// Bit-flip variants per region (moov / meta / makernote).
        var flips: Int
        /// Boxes whose size field is rewritten (each 4 ways); the first ones in file order.
        var boxes: Int

        static let quick = Budget(truncations: 10, flips: 8, boxes: 10)
        static let full = Budget(truncations: 64, flips: 64, boxes: 200)
    }

    let budget: Budget

    func variants(of bytes: [UInt8], seed: UInt64) -> [Variant] {
        var out: [Variant] = []
        var rng = SplitMix(seed: seed)
        let count = bytes.count
        guard count > 0 else { return [] }

        // Truncations: evenly spread, then at every early box boundary (inside the header too).
        var cuts = Set<Int>()
        for i in 1...max(1, budget.truncations) { cuts.insert(count * i / (budget.truncations + 1)) }
        cuts.insert(count - 1)
        let boxes = Self.boxes(in: bytes)
        for (_, offset, _) in boxes.prefix(budget.boxes) {
            for delta in [3, 8, 12, 17] where Int(offset) + delta < count { cuts.insert(Int(offset) + delta) }
        }
        for cut in cuts.sorted() where cut > 0 && cut < count {
            out.append(Variant(name: "trunc-\(cut)", bytes: Array(bytes[0..<cut])))
        }

        // Box sizes: 0, 1 (with a 64-bit size past the end), 7, 0xFFFFFFFF.
        for (path, offset, _) in boxes.prefix(budget.boxes) {
            let at = Int(offset)
            guard at + 16 <= count else { continue }
            let tag = path.replacingOccurrences(of: "/", with: ".") + "@\(at)"
            for (label, size) in [("size0", UInt32(0)), ("size7", 7), ("sizeFFFFFFFF", 0xFFFF_FFFF)] {
                var b = bytes
                Self.put32(size, into: &b, at: at)
                out.append(Variant(name: "\(label)-\(tag)", bytes: b))
            }
            var b = bytes
            Self.put32(1, into: &b, at: at)
            let large = UInt64(count) * 2 + 12_345
            for i in 0..<8 { b[at + 8 + i] = UInt8((large >> (56 - 8 * UInt64(i))) & 0xFF) }
            out.append(Variant(name: "size64past-\(tag)", bytes: b))
        }

        // Bit flips inside the structures the readers decode.
        var regions: [(String, Range<Int>)] = []
        for (path, offset, size) in boxes where path == "moov" || path == "meta" {
            let start = Int(offset), end = min(count, start + Int(size))
            if end > start + 8 { regions.append((path, (start + 8)..<end)) }
        }
        if let note = Self.makerNoteRange(in: bytes) { regions.append(("makernote", note)) }
        for (label, range) in regions {
            for k in 0..<budget.flips {
                var b = bytes
                let flipsHere = 1 + Int(rng.next() % 4)
                for _ in 0..<flipsHere {
                    let at = range.lowerBound + Int(rng.next() % UInt64(range.count))
                    b[at] ^= UInt8(1) << UInt8(rng.next() % 8)
                }
                out.append(Variant(name: "flip-\(label)-\(k)", bytes: b))
            }
        }

        // Makernote fields set to hostile values (entry count, value count, value offset, IFD loop).
        if let note = Self.makerNoteRange(in: bytes), note.count >= 32 {
            let mn = note.lowerBound
            let bigEndian = bytes[mn + 12] == 0x4D
            func put16(_ v: UInt16, _ b: inout [UInt8], _ at: Int) {
                let hi = UInt8(v >> 8), lo = UInt8(v & 0xFF)
                b[at] = bigEndian ? hi : lo
                b[at + 1] = bigEndian ? lo : hi
            }
            func put32le(_ v: UInt32, _ b: inout [UInt8], _ at: Int) {
                if bigEndian { Self.put32(v, into: &b, at: at) } else {
                    for i in 0..<4 { b[at + i] = UInt8((v >> (8 * UInt32(i))) & 0xFF) }
                }
            }
            let entryCount = bigEndian ? Int(bytes[mn + 14]) << 8 | Int(bytes[mn + 15]) : Int(bytes[mn + 15]) << 8 | Int(bytes[mn + 14])
            var b = bytes
            put16(0xFFFF, &b, mn + 14)
            out.append(Variant(name: "makernote-entrycount-FFFF", bytes: b))
            if mn + 16 + 12 <= count {
                b = bytes
                put32le(0xFFFF_FFFF, &b, mn + 16 + 4)
                out.append(Variant(name: "makernote-valuecount-FFFFFFFF", bytes: b))
                b = bytes
                put32le(0xFFFF_FFF0, &b, mn + 16 + 8)
                out.append(Variant(name: "makernote-valueoffset-FFFFFFF0", bytes: b))
                b = bytes
                put16(0x00FF, &b, mn + 16 + 2)
                out.append(Variant(name: "makernote-type-255", bytes: b))
            }
            let nextAt = mn + 16 + 12 * entryCount
            if nextAt + 4 <= count {
                b = bytes
                put32le(14, &b, nextAt)
                out.append(Variant(name: "makernote-ifd-loop", bytes: b))
                b = bytes
                put32le(0x7FFF_FFFF, &b, nextAt)
                out.append(Variant(name: "makernote-next-past-end", bytes: b))
            }
        }
        return out
    }

    /// Every box the movie layout opens, in file order: (path, offset, size). Top-level boxes,
    /// then the children of `moov` and a top-level `meta`. Empty for data that is not ISO-BMFF.
    static func boxes(in bytes: [UInt8]) -> [(String, Int64, Int64)] {
        let scan = TopLevel.scan(MemoryByteSource(bytes))
        guard scan.error == nil || !scan.boxes.isEmpty, scan.boxes.contains(where: { ["ftyp", "moov", "mdat", "meta"].contains($0.type) }) else {
            return []
        }
        var out: [(String, Int64, Int64)] = []
        for header in scan.boxes {
            out.append((header.type.description, header.offset, header.size))
            guard header.type == "moov" || header.type == "meta" else { continue }
            let end = min(Int(header.endOffset), bytes.count)
            let start = Int(header.offset)
            guard start < end else { continue }
            let tree = BoxTree.parse(Array(bytes[start..<end]), baseOffset: header.offset)
            func walk(_ node: BoxNode, _ path: String) {
                for child in node.children {
                    let childPath = path + "/" + child.type.description
                    if let offset = child.offset { out.append((childPath, offset, child.size)) }
                    walk(child, childPath)
                }
            }
            for node in tree.nodes { walk(node, node.type.description) }
        }
        return out.sorted { $0.1 < $1.1 }
    }

    /// The Apple makernote's bytes: from `Apple iOS\0` to 4 KiB on (makernotes are smaller), or nil.
    static func makerNoteRange(in bytes: [UInt8]) -> Range<Int>? {
        let signature = Array("Apple iOS".utf8) + [0]
        guard bytes.count >= signature.count else { return nil }
        var i = 0
        while i + signature.count <= bytes.count {
            if bytes[i] == 0x41, Array(bytes[i..<(i + signature.count)]) == signature {
                return i..<min(bytes.count, i + 4096)
            }
            i += 1
        }
        return nil
    }

    static func put32(_ v: UInt32, into b: inout [UInt8], at: Int) {
        for i in 0..<4 { b[at + i] = UInt8((v >> (24 - 8 * UInt32(i))) & 0xFF) }
    }
}
