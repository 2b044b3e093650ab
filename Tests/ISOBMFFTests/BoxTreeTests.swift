import Testing
@testable import ISOBMFF

@Suite struct BoxTreeTests {
    func sampleMoov() -> [UInt8] {
        let mvhd = makeBox("mvhd", [UInt8](repeating: 1, count: 20))
        let tkhd = makeBox("tkhd", [2, 2, 2])
        let stbl = makeBox("stbl", makeBox("stsz", [0, 0, 0, 0]))
        let trak1 = makeBox("trak", tkhd + makeBox("mdia", makeBox("minf", stbl)))
        let trak2 = makeBox("trak", tkhd)
        let udta = makeBox("udta", makeBox("©xyz", [0, 4, 0, 0, 0x2B, 0x31, 0x2F, 0x2F]) + [0, 0, 0, 0])
        return makeBox("moov", mvhd + trak1 + trak2 + udta)
    }

    @Test func parsesAndRoundTrips() throws {
        let bytes = sampleMoov()
        let (node, issues) = BoxTree.parseBox(bytes, baseOffset: 1000)
        #expect(issues.isEmpty)
        let moov = try #require(node)
        #expect(moov.type == "moov")
        #expect(moov.offset == 1000)
        #expect(moov.children.map(\.type.description) == ["mvhd", "trak", "trak", "udta"])
        #expect(moov.children("trak").count == 2)
        let stsz = moov.children[1].descendant(["mdia", "minf", "stbl", "stsz"])
        #expect(stsz?.data == [0, 0, 0, 0])
        #expect(moov.child("udta")?.children.first?.type == BoxType("©xyz"))
        #expect(moov.serialized() == bytes)
    }

    @Test func isoAndQuickTimeMetaAreTold() throws {
        let hdlr = makeBox("hdlr", [UInt8](repeating: 0, count: 24))
        let qt = makeBox("meta", hdlr)
        let iso = makeBox("meta", [0, 0, 0, 0] + hdlr)
        for (bytes, prefix) in [(qt, 0), (iso, 4)] {
            let (node, issues) = BoxTree.parseBox(bytes)
            #expect(issues.isEmpty)
            guard case .container(let p, let children, _)? = node?.content else {
                Issue.record("meta not parsed as a container")
                continue
            }
            #expect(p.count == prefix)
            #expect(children.first?.type == "hdlr")
            #expect(node?.serialized() == bytes)
        }
    }

    @Test func badChildStopsItsContainerOnlyWithPath() throws {
        let good = makeBox("tkhd", [1])
        let bad = makeBox("edts", size: 400, [0, 0])
        let trak = makeBox("trak", good + bad)
        let after = makeBox("trak", makeBox("tkhd", [2]))
        let moov = makeBox("moov", trak + after)
        let (node, issues) = BoxTree.parseBox(moov, baseOffset: 50)
        let root = try #require(node)
        #expect(issues.count == 1)
        let issue = try #require(issues.first)
        #expect(issue.path == "moov/trak[1]/edts")
        #expect(issue.offset == 50 + 8 + 8 + Int64(good.count))
        #expect(issue.message.contains("larger than"))
        // The first trak keeps what came before the bad box; its sibling is still read.
        #expect(root.children.count == 2)
        #expect(root.children[0].children.map(\.type) == ["tkhd"])
        #expect(root.children[1].child("tkhd")?.data == [2])
    }

    @Test func zeroSizeChildIsAnError() {
        let moov = makeBox("moov", makeBox("free", size: 0, [1, 2, 3, 4, 5]))
        let (_, issues) = BoxTree.parseBox(moov)
        #expect(issues.first?.message.contains("only allowed at the top level") == true)
        #expect(issues.first?.path == "moov/free")
    }

    @Test func strayBytesAreReported() {
        let moov = makeBox("moov", makeBox("free") + [1, 2, 3])
        let (node, issues) = BoxTree.parseBox(moov)
        #expect(node?.children.count == 1)
        #expect(issues.first?.message.contains("stray bytes") == true)
    }

    @Test func deepNestingHitsTheLimit() {
        var bytes = makeBox("free")
        for _ in 0..<(BoxLimits.maxDepth + 5) { bytes = makeBox("udta", bytes) }
        let (node, issues) = BoxTree.parseBox(bytes)
        #expect(node != nil)
        #expect(issues.contains { $0.category == .limit && $0.message.contains("nested deeper") })
    }

    @Test func boxCountLimit() {
        let many = [UInt8]((0..<(BoxLimits.maxBoxes + 10)).map { _ in makeBox("free") }.joined())
        let (_, issues) = BoxTree.parseBox(makeBox("udta", many))
        #expect(issues.contains { $0.category == .limit && $0.message.contains("boxes") })
    }

    @Test func largeHeaderChosenOnlyWhenNeeded() {
        let node = BoxNode(type: "udta", children: [BoxNode(type: "free", data: [1, 2])])
        #expect(node.size == 18)
        #expect(node.serialized() == makeBox("udta", makeBox("free", [1, 2])))
        let uuid = BoxNode(type: "uuid", data: [5], userType: [UInt8](repeating: 0xAB, count: 16))
        let parsed = BoxTree.parseBox(uuid.serialized()).node
        #expect(parsed?.userType == [UInt8](repeating: 0xAB, count: 16))
        #expect(parsed?.data == [5])
    }

    @Test func largeSizeInputIsReadAndRewrittenSmall() throws {
        let bytes = makeLargeBox("moov", makeBox("free", [1]))
        let (node, issues) = BoxTree.parseBox(bytes)
        #expect(issues.isEmpty)
        let moov = try #require(node)
        #expect(moov.headerSize == 16)
        #expect(moov.serialized() == makeBox("moov", makeBox("free", [1])))
    }
}

@Suite struct TopLevelTests {
    @Test func scansHeadersOnly() throws {
        let file = makeBox("ftyp", Array("qt  ".utf8) + [0, 0, 0, 0]) + makeBox("wide") + makeLargeBox("mdat", [UInt8](repeating: 7, count: 100)) + makeBox("moov", makeBox("free"))
        let scan = TopLevel.scan(MemoryByteSource(file))
        #expect(scan.error == nil)
        #expect(scan.warnings.isEmpty)
        #expect(scan.boxes.map(\.type.description) == ["ftyp", "wide", "mdat", "moov"])
        #expect(scan.boxes[2].size == 116)
    }

    @Test func trailingGarbageIsAWarning() {
        let file = makeBox("moov", makeBox("free")) + [0xFF, 0xFE, 0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06]
        let scan = TopLevel.scan(MemoryByteSource(file))
        #expect(scan.error == nil)
        #expect(scan.boxes.count == 1)
        #expect(scan.warnings.count == 1)
        #expect(scan.warnings.first?.offset == 16)
        let short = TopLevel.scan(MemoryByteSource(makeBox("moov") + [0, 0, 0]))
        #expect(short.warnings.first?.message.contains("3 trailing bytes") == true)
    }

    @Test func sizeZeroMdatRunsToEnd() {
        let file = makeBox("moov") + makeBox("mdat", size: 0, [1, 2, 3, 4, 5])
        let scan = TopLevel.scan(MemoryByteSource(file))
        #expect(scan.boxes.last?.size == 13)
        #expect(scan.boxes.last?.extendsToEnd == true)
    }

    @Test func truncatedLastBoxIsKeptWithAWarning() {
        let file = makeBox("moov") + makeBox("mdat", size: 1000, [1, 2])
        let scan = TopLevel.scan(MemoryByteSource(file))
        #expect(scan.error == nil)
        #expect(scan.boxes.last?.size == 10)
        #expect(scan.warnings.first?.message.contains("truncated") == true)
    }

    @Test func notABoxAtAllIsAnError() {
        let scan = TopLevel.scan(MemoryByteSource([0xFF, 0xD8, 0xFF, 0xE1, 0x00, 0x10, 0x45, 0x78, 0x69, 0x66]))
        #expect(scan.boxes.isEmpty)
        #expect(scan.error != nil)
    }

    @Test func fileSourceReadsAndCounts() throws {
        let path = "/tmp/isobmff-test-\(UInt32.random(in: 0...UInt32.max)).bin"
        let bytes = makeBox("moov", makeBox("free", [1, 2, 3]))
        let f = fopen(path, "wb")
        defer { unlink(path) }
        _ = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, bytes.count, f) }
        fclose(f)
        let source = try FileByteSource(path: path)
        #expect(source.size == Int64(bytes.count))
        #expect(try source.read(at: 8, count: 8) == Array(bytes[8..<16]))
        #expect(source.bytesRead == 8)
        #expect(throws: BoxError.self) { try source.read(at: 10, count: 100) }
        #expect(throws: BoxError.self) { try FileByteSource(path: "/nonexistent/x.mov") }
        #expect(throws: BoxError.self) { try FileByteSource(path: "/tmp") }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite struct TopLevelFirstBoxTests {
    @Test func oversizedFirstBoxIsNotABoxFile() {
        let scan = TopLevel.scan(MemoryByteSource(Array("GIF89a, definitely not a movie".utf8)))
        #expect(scan.boxes.isEmpty)
        #expect(scan.error?.message.contains("larger than") == true)
    }
}
