/// The dates, timescale and duration that start both `mvhd` and `mdhd`: 32-bit in version 0,
/// 64-bit in version 1 (ISO/IEC 14496-12 §8.2.2, §8.4.2). A version other than 1 reads as 0.
public struct HeaderTiming: Sendable, Hashable {
    public var creationTime: UInt64
    public var modificationTime: UInt64
    public var timescale: UInt32
    /// As stored: a version-0 0xFFFFFFFF ("unknown") stays 0xFFFFFFFF here; see `knownDuration`.
    public var duration: UInt64

    public init(creationTime: UInt64 = 0, modificationTime: UInt64 = 0, timescale: UInt32 = 0, duration: UInt64 = 0) {
        self.creationTime = creationTime
        self.modificationTime = modificationTime
        self.timescale = timescale
        self.duration = duration
    }

    /// Reads after the version/flags; labels `dates`, `timescale`, `duration` as the readers always had.
    static func read(_ c: inout ByteCursor, version: UInt8) throws(BoxError) -> (timing: HeaderTiming, knownDuration: UInt64) {
        let wide = version == 1
        try c.require(wide ? 16 : 8, "dates")
        let created = wide ? try c.u64() : UInt64(try c.u32())
        let modified = wide ? try c.u64() : UInt64(try c.u32())
        let timescale = try c.u32("timescale")
        if wide {
            let d = try c.u64("duration")
            return (HeaderTiming(creationTime: created, modificationTime: modified, timescale: timescale, duration: d), d)
        }
        let d = try c.u32("duration")
        // Version 0: all ones means "unknown" (QuickTime File Format), reported as 0.
        return (HeaderTiming(creationTime: created, modificationTime: modified, timescale: timescale, duration: UInt64(d)),
                d == .max ? 0 : UInt64(d))
    }

    func write(to w: inout ByteWriter, version: UInt8) {
        if version == 1 {
            w.u64(creationTime)
            w.u64(modificationTime)
            w.u32(timescale)
            w.u64(duration)
        } else {
            w.u32(UInt32(truncatingIfNeeded: creationTime))
            w.u32(UInt32(truncatingIfNeeded: modificationTime))
            w.u32(timescale)
            w.u32(UInt32(truncatingIfNeeded: duration))
        }
    }
}

/// `mdhd`, the media header (ISO/IEC 14496-12 §8.4.2): timescale and duration of a track's media,
/// then the packed ISO-639-2 language and a QuickTime quality / ISO pre_defined field. The readers
/// never required the last two, so a box that ends after the duration still reads (they are nil).
public struct MediaHeaderBox: TypedBox, Hashable {
    public var header: FullBoxHeader
    public var timing: HeaderTiming
    /// Packed ISO-639-2/T code (`0x55C4` is `und`).
    public var language: UInt16?
    public var quality: UInt16?

    public var boxType: BoxType { "mdhd" }

    public init(header: FullBoxHeader = FullBoxHeader(), timing: HeaderTiming, language: UInt16? = 0x55C4, quality: UInt16? = 0) {
        self.header = header
        self.timing = timing
        self.language = language
        self.quality = quality
    }

    public var timescale: UInt32 { timing.timescale }
    /// The duration in media ticks, 0 when a version-0 box says "unknown".
    public var knownDuration: UInt64 {
        header.version != 1 && timing.duration == UInt64(UInt32.max) ? 0 : timing.duration
    }

    public static func read(_ payload: ByteCursor) throws(BoxError) -> MediaHeaderBox {
        var c = payload
        let header = try FullBoxHeader.read(&c)
        let timing = try HeaderTiming.read(&c, version: header.version).timing
        let language = c.remaining >= 2 ? try c.u16() : nil
        let quality = c.remaining >= 2 ? try c.u16() : nil
        return MediaHeaderBox(header: header, timing: timing, language: language, quality: quality)
    }

    public func write(to w: inout ByteWriter) {
        header.write(to: &w)
        timing.write(to: &w, version: header.version)
        if let language { w.u16(language) }
        if let quality { w.u16(quality) }
    }
}

/// `mvhd`, the movie header (ISO/IEC 14496-12 §8.2.2; QuickTime "Movie Header Atoms").
///
/// After the timing: preferred rate (16.16), volume (8.8), 10 reserved bytes, the matrix, six
/// QuickTime times (preview, poster, selection, current; ISO pre_defined), next track id. The
/// readers only ever required the timing, so the rest is `presentation`, nil when the box ends
/// early; bytes after the next track id are kept in `trailing`.
public struct MovieHeaderBox: TypedBox, Hashable {
    public struct Presentation: Sendable, Hashable {
        public var rate: Int32
        public var volume: Int16
        /// The 10 reserved bytes (QuickTime: "set to 0"), kept so a rewrite changes nothing else.
        public var reservedHigh: UInt16
        public var reservedLow: UInt64
        public var matrix: TransformMatrix
        /// Preview time, preview duration, poster time, selection time, selection duration, current time.
        public var previewTime: UInt32, previewDuration: UInt32, posterTime: UInt32
        public var selectionTime: UInt32, selectionDuration: UInt32, currentTime: UInt32
        public var nextTrackID: UInt32

        public init(rate: Int32 = 0x0001_0000, volume: Int16 = 0x0100, matrix: TransformMatrix = .identity, nextTrackID: UInt32) {
            self.rate = rate
            self.volume = volume
            reservedHigh = 0
            reservedLow = 0
            self.matrix = matrix
            (previewTime, previewDuration, posterTime, selectionTime, selectionDuration, currentTime) = (0, 0, 0, 0, 0, 0)
            self.nextTrackID = nextTrackID
        }

        /// Its size in bytes.
        static let size = 4 + 2 + 10 + 36 + 24 + 4
    }

    public var header: FullBoxHeader
    public var timing: HeaderTiming
    public var presentation: Presentation?
    public var trailing: [UInt8]

    public var boxType: BoxType { "mvhd" }

    public init(header: FullBoxHeader = FullBoxHeader(), timing: HeaderTiming, presentation: Presentation?, trailing: [UInt8] = []) {
        self.header = header
        self.timing = timing
        self.presentation = presentation
        self.trailing = trailing
    }

    public var timescale: UInt32 { timing.timescale }
    /// The duration in movie ticks, 0 when a version-0 box says "unknown".
    public var knownDuration: UInt64 {
        header.version != 1 && timing.duration == UInt64(UInt32.max) ? 0 : timing.duration
    }

    public static func read(_ payload: ByteCursor) throws(BoxError) -> MovieHeaderBox {
        var c = payload
        let header = try FullBoxHeader.read(&c)
        let timing = try HeaderTiming.read(&c, version: header.version).timing
        guard c.remaining >= Presentation.size else {
            return MovieHeaderBox(header: header, timing: timing, presentation: nil, trailing: c.readRest())
        }
        var p = Presentation(nextTrackID: 0)
        p.rate = try c.i32()
        p.volume = try c.i16()
        p.reservedHigh = try c.u16()
        p.reservedLow = try c.u64()
        p.matrix = try TransformMatrix.read(&c)
        p.previewTime = try c.u32()
        p.previewDuration = try c.u32()
        p.posterTime = try c.u32()
        p.selectionTime = try c.u32()
        p.selectionDuration = try c.u32()
        p.currentTime = try c.u32()
        p.nextTrackID = try c.u32("next track id")
        return MovieHeaderBox(header: header, timing: timing, presentation: p, trailing: c.isAtEnd ? [] : c.readRest())
    }

    public func write(to w: inout ByteWriter) {
        header.write(to: &w)
        timing.write(to: &w, version: header.version)
        if let p = presentation {
            w.i32(p.rate)
            w.i16(p.volume)
            w.u16(p.reservedHigh)
            w.u64(p.reservedLow)
            p.matrix.write(to: &w)
            for v in [p.previewTime, p.previewDuration, p.posterTime, p.selectionTime, p.selectionDuration, p.currentTime] { w.u32(v) }
            w.u32(p.nextTrackID)
        }
        w.bytes(trailing)
    }
}
