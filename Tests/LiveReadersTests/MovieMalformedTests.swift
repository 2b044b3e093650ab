import ISOBMFF
import LiveModel
import Testing
@testable import LiveReaders
@testable import LiveWriters

/// Small movies built in code (mp4parse `make_box` style), so structural damage is explicit.
enum MovieFixtures {
    static func mvhd(timescale: UInt32 = 600, duration: UInt32 = 1200, nextTrackID: UInt32 = 2) -> BoxNode {
        var w = ByteWriter()
        w.versionAndFlags(0, 0)
        w.zeros(8)
        w.u32(timescale)
        w.u32(duration)
        w.u32(0x0001_0000)  // rate
        w.u16(0x0100)  // volume
        w.zeros(10)
        for v: UInt32 in [0x0001_0000, 0, 0, 0, 0x0001_0000, 0, 0, 0, 0x4000_0000] { w.u32(v) }
        w.zeros(24)
        w.u32(nextTrackID)
        return BoxNode(type: "mvhd", data: w.bytes)
    }

    /// ftyp `qt  ` + moov (mvhd, one still-image-time track placed `stillAt` movie ticks in) + mdat.
    /// `mutate` may damage the moov tree before it is written.
    static func tinyMovie(stillAt ticks: UInt64, mutate: (inout BoxNode) -> Void = { _ in }) -> [UInt8] {
        var ftyp = ByteWriter()
        ftyp.fourCC("qt  ")
        ftyp.u32(0)
        ftyp.fourCC("qt  ")
        let ftypBox = BoxNode(type: "ftyp", data: ftyp.bytes).serialized()
        func moov(sampleOffset: UInt64) -> BoxNode {
            var m = BoxNode(type: "moov", children: [
                mvhd(),
                MovieBoxBuilders.stillImageTimeTrack(trackID: 1, offsetTicks: ticks, videoTrackID: nil, sampleOffset: sampleOffset),
            ])
            mutate(&m)
            return m
        }
        let size = moov(sampleOffset: 0).size
        let final = moov(sampleOffset: UInt64(ftypBox.count) + UInt64(size) + 8)
        return ftypBox + final.serialized() + BoxNode(type: "mdat", data: MovieBoxBuilders.stillImageTimeSample(value: -1)).serialized()
    }

    /// Replaces the first box of `type` found anywhere under `node`.
    static func replace(_ type: BoxType, in node: inout BoxNode, with new: BoxNode) {
        for i in node.children.indices {
            if node.children[i].type == type {
                node.children[i] = new
                return
            }
            replace(type, in: &node.children[i], with: new)
        }
    }

    static func fullBox(_ type: BoxType, version: UInt8 = 0, _ body: [UInt8]) -> BoxNode {
        BoxNode(type: type, data: [version, 0, 0, 0] + body)
    }
}

@Suite struct MovieMalformedTests {
    @Test func tinyMovieReads() throws {
        let r = MovieReader.read(MemoryByteSource(MovieFixtures.tinyMovie(stillAt: 300)))
        #expect(r.error == nil)
        #expect(r.warnings.isEmpty)
        #expect(r.isQuickTime)
        let sit = try #require(r.movie?.stillImageTime)
        #expect(sit.presentationTime == 0.5)
        #expect(sit.value == -1)
        #expect(sit.isInsideMovie)
    }

    @Test func unknownEditListVersionIsAWarning() throws {
        let bytes = MovieFixtures.tinyMovie(stillAt: 300) { moov in
            MovieFixtures.replace("elst", in: &moov, with: MovieFixtures.fullBox("elst", version: 7, [0, 0, 0, 0]))
        }
        let r = MovieReader.read(MemoryByteSource(bytes))
        #expect(r.error == nil)
        let w = try #require(r.warnings.first)
        #expect(w.category == .unsupported)
        #expect(w.location == "moov/trak[1]/edts/elst")
        // Without an edit list the media time is the presentation time.
        #expect(r.movie?.stillImageTime?.presentationTime == 0)
    }

    /// Track references are read from `tref`'s data boxes; a reference whose type the movie
    /// layout opens as a container (`udta` here) lists no ids, whatever its bytes hold.
    @Test func trackReferencesAndAReferenceParsedAsAContainer() throws {
        let bytes = MovieFixtures.tinyMovie(stillAt: 300) { moov in
            for i in moov.children.indices where moov.children[i].type == "trak" {
                moov.children[i].children.append(BoxNode(type: "tref", children: [
                    BoxNode(type: "cdsc", data: [0, 0, 0, 7, 0, 0, 0, 9]),
                    BoxNode(type: "udta", data: [0, 0, 0, 1, 0, 0, 0, 2]),
                ]))
            }
        }
        let r = MovieReader.read(MemoryByteSource(bytes))
        let track = try #require(r.movie?.tracks.first)
        #expect(track.references["cdsc"] == [7, 9])
        #expect(track.references["udta"] == [])
    }

    @Test func chunkOffsetOutsideTheFileIsAWarningNotACrash() throws {
        let bytes = MovieFixtures.tinyMovie(stillAt: 300) { moov in
            MovieFixtures.replace("stco", in: &moov, with: MovieFixtures.fullBox("stco", [0, 0, 0, 1, 0x7F, 0xFF, 0xFF, 0xF0]))
        }
        let r = MovieReader.read(MemoryByteSource(bytes))
        #expect(r.error == nil)
        #expect(r.warnings.contains { $0.message.contains("outside the file") && $0.offset == 0x7FFF_FFF0 })
        let sit = try #require(r.movie?.stillImageTime)
        #expect(sit.value == nil)
        #expect(sit.sampleCount == 1)
    }

    @Test func hugeSampleCountIsAnErrorWithItsPath() throws {
        let bytes = MovieFixtures.tinyMovie(stillAt: 300) { moov in
            MovieFixtures.replace("stsz", in: &moov, with: MovieFixtures.fullBox("stsz", [0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF]))
        }
        let r = MovieReader.read(MemoryByteSource(bytes))
        let e = try #require(r.error)
        #expect(e.location == "moov/trak[1]/mdia/minf/stbl/stsz")
        #expect(e.message.contains("count"))
        #expect(r.movie?.tracks.count == 1)  // what came before is kept
    }

    @Test func sampleItemSizeBelowEightIsReported() throws {
        var bytes = MovieFixtures.tinyMovie(stillAt: 300)
        bytes[bytes.count - 9 + 3] = 4  // the sample's item size
        let r = MovieReader.read(MemoryByteSource(bytes))
        #expect(r.warnings.contains { $0.message.contains("below 8") })
        #expect(r.movie?.stillImageTime?.value == nil)
    }

    @Test func noMoovIsAnError() {
        let bytes = BoxNode(type: "ftyp", data: Array("isom\0\0\0\0isom".utf8)).serialized() + BoxNode(type: "mdat", data: [1, 2]).serialized()
        let r = MovieReader.read(MemoryByteSource(bytes))
        #expect(r.error?.message.contains("no 'moov'") == true)
        #expect(r.movie?.majorBrand == "isom")
        #expect(r.isQuickTime == false)
    }

    @Test func notMediaAtAll() {
        let r = MovieReader.read(MemoryByteSource(Array("GIF89a, definitely not a movie".utf8)))
        #expect(r.error?.category == .notMedia)
        #expect(r.movie == nil)
    }

    @Test func everyTruncationIsHandled() {
        let bytes = MovieFixtures.tinyMovie(stillAt: 300)
        for n in 0..<bytes.count {
            let r = MovieReader.read(MemoryByteSource(Array(bytes.prefix(n))))
            // Cut anywhere before the sample: something must be reported.
            #expect(r.error != nil || !r.warnings.isEmpty, "prefix \(n)")
        }
    }

    @Test func randomDamageNeverTraps() {
        let bytes = MovieFixtures.tinyMovie(stillAt: 300)
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(truncatingIfNeeded: seed >> 33)
        }
        var reported = 0
        for _ in 0..<3000 {
            var damaged = bytes
            for _ in 0...(next() % 4) {
                let at = next() % damaged.count
                damaged[at] = [0x00, 0xFF, 0x7F, 0x80, 0x01][next() % 5]
            }
            let r = MovieReader.read(MemoryByteSource(damaged))
            if r.error != nil || !r.warnings.isEmpty { reported += 1 }
        }
        #expect(reported > 0)
    }

    @Test func editListMapping() {
        let m = EditListMapper(edits: [EditListEntry(segmentDuration: 288, mediaTime: -1, rate: 1),
                                       EditListEntry(segmentDuration: 600, mediaTime: 300, rate: 1)],
                               movieTimescale: 600, mediaTimescale: 1200)
        #expect(m.presentationTime(ofMediaTime: 300) == 0.48)
        #expect(m.presentationTime(ofMediaTime: 900) == 0.98)
        #expect(m.presentationTime(ofMediaTime: 0) == nil)  // before the shown window
        #expect(m.presentationTime(ofMediaTime: 1500) == nil)  // after it
        let none = EditListMapper(edits: [], movieTimescale: 600, mediaTimescale: 1000)
        #expect(none.presentationTime(ofMediaTime: 250) == 0.25)
        let dwell = EditListMapper(edits: [EditListEntry(segmentDuration: 600, mediaTime: 10, rate: 0)], movieTimescale: 600, mediaTimescale: 600)
        #expect(dwell.presentationTime(ofMediaTime: 10) == 0)
        let fast = EditListMapper(edits: [EditListEntry(segmentDuration: 600, mediaTime: 0, rate: 2)], movieTimescale: 600, mediaTimescale: 600)
        #expect(fast.presentationTime(ofMediaTime: 600) == 0.5)
    }

    @Test func typedValues() {
        #expect(QuickTimeValueDecoder.decode(type: 65, [0xFF]) == .int(-1))
        #expect(QuickTimeValueDecoder.decode(type: 21, [0xFF, 0xFE]) == .int(-2))
        #expect(QuickTimeValueDecoder.decode(type: 21, [0x80, 0, 0]) == .int(-8_388_608))
        #expect(QuickTimeValueDecoder.decode(type: 22, [1, 0]) == .uint(256))
        #expect(QuickTimeValueDecoder.decode(type: 23, [0x3F, 0xC0, 0, 0]) == .double(1.5))
        #expect(QuickTimeValueDecoder.decode(type: 24, [0x40, 0x09, 0x21, 0xFB, 0x54, 0x44, 0x2D, 0x18]) == .double(Double.pi))
        #expect(QuickTimeValueDecoder.decode(type: 2, [0, 0x41, 0x20, 0xAC]) == .string("A€"))
        #expect(QuickTimeValueDecoder.decode(type: 71, [0x44, 0xF0, 0, 0, 0x44, 0xB4, 0, 0]) == .array([.double(1920), .double(1440)]))
        #expect(QuickTimeValueDecoder.decode(type: 66, [1]) == .bytes([1]))  // wrong width: kept as bytes
        #expect(QuickTimeValueDecoder.decode(type: 999, [1, 2]) == .bytes([1, 2]))
        #expect(QuickTimeValueDecoder.decode(type: nil, [3]) == .bytes([3]))
    }

    @Test func bitReaderAndLevels() throws {
        #expect(MovieBitReader.rbsp([0, 0, 3, 1, 0, 0, 3]) == [0, 0, 1, 0, 0])
        var r = MovieBitReader([0b0100_0000])
        #expect(try r.ue() == 1)
        var bad = MovieBitReader([0, 0, 0, 0, 0])
        #expect(throws: MovieBitReader.OutOfBits.self) { try bad.ue() }
        #expect(MovieCodecConfigParser.levelString(31, divisor: 10) == "3.1")
        #expect(MovieCodecConfigParser.levelString(153, divisor: 30) == "5.1")
        #expect(MovieCodecConfigParser.levelString(120, divisor: 30) == "4")
    }
}
