/// `stsd`, the sample description (ISO/IEC 14496-12 §8.5.2): an entry count, then one sample
/// entry box per format. The entries stay in the payload and are handed out on demand (the
/// readers need the first one only).
public struct SampleDescriptionBox: Sendable {
    public var header: FullBoxHeader
    public var entryCount: UInt32
    /// The bytes after the count: the entry boxes.
    public let entries: ByteCursor

    public static func read(_ payload: ByteCursor) throws(BoxError) -> SampleDescriptionBox {
        var c = payload
        let header = try FullBoxHeader.read(&c)
        let count = try c.u32("entry count")
        return SampleDescriptionBox(header: header, entryCount: count, entries: c)
    }

    /// The first entry's header and a cursor over its payload (path `…/stsd/<format>`); nil when
    /// the count is 0 or no entry follows.
    public func firstEntry() throws(BoxError) -> (header: BoxHeader, payload: ByteCursor)? {
        guard entryCount > 0 else { return nil }
        var c = entries
        return try c.nextBox()
    }

    /// An `stsd` node holding `entries` (each a sample entry box).
    public static func node(entries: [BoxNode]) -> BoxNode {
        var w = ByteWriter()
        FullBoxHeader().write(to: &w)
        w.u32(UInt32(entries.count))
        return BoxNode(type: "stsd", prefix: w.bytes, children: entries)
    }
}

/// The 8 bytes every sample entry starts with: 6 reserved, then the data reference index.
public struct SampleEntryHeader: Sendable, Hashable {
    public var dataReferenceIndex: UInt16

    public init(dataReferenceIndex: UInt16 = 1) { self.dataReferenceIndex = dataReferenceIndex }

    /// Reads the 8 bytes; `what` names them in a truncation error (`sample entry header`).
    static func read(_ c: inout ByteCursor, require: Int = 8) throws(BoxError) -> SampleEntryHeader {
        try c.require(require, "sample entry header")
        try c.skip(6, "reserved")
        return SampleEntryHeader(dataReferenceIndex: try c.u16())
    }

    func write(to w: inout ByteWriter) {
        w.zeros(6)
        w.u16(dataReferenceIndex)
    }
}

/// A child box of a sample entry (`avcC`, `hvcC`, `colr`, `pasp`, `esds`, …), kept as its type
/// and a cursor over its payload (no copy).
public struct SampleEntryChild: Sendable {
    public var type: BoxType
    public var payload: ByteCursor

    public init(type: BoxType, payload: [UInt8]) {
        self.type = type
        self.payload = ByteCursor(payload)
    }

    init(type: BoxType, cursor: ByteCursor) {
        self.type = type
        self.payload = cursor
    }

    /// The payload bytes.
    public var bytes: [UInt8] { payload.peek(payload.remaining) ?? [] }

    func write(to w: inout ByteWriter) {
        let b = bytes
        w.u32(UInt32(8 + b.count))
        w.fourCC(type)
        w.bytes(b)
    }
}

/// A visual sample entry (`avc1`, `hvc1`, `hev1`, …; ISO/IEC 14496-12 §12.1.3, QuickTime "Video
/// Sample Description"), with its child boxes (`avcC`, `hvcC`, `colr`, …) kept.
public struct VisualSampleEntry: Sendable {
    public var format: BoxType
    public var entryHeader: SampleEntryHeader
    /// QuickTime version, revision level, vendor, temporal and spatial quality (ISO: pre_defined
    /// and reserved), as stored.
    public var version: UInt16, revisionLevel: UInt16, vendor: UInt32, temporalQuality: UInt32, spatialQuality: UInt32
    public var width: UInt16
    public var height: UInt16
    /// 16.16 pixels per inch (72 dpi is 0x00480000).
    public var horizontalResolution: UInt32, verticalResolution: UInt32
    public var dataSize: UInt32
    public var frameCount: UInt16
    /// A Pascal string in 32 bytes.
    public var compressorName: [UInt8]
    public var depth: UInt16
    public var colorTableID: Int16
    public var children: [SampleEntryChild]

    public init(format: BoxType, width: UInt16, height: UInt16, children: [SampleEntryChild] = []) {
        self.format = format
        entryHeader = SampleEntryHeader()
        (version, revisionLevel, vendor, temporalQuality, spatialQuality) = (0, 0, 0, 0, 0)
        self.width = width
        self.height = height
        horizontalResolution = 0x0048_0000
        verticalResolution = 0x0048_0000
        dataSize = 0
        frameCount = 1
        compressorName = [UInt8](repeating: 0, count: 32)
        depth = 0x18
        colorTableID = -1
        self.children = children
    }

    /// Reads an entry's payload (after its box header) into `entry`, field by field: when it
    /// throws, what was read before stays (dimensions, the children before a bad one).
    public static func read(_ payload: ByteCursor, into entry: inout VisualSampleEntry) throws(BoxError) {
        var c = payload
        try c.require(8 + 16, "sample entry header")
        entry.entryHeader = try SampleEntryHeader.read(&c)
        entry.version = try c.u16()
        entry.revisionLevel = try c.u16()
        entry.vendor = try c.u32()
        entry.temporalQuality = try c.u32()
        entry.spatialQuality = try c.u32()
        entry.width = try c.u16("width")
        entry.height = try c.u16("height")
        try c.require(4 + 4 + 4 + 2 + 32 + 2 + 2, "visual sample entry fields")
        entry.horizontalResolution = try c.u32()
        entry.verticalResolution = try c.u32()
        entry.dataSize = try c.u32()
        entry.frameCount = try c.u16()
        entry.compressorName = try c.read(32)
        entry.depth = try c.u16()
        entry.colorTableID = try c.i16()
        // Fewer than 8 bytes left cannot be a box: some writers pad the entry; they are ignored.
        while c.remaining >= 8, let (header, child) = try c.nextBox() {
            entry.children.append(SampleEntryChild(type: header.type, cursor: child))
        }
    }

    public func child(_ type: BoxType) -> SampleEntryChild? { children.first { $0.type == type } }

    /// The entry box.
    public var node: BoxNode {
        var w = ByteWriter()
        entryHeader.write(to: &w)
        w.u16(version); w.u16(revisionLevel); w.u32(vendor); w.u32(temporalQuality); w.u32(spatialQuality)
        w.u16(width); w.u16(height)
        w.u32(horizontalResolution); w.u32(verticalResolution); w.u32(dataSize); w.u16(frameCount)
        w.bytes(Array((compressorName + [UInt8](repeating: 0, count: 32)).prefix(32)))
        w.u16(depth); w.i16(colorTableID)
        for child in children { child.write(to: &w) }
        return BoxNode(type: format, data: w.bytes)
    }
}

/// A sound sample entry (QuickTime "Sound Sample Descriptions" versions 0, 1 and 2; an ISO
/// `AudioSampleEntry` reads as version 0).
public struct SoundSampleEntry: Sendable {
    public var format: BoxType
    public var entryHeader: SampleEntryHeader
    public var version: UInt16
    public var revisionLevel: UInt16
    public var vendor: UInt32
    /// Versions 0 and 1 (version 2 keeps 3 here and the real count in `v2`).
    public var channels: UInt16
    public var sampleSize: UInt16
    public var compressionID: Int16
    public var packetSize: UInt16
    /// 16.16 (versions 0 and 1; version 2 stores 0x00010000 here).
    public var sampleRate: UInt32
    /// Version 2: size of the struct, the rate as a float64 and the channel count.
    public var v2: (sizeOfStruct: UInt32, sampleRate: Double, channels: UInt32)?
    /// Everything after the fields above (version 1's four sizes, the rest of version 2, child
    /// boxes such as `esds`), as stored.
    public var rest: ByteCursor

    public init(format: BoxType, channels: UInt16, sampleRate: UInt32, version: UInt16 = 0) {
        self.format = format
        entryHeader = SampleEntryHeader()
        self.version = version
        revisionLevel = 0
        vendor = 0
        self.channels = channels
        sampleSize = 16
        compressionID = 0
        packetSize = 0
        self.sampleRate = sampleRate
        v2 = nil
        rest = ByteCursor([])
    }

    /// The channel count and rate in Hz as the entry's version gives them (nil for an unknown
    /// version).
    public var audio: (channels: Int, sampleRate: Double)? {
        switch version {
        case 0, 1: return (Int(channels), Double(sampleRate >> 16))
        case 2: return v2.map { (Int($0.channels), $0.sampleRate) }
        default: return nil
        }
    }

    /// Reads an entry's payload into `entry`. A version above 2 is not an error here (the fields
    /// common to all versions are read, `audio` is nil); the caller reports it.
    public static func read(_ payload: ByteCursor, into entry: inout SoundSampleEntry) throws(BoxError) {
        var c = payload
        entry.entryHeader = try SampleEntryHeader.read(&c)
        entry.version = try c.u16("version")
        try c.require(2 + 4, "revision, vendor")
        entry.revisionLevel = try c.u16()
        entry.vendor = try c.u32()
        entry.channels = try c.u16("channels")
        try c.require(2 + 2 + 2, "sample size, compression id, packet size")
        entry.sampleSize = try c.u16()
        entry.compressionID = try c.i16()
        entry.packetSize = try c.u16()
        entry.sampleRate = try c.u32("sample rate")
        if entry.version == 2 {
            let size = try c.u32("size of struct")
            let rate = Double(bitPattern: try c.u64("audio sample rate"))
            let channels = try c.u32("channels")
            entry.v2 = (size, rate, channels)
        }
        entry.rest = try c.slice(c.remaining)
    }

    public var node: BoxNode {
        var w = ByteWriter()
        entryHeader.write(to: &w)
        w.u16(version); w.u16(revisionLevel); w.u32(vendor)
        w.u16(channels); w.u16(sampleSize); w.i16(compressionID); w.u16(packetSize); w.u32(sampleRate)
        if version == 2, let v2 {
            w.u32(v2.sizeOfStruct)
            w.u64(v2.sampleRate.bitPattern)
            w.u32(v2.channels)
        }
        w.bytes(rest.peek(rest.remaining) ?? [])
        return BoxNode(type: format, data: w.bytes)
    }
}
