import ISOBMFF
import LiveModel

/// One track's boxes turned into `TrackInfo` (+ video / audio stream facts), its `mebx`
/// samples read through the sample tables.
struct MovieTrackReader {
    struct Issue {
        var issue: ReadIssue
        var stops: Bool
    }

    struct Output {
        var info: TrackInfo
        var video: VideoStream?
        var audio: AudioStream?
    }

    /// Timed-metadata samples and sample bytes a file may still make us decode, shared by its tracks.
    struct SampleBudget {
        var samples = BoxLimits.maxSamplesPerFile
        var bytes = BoxLimits.maxSampleBytesPerFile
        /// Set once the budget ran out (reported once per file).
        var exhausted = false
    }

    let node: BoxIndex.Box
    let path: BoxPath
    let movieTimescale: UInt32
    var issues: [Issue] = []
    var budget = SampleBudget()

    init(node: BoxIndex.Box, path: BoxPath, movieTimescale: UInt32) {
        self.node = node
        self.path = path
        self.movieTimescale = movieTimescale
    }

    mutating func fail(_ e: BoxError, stops: Bool = true) { issues.append(Issue(issue: ReadIssue(e), stops: stops)) }

    /// The sample tables of one `stbl`, each read once (sizes when the track is read; timing and
    /// chunks only for the samples decoded).
    struct SampleTables {
        let stbl: BoxIndex.Box
        let path: BoxPath
        var sizes: SampleSizeBox?
    }

    mutating func read(_ source: some ByteSource, options: MovieReadOptions) -> Output {
        var info = TrackInfo(id: 0, handler: "")
        var out = Output(info: info)
        if let tkhd = node.child("tkhd") { readTkhd(tkhd, into: &info) } else {
            fail(BoxError(.malformed, "track has no 'tkhd'", path: path.description, offset: node.offset), stops: false)
        }
        if let tref = node.child("tref") {
            let trefPath = path.appending("tref")
            for ref in tref.children {
                var ids: [UInt32] = []
                // A reference whose type the movie layout opens (a `udta`, a `meta` inside `tref`)
                // has no data, so no track ids, as always.
                if var c = ref.dataCursor(path: trefPath.appending(ref.type)) {
                    while c.remaining >= 4, let id = try? c.u32() { ids.append(id) }
                }
                info.references[ref.type.description, default: []] += ids
            }
        }
        if let elst = node.child("edts")?.child("elst") { info.editList = readElst(elst) }
        guard let mdia = node.child("mdia") else {
            out.info = info
            return out
        }
        let mdiaPath = path.appending("mdia")
        if let mdhd = mdia.child("mdhd") {
            do throws(BoxError) {
                let box = try MediaHeaderBox.read(mdhd.payloadCursor(path: mdiaPath.appending("mdhd")))
                (info.mediaTimescale, info.mediaDurationTicks) = (box.timescale, box.knownDuration)
            } catch { fail(error) }
        }
        if let hdlr = mdia.child("hdlr") {
            do throws(BoxError) {
                info.handler = try HandlerBox.read(hdlr.payloadCursor(path: mdiaPath.appending("hdlr")), keepRemainder: false).handlerType.description
            } catch { fail(error) }
        }
        guard let stbl = mdia.child("minf")?.child("stbl") else {
            out.info = info
            return out
        }
        let stblPath = mdiaPath.appending("minf").appending("stbl")
        var tables = SampleTables(stbl: stbl, path: stblPath)
        tables.sizes = readSampleSizes(stbl, stblPath)
        info.sampleCount = tables.sizes.map { Int($0.sampleCount) } ?? 0
        guard let stsd = stbl.child("stsd") else {
            out.info = info
            return out
        }
        guard let entry = firstSampleEntry(stsd, stblPath.appending("stsd")) else {
            out.info = info
            return out
        }
        info.format = entry.format.description
        switch (info.handler, entry.format) {
        case (_, "mebx"):
            let keys = readMebxKeys(entry.payload)
            var track = MetadataTrack(keys: keys, samples: [])
            let wanted = options.samples == .all || keys.contains { $0.name == MovieInfo.stillImageTimeKey }
            if wanted {
                let limit = max(0, options.maxSamplesPerTrack)
                let samples = readMebxSamples(tables, keys: keys, source: source, limit: limit, info: info)
                track.samples = samples
                track.samplesTruncated = samples.count < info.sampleCount
            }
            info.metadata = track
        case ("vide", _), ("auxv", _):
            out.video = readVisualEntry(entry, info: info)
        case ("soun", _):
            out.audio = readSoundEntry(entry, info: info)
        default:
            break
        }
        out.info = info
        return out
    }

    // MARK: headers

    mutating func readTkhd(_ box: BoxIndex.Box, into info: inout TrackInfo) {
        // The box starts from the model's defaults, so a header cut short leaves the fields it
        // lacks as they were (a bad box keeps what was read before it).
        var tkhd = TrackHeaderBox()
        var failure: BoxError?
        do throws(BoxError) {
            try TrackHeaderBox.read(box.payloadCursor(path: path.appending("tkhd")), into: &tkhd)
        } catch { failure = error }
        info.enabled = tkhd.isEnabled
        info.id = tkhd.trackID
        if tkhd.matrix != .identity { info.matrix = tkhd.matrix.values }
        info.width = tkhd.widthValue
        info.height = tkhd.heightValue
        if let failure { fail(failure) }
    }

    mutating func readElst(_ box: BoxIndex.Box) -> [EditListEntry] {
        do throws(BoxError) {
            let elst = try EditListBox.read(box.payloadCursor(path: path.appending("edts").appending("elst")))
            return elst.entries.map { EditListEntry(segmentDuration: $0.segmentDuration, mediaTime: $0.mediaTime, rate: $0.rate) }
        } catch {
            fail(error, stops: false)
            return []
        }
    }

    // MARK: sample tables

    /// `stsz`, else `stz2`: read and checked once; the count is the track's sample count.
    mutating func readSampleSizes(_ stbl: BoxIndex.Box, _ stblPath: BoxPath) -> SampleSizeBox? {
        for type: BoxType in ["stsz", "stz2"] {
            guard let box = stbl.child(type) else { continue }
            do throws(BoxError) {
                return try SampleSizeBox.read(box.payloadCursor(path: stblPath.appending(type)), type: type)
            } catch {
                fail(error)
                return nil
            }
        }
        return nil
    }

    /// Sizes of the first `limit` samples (`stsz` or `stz2`).
    static func sampleSizes(_ tables: SampleTables, limit: Int) throws(BoxError) -> [Int] {
        guard let sizes = tables.sizes else {
            throw BoxError(.malformed, "sample table has neither 'stsz' nor 'stz2'", path: tables.path.description, offset: tables.stbl.offset)
        }
        return sizes.sizes(limit: limit)
    }

    /// Decode time (media ticks) and composition offset of the first `limit` samples.
    static func sampleTimes(_ tables: SampleTables, limit: Int) throws(BoxError) -> [(dts: Int64, duration: Int64, cts: Int64)] {
        let stbl = tables.stbl
        guard let sttsNode = stbl.child("stts") else {
            throw BoxError(.malformed, "sample table has no 'stts'", path: tables.path.description, offset: stbl.offset)
        }
        let stts = try TimeToSampleBox.read(sttsNode.payloadCursor(path: tables.path.appending("stts")), type: "stts")
        var out: [(dts: Int64, duration: Int64, cts: Int64)] = []
        var t: Int64 = 0
        entryLoop: for i in 0..<stts.entryCount {
            let entry = stts.entry(at: i)
            let delta = Int64(entry.value)
            for _ in 0..<entry.sampleCount {
                guard out.count < limit else { break entryLoop }
                out.append((t, delta, t))
                let (next, overflow) = t.addingReportingOverflow(delta)
                guard !overflow else { throw stts.entries.error(.malformed, "decode time overflows", afterEntry: i) }
                t = next
            }
        }
        if let cttsNode = stbl.child("ctts") {
            let ctts = try TimeToSampleBox.read(cttsNode.payloadCursor(path: tables.path.appending("ctts")), type: "ctts")
            var i = 0
            for e in 0..<ctts.entryCount where i < out.count {
                let entry = ctts.entry(at: e)
                let offset = Int64(entry.compositionOffset)
                var k: UInt32 = 0
                while k < entry.sampleCount && i < out.count {
                    out[i].cts = out[i].dts + offset
                    i += 1
                    k += 1
                }
            }
        }
        return out
    }

    /// File offsets of the first `sizes.count` samples, from `stsc` and `stco`/`co64`.
    static func sampleOffsets(_ tables: SampleTables, sizes: [Int]) throws(BoxError) -> [Int64] {
        let stbl = tables.stbl
        let chunks: ChunkOffsetBox
        if let stco = stbl.child("stco") {
            chunks = try ChunkOffsetBox.read(stco.payloadCursor(path: tables.path.appending("stco")), type: "stco")
        } else if let co64 = stbl.child("co64") {
            chunks = try ChunkOffsetBox.read(co64.payloadCursor(path: tables.path.appending("co64")), type: "co64")
            for i in 0..<chunks.entryCount {
                let v = chunks.offset(at: i)
                guard v <= UInt64(Int64.max) else { throw chunks.entries.error(.malformed, "chunk offset \(v) out of range", afterEntry: i) }
            }
        } else {
            throw BoxError(.malformed, "sample table has neither 'stco' nor 'co64'", path: tables.path.description, offset: stbl.offset)
        }
        guard let stscNode = stbl.child("stsc") else {
            throw BoxError(.malformed, "sample table has no 'stsc'", path: tables.path.description, offset: stbl.offset)
        }
        let stsc = try SampleToChunkBox.read(stscNode.payloadCursor(path: tables.path.appending("stsc")))
        // Every run is checked before any is followed (a bad run anywhere is an error).
        var previous = 0
        for r in 0..<stsc.entryCount {
            let first = Int(stsc.entry(at: r).firstChunk)
            guard first >= 1, first > previous else {
                throw stsc.entries.error(.malformed, "stsc first chunk \(first) is not increasing from 1", afterEntry: r)
            }
            previous = first
        }
        let chunkCount = chunks.entryCount
        var offsets: [Int64] = []
        offsets.reserveCapacity(sizes.count)
        var sample = 0
        for r in 0..<stsc.entryCount {
            let run = stsc.entry(at: r)
            let lastChunk = r + 1 < stsc.entryCount ? Int(stsc.entry(at: r + 1).firstChunk) - 1 : chunkCount
            var chunk = Int(run.firstChunk)
            while chunk <= lastChunk && chunk <= chunkCount && sample < sizes.count {
                var position = Int64(chunks.offset(at: chunk - 1))
                var k = 0
                while k < Int(run.samplesPerChunk) && sample < sizes.count {
                    offsets.append(position)
                    let (next, overflow) = position.addingReportingOverflow(Int64(sizes[sample]))
                    guard !overflow else { throw stsc.entries.errorAtEnd(.malformed, "sample offset overflows") }
                    position = next
                    sample += 1
                    k += 1
                }
                chunk += 1
            }
        }
        guard offsets.count == sizes.count else {
            throw stsc.entries.errorAtEnd(.malformed, "chunk tables locate \(offsets.count) of \(sizes.count) samples")
        }
        return offsets
    }

    // MARK: sample entries

    struct SampleEntry {
        var format: BoxType
        /// The entry's payload after its 8-byte box header (starts with 6 reserved + 2 dref index).
        var payload: ByteCursor
    }

    mutating func firstSampleEntry(_ stsd: BoxIndex.Box, _ stsdPath: BoxPath) -> SampleEntry? {
        do throws(BoxError) {
            let box = try SampleDescriptionBox.read(stsd.payloadCursor(path: stsdPath))
            guard let (header, payload) = try box.firstEntry() else { return nil }
            return SampleEntry(format: header.type, payload: payload)
        } catch {
            fail(error)
            return nil
        }
    }

    /// `mebx`: the keys of its `keys` box (local id, `keyd` namespace + name, `dtyp` type).
    mutating func readMebxKeys(_ entry: ByteCursor) -> [MetadataTrackKey] {
        var mebx = MetadataSampleEntry(keys: [])
        do throws(BoxError) {
            try MetadataSampleEntry.read(entry, into: &mebx)
        } catch { fail(error, stops: false) }
        return mebx.keys.map {
            MetadataTrackKey(localID: $0.localID, namespace: $0.namespace?.description ?? "", name: $0.name,
                             dataType: $0.dataType, dataTypeName: $0.dataTypeName)
        }
    }

    mutating func readMebxSamples(_ tables: SampleTables, keys: [MetadataTrackKey],
                                  source: some ByteSource, limit: Int, info: TrackInfo) -> [MetadataSample] {
        let stbl = tables.stbl, stblPath = tables.path
        guard limit > 0, info.sampleCount > 0 else { return [] }
        guard budget.samples > 0, budget.bytes > 0 else {
            budgetExhausted(stblPath, offset: stbl.offset)
            return []
        }
        let wanted = min(limit, info.sampleCount, budget.samples)
        let sizes: [Int], times: [(dts: Int64, duration: Int64, cts: Int64)], offsets: [Int64]
        do throws(BoxError) {
            sizes = try Self.sampleSizes(tables, limit: wanted)
            times = try Self.sampleTimes(tables, limit: sizes.count)
            offsets = try Self.sampleOffsets(tables, sizes: sizes)
        } catch {
            fail(error, stops: false)
            return []
        }
        let byID = Dictionary(keys.map { ($0.localID, $0) }, uniquingKeysWith: { a, _ in a })
        let ts = Double(info.mediaTimescale)
        let mapper = EditListMapper(edits: info.editList, movieTimescale: movieTimescale, mediaTimescale: info.mediaTimescale)
        var samples: [MetadataSample] = []
        var badSamples = 0
        defer {
            if badSamples > Self.maxSampleIssuesPerTrack {
                fail(BoxError(.malformed, "\(badSamples - Self.maxSampleIssuesPerTrack) more metadata samples could not be decoded",
                              path: stblPath.description, offset: stbl.offset), stops: false)
            }
        }
        for i in 0..<min(sizes.count, times.count, offsets.count) {
            let size = sizes[i]
            let samplePath = stblPath.appending(" sample[\(i + 1)]")
            guard size <= BoxLimits.maxSampleBytes else {
                fail(BoxError(.limit, "metadata sample of \(size) bytes is above the \(BoxLimits.maxSampleBytes)-byte limit",
                              path: samplePath.description, offset: offsets[i]), stops: false)
                break
            }
            guard budget.samples > 0, Int64(size) <= budget.bytes else {
                budgetExhausted(samplePath, offset: offsets[i])
                break
            }
            budget.samples -= 1
            budget.bytes -= Int64(size)
            let bytes: [UInt8]
            do throws(BoxError) {
                bytes = try source.read(at: offsets[i], count: size)
            } catch {
                fail(BoxError(error.category, "sample \(i + 1) lies outside the file: \(error.message)", path: samplePath.description, offset: offsets[i]), stops: false)
                break
            }
            var values: [MetadataSampleValue] = []
            var c = ByteCursor(bytes, baseOffset: offsets[i], boxPath: samplePath)
            do throws(BoxError) {
                while !c.isAtEnd {
                    let itemSize = try c.u32("item size")
                    guard itemSize >= 8 else { throw c.error(.malformed, "metadata item size \(itemSize) is below 8") }
                    let localID = try c.u32("local key id")
                    let payload = try c.read(Int(itemSize) - 8, "metadata item")
                    let key = byID[localID]
                    let type = key?.dataType
                    values.append(MetadataSampleValue(key: key?.name ?? "local:\(localID)", dataType: type,
                                                      size: payload.count, value: QuickTimeValueDecoder.decode(type: type, payload)))
                }
            } catch {
                // One bad sample is news; ten thousand identical ones are noise (and memory).
                badSamples += 1
                if badSamples <= Self.maxSampleIssuesPerTrack { fail(error, stops: false) }
            }
            let t = times[i]
            samples.append(MetadataSample(index: i, mediaTime: ts > 0 ? Double(t.dts) / ts : 0,
                                          presentationTime: mapper.presentationTime(ofMediaTime: t.cts),
                                          duration: ts > 0 ? Double(t.duration) / ts : 0, values: values))
        }
        return samples
    }

    /// Sample decoding problems reported one by one per track; the rest are counted in one issue.
    static let maxSampleIssuesPerTrack = 5

    mutating func budgetExhausted(_ where: BoxPath, offset: Int64) {
        guard !budget.exhausted else { return }
        budget.exhausted = true
        fail(BoxError(.limit, "timed-metadata samples exceed the per-file limit of \(BoxLimits.maxSamplesPerFile) samples / \(BoxLimits.maxSampleBytesPerFile) bytes; the rest are not read",
                      path: `where`.description, offset: offset), stops: false)
    }

    mutating func readVisualEntry(_ entry: SampleEntry, info: TrackInfo) -> VideoStream? {
        var stream = VideoStream(trackID: info.id, codec: entry.format.description,
                                 codecName: Self.codecNames[entry.format.description], width: 0, height: 0,
                                 frameCount: info.sampleCount, duration: info.duration, rotation: info.rotation)
        var visual = VisualSampleEntry(format: entry.format, width: 0, height: 0)
        var failure: BoxError?
        do throws(BoxError) {
            try VisualSampleEntry.read(entry.payload, into: &visual)
        } catch { failure = error }
        stream.width = Int(visual.width)
        stream.height = Int(visual.height)
        var colrFullRange: Bool?
        for child in visual.children {
            switch child.type {
            case "avcC", "hvcC":
                let bytes = child.bytes
                let config = child.type == "avcC" ? MovieCodecConfigParser.avcC(bytes) : MovieCodecConfigParser.hvcC(bytes)
                if let config {
                    stream.profile = config.profile
                    stream.level = config.level
                    stream.chroma = config.chroma
                    stream.bitDepth = config.bitDepth
                    if stream.fullRange == nil { stream.fullRange = config.fullRange }
                }
            case "colr":
                colrFullRange = MovieCodecConfigParser.colrFullRange(child.bytes)
            default:
                break
            }
        }
        // `colr` wins over the SPS, but only from an entry read to its end (as always).
        if let failure { fail(failure, stops: false) } else if let colrFullRange { stream.fullRange = colrFullRange }
        return stream
    }

    static let codecNames: [String: String] = [
        "avc1": "H.264", "avc3": "H.264", "hvc1": "HEVC", "hev1": "HEVC", "dvh1": "HEVC (Dolby Vision)",
        "dvhe": "HEVC (Dolby Vision)", "mp4v": "MPEG-4 Visual", "jpeg": "Motion JPEG", "av01": "AV1",
        "apcn": "ProRes 422", "apch": "ProRes 422 HQ", "apcs": "ProRes 422 LT", "apco": "ProRes 422 Proxy", "ap4h": "ProRes 4444",
    ]

    /// QuickTime sound sample description v0/v1/v2 (ISO AudioSampleEntry reads as v0).
    mutating func readSoundEntry(_ entry: SampleEntry, info: TrackInfo) -> AudioStream? {
        var stream = AudioStream(trackID: info.id, codec: entry.format.description, duration: info.duration)
        var sound = SoundSampleEntry(format: entry.format, channels: 0, sampleRate: 0)
        do throws(BoxError) {
            try SoundSampleEntry.read(entry.payload, into: &sound)
            if let audio = sound.audio {
                stream.channels = audio.channels
                stream.sampleRate = audio.sampleRate
            } else {
                // Located after the sample rate, where the version's own fields would start.
                fail(BoxError(.unsupported, "sound sample description version \(sound.version)", path: entry.payload.path,
                              offset: entry.payload.startOffset + 28), stops: false)
            }
        } catch { fail(error, stops: false) }
        if let r = stream.sampleRate, !(r.isFinite && r > 0) { stream.sampleRate = nil }
        return stream
    }
}

/// Maps media times to movie (presentation) times through an edit list.
struct EditListMapper {
    let edits: [EditListEntry]
    let movieTimescale: UInt32
    let mediaTimescale: UInt32

    /// Movie seconds at which media time `t` (media ticks) is shown; nil when no edit shows it.
    /// No edit list: presentation = media time.
    func presentationTime(ofMediaTime t: Int64) -> Double? {
        guard mediaTimescale > 0 else { return nil }
        let mediaTS = Double(mediaTimescale)
        guard !edits.isEmpty, movieTimescale > 0 else { return Double(t) / mediaTS }
        let movieTS = Double(movieTimescale)
        var editStart = 0.0  // movie seconds
        for edit in edits {
            let duration = Double(edit.segmentDuration) / movieTS
            defer { editStart += duration }
            guard edit.mediaTime >= 0 else { continue }  // empty edit
            let start = Double(edit.mediaTime) / mediaTS
            let time = Double(t) / mediaTS
            if edit.rate == 0 {
                if t == edit.mediaTime { return editStart }  // dwell
                continue
            }
            let shownLength = duration * edit.rate
            if time == start || (time > start && time < start + shownLength) {
                return editStart + (time - start) / edit.rate
            }
        }
        return nil
    }
}
