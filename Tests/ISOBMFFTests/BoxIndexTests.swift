import Foundation
import Testing
@testable import ISOBMFF

/// `BoxIndex` is the parse behind `BoxTree`; these check that its views read what the copied
/// tree holds, box by box, and that a payload cursor reads in place and no further.
@Suite struct BoxIndexTests {
    /// Every box of `index` against the node `BoxTree` built from it, recursively.
    func compare(_ boxes: BoxIndex.Children, _ nodes: [BoxNode], path: String = "") {
        let views = Array(boxes)
        #expect(views.count == nodes.count, "\(path): \(views.count) boxes against \(nodes.count)")
        for (box, node) in zip(views, nodes) {
            let here = path + "/" + box.type.description
            #expect(box.type == node.type, "\(here)")
            #expect(box.offset == node.offset, "\(here)")
            #expect(box.headerSize == node.headerSize, "\(here)")
            #expect(box.userType == node.userType, "\(here)")
            #expect(box.isContainer == node.isContainer, "\(here)")
            #expect(box.data == node.data, "\(here)")
            // The cursor starts at the payload's file offset. A data box's cursor reads its payload;
            // a container's reads its prefix first and runs to the box's declared end, children
            // dropped after a bad one included (the tree keeps only what parsed).
            var cursor = box.payloadCursor(path: BoxPath(here))
            #expect(cursor.startOffset == (node.offset ?? -1) + Int64(node.headerSize), "\(here)")
            if case .container(let prefix, _, _) = node.content {
                #expect(cursor.peek(prefix.count) == prefix, "\(here)")
            } else {
                #expect(cursor.readRest() == node.data, "\(here)")
            }
            if let first = node.children.first {
                #expect(box.child(first.type)?.offset == first.offset, "\(here)")
            }
            #expect(box.child("zzzz") == nil)
            compare(box.children, node.children, path: here)
        }
    }

    @Test func viewsReadWhatTheCopiedTreeHolds() {
        let tkhd = makeBox("tkhd", [2, 2, 2])
        let udta = makeBox("udta", makeBox("©xyz", [0, 4, 0, 0, 0x2B, 0x31, 0x2F, 0x2F]) + [0, 0, 0, 0])
        let meta = makeBox("meta", [0, 0, 0, 0] + makeBox("hdlr", [UInt8](repeating: 0, count: 24)))
        let uuid = BoxNode(type: "uuid", data: [9, 8], userType: [UInt8](repeating: 0xCD, count: 16)).serialized()
        let trak = makeBox("trak", tkhd + makeBox("mdia", makeBox("minf", makeBox("stbl", makeBox("stsz", [0, 0, 0, 0])))))
        let bytes = makeBox("mvhd", [UInt8](repeating: 1, count: 20)) + trak + makeBox("trak", tkhd) + udta + meta + uuid
        let index = BoxIndex(bytes, baseOffset: 4096, path: "moov", ancestors: ["moov"])
        let tree = BoxTree.parse(bytes, baseOffset: 4096, path: "moov", ancestors: ["moov"])
        #expect(index.issues.isEmpty)
        #expect(Array(index.topLevel).map(\.type.description) == ["mvhd", "trak", "trak", "udta", "meta", "uuid"])
        compare(index.topLevel, tree.nodes)
        // Containers keep what is not a child: an ISO meta's version/flags, a udta's terminator.
        let metaBox = index.topLevel.first("meta")
        #expect(metaBox?.payloadCursor(path: "").peek(4) == [0, 0, 0, 0])
        #expect(metaBox?.child("hdlr") != nil)
        // `first` finds the first of several.
        #expect(index.topLevel.first("trak")?.offset == Int64(4096 + 28))
    }

    /// A payload cursor is a window: it ends where its box ends, though the bytes go on.
    @Test func payloadCursorStopsAtItsBox() throws {
        let bytes = makeBox("moov", makeBox("free", [1, 2, 3]) + makeBox("skip", [4, 5]))
        let index = BoxIndex(bytes)
        let free = try #require(index.topLevel.first("moov")?.child("free"))
        var cursor = free.payloadCursor(path: "moov/free")
        #expect(cursor.remaining == 3)
        #expect(try cursor.read(3) == [1, 2, 3])
        #expect(throws: BoxError.self) { try cursor.u8() }
        #expect(cursor.error(.malformed, "x").path == "moov/free")
    }

    /// Broken trees, each problem pinned as the parser has always reported it (message, path,
    /// offset), with the boxes kept before it.
    @Test func brokenTreesKeepWhatCameBeforeTheProblem() throws {
        struct Case {
            var bytes: [UInt8]
            var base: Int64 = 0
            var path: BoxPath = BoxPath()
            var layout: BoxTree.Layout = BoxTree.movieLayout
            var message: String
            var at: String
            var offset: Int64
            var kept: [String]
        }
        var deep = makeBox("free")
        for _ in 0..<(BoxLimits.maxDepth + 3) { deep = makeBox("udta", deep) }
        let cases = [
            Case(bytes: makeBox("udta", makeBox("free") + [1, 2, 3]), base: 100, path: "moov",
                 message: "3 stray bytes after the last child box", at: "moov/udta", offset: 116, kept: ["udta", "free"]),
            Case(bytes: makeBox("moov", makeBox("free", size: 0, [1, 2, 3, 4, 5])),
                 message: "box size 0 (to end) is only allowed at the top level", at: "moov/free", offset: 8, kept: ["moov"]),
            Case(bytes: makeBox("trak", makeBox("tkhd", [1]) + makeBox("edts", size: 400, [0, 0])), base: 50, path: "moov",
                 message: "box size 400 is larger than the 10 bytes its parent has left", at: "moov/trak[1]/edts", offset: 67,
                 kept: ["trak", "tkhd"]),
            Case(bytes: makeBox("meta", [1, 2]), base: 10,
                 message: "2 stray bytes after the last child box", at: "meta", offset: 18, kept: ["meta"]),
            Case(bytes: makeBox("stsd", [0, 0, 0]), layout: { type, _ in type == "stsd" ? .children(prefix: 8) : nil },
                 message: "container too short for its 8-byte header", at: "stsd", offset: 8, kept: ["stsd"]),
            Case(bytes: deep, message: "boxes nested deeper than \(BoxLimits.maxDepth)",
                 at: Array(repeating: "udta", count: BoxLimits.maxDepth + 1).joined(separator: "/"),
                 offset: Int64(8 * BoxLimits.maxDepth), kept: Array(repeating: "udta", count: BoxLimits.maxDepth + 1)),
        ]
        for c in cases {
            let index = BoxIndex(c.bytes, baseOffset: c.base, path: c.path, layout: c.layout)
            let issue = try #require(index.issues.first, "\(c.message)")
            #expect(index.issues.count == 1, "\(c.message)")
            #expect(issue.message == c.message)
            #expect(issue.path == c.at, "\(c.message)")
            #expect(issue.offset == c.offset, "\(c.message)")
            var types: [String] = []
            func visit(_ boxes: BoxIndex.Children) {
                for box in boxes {
                    types.append(box.type.description)
                    visit(box.children)
                }
            }
            visit(index.topLevel)
            #expect(types == c.kept, "\(c.message)")
        }
    }

    /// An independent walk of well-formed boxes, no checks made: each box's depth, type, offset
    /// and payload, opening what the movie layout opens (a QuickTime or ISO `meta` told apart
    /// as exiftool does). The oracle for real movies below.
    static func walk(_ bytes: [UInt8], base: Int64, _ range: Range<Int>, depth: Int, parent: String,
                     into out: inout [(depth: Int, type: String, offset: Int64, payload: [UInt8])]) {
        let containers: Set<String> = ["moov", "trak", "mdia", "minf", "stbl", "dinf", "edts", "udta", "tref", "mvex",
                                       "gmhd", "tapt", "ilst", "moof", "traf", "mfra", "clip", "matt"]
        func u32(_ at: Int) -> Int { Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3]) }
        var at = range.lowerBound
        while at + 8 <= range.upperBound {
            let size = u32(at)
            guard size >= 8, at + size <= range.upperBound else { return }
            let type = BoxType(rawValue: UInt32(u32(at + 4))).description
            out.append((depth, type, base + Int64(at), Array(bytes[(at + 8)..<(at + size)])))
            if containers.contains(type) || type == "meta" || parent == "ilst" {
                var prefix = 0
                if type == "meta" {
                    let child = at + 8 + 8 <= at + size ? u32(at + 8) : 0
                    let looksLikeBox = child >= 8 && child <= size - 8
                        && bytes[(at + 12)..<(at + 16)].allSatisfy { ($0 >= 0x20 && $0 < 0x7F) || $0 == 0xA9 }
                    prefix = looksLikeBox ? 0 : (size - 8 >= 4 ? 4 : 0)
                }
                walk(bytes, base: base, (at + 8 + prefix)..<(at + size), depth: depth + 1, parent: type, into: &out)
            }
            at += size
        }
    }

    /// Real movies (the fixture pair's, and the corpus's when present): every box the index holds,
    /// in order, is the independent walk's, with the same offset and payload bytes.
    @Test func realMoviesMatchAnIndependentWalk() throws {
        let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        var movies = [repo.appendingPathComponent("Fixtures/pair/IMG_0001.MOV").path]
        let corpus = repo.deletingLastPathComponent().appendingPathComponent("shared/corpus").path
        if let e = FileManager.default.enumerator(atPath: corpus) {
            while movies.count < 12, let p = e.nextObject() as? String {
                if p.uppercased().hasSuffix(".MOV") || p.uppercased().hasSuffix(".MP4") { movies.append(corpus + "/" + p) }
            }
        }
        for path in movies {
            let source = try FileByteSource(path: path)
            let moov = try #require(TopLevel.scan(source).first("moov"), "\(path)")
            let bytes = try source.read(at: moov.payloadOffset, count: Int(moov.payloadSize))
            let index = BoxIndex(bytes, baseOffset: moov.payloadOffset, path: "moov", ancestors: ["moov"])
            #expect(index.issues.isEmpty, "\(path)")
            var expected: [(depth: Int, type: String, offset: Int64, payload: [UInt8])] = []
            Self.walk(bytes, base: moov.payloadOffset, 0..<bytes.count, depth: 0, parent: "moov", into: &expected)
            var found: [(depth: Int, type: String, offset: Int64, payload: [UInt8])] = []
            func visit(_ boxes: BoxIndex.Children, depth: Int) {
                for box in boxes {
                    var cursor = box.payloadCursor(path: "")
                    found.append((depth, box.type.description, box.offset, cursor.readRest()))
                    visit(box.children, depth: depth + 1)
                }
            }
            visit(index.topLevel, depth: 0)
            #expect(found.count == expected.count && found.count > 20, "\(path): \(found.count) boxes, walk \(expected.count)")
            for (f, e) in zip(found, expected) {
                #expect(f.depth == e.depth && f.type == e.type && f.offset == e.offset && f.payload == e.payload,
                        "\(path): \(f.type)@\(f.offset) against \(e.type)@\(e.offset)")
            }
        }
    }
}
