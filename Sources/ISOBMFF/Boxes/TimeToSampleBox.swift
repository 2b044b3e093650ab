/// Sample timing tables: `stts` (decoding time to sample: runs of samples and their duration) and
/// `ctts` (composition offset: runs of samples and their presentation offset), ISO/IEC 14496-12
/// §8.6.1. Both are (count, value) pairs; the entries are checked once and decoded on demand.
public struct TimeToSampleBox: TypedBox {
    public struct Entry: Sendable, Hashable {
        public var sampleCount: UInt32
        /// `stts`: the sample delta; `ctts`: the offset's bits (see `compositionOffset`).
        public var value: UInt32

        public init(sampleCount: UInt32, value: UInt32) {
            self.sampleCount = sampleCount
            self.value = value
        }

        /// A `ctts` offset read as signed, as the reader has always done for both versions
        /// (version 0 says unsigned; real files only use values below 2^31 there).
        public var compositionOffset: Int32 { Int32(bitPattern: value) }
    }

    public let boxType: BoxType
    public var header: FullBoxHeader
    public let entries: EntryTable

    /// `stts` or `ctts` holding `entries`.
    public init(_ type: BoxType, header: FullBoxHeader = FullBoxHeader(), entries: [Entry]) {
        boxType = type
        self.header = header
        var w = ByteWriter()
        for e in entries {
            w.u32(e.sampleCount)
            w.u32(e.value)
        }
        var c = ByteCursor(w.bytes)
        // The bytes were just written for exactly this many entries, so the check cannot fail.
        self.entries = (try? EntryTable(&c, count: UInt32(entries.count), entrySize: 8, "entry")) ?? EntryTable(entrySize: 8)
    }

    private init(type: BoxType, header: FullBoxHeader, entries: EntryTable) {
        boxType = type
        self.header = header
        self.entries = entries
    }

    /// Reads a `stts` or `ctts` payload: errors are a truncated header and an entry count larger
    /// than the bytes left (`stts entry count … needs … bytes`).
    public static func read(_ payload: ByteCursor, type: BoxType) throws(BoxError) -> TimeToSampleBox {
        var c = payload
        let header = try FullBoxHeader.read(&c)
        let table = try EntryTable(reading: &c, entrySize: 8, type == "ctts" ? "ctts entry" : "stts entry")
        return TimeToSampleBox(type: type, header: header, entries: table)
    }

    public var entryCount: Int { entries.count }

    public func entry(at index: Int) -> Entry {
        Entry(sampleCount: entries.u32(index, 0), value: entries.u32(index, 4))
    }

    public func write(to w: inout ByteWriter) {
        header.write(to: &w)
        w.u32(UInt32(entries.count))
        for i in 0..<entries.count {
            w.u32(entries.u32(i, 0))
            w.u32(entries.u32(i, 4))
        }
    }
}

/// `stsc`, sample-to-chunk (ISO/IEC 14496-12 §8.7.4): runs of chunks with the same number of
/// samples. The entries are checked once and decoded on demand; whether first chunks increase
/// is for the walker to judge (the media digest follows a table the movie reader refuses).
public struct SampleToChunkBox: TypedBox {
    public struct Entry: Sendable, Hashable {
        /// 1-based.
        public var firstChunk: UInt32
        public var samplesPerChunk: UInt32
        public var sampleDescriptionIndex: UInt32

        public init(firstChunk: UInt32, samplesPerChunk: UInt32, sampleDescriptionIndex: UInt32 = 1) {
            self.firstChunk = firstChunk
            self.samplesPerChunk = samplesPerChunk
            self.sampleDescriptionIndex = sampleDescriptionIndex
        }
    }

    public var header: FullBoxHeader
    public let entries: EntryTable

    public var boxType: BoxType { "stsc" }

    public init(header: FullBoxHeader = FullBoxHeader(), entries: [Entry]) {
        self.header = header
        var w = ByteWriter()
        for e in entries {
            w.u32(e.firstChunk)
            w.u32(e.samplesPerChunk)
            w.u32(e.sampleDescriptionIndex)
        }
        var c = ByteCursor(w.bytes)
        self.entries = (try? EntryTable(&c, count: UInt32(entries.count), entrySize: 12, "entry")) ?? EntryTable(entrySize: 12)
    }

    private init(header: FullBoxHeader, table: EntryTable) {
        self.header = header
        entries = table
    }

    public static func read(_ payload: ByteCursor) throws(BoxError) -> SampleToChunkBox {
        var c = payload
        let header = try FullBoxHeader.read(&c)
        let table = try EntryTable(reading: &c, entrySize: 12, "stsc entry")
        return SampleToChunkBox(header: header, table: table)
    }

    public var entryCount: Int { entries.count }

    public func entry(at index: Int) -> Entry {
        Entry(firstChunk: entries.u32(index, 0), samplesPerChunk: entries.u32(index, 4), sampleDescriptionIndex: entries.u32(index, 8))
    }

    public func write(to w: inout ByteWriter) {
        header.write(to: &w)
        w.u32(UInt32(entries.count))
        for i in 0..<entries.count {
            let e = entry(at: i)
            w.u32(e.firstChunk)
            w.u32(e.samplesPerChunk)
            w.u32(e.sampleDescriptionIndex)
        }
    }
}

/// Chunk offsets: `stco` (32-bit) and `co64` (64-bit), ISO/IEC 14496-12 §8.7.5, absolute file
/// offsets of each chunk. Checked once, decoded on demand; whether an offset is in range is for
/// the caller to judge (each reports it in its own words).
public struct ChunkOffsetBox: TypedBox {
    public var header: FullBoxHeader
    public let entries: EntryTable

    public var is64Bit: Bool { entries.entrySize == 8 }
    public var boxType: BoxType { is64Bit ? "co64" : "stco" }

    /// `co64` when `wide` or when any offset needs it, else `stco`.
    public init(header: FullBoxHeader = FullBoxHeader(), offsets: [UInt64], wide: Bool = false) {
        self.header = header
        let is64 = wide || offsets.contains { $0 > UInt64(UInt32.max) }
        var w = ByteWriter()
        for o in offsets { if is64 { w.u64(o) } else { w.u32(UInt32(o)) } }
        var c = ByteCursor(w.bytes)
        entries = (try? EntryTable(&c, count: UInt32(offsets.count), entrySize: is64 ? 8 : 4, "entry")) ?? EntryTable(entrySize: is64 ? 8 : 4)
    }

    private init(header: FullBoxHeader, table: EntryTable) {
        self.header = header
        entries = table
    }

    /// Reads a `stco` or `co64` payload: errors are a truncated header and an entry count larger
    /// than the bytes left (`co64 entry count … needs … bytes`).
    public static func read(_ payload: ByteCursor, type: BoxType) throws(BoxError) -> ChunkOffsetBox {
        var c = payload
        let header = try FullBoxHeader.read(&c)
        let wide = type == "co64"
        let table = try EntryTable(reading: &c, entrySize: wide ? 8 : 4, wide ? "co64 entry" : "stco entry")
        return ChunkOffsetBox(header: header, table: table)
    }

    public var entryCount: Int { entries.count }

    public func offset(at index: Int) -> UInt64 {
        is64Bit ? entries.u64(index) : UInt64(entries.u32(index))
    }

    public func write(to w: inout ByteWriter) {
        header.write(to: &w)
        w.u32(UInt32(entries.count))
        for i in 0..<entries.count {
            if is64Bit { w.u64(offset(at: i)) } else { w.u32(entries.u32(i)) }
        }
    }
}
