import Testing
@testable import ISOBMFF

/// Per box family: a write→read round trip (v0/v1, stz2 widths, co64) and malformed payloads,
/// each asserting the error's category, path and offset. Payload cursors start at a non-zero
/// base offset, as a movie embedded in another file would.
@Suite struct BoxFamilyTests {
    static let base: Int64 = 1000
    static let path = BoxPath("moov").appending("trak", index: 2).appending("mdia")

    /// A cursor over `box`'s payload at `base`, named `path/<type>`.
    static func cursor(_ box: some TypedBox) -> ByteCursor {
        ByteCursor(box.payload, baseOffset: base, boxPath: path.appending(box.boxType))
    }

    static func cursor(_ bytes: [UInt8], _ type: BoxType) -> ByteCursor {
        ByteCursor(bytes, baseOffset: base, boxPath: path.appending(type))
    }

    static func expectError(_ category: BoxError.Category, _ type: BoxType, offset: Int64? = nil, contains text: String,
                            _ body: () throws(BoxError) -> Void) {
        do {
            try body()
            Issue.record("no error for \(type)")
        } catch {
            #expect(error.category == category, "\(error)")
            #expect(error.path == "moov/trak[2]/mdia/\(type)", "\(error)")
            #expect(error.message.contains(text), "\(error)")
            if let offset { #expect(error.offset == offset, "\(error)") }
        }
    }

    @Test(arguments: [0, 1] as [UInt8]) func trackHeader(version: UInt8) throws {
        var m = TransformMatrix.identity
        m.a = 0
        m.b = 0x0001_0000
        m.c = -0x0001_0000
        m.d = 0
        let box = TrackHeaderBox(header: FullBoxHeader(version: version, flags: 3), creationTime: 7, modificationTime: 8, trackID: 42,
                                 duration: version == 1 ? 1 << 40 : 600, layer: -1, alternateGroup: 2, volume: 0x0100,
                                 matrix: m, width: 1920 << 16, height: 1080 << 16)
        let read = try TrackHeaderBox.read(Self.cursor(box))
        #expect(read == box)
        #expect(read.payload.count == (version == 1 ? 96 : 84))
        #expect(read.widthValue == 1920 && read.isEnabled)
        #expect(read.matrix.values == [0, 1, 0, -1, 0, 0, 0, 0, 1])
        // Truncated in the matrix: what came before is kept, the error names the group.
        var partial = TrackHeaderBox()
        let cut = Array(box.payload.prefix(60))
        Self.expectError(.malformed, "tkhd", contains: "matrix needs 4 bytes") { () throws(BoxError) in
            try TrackHeaderBox.read(Self.cursor(cut, "tkhd"), into: &partial)
        }
        #expect(partial.trackID == 42 && partial.matrix == .identity && partial.width == 0)
        Self.expectError(.malformed, "tkhd", offset: Self.base + 4, contains: "dates needs \(version == 1 ? 16 : 8) bytes") { () throws(BoxError) in
            _ = try TrackHeaderBox.read(Self.cursor(Array(box.payload.prefix(7)), "tkhd"))
        }
    }

    @Test(arguments: [0, 1] as [UInt8]) func mediaAndMovieHeaders(version: UInt8) throws {
        let timing = HeaderTiming(creationTime: 1, modificationTime: 2, timescale: 600, duration: version == 1 ? 1 << 33 : 1200)
        let mdhd = MediaHeaderBox(header: FullBoxHeader(version: version), timing: timing)
        #expect(try MediaHeaderBox.read(Self.cursor(mdhd)) == mdhd)
        var mvhd = MovieHeaderBox(header: FullBoxHeader(version: version), timing: timing, presentation: .init(nextTrackID: 5))
        mvhd.presentation?.posterTime = 9
        let readMvhd = try MovieHeaderBox.read(Self.cursor(mvhd))
        #expect(readMvhd == mvhd)
        #expect(readMvhd.payload.count == (version == 1 ? 112 : 100))
        // The readers never required more than the timing: a short header still reads.
        let short = MovieHeaderBox.read
        #expect(try short(Self.cursor(Array(mvhd.payload.prefix(version == 1 ? 32 : 20)), "mvhd")).presentation == nil)
        // Version 0 "unknown" duration reads as 0.
        let unknown = MediaHeaderBox(timing: HeaderTiming(timescale: 600, duration: 0xFFFF_FFFF))
        #expect(try MediaHeaderBox.read(Self.cursor(unknown)).knownDuration == (0 as UInt64))
        Self.expectError(.malformed, "mdhd", contains: "timescale needs 4 bytes") { () throws(BoxError) in
            _ = try MediaHeaderBox.read(Self.cursor(Array(mdhd.payload.prefix(version == 1 ? 22 : 14)), "mdhd"))
        }
    }

    @Test func handlerAndFileType() throws {
        let hdlr = HandlerBox(componentType: "mhlr", handlerType: "vide", name: Array("\u{5}Video".utf8))
        #expect(try HandlerBox.read(Self.cursor(hdlr)) == hdlr)
        #expect(try HandlerBox.read(Self.cursor(hdlr), keepRemainder: false).handlerType == "vide")
        Self.expectError(.malformed, "hdlr", offset: Self.base + 8, contains: "handler type needs 4 bytes") { () throws(BoxError) in
            _ = try HandlerBox.read(Self.cursor(Array(hdlr.payload.prefix(10)), "hdlr"))
        }
        let ftyp = FileTypeBox(majorBrand: "qt  ", minorVersion: 0x2005_0300, compatibleBrands: ["qt  ", "isom"])
        #expect(try FileTypeBox.read(Self.cursor(ftyp)) == ftyp)
        var partial = FileTypeBox(majorBrand: BoxType(rawValue: 0))
        Self.expectError(.malformed, "ftyp", contains: "minor version") { () throws(BoxError) in
            try FileTypeBox.read(Self.cursor(Array(ftyp.payload.prefix(6)), "ftyp"), into: &partial)
        }
        #expect(partial.majorBrand == "qt  ")
    }

    @Test func editList() throws {
        let v0 = EditListBox(entries: [.init(segmentDuration: 288, mediaTime: -1), .init(segmentDuration: 600, mediaTime: 0, mediaRate: 0x0002_0000)])
        #expect(v0.header.version == 0)
        let read = try EditListBox.read(Self.cursor(v0))
        #expect(read == v0 && read.entries[1].rate == 2)
        let v1 = EditListBox(entries: [.init(segmentDuration: 1 << 35, mediaTime: 1 << 34)])
        #expect(v1.header.version == 1)
        #expect(try EditListBox.read(Self.cursor(v1)) == v1)
        Self.expectError(.unsupported, "elst", offset: Self.base + 4, contains: "edit list version 2") { () throws(BoxError) in
            _ = try EditListBox.read(Self.cursor([2, 0, 0, 0, 0, 0, 0, 0], "elst"))
        }
        Self.expectError(.malformed, "elst", offset: Self.base + 4, contains: "elst entry count 3 needs 36 bytes, 16 left") { () throws(BoxError) in
            _ = try EditListBox.read(Self.cursor([0, 0, 0, 0, 0, 0, 0, 3] + [UInt8](repeating: 0, count: 12), "elst"))
        }
    }

    @Test(arguments: [4, 8, 16, 32]) func sampleSizes(fieldSize: Int) throws {
        let sizes: [UInt32] = [1, 15, 3, 0, 7]
        let box = SampleSizeBox(sizes: sizes, fieldSize: fieldSize)
        #expect(box.boxType == (fieldSize == 32 ? "stsz" : "stz2"))
        let read = try SampleSizeBox.read(Self.cursor(box), type: box.boxType)
        #expect(read.sampleCount == 5 && read.fieldSize == fieldSize)
        #expect(read.sizes(limit: .max) == sizes.map(Int.init))
        #expect(read.sizes(limit: 2) == [1, 15])
        #expect(read.payload == box.payload)
    }

    @Test func sampleSizesMalformed() throws {
        let uniform = SampleSizeBox(uniformSize: 9, count: 0xFFFF_FFFF)
        let read = try SampleSizeBox.read(Self.cursor(uniform), type: "stsz")
        #expect(read.size(at: 123_456) == 9 && read.sizes(limit: 3) == [9, 9, 9])
        // Count larger than the bytes left (the overflow case: 2^32-1 entries of 4 bytes).
        Self.expectError(.malformed, "stsz", offset: Self.base + 12, contains: "stsz entry count 4294967295 needs 17179869180 bytes, 0 left") { () throws(BoxError) in
            _ = try SampleSizeBox.read(Self.cursor([0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF], "stsz"), type: "stsz")
        }
        Self.expectError(.malformed, "stsz", contains: "sample count needs 4 bytes") { () throws(BoxError) in
            _ = try SampleSizeBox.read(Self.cursor([0, 0, 0, 0, 0, 0, 0, 0, 0], "stsz"), type: "stsz")
        }
        Self.expectError(.malformed, "stz2", offset: Self.base + 12, contains: "stz2 field size 12 is not 4, 8 or 16") { () throws(BoxError) in
            _ = try SampleSizeBox.read(Self.cursor([0, 0, 0, 0, 0, 0, 0, 12, 0, 0, 0, 1, 0, 0], "stz2"), type: "stz2")
        }
        Self.expectError(.malformed, "stz2", contains: "stz2 count 3 needs 2 bytes, 1 left") { () throws(BoxError) in
            _ = try SampleSizeBox.read(Self.cursor([0, 0, 0, 0, 0, 0, 0, 4, 0, 0, 0, 3, 0x12], "stz2"), type: "stz2")
        }
    }

    @Test func timeToSampleAndChunks() throws {
        for type: BoxType in ["stts", "ctts"] {
            let box = TimeToSampleBox(type, entries: [.init(sampleCount: 3, value: 512), .init(sampleCount: 1, value: UInt32(bitPattern: -20))])
            let read = try TimeToSampleBox.read(Self.cursor(box), type: type)
            #expect(read.entryCount == 2 && read.entry(at: 0) == .init(sampleCount: 3, value: 512))
            #expect(read.entry(at: 1).compositionOffset == -20)
            #expect(read.payload == box.payload)
            // Measured from the count field, as the readers always reported it.
            Self.expectError(.malformed, type, offset: Self.base + 4, contains: "\(type) entry count 2 needs 16 bytes, 12 left") { () throws(BoxError) in
                _ = try TimeToSampleBox.read(Self.cursor(Array(box.payload.prefix(16)), type), type: type)
            }
        }
        let stsc = SampleToChunkBox(entries: [.init(firstChunk: 1, samplesPerChunk: 4), .init(firstChunk: 3, samplesPerChunk: 1, sampleDescriptionIndex: 2)])
        let readStsc = try SampleToChunkBox.read(Self.cursor(stsc))
        #expect(readStsc.entry(at: 1) == .init(firstChunk: 3, samplesPerChunk: 1, sampleDescriptionIndex: 2))
        #expect(readStsc.payload == stsc.payload)
        #expect(readStsc.entries.error(.malformed, "x", afterEntry: 0).offset == Self.base + 8 + 12)
        Self.expectError(.malformed, "stsc", contains: "truncated: stsc entry needs 24 bytes, 23 left") { () throws(BoxError) in
            _ = try SampleToChunkBox.read(Self.cursor(Array(stsc.payload.dropLast()), "stsc"))
        }
        let stco = ChunkOffsetBox(offsets: [8, 4096])
        #expect(stco.boxType == "stco")
        #expect(try ChunkOffsetBox.read(Self.cursor(stco), type: "stco").offset(at: 1) == 4096)
        let co64 = ChunkOffsetBox(offsets: [8, 1 << 33])
        #expect(co64.boxType == "co64")
        let readCo64 = try ChunkOffsetBox.read(Self.cursor(co64), type: "co64")
        #expect(readCo64.offset(at: 1) == 1 << 33 && readCo64.payload == co64.payload)
        Self.expectError(.malformed, "co64", offset: Self.base + 8, contains: "truncated: co64 entry needs 16 bytes, 12 left") { () throws(BoxError) in
            _ = try ChunkOffsetBox.read(Self.cursor(Array(co64.payload.prefix(20)), "co64"), type: "co64")
        }
    }

    @Test func metadataKeysAndData() throws {
        let keys = MetadataKeysBox(entries: [.init(name: "com.apple.quicktime.content.identifier"), .init(namespace: "udta", name: "x")])
        #expect(try MetadataKeysBox.read(Self.cursor(keys)) == keys)
        var bad = keys.payload
        bad[8 + 3] = 4  // the first entry's size below 8
        var partial = MetadataKeysBox(entries: [])
        Self.expectError(.malformed, "keys", contains: "key entry size 4 is below 8") { () throws(BoxError) in
            try MetadataKeysBox.read(Self.cursor(bad, "keys"), into: &partial)
        }
        let data = DataBox(type: 1, value: Array("ABC".utf8))
        let readData = try DataBox.read(Self.cursor(data))
        #expect(readData == data && readData.wellKnownType == 1)
        #expect(data.item(index: 3).type.rawValue == 3)
        Self.expectError(.malformed, "data", offset: Self.base + 4, contains: "locale needs 4 bytes") { () throws(BoxError) in
            _ = try DataBox.read(Self.cursor([0, 0, 0, 1, 0], "data"))
        }
    }

    /// Sample descriptions: a `mebx` entry with keyd/dtyp, a visual entry with its children kept,
    /// sound entries v0 and v2, each written into an `stsd` and read back from it.
    @Test func sampleDescriptions() throws {
        let mebx = MetadataSampleEntry(keys: [.init(localID: 1, name: "com.apple.quicktime.still-image-time", dataType: 65),
                                              .init(localID: 2, name: "x", dataTypeName: "com.apple.quicktime.detected-face")])
        var avc = VisualSampleEntry(format: "avc1", width: 64, height: 48,
                                    children: [SampleEntryChild(type: "avcC", payload: [1, 100, 0, 30]), SampleEntryChild(type: "colr", payload: Array("nclx".utf8) + [0, 1, 0, 1, 0, 1, 0x80])])
        avc.frameCount = 1
        var v2 = SoundSampleEntry(format: "lpcm", channels: 3, sampleRate: 0x0001_0000, version: 2)
        v2.v2 = (72, 48000, 2)
        let entries = [mebx.node, avc.node, SoundSampleEntry(format: "sowt", channels: 2, sampleRate: 44100 << 16).node, v2.node]
        let stsd = BoxNode(type: "stsd", data: Array(SampleDescriptionBox.node(entries: entries).serialized().dropFirst(8)))
        let description = try SampleDescriptionBox.read(stsd.payloadCursor(path: Self.path.appending("stsd")))
        #expect(description.entryCount == 4)
        var c = description.entries
        var readMebx = MetadataSampleEntry(keys: [])
        let first = try #require(try description.firstEntry())
        #expect(first.header.type == "mebx" && first.payload.path == "moov/trak[2]/mdia/stsd/mebx")
        try MetadataSampleEntry.read(first.payload, into: &readMebx)
        #expect(readMebx.keys == mebx.keys)
        _ = try c.nextBox()
        var readAvc = VisualSampleEntry(format: "avc1", width: 0, height: 0)
        try VisualSampleEntry.read(try #require(try c.nextBox()).payload, into: &readAvc)
        #expect(readAvc.width == 64 && readAvc.height == 48 && readAvc.children.map(\.type) == ["avcC", "colr"])
        #expect(readAvc.child("colr")?.bytes.last == 0x80)
        #expect(readAvc.node == avc.node)
        var sound = SoundSampleEntry(format: "sowt", channels: 0, sampleRate: 0)
        try SoundSampleEntry.read(try #require(try c.nextBox()).payload, into: &sound)
        #expect(sound.audio?.channels == 2 && sound.audio?.sampleRate == 44100)
        try SoundSampleEntry.read(try #require(try c.nextBox()).payload, into: &sound)
        #expect(sound.audio?.channels == 2 && sound.audio?.sampleRate == 48000 && sound.version == 2)
        #expect(try c.nextBox() == nil)
        // A truncated visual entry keeps its dimensions and names the fields it lacked.
        var cut = VisualSampleEntry(format: "avc1", width: 0, height: 0)
        do {
            try VisualSampleEntry.read(ByteCursor(Array(avc.node.data!.prefix(40)), baseOffset: Self.base, boxPath: Self.path.appending("avc1")), into: &cut)
            Issue.record("no error")
        } catch {
            #expect(error.message.contains("visual sample entry fields needs 50 bytes"))
            #expect(error.path == "moov/trak[2]/mdia/avc1" && error.offset == Self.base + 28)
        }
        #expect(cut.width == 64 && cut.height == 48)
    }
}
