import Testing
@testable import ISOBMFF

/// Box paths are built lazily (issue 4); these pin the text they render to, and that errors deep in
/// a tree still name every level.
@Suite struct BoxPathTests {
    @Test func rendersComponentsJoinedBySlashes() {
        #expect(BoxPath().description == "")
        #expect(BoxPath().isEmpty)
        #expect(BoxPath("").isEmpty)
        let trak = BoxPath("moov").appending("trak", index: 2)
        #expect(trak.description == "moov/trak[2]")
        #expect(trak.appending("mdia").appending("minf").description == "moov/trak[2]/mdia/minf")
        #expect(BoxPath().appending("ftyp").description == "ftyp")
        // Text starting with a space attaches as is; other text is a component.
        #expect(BoxPath("moov/trak[1]/mdia/minf/stbl").appending(" sample[3]").description == "moov/trak[1]/mdia/minf/stbl sample[3]")
        #expect(BoxPath("moov").appending("ilst/[2]").description == "moov/ilst/[2]")
        #expect(BoxPath("moov").appending("").description == "moov")
        // Types that are not printable render as exiftool-style escapes, `©` as itself.
        #expect(BoxPath().appending(BoxType(rawValue: 0x0000_0001)).description == "\\x00\\x00\\x00\\x01")
        #expect(BoxPath("udta").appending("©xyz").description == "udta/©xyz")
    }

    /// Same-type sibling containers are numbered in order, past the short list's 16 kinds too
    /// (an `ilst` of many items), the way a dictionary of counts numbered them.
    @Test func siblingCountsNumberEachTypeInOrder() {
        var counts = BoxIndex.SiblingCounts()
        var reference: [BoxType: Int] = [:]
        let types = (0..<40).map { BoxType(rawValue: 0x6161_6100 + UInt32($0 % 23)) } + ["trak", "trak", "udta", "trak"]
        for type in types {
            reference[type, default: 0] += 1
            #expect(counts.count(type) == reference[type])
        }
    }

    /// A box deep in an `ilst` of more than 16 kinds of item is named with its item's index.
    @Test func errorsInsideManyItemKindsNameTheirItem() {
        var items: [BoxNode] = (0..<20).map { BoxNode(type: BoxType(rawValue: 0x6161_6141 + UInt32($0)), children: [BoxNode(type: "data", data: [1])]) }
        items.append(BoxNode(type: BoxType(rawValue: 0x6161_6141 + 19), data: [0, 0, 0, 99, 0x64]))
        let ilst = BoxNode(type: "ilst", children: items)
        let result = BoxTree.parse(ilst.serialized(), path: "moov/udta/meta", ancestors: ["moov", "udta", "meta"])
        #expect(result.issues.count == 1)
        #expect(result.issues.first?.path.hasSuffix("ilst/aaaT[2]") == true, "\(result.issues.map(\.path))")
    }

    /// Eight box components are held in the value; a ninth, free text, and an index too big to
    /// hold inline are a node after them. The text is the same whichever way a path was built.
    @Test func inlineComponentsRenderLikeTheChain() {
        let names: [BoxType] = ["moov", "trak", "mdia", "minf", "stbl", "stsd", "mebx", "keys", "keyd", "dtyp", "aaaa"]
        var path = BoxPath()
        var text = ""
        for (i, name) in names.enumerated() {
            let index: Int? = i % 3 == 1 ? i : nil
            path = path.appending(name, index: index)
            text += (text.isEmpty ? "" : "/") + name.description + (index.map { "[\($0)]" } ?? "")
            #expect(path.description == text)
            // Text after any number of inline components keeps them, in order.
            #expect(path.appending(" sample[1]").description == text + " sample[1]")
            #expect(path.appending("ilst/[2]").description == text + "/ilst/[2]")
        }
        let big = BoxPath("moov").appending("trak", index: 70_000).appending("mdia", index: 0).appending("minf", index: 254)
            .appending("stbl", index: 255)
        #expect(big.description == "moov/trak[70000]/mdia[0]/minf[254]/stbl[255]")
        #expect(BoxPath().appending("trak", index: -1).appending("trak", index: 253).description == "trak[-1]/trak[253]")
        // Four letters or digits given as text are a box's name: the same text, inline. Other
        // four-byte text stays text: as a box's name, a leading space would gain a `/` and a
        // two-byte `©` an escape.
        #expect(BoxPath().appending("mdia").appending("2tr9").appending("Zz09").description == "mdia/2tr9/Zz09")
        #expect(BoxPath("udta").appending(" abc").description == "udta abc")
        #expect(BoxPath("udta").appending("©xy").description == "udta/©xy")
        #expect(BoxPath("udta").appending("a/b[").description == "udta/a/b[")
        #expect(BoxPath("udta").appending("©xyz").appending("a b!").description == "udta/©xyz/a b!")
        #expect(!BoxPath().appending("ftyp").isEmpty)
    }

    @Test func equalityIsByText() {
        #expect(BoxPath("moov/trak[1]") == BoxPath("moov").appending("trak", index: 1))
        #expect(BoxPath("moov/trak[1]") != BoxPath("moov").appending("trak", index: 2))
        #expect(Set([BoxPath("a/b"), BoxPath("a").appending("b")]).count == 1)
    }

    @Test func cursorPathIsTheRenderedBoxPath() throws {
        var c = ByteCursor(makeBox("keys", makeBox("keyd", [1, 2])), baseOffset: 100, boxPath: BoxPath("moov/meta"))
        #expect(c.path == "moov/meta")
        let (header, payload) = try #require(try c.nextBox())
        #expect(header.type == "keys")
        #expect(payload.path == "moov/meta/keys")
        var inner = payload
        let (_, keyd) = try #require(try inner.nextBox())
        #expect(keyd.path == "moov/meta/keys/keyd")
        var field = keyd
        #expect(throws: BoxError.self) { try field.u32() }
        do {
            _ = try field.u32("namespace")
        } catch {
            #expect(error.path == "moov/meta/keys/keyd")
            #expect(error.offset == 116)
        }
        c.path = "other"
        #expect(c.boxPath == BoxPath("other"))
    }

    @Test func inPlaceHeaderParseMatchesTheCopyingOne() throws {
        let box = makeLargeBox("mdat", [9, 9, 9])
        let padded = [0, 0, 0] + box + [7]
        var c = ByteCursor(padded, baseOffset: 1000)
        try c.skip(3)
        let inPlace = try BoxHeader.parse(at: c, topLevel: false)
        let copied = try BoxHeader.parse(box, at: 1003, available: Int64(box.count + 1), topLevel: false, path: "")
        #expect(inPlace == copied)
        #expect(inPlace.offset == 1003)
        #expect(inPlace.size == 19)
    }

    @Test func inPlaceHeaderErrorNamesTheBoxUnderTheCursorPath() throws {
        let bad = makeBox("stsd", size: 4, [])  // size below the header
        let c = ByteCursor(bad, baseOffset: 64, boxPath: BoxPath("moov").appending("trak", index: 2).appending("mdia"))
        do {
            _ = try BoxHeader.parse(at: c, topLevel: false)
            Issue.record("a 4-byte box parsed")
        } catch {
            #expect(error.path == "moov/trak[2]/mdia/stsd")
            #expect(error.offset == 64)
            #expect(error.message.contains("below its header size"))
        }
        // Too short for any header: the error is the parent's (the box has no type yet).
        do {
            _ = try BoxHeader.parse(at: ByteCursor([0, 0, 0], boxPath: BoxPath("moov")), topLevel: false)
            Issue.record("3 bytes parsed as a header")
        } catch {
            #expect(error.path == "moov")
        }
    }

    /// Containers are named among their same-type siblings; the tree parser only builds a path for
    /// a container, so a problem three levels down must still name all of them.
    @Test func deepErrorsNameEveryContainerWithItsIndex() throws {
        let bad = makeBox("stsz", size: 999, [0])
        let stbl = makeBox("stbl", makeBox("stsd", [0]) + bad)
        let trak1 = makeBox("trak", makeBox("tkhd", [1]))
        let trak2 = makeBox("trak", makeBox("tkhd", [2]) + makeBox("mdia", makeBox("minf", stbl)))
        let udta = makeBox("udta", makeBox("meta", makeBox("hdlr", [UInt8](repeating: 0, count: 24))))
        let moov = makeBox("moov", trak1 + trak2 + udta + udta)
        let (node, issues) = BoxTree.parseBox(moov)
        #expect(issues.count == 1)
        #expect(issues.first?.path == "moov/trak[2]/mdia/minf/stbl/stsz")
        let root = try #require(node)
        #expect(root.children.map(\.type) == ["trak", "trak", "udta", "udta"])
        #expect(root.children[3].child("meta")?.child("hdlr") != nil)
        // A container too short for its prefix is named with its index too.
        let layout: BoxTree.Layout = { type, _ in
            type == "stsd" ? .children(prefix: 8) : (type == "moov" || type == "trak" ? .children(prefix: 0) : nil)
        }
        let shortStsd = makeBox("trak", makeBox("stsd", [0, 0, 0, 0]))
        let (_, shortIssues) = BoxTree.parseBox(makeBox("moov", trak1 + shortStsd), layout: layout)
        #expect(shortIssues.first?.path == "moov/trak[2]/stsd")
        #expect(shortIssues.first?.message.contains("too short for its 8-byte header") == true)
    }
}
