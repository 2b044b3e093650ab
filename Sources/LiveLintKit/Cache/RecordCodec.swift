import LiveModel
import ScratchFiles

/// The lint cache's record of one file: the file as ``MediaFile/slimmedForLint(keeping:)`` left
/// it, in a compact binary form (LEB128 integers, length-prefixed UTF-8, doubles as their bits).
///
/// Only what a slim record holds is written; ``encode(_:)`` returns nil for a file that carries
/// anything else (tracks, audio streams, libmediainfo properties…), which is then simply not
/// cached, so a record can never drop a field. A motion photo is written with its claims, where
/// its video lies and the slim movie it is (since format 4; before, such a still was read every
/// time and, in a scan past 10,000 files, its slim record held in memory). The path is not stored: a record
/// is found by its path, and `.livp` members are stored by their name inside the archive.
/// Decoding checks every length against the bytes left and returns nil for anything damaged (a
/// cache miss).
///
/// A test runs every fixture and corpus file through encode and decode and compares `dump()` of
/// both, so a field added to the model and kept by slimming fails until it is written here
/// (then bump ``format``).
enum RecordCodec {
    /// Bumped whenever the layout changes; a cache of another format is rebuilt.
    static let format = 4

    // MARK: - Encoding

    static func encode(_ file: MediaFile) -> [UInt8]? {
        encodeNotingTracks(file)?.bytes
    }

    /// ``encode(_:)``, with where the movie's tracks lie in the record.
    static func encodeNotingTracks(_ file: MediaFile) -> Encoded? {
        var w = Writer()
        guard w.file(file, parentPath: nil), w.withinLimits else { return nil }
        return Encoded(bytes: w.bytes, tracks: w.tracks)
    }

    /// A record, and where the tracks of its file's movie lie in it (their count included), when
    /// it has any: a scan drops them (the HTML report's timeline, no rule reads it) from a record
    /// it has already, without encoding the file again (issue 13: that second encoding of every
    /// movie cost 3 % of a cached scan).
    struct Encoded: Sendable {
        var bytes: [UInt8]
        var tracks: Range<Int>?

        /// The record of the same file with no tracks, as ``encode(_:)`` writes it: the tracks are an
        /// array, and an empty array is its count, 0.
        var withoutTracks: [UInt8] {
            tracks.map { RecordCodec.cut(bytes, tracks: $0) } ?? bytes
        }
    }

    /// The record `bytes` with its tracks (the range ``Encoded/tracks`` gives) replaced by an
    /// empty array, copied once: from the cache's row or from a record just encoded.
    static func cut<Bytes: Collection>(_ bytes: Bytes, tracks: Range<Int>) -> [UInt8] where Bytes.Element == UInt8, Bytes.Index == Int {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count - tracks.count + 1)
        cut(bytes, tracks: tracks, appendingTo: &out)
        return out
    }

    /// ``cut(_:tracks:)`` appended to `out`.
    static func cut<Bytes: Collection>(_ bytes: Bytes, tracks: Range<Int>, appendingTo out: inout [UInt8])
    where Bytes.Element == UInt8, Bytes.Index == Int {
        out += bytes[..<tracks.lowerBound]
        out.append(0)
        out += bytes[tracks.upperBound...]
    }

    /// A record's `bytes` appended to `out` as kept, or cut of the movie's tracks at `tracks`
    /// when given (``cut(_:tracks:)``).
    static func append(_ bytes: UnsafeRawBufferPointer, cutting tracks: Range<Int>?, to out: inout [UInt8]) {
        guard let tracks else { return out.append(contentsOf: bytes) }
        cut(bytes.assumingMemoryBound(to: UInt8.self), tracks: tracks, appendingTo: &out)
    }

    /// The primitives (LEB128 numbers, zigzagged signed ones, doubles, length-prefixed bytes)
    /// are ScratchFiles' ``RecordWriter`` and ``RecordReader``, the temporary files' own coding.
    struct Writer {
        private var w = RecordWriter()
        var bytes: [UInt8] { w.bytes }
        /// False once something was written that ``decode(_:path:names:)`` refuses (more than
        /// ``maxCount`` entries, values nested ``maxDepth`` deep): the record is then not kept, so
        /// every record written decodes (a spilled scan reads each one back, ``ScanRecords``).
        var withinLimits = true
        /// Where the top-level file's movie tracks were written, when it has any.
        var tracks: Range<Int>?

        init() { w.bytes.reserveCapacity(256) }

        mutating func byte(_ b: UInt8) { w.byte(b) }
        mutating func uint(_ v: UInt64) { w.number(v) }
        mutating func int(_ v: Int64) { w.signed(v) }
        mutating func int(_ v: Int) { w.signed(Int64(v)) }
        mutating func double(_ d: Double) { w.double(d) }
        mutating func bool(_ b: Bool) { w.byte(b ? 1 : 0) }
        mutating func string(_ s: String) { w.string(s) }
        mutating func raw(_ b: [UInt8]) { w.blob(b) }
        /// A presence byte, then the value when present.
        mutating func optional<T>(_ value: T?, _ body: (inout Writer, T) -> Void) {
            guard let value else { return w.byte(0) }
            w.byte(1)
            body(&self, value)
        }
        mutating func array<T>(_ values: [T], _ body: (inout Writer, T) -> Void) {
            if values.count > RecordCodec.maxCount { withinLimits = false }
            uint(UInt64(values.count))
            for v in values { body(&self, v) }
        }

        mutating func issue(_ i: ReadIssue) {
            string(i.category.rawValue)
            string(i.message)
            optional(i.location) { $0.string($1) }
            optional(i.offset) { $0.int($1) }
        }

        mutating func value(_ v: MetadataValue, depth: Int = 0) {
            if depth >= RecordCodec.maxDepth { withinLimits = false }
            switch v {
            case .string(let s): w.byte(0); string(s)
            case .int(let i): w.byte(1); int(i)
            case .uint(let u): w.byte(2); uint(u)
            case .double(let d): w.byte(3); double(d)
            case .bytes(let b): w.byte(4); raw(b)
            case .array(let a): w.byte(5); array(a) { $0.value($1, depth: depth + 1) }
            case .dictionary(let d): w.byte(6); array(d) { $0.string($1.key); $0.value($1.value, depth: depth + 1) }
            case .bool(let b): w.byte(7); bool(b)
            }
        }

        /// False when the file holds something a slim record does not (not cached then).
        mutating func file(_ f: MediaFile, parentPath: String?) -> Bool {
            guard f.streamProperties == nil else { return false }
            // A member is never an archive itself (the decoder reads one level of members).
            if parentPath != nil, f.members != nil { return false }
            if let parentPath {
                // A member's path is `archive!member`: only the part after the archive's path is kept.
                let prefix = parentPath + "!"
                guard f.path.hasPrefix(prefix) else { return false }
                string(String(f.path.dropFirst(prefix.count)))
            }
            if let m = f.movie, !Self.isSlim(m) { return false }
            if let m = f.still?.motionPhoto?.video, !Self.isSlim(m) { return false }
            string(f.kind.rawValue)
            string(f.format.rawValue)
            optional(f.size) { $0.int($1) }
            optional(f.error) { $0.issue($1) }
            array(f.warnings) { $0.issue($1) }
            optional(f.still) { w, s in
                w.optional(s.width) { $0.int($1) }
                w.optional(s.height) { $0.int($1) }
                w.array(s.properties) { w, p in w.string(p.key); w.string(p.type); w.value(p.value) }
                w.optional(s.makerNote) { w, n in
                    w.uint(UInt64(n.version))
                    w.array(n.tags) { w, t in
                        w.uint(UInt64(t.tag)); w.string(t.name); w.array(t.aliases) { $0.string($1) }
                        w.string(t.type); w.uint(UInt64(t.count)); w.value(t.value)
                    }
                    w.array(n.issues) { $0.issue($1) }
                }
                w.optional(s.makerNoteIssue) { $0.issue($1) }
                w.optional(s.motionPhoto) { $0.motionPhoto($1) }
            }
            optional(f.movie) { $0.movie($1, top: parentPath == nil) }
            // An archive's layout (livp-layout), since format 3.
            var layout = Writer()
            layout.optional(f.archiveLayout) { w, l in
                w.array(l.entries) { w, e in
                    w.string(e.name); w.uint(UInt64(e.compressionMethod)); w.int(e.localExtraLength)
                    w.int(e.centralExtraLength); w.int(e.dataOffset); w.uint(e.compressedSize); w.uint(e.size)
                }
                w.array(l.comment) { $0.uint(UInt64($1)) }
            }
            w.bytes += layout.bytes
            if !layout.withinLimits { withinLimits = false }
            guard let members = f.members else {
                w.byte(0)
                return true
            }
            w.byte(1)
            uint(UInt64(members.count))
            for member in members {
                guard file(member, parentPath: f.path) else { return false }
            }
            return true
        }

        /// Whether a record holds all of `movie`: its tracks only as slimming keeps them (the video
        /// track cut to its edit list, ``PairMedia``), no brands list, top-level boxes or audio.
        static func isSlim(_ movie: MovieInfo) -> Bool {
            movie.compatibleBrands.isEmpty && movie.topLevelBoxes.isEmpty && movie.audio.isEmpty
                && movie.tracks.allSatisfy { t in
                    t.format == nil && t.width == 0 && t.height == 0 && t.matrix.isEmpty && t.references.isEmpty
                        && t.sampleCount == 0 && t.metadata == nil && t.enabled
                }
        }

        /// A movie; `top` when it is the top-level file's, whose tracks' place is noted.
        mutating func movie(_ m: MovieInfo, top: Bool) {
            optional(m.majorBrand) { $0.string($1) }
            uint(UInt64(m.timescale))
            uint(m.durationTicks)
            array(m.keys) { w, k in w.string(k.key); w.string(k.namespace); w.uint(UInt64(k.dataType)); w.value(k.value) }
            let tracksStart = bytes.count
            array(m.tracks) { w, t in
                w.uint(UInt64(t.id)); w.string(t.handler); w.uint(UInt64(t.mediaTimescale)); w.uint(t.mediaDurationTicks)
                w.array(t.editList) { w, e in w.uint(e.segmentDuration); w.int(e.mediaTime); w.double(e.rate) }
            }
            if top, !m.tracks.isEmpty { tracks = tracksStart..<bytes.count }
            optional(m.stillImageTime) { w, t in
                w.uint(UInt64(t.trackID)); w.optional(t.value) { $0.int($1) }
                w.optional(t.dataType) { $0.uint(UInt64($1)) }; w.optional(t.payloadSize) { $0.int($1) }
                w.int(t.sampleCount); w.optional(t.mediaTime) { $0.double($1) }
                w.optional(t.presentationTime) { $0.double($1) }; w.double(t.movieDuration)
            }
            optional(m.video) { w, v in
                w.uint(UInt64(v.trackID)); w.string(v.codec); w.optional(v.codecName) { $0.string($1) }
                w.optional(v.profile) { $0.string($1) }; w.optional(v.level) { $0.string($1) }
                w.int(v.width); w.int(v.height); w.optional(v.chroma) { $0.string($1) }
                w.optional(v.bitDepth) { $0.int($1) }; w.optional(v.fullRange) { $0.bool($1) }
                w.int(v.frameCount); w.double(v.duration); w.double(v.rotation)
            }
        }

        /// A motion photo: what it claims (its XMP), where its video lies, and that video (a slim
        /// movie, as ``MotionPhotoInfo/slimmedForLint()`` leaves it: ``file(_:parentPath:)`` checks).
        mutating func motionPhoto(_ m: MotionPhotoInfo) {
            string(m.format.rawValue)
            let c = m.declared
            optional(c.motionPhoto) { $0.int($1) }; optional(c.microVideo) { $0.int($1) }
            optional(c.version) { $0.int($1) }; optional(c.presentationTimestampUs) { $0.int($1) }
            optional(c.microVideoOffset) { $0.int($1) }
            array(c.items) { w, item in
                w.optional(item.mime) { $0.string($1) }; w.optional(item.semantic) { $0.string($1) }
                w.optional(item.length) { $0.int($1) }; w.optional(item.padding) { $0.int($1) }
            }
            int(c.itemCount)
            optional(c.samsungVideoOffset) { $0.int($1) }; optional(c.samsungVideoLength) { $0.int($1) }
            optional(m.declaredVideoOffset) { $0.int($1) }; optional(m.declaredVideoLength) { $0.int($1) }
            optional(m.primaryImageEnd) { $0.int($1) }; optional(m.videoOffset) { $0.int($1) }
            optional(m.videoLength) { $0.int($1) }
            optional(m.container) { $0.string($1.rawValue) }
            optional(m.video) { $0.movie($1, top: false) }
            optional(m.videoError) { $0.issue($1) }
            array(m.issues) { $0.issue($1) }
        }
    }

    /// A 64-bit hash of `bytes`, eight bytes a step, each step's product folded so high bits reach
    /// the low ones (a hash table's mask keeps those). Every step maps the running value one to
    /// one for a given word, so two runs of bytes of one length that differ in any word hash
    /// differently from that word on: a damaged byte always changes it (the cache's checksums).
    static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var h = UInt64(bytes.count) &* 0x9E37_79B9_7F4A_7C15
        var i = 0
        while i + 8 <= bytes.count {
            h = (h ^ bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self)) &* 0x9E37_79B9_7F4A_7C15
            h ^= h >> 29
            i += 8
        }
        while i < bytes.count {
            h = (h ^ UInt64(bytes[i])) &* 0x0000_0100_0000_01B3
            i += 1
        }
        return h ^ (h >> 32)
    }

    // MARK: - Decoding

    /// Shared copies of the short strings records repeat (metadata keys, tag names and types,
    /// codecs), so 100,000 decoded records hold one `ContentIdentifier` rather than 100,000, as
    /// slimming shares the keys. Seeded with the enabled rules' keys; at most ``limit`` strings.
    final class Names {
        /// Open addressing on a hash of the bytes: a name already kept is found by comparing bytes
        /// and handed back without making a `String` of them first (which, with `String`
        /// hashing, was a fifth of a cached scan's decoding, issue 13). The table doubles as it
        /// fills, kept at most half full: at most ``limit`` names in twice as many slots.
        private var slots: [Slot?] = Array(repeating: nil, count: 64)
        private var count = 0
        static let limit = 4_096
        static let longest = 64

        private struct Slot {
            let hash: UInt64
            let name: String
        }

        init(_ keys: Set<String> = []) {
            for key in keys.sorted() {
                var key = key
                _ = key.withUTF8 { shared(UnsafeRawBufferPointer($0)) }
            }
        }

        /// The kept copy of the name `bytes` spell (kept now if there is room, it is short, and
        /// its bytes are UTF-8 that a `String` spells back the same).
        func shared(_ bytes: UnsafeRawBufferPointer) -> String {
            let hash = RecordCodec.hash(bytes)
            var i = place(hash, bytes)
            if let slot = slots[i] { return slot.name }
            let name = String(decoding: bytes, as: UTF8.self)
            guard count < Self.limit, bytes.count <= Self.longest, Self.equal(name, bytes) else { return name }
            if 2 * (count + 1) > slots.count, slots.count < 2 * Self.limit {
                grow()
                i = place(hash, bytes)
            }
            slots[i] = Slot(hash: hash, name: name)
            count += 1
            return name
        }

        /// The slot holding `bytes`, else the empty slot where they would go. One is always
        /// empty: the table is at most half full.
        private func place(_ hash: UInt64, _ bytes: UnsafeRawBufferPointer) -> Int {
            let mask = slots.count - 1
            var i = Int(truncatingIfNeeded: hash) & mask
            while let slot = slots[i] {
                if slot.hash == hash, Self.equal(slot.name, bytes) { return i }
                i = (i + 1) & mask
            }
            return i
        }

        private func grow() {
            let old = slots
            slots = Array(repeating: nil, count: 2 * old.count)
            let mask = slots.count - 1
            for case let slot? in old {
                var i = Int(truncatingIfNeeded: slot.hash) & mask
                while slots[i] != nil { i = (i + 1) & mask }
                slots[i] = slot
            }
        }

        private static func equal(_ name: String, _ bytes: UnsafeRawBufferPointer) -> Bool {
            var name = name
            return name.withUTF8 { PathText.compare($0, bytes.assumingMemoryBound(to: UInt8.self)) == 0 }
        }
    }

    /// The file `bytes` describe, at `path`; nil when the bytes are damaged. `names` supplies shared
    /// copies of repeated strings (``Names``).
    static func decode(_ bytes: UnsafeRawBufferPointer, path: String, names: Names) -> MediaFile? {
        decodeNotingTracks(bytes, path: path, names: names)?.file
    }

    /// ``decode(_:path:names:)``, with where the movie's tracks lie in `bytes` (``Encoded/tracks``).
    static func decodeNotingTracks(_ bytes: UnsafeRawBufferPointer, path: String, names: Names) -> (file: MediaFile, tracks: Range<Int>?)? {
        var r = Reader(bytes: bytes, names: names)
        guard let file = r.file(path: path, depth: 0), r.atEnd else { return nil }
        return (file, r.tracks)
    }

    /// A file's kind and format are written as their names and read back by comparing bytes, without
    /// making a `String` of them or matching one (about 2 % of a profile of a cached scan of 50,000
    /// pairs, issue 13). The names are ASCII, so equal bytes are what `String` equality meant.
    static let kinds = CaseNames<FileKind>(), formats = CaseNames<ContainerFormat>()

    /// The cases of an enum whose raw values are names, by their UTF-8 bytes.
    struct CaseNames<Value: CaseIterable & RawRepresentable & Sendable>: Sendable where Value.RawValue == String {
        private let cases: [(name: [UInt8], value: Value)]

        init() { cases = Value.allCases.map { (Array($0.rawValue.utf8), $0) } }

        /// The case named `bytes`; nil for a name no case has.
        func value(_ bytes: UnsafeRawBufferPointer) -> Value? {
            cases.first { $0.name.elementsEqual(bytes) }?.value
        }
    }

    /// Limits on what a record may claim, so a damaged one cannot ask for much memory.
    private static let maxCount = 1 << 16
    private static let maxDepth = 8

    struct Reader {
        private var r: RecordReader
        let names: Names
        /// Where the top-level file's movie tracks were read.
        var tracks: Range<Int>?

        init(bytes: UnsafeRawBufferPointer, names: Names) {
            r = RecordReader(bytes: bytes)
            self.names = names
        }

        var bytes: UnsafeRawBufferPointer { r.bytes }
        /// Where the next value begins.
        var offset: Int { r.at }
        /// True when every byte was read.
        var atEnd: Bool { r.atEnd }

        mutating func byte() -> UInt8? { r.byte() }
        /// A number (a damaged record's eleven-byte one refused rather than read as another).
        mutating func uint() -> UInt64? { r.number() }
        mutating func int64() -> Int64? { r.signed() }
        mutating func int() -> Int? { int64().map { Int($0) } }
        mutating func uint32() -> UInt32? { uint().flatMap { UInt32(exactly: $0) } }
        mutating func double() -> Double? { r.double() }
        mutating func bool() -> Bool? {
            guard let b = byte(), b <= 1 else { return nil }
            return b == 1
        }
        mutating func count() -> Int? {
            guard let n = uint(), n <= UInt64(min(RecordCodec.maxCount, bytes.count - offset)) else { return nil }
            return Int(n)
        }
        /// A length-prefixed run of bytes, in place (the length checked against what is left).
        mutating func slice() -> UnsafeRawBufferPointer? { r.slice() }
        mutating func rawBytes() -> [UInt8]? { r.blob() }
        mutating func string() -> String? { r.string() }
        /// A string records repeat (a key, a tag name), shared through `names`.
        mutating func name() -> String? { slice().map(names.shared) }
        /// Decodes a presence byte and the value: `.some(nil)` when absent, nil when damaged.
        mutating func optional<T>(_ body: (inout Reader) -> T?) -> T?? {
            switch byte() {
            case 0: return .some(nil)
            case 1: return body(&self).map { .some($0) } ?? nil
            default: return nil
            }
        }
        mutating func array<T>(_ body: (inout Reader) -> T?) -> [T]? {
            guard let n = count() else { return nil }
            var out: [T] = []
            out.reserveCapacity(n)
            for _ in 0..<n {
                guard let v = body(&self) else { return nil }
                out.append(v)
            }
            return out
        }

        mutating func issue() -> ReadIssue? {
            guard let c = string().flatMap(ReadIssue.Category.init(rawValue:)), let m = string(),
                  let l = optional({ $0.string() }), let o = optional({ $0.int64() }) else { return nil }
            return ReadIssue(c, m, location: l, offset: o)
        }

        mutating func value(depth: Int = 0) -> MetadataValue? {
            guard depth < RecordCodec.maxDepth, let tag = byte() else { return nil }
            switch tag {
            case 0: return string().map { .string($0) }
            case 1: return int64().map { .int($0) }
            case 2: return uint().map { .uint($0) }
            case 3: return double().map { .double($0) }
            case 4: return rawBytes().map { .bytes($0) }
            case 5: return array { $0.value(depth: depth + 1) }.map { .array($0) }
            case 6:
                return array { r -> MetadataValue.KeyValue? in
                    guard let k = r.string(), let v = r.value(depth: depth + 1) else { return nil }
                    return MetadataValue.KeyValue(k, v)
                }.map { .dictionary($0) }
            case 7: return bool().map { .bool($0) }
            default: return nil
            }
        }

        mutating func still() -> StillInfo? {
            guard let width = optional({ $0.int() }), let height = optional({ $0.int() }),
                  let properties = array({ r -> MetadataProperty? in
                      guard let k = r.name(), let t = r.name(), let v = r.value() else { return nil }
                      return MetadataProperty(key: k, type: t, value: v)
                  }),
                  let note = optional({ r -> AppleMakerNoteInfo? in
                      guard let version = r.uint().flatMap({ UInt16(exactly: $0) }),
                            let tags = r.array({ r -> MakerAppleTag? in
                                guard let tag = r.uint().flatMap({ UInt16(exactly: $0) }), let name = r.name(),
                                      let aliases = r.array({ $0.name() }), let type = r.name(),
                                      let count = r.uint32(), let value = r.value() else { return nil }
                                return MakerAppleTag(tag: tag, name: name, aliases: aliases, type: type, count: count, value: value)
                            }),
                            let issues = r.array({ $0.issue() }) else { return nil }
                      return AppleMakerNoteInfo(version: version, tags: tags, issues: issues)
                  }),
                  let noteIssue = optional({ $0.issue() }),
                  let motion = optional({ $0.motionPhoto() })
            else { return nil }
            var still = StillInfo(width: width, height: height, properties: properties, makerNote: note, makerNoteIssue: noteIssue)
            still.motionPhoto = motion
            return still
        }

        mutating func motionPhoto() -> MotionPhotoInfo? {
            guard let format = string().flatMap(MotionPhotoInfo.Format.init(rawValue:)),
                  let motionPhoto = optional({ $0.int64() }), let microVideo = optional({ $0.int64() }),
                  let version = optional({ $0.int64() }), let timestamp = optional({ $0.int64() }),
                  let microVideoOffset = optional({ $0.int64() }),
                  let items = array({ r -> DirectoryItem? in
                      guard let mime = r.optional({ $0.name() }), let semantic = r.optional({ $0.name() }),
                            let length = r.optional({ $0.int64() }), let padding = r.optional({ $0.int64() }) else { return nil }
                      return DirectoryItem(mime: mime, semantic: semantic, length: length, padding: padding)
                  }),
                  let itemCount = int(),
                  let samsungOffset = optional({ $0.int64() }), let samsungLength = optional({ $0.int64() }),
                  let declaredOffset = optional({ $0.int64() }), let declaredLength = optional({ $0.int64() }),
                  let primaryImageEnd = optional({ $0.int64() }), let videoOffset = optional({ $0.int64() }),
                  let videoLength = optional({ $0.int64() }),
                  let container = optional({ $0.string().flatMap(MotionPhotoInfo.Container.init(rawValue:)) }),
                  let video = optional({ $0.movie(top: false) }),
                  let videoError = optional({ $0.issue() }),
                  let issues = array({ $0.issue() }) else { return nil }
            let declared = MotionPhotoClaims(motionPhoto: motionPhoto, microVideo: microVideo, version: version,
                                             presentationTimestampUs: timestamp, microVideoOffset: microVideoOffset, items: items,
                                             itemCount: itemCount, samsungVideoOffset: samsungOffset, samsungVideoLength: samsungLength)
            var motion = MotionPhotoInfo(format: format, declared: declared, primaryImageEnd: primaryImageEnd, videoOffset: videoOffset,
                                         videoLength: videoLength, container: container, video: video, videoError: videoError,
                                         issues: issues)
            motion.declaredVideoOffset = declaredOffset
            motion.declaredVideoLength = declaredLength
            return motion
        }

        /// A movie; `top` when it is the top-level file's, whose tracks' place is noted.
        mutating func movie(top: Bool) -> MovieInfo? {
            guard let brand = optional({ $0.name() }), let timescale = uint32(), let duration = uint(),
                  let keys = array({ r -> QuickTimeKey? in
                      guard let k = r.name(), let ns = r.name(), let t = r.uint32(), let v = r.value() else { return nil }
                      return QuickTimeKey(key: k, namespace: ns, dataType: t, value: v)
                  }),
                  case let tracksStart = offset,
                  let tracks = array({ r -> TrackInfo? in
                      guard let id = r.uint32(), let handler = r.name(), let timescale = r.uint32(), let ticks = r.uint(),
                            let edits = r.array({ r -> EditListEntry? in
                                guard let d = r.uint(), let t = r.int64(), let rate = r.double() else { return nil }
                                return EditListEntry(segmentDuration: d, mediaTime: t, rate: rate)
                            }) else { return nil }
                      return TrackInfo(id: id, handler: handler, mediaTimescale: timescale, mediaDurationTicks: ticks,
                                       matrix: [], editList: edits)
                  }),
                  case let tracksEnd = offset,
                  let stillTime = optional({ r -> StillImageTime? in
                      guard let track = r.uint32(), let value = r.optional({ $0.int64() }),
                            let type = r.optional({ $0.uint32() }), let size = r.optional({ $0.int() }),
                            let samples = r.int(), let media = r.optional({ $0.double() }),
                            let presentation = r.optional({ $0.double() }), let movieDuration = r.double() else { return nil }
                      return StillImageTime(trackID: track, value: value, dataType: type, payloadSize: size, sampleCount: samples,
                                            mediaTime: media, presentationTime: presentation, movieDuration: movieDuration)
                  }),
                  let video = optional({ r -> VideoStream? in
                      guard let track = r.uint32(), let codec = r.name(), let name = r.optional({ $0.name() }),
                            let profile = r.optional({ $0.name() }), let level = r.optional({ $0.name() }),
                            let width = r.int(), let height = r.int(), let chroma = r.optional({ $0.name() }),
                            let depth = r.optional({ $0.int() }), let full = r.optional({ $0.bool() }),
                            let frames = r.int(), let duration = r.double(), let rotation = r.double() else { return nil }
                      return VideoStream(trackID: track, codec: codec, codecName: name, profile: profile, level: level,
                                         width: width, height: height, chroma: chroma, bitDepth: depth, fullRange: full,
                                         frameCount: frames, duration: duration, rotation: rotation)
                  })
            else { return nil }
            if top, !tracks.isEmpty { self.tracks = tracksStart..<tracksEnd }
            return MovieInfo(majorBrand: brand, timescale: timescale, durationTicks: duration, keys: keys, tracks: tracks,
                             stillImageTime: stillTime, video: video)
        }

        mutating func file(path: String, depth: Int) -> MediaFile? {
            guard depth < 2,
                  let kind = slice().flatMap(RecordCodec.kinds.value),
                  let format = slice().flatMap(RecordCodec.formats.value),
                  let size = optional({ $0.int64() }), let error = optional({ $0.issue() }),
                  let warnings = array({ $0.issue() }),
                  let still = optional({ $0.still() }), let movie = optional({ $0.movie(top: depth == 0) }),
                  let layout = optional({ r -> ArchiveLayout? in
                      guard let entries = r.array({ r -> ArchiveLayout.Entry? in
                          guard let name = r.string(), let method = r.uint().flatMap({ UInt16(exactly: $0) }),
                                let local = r.int(), let central = r.int(), let offset = r.int64(),
                                let compressed = r.uint(), let size = r.uint() else { return nil }
                          return ArchiveLayout.Entry(name: name, compressionMethod: method, localExtraLength: local,
                                                     centralExtraLength: central, dataOffset: offset, compressedSize: compressed, size: size)
                      }), let comment = r.array({ $0.uint().flatMap { UInt8(exactly: $0) } }) else { return nil }
                      return ArchiveLayout(entries: entries, comment: comment)
                  }),
                  let hasMembers = bool()
            else { return nil }
            var members: [MediaFile]?
            if hasMembers {
                guard let list = array({ r -> MediaFile? in
                    guard let name = r.string() else { return nil }
                    return r.file(path: path + "!" + name, depth: depth + 1)
                }) else { return nil }
                members = list
            }
            var file = MediaFile(path: path, kind: kind, format: format, size: size, still: still, movie: movie,
                                 members: members, error: error, warnings: warnings)
            file.archiveLayout = layout
            return file
        }
    }
}
