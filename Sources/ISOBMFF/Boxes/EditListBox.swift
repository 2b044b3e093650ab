/// `elst`, the edit list (ISO/IEC 14496-12 §8.6.6): segments of the media shown in the movie
/// timeline. Version 1 has 64-bit durations and media times; a media time of -1 is an empty edit.
/// Versions above 1 are `unsupported` (valid in principle, not read).
public struct EditListBox: TypedBox, Hashable {
    public struct Entry: Sendable, Hashable {
        /// In movie timescale units.
        public var segmentDuration: UInt64
        /// In media timescale units; -1 for an empty edit.
        public var mediaTime: Int64
        /// 16.16 fixed point (integer and fraction parts); 0x00010000 is normal speed.
        public var mediaRate: Int32

        public init(segmentDuration: UInt64, mediaTime: Int64, mediaRate: Int32 = 0x0001_0000) {
            self.segmentDuration = segmentDuration
            self.mediaTime = mediaTime
            self.mediaRate = mediaRate
        }

        public var rate: Double { Double(mediaRate) / 65536 }
    }

    public var header: FullBoxHeader
    public var entries: [Entry]

    public var boxType: BoxType { "elst" }

    public init(header: FullBoxHeader = FullBoxHeader(), entries: [Entry]) {
        self.header = header
        self.entries = entries
    }

    /// Version 1 when any value needs more than 32 bits, else version 0.
    public init(entries: [Entry]) {
        let wide = entries.contains { $0.segmentDuration > UInt64(UInt32.max) || $0.mediaTime > Int64(Int32.max) || $0.mediaTime < Int64(Int32.min) }
        self.init(header: FullBoxHeader(version: wide ? 1 : 0), entries: entries)
    }

    public static func read(_ payload: ByteCursor) throws(BoxError) -> EditListBox {
        var c = payload
        let header = try FullBoxHeader.read(&c)
        guard header.version <= 1 else {
            throw c.error(.unsupported, "edit list version \(header.version) is not read; presentation times assume no edit list")
        }
        let wide = header.version == 1
        let count = try c.checkedCount(try c.u32("entry count"), entrySize: wide ? 20 : 12, "elst entry")
        var entries: [Entry] = []
        entries.reserveCapacity(count)
        for _ in 0..<count {
            let duration = wide ? try c.u64("segment duration") : UInt64(try c.u32("segment duration"))
            let mediaTime = wide ? try c.i64("media time") : Int64(try c.i32("media time"))
            let rate = try c.i32("media rate")
            entries.append(Entry(segmentDuration: duration, mediaTime: mediaTime, mediaRate: rate))
        }
        return EditListBox(header: header, entries: entries)
    }

    public func write(to w: inout ByteWriter) {
        header.write(to: &w)
        w.u32(UInt32(truncatingIfNeeded: entries.count))
        for e in entries {
            if header.version == 1 {
                w.u64(e.segmentDuration)
                w.i64(e.mediaTime)
            } else {
                w.u32(UInt32(truncatingIfNeeded: e.segmentDuration))
                w.i32(Int32(truncatingIfNeeded: e.mediaTime))
            }
            w.i32(e.mediaRate)
        }
    }
}
