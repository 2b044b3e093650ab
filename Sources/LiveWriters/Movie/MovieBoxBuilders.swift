import ISOBMFF
import LiveModel

/// Builders for the boxes the QuickTime writer adds, laid out the way Apple's camera writes
/// them (checked against `lychee/train.mov` track 4 in the shared corpus).
enum MovieBoxBuilders {
    static func fullBox(_ type: BoxType, version: UInt8 = 0, flags: UInt32 = 0, _ body: (inout ByteWriter) -> Void) -> BoxNode {
        var w = ByteWriter()
        w.versionAndFlags(version, flags)
        body(&w)
        return BoxNode(type: type, data: w.bytes)
    }

    // MARK: moov/meta (QuickTime: no version/flags, hdlr 'mdta', keys, ilst)

    /// `hdlr` with component type 0 (ISO pre_defined), handler `mdta`, an empty name.
    static func metaHandler() -> BoxNode {
        HandlerBox(handlerType: "mdta").node
    }

    static func keysBox(_ keys: [(namespace: BoxType, name: String)]) -> BoxNode {
        MetadataKeysBox(entries: keys.map { MetadataKeysBox.Entry(namespace: $0.namespace, name: $0.name) }).node
    }

    /// An `ilst` item for key index `index` (1-based) holding one `data` atom (type set 0, default locale).
    static func ilstItem(index: UInt32, type: UInt32, value: [UInt8]) -> BoxNode {
        DataBox(type: type, value: value).item(index: index)
    }

    // MARK: the still-image-time timed-metadata track

    /// One sample: [size][local key id 1][value], the value sign-extended big-endian in the width
    /// of `dataType` (int8 = 65 → 1 byte, as Apple writes it).
    static func stillImageTimeSample(value: Int8, dataType: UInt32 = WellKnownDataType.int8) -> [UInt8] {
        let width: Int
        switch dataType {
        case 66, 76: width = 2
        case 23, 67, 77: width = 4
        case 24, 74, 78: width = 8
        default: width = 1
        }
        let wide = UInt64(bitPattern: Int64(value))
        let payload = (0..<width).reversed().map { UInt8(truncatingIfNeeded: wide >> (8 * UInt64($0))) }
        let size = UInt32(8 + width)
        return [UInt8(size >> 24), UInt8((size >> 16) & 0xFF), UInt8((size >> 8) & 0xFF), UInt8(size & 0xFF), 0, 0, 0, 1] + payload
    }

    /// A `trak` with a `mebx` sample entry keyed `mdta/com.apple.quicktime.still-image-time`
    /// (dtyp 0 + 65, int8), one 1-tick sample at media time 0 (timescale 600), placed in the movie
    /// by an edit list: an empty edit of `offsetTicks` (movie timescale), then a one-tick segment.
    static func stillImageTimeTrack(trackID: UInt32, offsetTicks: UInt64, videoTrackID: UInt32?,
                                    sampleOffset: UInt64, sampleSize: UInt32 = 9,
                                    dataType: UInt32 = WellKnownDataType.int8) -> BoxNode {
        let mediaTimescale: UInt32 = 600
        let trackDuration = offsetTicks + 1
        let largeTimes = trackDuration > UInt64(UInt32.max)
        let tkhd = TrackHeaderBox(header: FullBoxHeader(version: largeTimes ? 1 : 0, flags: 0xF), trackID: trackID,
                                  duration: trackDuration).node
        var edits: [EditListBox.Entry] = []
        if offsetTicks > 0 { edits.append(EditListBox.Entry(segmentDuration: offsetTicks, mediaTime: -1)) }
        edits.append(EditListBox.Entry(segmentDuration: 1, mediaTime: 0))
        let elst = EditListBox(header: FullBoxHeader(version: largeTimes ? 1 : 0), entries: edits).node
        var trakChildren = [tkhd, BoxNode(type: "edts", children: [elst])]
        if let videoTrackID {
            var w = ByteWriter()
            w.u32(videoTrackID)
            trakChildren.append(BoxNode(type: "tref", children: [BoxNode(type: "cdsc", data: w.bytes)]))
        }
        let mdhd = MediaHeaderBox(timing: HeaderTiming(timescale: mediaTimescale, duration: 1)).node  // one tick, language 'und'
        let hdlr = HandlerBox(componentType: "mhlr", handlerType: "meta").node
        let gmhd = BoxNode(type: "gmhd", children: [fullBox("gmin") { w in
            w.u16(0x40)  // graphics mode: dither copy
            w.u16(0x8000); w.u16(0x8000); w.u16(0x8000)  // opcolor
            w.u16(0)  // balance
            w.u16(0)
        }])
        let dataHandler = HandlerBox(componentType: "dhlr", handlerType: "alis").node
        let dref = fullBox("dref") { w in
            w.u32(1)
            w.u32(12)
            w.fourCC("alis")
            w.versionAndFlags(0, 1)  // self-contained: the data is in this file
        }
        let stbl = BoxNode(type: "stbl", children: [
            stsd(dataType: dataType),
            TimeToSampleBox("stts", entries: [.init(sampleCount: 1, value: 1)]).node,
            SampleToChunkBox(entries: [.init(firstChunk: 1, samplesPerChunk: 1)]).node,
            SampleSizeBox(uniformSize: sampleSize, count: 1).node,
            ChunkOffsetBox(offsets: [sampleOffset]).node,  // co64 only past 4 GiB
        ])
        let minf = BoxNode(type: "minf", children: [gmhd, dataHandler, BoxNode(type: "dinf", children: [dref]), stbl])
        trakChildren.append(BoxNode(type: "mdia", children: [mdhd, hdlr, minf]))
        return BoxNode(type: "trak", children: trakChildren)
    }

    /// `stsd` with one `mebx` entry: keys → [local id 1] { keyd 'mdta' + name, dtyp 0 + `dataType` }.
    static func stsd(dataType: UInt32 = WellKnownDataType.int8) -> BoxNode {
        let key = MetadataSampleEntry.Key(localID: 1, namespace: "mdta", name: MovieInfo.stillImageTimeKey, dataType: dataType)
        return SampleDescriptionBox.node(entries: [MetadataSampleEntry(keys: [key]).node])
    }
}
