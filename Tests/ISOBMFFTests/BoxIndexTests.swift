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

    /// Broken trees: the index records the same problems and keeps the same boxes as the tree
    /// always did (the tree is built from it), and its views stay inside the bytes.
    @Test func brokenTreesMatchBoxByBox() {
        let good = makeBox("tkhd", [1])
        let cases: [[UInt8]] = [
            makeBox("trak", good + makeBox("edts", size: 400, [0, 0])) + makeBox("trak", makeBox("tkhd", [2])),
            makeBox("udta", makeBox("free") + [1, 2, 3]),
            makeBox("udta", makeBox("free", size: 0, [1, 2, 3, 4, 5])),
            makeBox("meta", [1, 2]),
            makeBox("trak", makeBox("edts", makeBox("elst", size: 7, []))),
            Array(makeBox("moov", makeBox("trak", good)).dropLast(1)),
        ]
        for bytes in cases {
            let index = BoxIndex(bytes, baseOffset: 100)
            let tree = BoxTree.parse(bytes, baseOffset: 100)
            #expect(index.issues.map(\.message) == tree.issues.map(\.message))
            #expect(!index.issues.isEmpty)
            compare(index.topLevel, tree.nodes)
        }
    }

    /// A real movie from the fixtures, when present: every box agrees.
    @Test func fixtureMovieMatchesBoxByBox() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fixtures/pair")
        let movies = (try? FileManager.default.contentsOfDirectory(atPath: root.path))?.filter { $0.uppercased().hasSuffix(".MOV") } ?? []
        try #require(!movies.isEmpty, "Fixtures/pair holds a movie")
        for name in movies {
            let source = try FileByteSource(path: root.appendingPathComponent(name).path)
            let moov = try #require(TopLevel.scan(source).first("moov"))
            let bytes = try source.read(at: moov.payloadOffset, count: Int(moov.payloadSize))
            let index = BoxIndex(bytes, baseOffset: moov.payloadOffset, path: "moov", ancestors: ["moov"])
            let tree = BoxTree.parse(bytes, baseOffset: moov.payloadOffset, path: "moov", ancestors: ["moov"])
            #expect(index.issues.isEmpty)
            #expect(index.topLevel.first("trak") != nil)
            compare(index.topLevel, tree.nodes)
        }
    }
}
