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

    static func metaHandler() -> BoxNode {
        fullBox("hdlr") { w in
            w.u32(0)  // pre_defined / component type
            w.fourCC("mdta")
            w.zeros(12)
            w.u8(0)  // empty name
        }
    }

    static func keysBox(_ keys: [(namespace: BoxType, name: String)]) -> BoxNode {
        fullBox("keys") { w in
            w.u32(UInt32(keys.count))
            for k in keys {
                let name = Array(k.name.utf8)
                w.u32(UInt32(8 + name.count))
                w.fourCC(k.namespace)
                w.bytes(name)
            }
        }
    }

    /// An `ilst` item for key index `index` (1-based) holding one `data` atom.
    static func ilstItem(index: UInt32, type: UInt32, value: [UInt8]) -> BoxNode {
        var w = ByteWriter()
        w.u32(type & 0x00FF_FFFF)  // type set 0 + well-known type
        w.u32(0)  // locale: default
        w.bytes(value)
        return BoxNode(type: BoxType(rawValue: index), children: [BoxNode(type: "data", data: w.bytes)])
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
        let tkhd = fullBox("tkhd", version: largeTimes ? 1 : 0, flags: 0xF) { w in
            if largeTimes { w.zeros(16) } else { w.zeros(8) }  // creation, modification
            w.u32(trackID)
            w.u32(0)
            if largeTimes { w.u64(trackDuration) } else { w.u32(UInt32(trackDuration)) }
            w.zeros(8)  // reserved
            w.u16(0)  // layer
            w.u16(0)  // alternate group
            w.u16(0)  // volume
            w.u16(0)
            for v: UInt32 in [0x0001_0000, 0, 0, 0, 0x0001_0000, 0, 0, 0, 0x4000_0000] { w.u32(v) }
            w.u32(0)  // width
            w.u32(0)  // height
        }
        var edits: [(UInt64, Int64)] = []
        if offsetTicks > 0 { edits.append((offsetTicks, -1)) }
        edits.append((1, 0))
        let elst = fullBox("elst", version: largeTimes ? 1 : 0) { w in
            w.u32(UInt32(edits.count))
            for (duration, mediaTime) in edits {
                if largeTimes {
                    w.u64(duration)
                    w.i64(mediaTime)
                } else {
                    w.u32(UInt32(duration))
                    w.i32(Int32(mediaTime))
                }
                w.u32(0x0001_0000)  // rate 1.0
            }
        }
        var trakChildren = [tkhd, BoxNode(type: "edts", children: [elst])]
        if let videoTrackID {
            var w = ByteWriter()
            w.u32(videoTrackID)
            trakChildren.append(BoxNode(type: "tref", children: [BoxNode(type: "cdsc", data: w.bytes)]))
        }
        let mdhd = fullBox("mdhd") { w in
            w.zeros(8)
            w.u32(mediaTimescale)
            w.u32(1)  // duration: one tick
            w.u16(0x55C4)  // language 'und'
            w.u16(0)
        }
        let hdlr = fullBox("hdlr") { w in
            w.fourCC("mhlr")
            w.fourCC("meta")
            w.zeros(12)
            w.u8(0)  // empty name
        }
        let gmhd = BoxNode(type: "gmhd", children: [fullBox("gmin") { w in
            w.u16(0x40)  // graphics mode: dither copy
            w.u16(0x8000); w.u16(0x8000); w.u16(0x8000)  // opcolor
            w.u16(0)  // balance
            w.u16(0)
        }])
        let dataHandler = fullBox("hdlr") { w in
            w.fourCC("dhlr")
            w.fourCC("alis")
            w.zeros(12)
            w.u8(0)
        }
        let dref = fullBox("dref") { w in
            w.u32(1)
            w.u32(12)
            w.fourCC("alis")
            w.versionAndFlags(0, 1)  // self-contained: the data is in this file
        }
        let stbl = BoxNode(type: "stbl", children: [
            stsd(dataType: dataType),
            fullBox("stts") { w in w.u32(1); w.u32(1); w.u32(1) },
            fullBox("stsc") { w in w.u32(1); w.u32(1); w.u32(1); w.u32(1) },
            fullBox("stsz") { w in w.u32(sampleSize); w.u32(1) },
            sampleOffset > UInt64(UInt32.max)
                ? fullBox("co64") { w in w.u32(1); w.u64(sampleOffset) }
                : fullBox("stco") { w in w.u32(1); w.u32(UInt32(sampleOffset)) },
        ])
        let minf = BoxNode(type: "minf", children: [gmhd, dataHandler, BoxNode(type: "dinf", children: [dref]), stbl])
        trakChildren.append(BoxNode(type: "mdia", children: [mdhd, hdlr, minf]))
        return BoxNode(type: "trak", children: trakChildren)
    }

    /// `stsd` with one `mebx` entry: keys → [local id 1] { keyd 'mdta' + name, dtyp 0 + `dataType` }.
    static func stsd(dataType: UInt32 = WellKnownDataType.int8) -> BoxNode {
        var keyd = ByteWriter()
        keyd.fourCC("mdta")
        keyd.bytes(Array("com.apple.quicktime.still-image-time".utf8))
        var dtyp = ByteWriter()
        dtyp.u32(0)
        dtyp.u32(dataType)
        let key = BoxNode(type: BoxType(rawValue: 1), children: [
            BoxNode(type: "keyd", data: keyd.bytes), BoxNode(type: "dtyp", data: dtyp.bytes),
        ])
        let mebx = BoxNode(type: "mebx", prefix: [0, 0, 0, 0, 0, 0, 0, 1],
                           children: [BoxNode(type: "keys", children: [key])])
        return BoxNode(type: "stsd", prefix: [0, 0, 0, 0, 0, 0, 0, 1], children: [mebx])
    }
}
