import ISOBMFF
import LiveModel
import LiveReaders

/// What to change in a movie to make (or mend) the movie half of a Live Photo.
/// Every field left nil leaves that part of the movie as it is.
public struct LivePhotoMovieEdit: Sendable {
    /// Sets or replaces `moov/meta` key `com.apple.quicktime.content.identifier` (UTF-8),
    /// creating `meta`/`hdlr`/`keys`/`ilst` when absent.
    public var contentIdentifier: String?
    /// Seconds (≥ 0): adds a `mebx` still-image-time track (int8 `stillImageTimeValue`), placed by
    /// an edit list (an empty edit of that length, then a one-tick segment at media time 0) with
    /// `tref` `cdsc` → the video track. Replaces any existing still-image-time track.
    public var stillImageTime: Double?
    public var stillImageTimeValue: Int8 = -1
    /// The still-image-time key's well-known data type (`dtyp`). Apple writes 65 (int8); other
    /// values exist to build the broken files `still-image-time-type` must flag. The value is
    /// written sign-extended, big-endian, in the type's width (1, 2, 4 or 8 bytes).
    public var stillImageTimeDataType: UInt32 = WellKnownDataType.int8
    /// Rewrites the first video track's sample entry fourcc (e.g. `hvc1` for a `hev1` movie that
    /// Apple players refuse). Must be four ASCII characters.
    public var videoSampleEntryFormat: String?

    public init(contentIdentifier: String? = nil, stillImageTime: Double? = nil, stillImageTimeValue: Int8 = -1,
                videoSampleEntryFormat: String? = nil) {
        self.contentIdentifier = contentIdentifier
        self.stillImageTime = stillImageTime
        self.stillImageTimeValue = stillImageTimeValue
        self.videoSampleEntryFormat = videoSampleEntryFormat
    }
}

/// Rewrites QuickTime movies: Live Photo keys in `moov/meta` and the still-image-time track.
public enum QuickTimeWriter {
    /// Returns the full new file bytes. Media bytes are copied untouched; `moov` is rebuilt; the
    /// new still-image-time sample goes into a new `mdat` appended at the end; when `moov` comes
    /// before the media and changes size, every track's chunk offsets (`stco`/`co64`) are shifted.
    ///
    /// Throws (`BoxError`) for input it will not rewrite: no `moov`, a damaged `moov` (any box
    /// error), fragmented movies (`moof`), a `moov` over the load limit, a negative or non-finite
    /// still-image time, or a shifted chunk offset that would no longer fit in 32 bits.
    public static func apply(_ edit: LivePhotoMovieEdit, to source: some ByteSource) throws(BoxError) -> [UInt8] {
        let scan = TopLevel.scan(source)
        if let e = scan.error { throw e }
        guard let moovHeader = scan.first("moov") else {
            throw BoxError(.malformed, "no 'moov' box to edit", offset: 0)
        }
        if let moof = scan.first("moof") {
            throw BoxError(.unsupported, "fragmented movies ('moof') are not rewritten", path: "moof", offset: moof.offset)
        }
        guard moovHeader.payloadSize <= BoxLimits.maxLoadedBoxBytes else {
            throw BoxError(.limit, "'moov' is too large to rewrite", path: "moov", offset: moovHeader.offset)
        }
        let info = MovieReader.read(source, options: MovieReadOptions(samples: .stillImageTimeOnly, maxSamplesPerTrack: 1))
        if let e = info.error {
            throw BoxError(.malformed, "cannot rewrite a movie that does not read cleanly: \(e.description)", path: e.location ?? "", offset: e.offset ?? 0)
        }
        guard let movie = info.movie else { throw BoxError(.malformed, "not a movie", offset: 0) }

        let moovBytes = try source.read(at: moovHeader.payloadOffset, count: Int(moovHeader.payloadSize))
        let tree = BoxTree.parse(moovBytes, baseOffset: moovHeader.payloadOffset, path: "moov", ancestors: ["moov"])
        if let first = tree.issues.first { throw first }
        var moov = BoxNode(type: "moov", children: tree.nodes)
        let oldMoovSize = moovHeader.size

        if let id = edit.contentIdentifier {
            try setKey(MovieInfo.contentIdentifierKey, type: 1, value: Array(id.utf8), in: &moov)
        }
        if let format = edit.videoSampleEntryFormat {
            try setVideoFormat(format, movie: movie, in: &moov)
        }
        var sample: [UInt8] = []
        var newTrackIndex: Int?
        if let seconds = edit.stillImageTime {
            guard seconds.isFinite, seconds >= 0 else {
                throw BoxError(.malformed, "still-image time \(seconds) s cannot be placed by an edit list", offset: 0)
            }
            guard movie.timescale > 0 else { throw BoxError(.malformed, "movie timescale is 0", path: "moov/mvhd", offset: 0) }
            let ticks = (seconds * Double(movie.timescale)).rounded()
            guard ticks < Double(UInt32.max) else {
                throw BoxError(.limit, "still-image time \(seconds) s is out of range", offset: 0)
            }
            // Drop existing still-image-time tracks (their old sample bytes stay as unreferenced data).
            var trakIndex = 0
            moov.children = moov.children.filter { child in
                guard child.type == "trak" else { return true }
                defer { trakIndex += 1 }
                guard trakIndex < movie.tracks.count else { return true }
                return movie.tracks[trakIndex].metadata?.key(named: MovieInfo.stillImageTimeKey) == nil
            }
            let videoID = movie.video?.trackID ?? movie.tracks.first { $0.handler == "vide" }?.id
            let trackID = try takeNextTrackID(movie: movie, in: &moov)
            sample = MovieBoxBuilders.stillImageTimeSample(value: edit.stillImageTimeValue, dataType: edit.stillImageTimeDataType)
            let trak = MovieBoxBuilders.stillImageTimeTrack(trackID: trackID, offsetTicks: UInt64(ticks),
                                                            videoTrackID: videoID, sampleOffset: 0,
                                                            sampleSize: UInt32(sample.count), dataType: edit.stillImageTimeDataType)
            // After the last trak, so track order stays by id.
            let lastTrak = moov.children.lastIndex { $0.type == "trak" } ?? (moov.children.count - 1)
            moov.children.insert(trak, at: lastTrak + 1)
            newTrackIndex = lastTrak + 1
        }

        // Shift existing chunk offsets that point past the old moov, when it grows or shrinks.
        let delta = moov.size - oldMoovSize
        if delta != 0 {
            try shiftChunkOffsets(in: &moov, after: moovHeader.endOffset, by: delta, skip: newTrackIndex)
        }
        guard moov.size - oldMoovSize == delta else {
            throw BoxError(.limit, "chunk offsets changed size while shifting", path: "moov", offset: moovHeader.offset)
        }

        // Lay out: top-level boxes in order, the new moov in place of the old, a new mdat last.
        var total: Int64 = 0
        for box in scan.boxes { total += box.type == "moov" && box.offset == moovHeader.offset ? moov.size : box.size }
        if scan.boxes.last.map({ $0.endOffset < source.size }) == true {
            total += source.size - (scan.boxes.last?.endOffset ?? 0)  // trailing bytes, copied as they are
        }
        if let index = newTrackIndex {
            let sampleOffset = UInt64(total) + 8
            let trak = MovieBoxBuilders.stillImageTimeTrack(
                trackID: trackID(of: moov.children[index]), offsetTicks: offsetTicks(of: moov.children[index]),
                videoTrackID: movie.video?.trackID ?? movie.tracks.first { $0.handler == "vide" }?.id,
                sampleOffset: sampleOffset, sampleSize: UInt32(sample.count), dataType: edit.stillImageTimeDataType)
            guard trak.size == moov.children[index].size else {
                throw BoxError(.limit, "the new sample lies beyond 4 GiB and the moov would need co64 after layout", offset: total)
            }
            moov.children[index] = trak
        }

        var out: [UInt8] = []
        out.reserveCapacity(Int(total) + (sample.isEmpty ? 0 : 8 + sample.count))
        for box in scan.boxes {
            if box.type == "moov" && box.offset == moovHeader.offset {
                moov.write(into: &out)
                continue
            }
            var bytes = try source.read(at: box.offset, count: Int(box.size))
            if box.extendsToEnd && !sample.isEmpty {
                // A size-0 box ends at the end of the file: give it its real size before appending.
                guard box.size <= Int64(UInt32.max) else {
                    throw BoxError(.unsupported, "a size-0 box above 4 GiB cannot be followed by a new mdat", path: box.type.description, offset: box.offset)
                }
                let s = UInt32(box.size)
                bytes[0] = UInt8(s >> 24); bytes[1] = UInt8((s >> 16) & 0xFF); bytes[2] = UInt8((s >> 8) & 0xFF); bytes[3] = UInt8(s & 0xFF)
            }
            out += bytes
        }
        if let last = scan.boxes.last, last.endOffset < source.size {
            out += try source.read(at: last.endOffset, count: Int(source.size - last.endOffset))
        }
        if !sample.isEmpty {
            out += BoxNode(type: "mdat", data: sample).serialized()
        }
        return out
    }

    // MARK: - helpers

    /// Sets key `name` in `moov/meta` (QuickTime layout) to a `data` atom of `type`.
    static func setKey(_ name: String, type: UInt32, value: [UInt8], in moov: inout BoxNode) throws(BoxError) {
        let metaPath = moovPath.appending("meta")
        var children = moov.children
        let metaIndex = children.firstIndex { $0.type == "meta" }
        var meta = metaIndex.map { children[$0] } ?? BoxNode(type: "meta", children: [MovieBoxBuilders.metaHandler()])
        if let hdlr = meta.child("hdlr"), hdlr.data != nil,
           let handler = try? HandlerBox.read(hdlr.payloadCursor(path: metaPath.appending("hdlr")), keepRemainder: false).handlerType {
            guard handler == "mdta" else {
                throw BoxError(.unsupported, "moov/meta has handler '\(handler)', not 'mdta'; not adding keys to it", path: "moov/meta/hdlr", offset: hdlr.offset ?? 0)
            }
        } else if meta.child("hdlr") == nil {
            meta.children.insert(MovieBoxBuilders.metaHandler(), at: 0)
        }
        // Existing keys, in order.
        var keys: [(namespace: BoxType, name: String)] = []
        if let keysBox = meta.child("keys"), keysBox.data != nil {
            keys = try MetadataKeysBox.read(keysBox.payloadCursor(path: metaPath.appending("keys"))).entries.map { ($0.namespace, $0.name) }
        }
        var ilst = meta.child("ilst") ?? BoxNode(type: "ilst", children: [])
        let index: UInt32
        if let existing = keys.firstIndex(where: { $0.name == name && $0.namespace == "mdta" }) {
            index = UInt32(existing + 1)
            ilst.children.removeAll { $0.type.rawValue == index }
        } else {
            keys.append(("mdta", name))
            index = UInt32(keys.count)
        }
        ilst.children.append(MovieBoxBuilders.ilstItem(index: index, type: type, value: value))
        var metaChildren = meta.children.filter { $0.type != "keys" && $0.type != "ilst" }
        let hdlrPosition = (metaChildren.firstIndex { $0.type == "hdlr" } ?? -1) + 1
        metaChildren.insert(contentsOf: [MovieBoxBuilders.keysBox(keys), ilst], at: hdlrPosition)
        meta.children = metaChildren
        if let metaIndex { children[metaIndex] = meta } else { children.append(meta) }
        moov.children = children
    }

    static func setVideoFormat(_ format: String, movie: MovieInfo, in moov: inout BoxNode) throws(BoxError) {
        let bytes = Array(format.utf8)
        guard bytes.count == 4, bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else {
            throw BoxError(.malformed, "sample entry format '\(format)' is not four ASCII characters", offset: 0)
        }
        guard let videoID = movie.video?.trackID,
              let index = movie.tracks.firstIndex(where: { $0.id == videoID }) else {
            throw BoxError(.malformed, "no video track to retag", offset: 0)
        }
        var trakCount = -1
        for i in moov.children.indices where moov.children[i].type == "trak" {
            trakCount += 1
            guard trakCount == index else { continue }
            var trak = moov.children[i]
            guard var mdia = trak.child("mdia"), var minf = mdia.child("minf"), var stbl = minf.child("stbl"),
                  let stsdIndex = stbl.children.firstIndex(where: { $0.type == "stsd" }),
                  var data = stbl.children[stsdIndex].data, data.count >= 16 else {
                throw BoxError(.malformed, "video track has no sample description", path: moovPath.appending("trak", index: index + 1).description,
                               offset: trak.offset ?? 0)
            }
            data.replaceSubrange(12..<16, with: bytes)  // version/flags, count, entry size, then the format
            stbl.children[stsdIndex] = BoxNode(type: "stsd", data: data)
            replace(&minf, stbl)
            replace(&mdia, minf)
            replace(&trak, mdia)
            moov.children[i] = trak
            return
        }
    }

    static func replace(_ parent: inout BoxNode, _ child: BoxNode) {
        if let i = parent.children.firstIndex(where: { $0.type == child.type }) { parent.children[i] = child }
    }

    static let moovPath = BoxPath().appending("moov")

    /// Reads `mvhd` next_track_ID (or one past the largest id), returns it and stores the next one.
    static func takeNextTrackID(movie: MovieInfo, in moov: inout BoxNode) throws(BoxError) -> UInt32 {
        let largest = movie.tracks.map(\.id).max() ?? 0
        guard let i = moov.children.firstIndex(where: { $0.type == "mvhd" }), let data = moov.children[i].data, !data.isEmpty else {
            throw BoxError(.malformed, "no 'mvhd'", path: "moov", offset: 0)
        }
        let mvhdPath = moovPath.appending("mvhd")
        // A header without the presentation fields (rate … next track id) has no id to take.
        guard var mvhd = try? MovieHeaderBox.read(moov.children[i].payloadCursor(path: mvhdPath)), var presentation = mvhd.presentation else {
            throw BoxError(.malformed, "'mvhd' is too short", path: mvhdPath.description, offset: moov.children[i].offset ?? 0)
        }
        let id = max(presentation.nextTrackID, largest &+ 1)
        guard id != 0, id < UInt32.max else { throw BoxError(.limit, "no track id left", path: mvhdPath.description, offset: 0) }
        presentation.nextTrackID = id + 1
        mvhd.presentation = presentation
        moov.children[i] = mvhd.node
        return id
    }

    static func trackID(of trak: BoxNode) -> UInt32 {
        // At least the bytes up to a version-1 track id, as ever.
        guard let tkhd = trak.child("tkhd"), let d = tkhd.data, d.count >= 24 else { return 0 }
        var box = TrackHeaderBox()
        try? TrackHeaderBox.read(tkhd.payloadCursor(path: BoxPath()), into: &box)
        return box.trackID
    }

    /// The empty edit's length in a still-image-time track this writer made (two edits), else 0.
    static func offsetTicks(of trak: BoxNode) -> UInt64 {
        guard let node = trak.descendant(["edts", "elst"]), node.data != nil,
              let elst = try? EditListBox.read(node.payloadCursor(path: BoxPath())), elst.entries.count == 2 else { return 0 }
        return elst.entries[0].segmentDuration
    }

    static let stblPath = moovPath.appending("trak").appending("mdia").appending("minf").appending("stbl")

    /// Adds `delta` to every `stco`/`co64` entry ≥ `threshold` in every trak (except index `skip`).
    static func shiftChunkOffsets(in moov: inout BoxNode, after threshold: Int64, by delta: Int64, skip: Int?) throws(BoxError) {
        for i in moov.children.indices where moov.children[i].type == "trak" && i != skip {
            var trak = moov.children[i]
            guard var mdia = trak.child("mdia"), var minf = mdia.child("minf"), var stbl = minf.child("stbl") else { continue }
            for j in stbl.children.indices where stbl.children[j].type == "stco" || stbl.children[j].type == "co64" {
                let box = stbl.children[j]
                // Errors name the table without the track index and count from the box's first
                // byte, as this writer always reported them.
                let payload = ByteCursor(box.data ?? [], baseOffset: box.offset ?? 0,
                                         boxPath: Self.stblPath.appending(box.type))
                let table = try ChunkOffsetBox.read(payload, type: box.type)
                var offsets: [UInt64] = []
                offsets.reserveCapacity(table.entryCount)
                for k in 0..<table.entryCount {
                    let old = table.is64Bit ? Int64(bitPattern: table.offset(at: k)) : Int64(table.offset(at: k))
                    let new = old >= threshold ? old + delta : old
                    if !table.is64Bit {
                        guard new >= 0, new <= Int64(UInt32.max) else {
                            throw table.entries.error(.limit, "shifted chunk offset \(new) does not fit 'stco'", afterEntry: k)
                        }
                    }
                    offsets.append(UInt64(bitPattern: new))
                }
                stbl.children[j] = ChunkOffsetBox(header: table.header, offsets: offsets, wide: table.is64Bit).node
            }
            replace(&minf, stbl)
            replace(&mdia, minf)
            replace(&trak, mdia)
            moov.children[i] = trak
        }
    }
}
