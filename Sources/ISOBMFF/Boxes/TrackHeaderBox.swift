/// A 3×3 transformation matrix as stored in `tkhd` and `mvhd`: a, b, u, c, d, v, x, y, w, where
/// u, v and w are 2.30 fixed point and the rest 16.16 (ISO/IEC 14496-12 §8.3.2, QuickTime File
/// Format "Matrices"). Kept as the raw 32-bit values so a write reproduces the bytes read.
public struct TransformMatrix: Sendable, Hashable {
    public var a: Int32, b: Int32, u: Int32
    public var c: Int32, d: Int32, v: Int32
    public var x: Int32, y: Int32, w: Int32

    public init(a: Int32, b: Int32, u: Int32, c: Int32, d: Int32, v: Int32, x: Int32, y: Int32, w: Int32) {
        (self.a, self.b, self.u, self.c, self.d, self.v, self.x, self.y, self.w) = (a, b, u, c, d, v, x, y, w)
    }

    /// The identity: 1.0 on the diagonal.
    public static let identity = TransformMatrix(a: 0x0001_0000, b: 0, u: 0, c: 0, d: 0x0001_0000, v: 0, x: 0, y: 0, w: 0x4000_0000)

    /// The nine raw values in file order.
    public var raw: [Int32] { [a, b, u, c, d, v, x, y, w] }

    /// The nine values as numbers, in file order (u, v, w divided by 2^30, the rest by 2^16).
    public var values: [Double] {
        raw.enumerated().map { i, r in Double(r) / (i % 3 == 2 ? 1_073_741_824 : 65536) }
    }

    /// Reads the nine values; each read is labelled `matrix` (the reader's error text since v1).
    public static func read(_ cursor: inout ByteCursor) throws(BoxError) -> TransformMatrix {
        // Nine plain reads, no array: this runs for every track on the lint path.
        let a = try cursor.i32("matrix"), b = try cursor.i32("matrix"), u = try cursor.i32("matrix")
        let c = try cursor.i32("matrix"), d = try cursor.i32("matrix"), v = try cursor.i32("matrix")
        let x = try cursor.i32("matrix"), y = try cursor.i32("matrix"), w = try cursor.i32("matrix")
        return TransformMatrix(a: a, b: b, u: u, c: c, d: d, v: v, x: x, y: y, w: w)
    }

    public func write(to out: inout ByteWriter) {
        for value in raw { out.i32(value) }
    }
}

/// `tkhd`, the track header (ISO/IEC 14496-12 §8.3.2; QuickTime "Track Header Atoms").
///
/// Version 1 has 64-bit dates and duration. Flag 0x1 is "track enabled". Width and height are
/// 16.16 fixed point, kept raw. A version other than 1 is read with the version-0 layout, as the
/// reader always did.
public struct TrackHeaderBox: TypedBox, Hashable {
    public var header: FullBoxHeader
    public var creationTime: UInt64
    public var modificationTime: UInt64
    public var trackID: UInt32
    /// In movie timescale units.
    public var duration: UInt64
    public var layer: Int16
    public var alternateGroup: Int16
    /// 8.8 fixed point (0x0100 is full volume).
    public var volume: Int16
    public var matrix: TransformMatrix
    /// 16.16 fixed point.
    public var width: UInt32
    public var height: UInt32

    public var boxType: BoxType { "tkhd" }

    /// The values a track has before its header is read: enabled, id 0, identity matrix, 0×0 (the
    /// model's defaults, so a header cut short keeps them for the fields it lacks).
    public init(header: FullBoxHeader = FullBoxHeader(flags: 1), creationTime: UInt64 = 0, modificationTime: UInt64 = 0,
                trackID: UInt32 = 0, duration: UInt64 = 0, layer: Int16 = 0, alternateGroup: Int16 = 0, volume: Int16 = 0,
                matrix: TransformMatrix = .identity, width: UInt32 = 0, height: UInt32 = 0) {
        self.header = header
        self.creationTime = creationTime
        self.modificationTime = modificationTime
        self.trackID = trackID
        self.duration = duration
        self.layer = layer
        self.alternateGroup = alternateGroup
        self.volume = volume
        self.matrix = matrix
        self.width = width
        self.height = height
    }

    public var isEnabled: Bool { header.flags & 1 != 0 }
    public var widthValue: Double { Double(Int32(bitPattern: width)) / 65536 }
    public var heightValue: Double { Double(Int32(bitPattern: height)) / 65536 }

    public static func read(_ payload: ByteCursor) throws(BoxError) -> TrackHeaderBox {
        var box = TrackHeaderBox()
        try read(payload, into: &box)
        return box
    }

    /// Reads field by field into `box`: when it throws, the fields read before the problem are set
    /// and the rest keep the values `box` came with (a bad box keeps what was read before it).
    public static func read(_ payload: ByteCursor, into box: inout TrackHeaderBox) throws(BoxError) {
        var c = payload
        box.header = try FullBoxHeader.read(&c)
        let wide = box.header.version == 1
        try c.require(wide ? 16 : 8, "dates")
        box.creationTime = wide ? try c.u64() : UInt64(try c.u32())
        box.modificationTime = wide ? try c.u64() : UInt64(try c.u32())
        box.trackID = try c.u32("track id")
        try c.require(wide ? 12 : 8, "duration")
        try c.skip(4, "reserved")
        box.duration = wide ? try c.u64() : UInt64(try c.u32())
        try c.require(16, "reserved, layer, group, volume")
        try c.skip(8, "reserved")
        box.layer = try c.i16()
        box.alternateGroup = try c.i16()
        box.volume = try c.i16()
        try c.skip(2, "reserved")
        box.matrix = try TransformMatrix.read(&c)
        box.width = try c.u32("width")
        box.height = try c.u32("height")
    }

    public func write(to w: inout ByteWriter) {
        header.write(to: &w)
        let wide = header.version == 1
        if wide {
            w.u64(creationTime)
            w.u64(modificationTime)
        } else {
            w.u32(UInt32(truncatingIfNeeded: creationTime))
            w.u32(UInt32(truncatingIfNeeded: modificationTime))
        }
        w.u32(trackID)
        w.u32(0)  // reserved
        if wide { w.u64(duration) } else { w.u32(UInt32(truncatingIfNeeded: duration)) }
        w.zeros(8)  // reserved
        w.i16(layer)
        w.i16(alternateGroup)
        w.i16(volume)
        w.u16(0)  // reserved
        matrix.write(to: &w)
        w.u32(width)
        w.u32(height)
    }
}
