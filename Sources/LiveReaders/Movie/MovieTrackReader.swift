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

    let node: BoxNode
    let path: String
    let movieTimescale: UInt32
    var issues: [Issue] = []
    var budget = SampleBudget()

    init(node: BoxNode, path: String, movieTimescale: UInt32) {
        self.node = node
        self.path = path
        self.movieTimescale = movieTimescale
    }

    mutating func fail(_ e: BoxError, stops: Bool = true) { issues.append(Issue(issue: ReadIssue(e), stops: stops)) }

    func cursor(_ box: BoxNode, _ boxPath: String) -> ByteCursor {
        ByteCursor(box.data ?? [], baseOffset: (box.offset ?? 0) + Int64(box.headerSize), path: boxPath)
    }

    mutating func read(_ source: some ByteSource, options: MovieReadOptions) -> Output {
        var info = TrackInfo(id: 0, handler: "")
        var out = Output(info: info)
        if let tkhd = node.child("tkhd") { readTkhd(tkhd, into: &info) } else {
            fail(BoxError(.malformed, "track has no 'tkhd'", path: path, offset: node.offset ?? 0), stops: false)
        }
        if let tref = node.child("tref") {
            for ref in tref.children {
                var c = cursor(ref, path + "/tref/" + ref.type.description)
                var ids: [UInt32] = []
                while c.remaining >= 4, let id = try? c.u32() { ids.append(id) }
                info.references[ref.type.description, default: []] += ids
            }
        }
        if let elst = node.descendant(["edts", "elst"]) { info.editList = readElst(elst) }
        let mdiaPath = path + "/mdia"
        guard let mdia = node.child("mdia") else {
            out.info = info
            return out
        }
        if let mdhd = mdia.child("mdhd") { readMdhd(mdhd, mdiaPath + "/mdhd", into: &info) }
        if let hdlr = mdia.child("hdlr") {
            var c = cursor(hdlr, mdiaPath + "/hdlr")
            do throws(BoxError) {
                _ = try c.versionAndFlags()
                _ = try c.u32("component type")
                info.handler = try c.fourCC("handler type").description
            } catch { fail(error) }
        }
        let stblPath = mdiaPath + "/minf/stbl"
        guard let stbl = mdia.descendant(["minf", "stbl"]) else {
            out.info = info
            return out
        }
        info.sampleCount = sampleCount(stbl, stblPath)
        guard let stsd = stbl.child("stsd") else {
            out.info = info
            return out
        }
        guard let entry = firstSampleEntry(stsd, stblPath + "/stsd") else {
            out.info = info
            return out
        }
        info.format = entry.format.description
        let entryPath = stblPath + "/stsd/" + entry.format.description
        switch (info.handler, entry.format) {
        case (_, "mebx"):
            let keys = readMebxKeys(entry.payload, entryPath)
            var track = MetadataTrack(keys: keys, samples: [])
            let wanted = options.samples == .all || keys.contains { $0.name == MovieInfo.stillImageTimeKey }
            if wanted {
                let limit = max(0, options.maxSamplesPerTrack)
                let samples = readMebxSamples(stbl, stblPath, keys: keys, source: source, limit: limit, info: info)
                track.samples = samples
                track.samplesTruncated = samples.count < info.sampleCount
            }
            info.metadata = track
        case ("vide", _), ("auxv", _):
            out.video = readVisualEntry(entry, entryPath, info: info)
        case ("soun", _):
            out.audio = readSoundEntry(entry, entryPath, info: info)
        default:
            break
        }
        out.info = info
        return out
    }

    // MARK: headers

    mutating func readTkhd(_ box: BoxNode, into info: inout TrackInfo) {
        var c = cursor(box, path + "/tkhd")
        do throws(BoxError) {
            let (version, flags) = try c.versionAndFlags()
            info.enabled = flags & 1 != 0
            if version == 1 {
                try c.skip(16, "dates")
                info.id = try c.u32("track id")
                try c.skip(4 + 8, "duration")
            } else {
                try c.skip(8, "dates")
                info.id = try c.u32("track id")
                try c.skip(4 + 4, "duration")
            }
            try c.skip(8 + 2 + 2 + 2 + 2, "reserved, layer, group, volume")
            var m: [Double] = []
            for i in 0..<9 {
                m.append(i % 3 == 2 ? try c.fixed2_30("matrix") : try c.fixed16_16("matrix"))
            }
            info.matrix = m
            info.width = try c.fixed16_16("width")
            info.height = try c.fixed16_16("height")
        } catch { fail(error) }
    }

    mutating func readMdhd(_ box: BoxNode, _ boxPath: String, into info: inout TrackInfo) {
        var c = cursor(box, boxPath)
        do throws(BoxError) {
            (info.mediaTimescale, info.mediaDurationTicks) = try c.timescaleAndDuration()
        } catch { fail(error) }
    }

    mutating func readElst(_ box: BoxNode) -> [EditListEntry] {
        var c = cursor(box, path + "/edts/elst")
        var out: [EditListEntry] = []
        do throws(BoxError) {
            let (version, _) = try c.versionAndFlags()
            guard version <= 1 else {
                fail(c.error(.unsupported, "edit list version \(version) is not read; presentation times assume no edit list"), stops: false)
                return []
            }
            let count = try c.checkedCount(try c.u32("entry count"), entrySize: version == 1 ? 20 : 12, "elst entry")
            for _ in 0..<count {
                let duration = version == 1 ? try c.u64("segment duration") : UInt64(try c.u32("segment duration"))
                let mediaTime = version == 1 ? try c.i64("media time") : Int64(try c.i32("media time"))
                let rate = try c.fixed16_16("media rate")
                out.append(EditListEntry(segmentDuration: duration, mediaTime: mediaTime, rate: rate))
            }
        } catch { fail(error, stops: false) }
        return out
    }

    // MARK: sample tables

    mutating func sampleCount(_ stbl: BoxNode, _ stblPath: String) -> Int {
        if let stsz = stbl.child("stsz") {
            var c = cursor(stsz, stblPath + "/stsz")
            do throws(BoxError) {
                _ = try c.versionAndFlags()
                let fixed = try c.u32("sample size")
                let count = try c.u32("sample count")
                if fixed == 0 { _ = try c.checkedCount(count, entrySize: 4, "stsz entry") }
                return Int(count)
            } catch { fail(error) }
        } else if let stz2 = stbl.child("stz2") {
            var c = cursor(stz2, stblPath + "/stz2")
            do throws(BoxError) {
                _ = try c.versionAndFlags()
                try c.skip(3, "reserved")
                let bits = try c.u8("field size")
                let count = try c.u32("sample count")
                guard [4, 8, 16].contains(bits) else { throw c.error(.malformed, "stz2 field size \(bits) is not 4, 8 or 16") }
                let bytes = (UInt64(count) * UInt64(bits) + 7) / 8
                guard bytes <= UInt64(c.remaining) else {
                    throw c.error(.malformed, "stz2 count \(count) needs \(bytes) bytes, \(c.remaining) left")
                }
                return Int(count)
            } catch { fail(error) }
        }
        return 0
    }

    /// Sizes of the first `limit` samples (`stsz` or `stz2`).
    func sampleSizes(_ stbl: BoxNode, _ stblPath: String, limit: Int) throws(BoxError) -> [Int] {
        if let stsz = stbl.child("stsz") {
            var c = cursor(stsz, stblPath + "/stsz")
            _ = try c.versionAndFlags()
            let fixed = try c.u32("sample size")
            let count = Int(try c.u32("sample count"))
            let n = min(count, limit)
            if fixed != 0 { return [Int](repeating: Int(fixed), count: n) }
            _ = try c.checkedCount(UInt32(count), entrySize: 4, "stsz entry")
            var out: [Int] = []
            out.reserveCapacity(n)
            for _ in 0..<n { out.append(Int(try c.u32("sample size"))) }
            return out
        }
        if let stz2 = stbl.child("stz2") {
            var c = cursor(stz2, stblPath + "/stz2")
            _ = try c.versionAndFlags()
            try c.skip(3)
            let bits = Int(try c.u8())
            let count = Int(try c.u32())
            let n = min(count, limit)
            var out: [Int] = []
            var pending: UInt8 = 0
            for i in 0..<n {
                switch bits {
                case 4:
                    if i % 2 == 0 {
                        pending = try c.u8()
                        out.append(Int(pending >> 4))
                    } else {
                        out.append(Int(pending & 0xF))
                    }
                case 8: out.append(Int(try c.u8()))
                default: out.append(Int(try c.u16()))
                }
            }
            return out
        }
        throw BoxError(.malformed, "sample table has neither 'stsz' nor 'stz2'", path: stblPath, offset: stbl.offset ?? 0)
    }

    /// Decode time (media ticks) and composition offset of the first `limit` samples.
    func sampleTimes(_ stbl: BoxNode, _ stblPath: String, limit: Int) throws(BoxError) -> [(dts: Int64, duration: Int64, cts: Int64)] {
        guard let stts = stbl.child("stts") else {
            throw BoxError(.malformed, "sample table has no 'stts'", path: stblPath, offset: stbl.offset ?? 0)
        }
        var c = cursor(stts, stblPath + "/stts")
        _ = try c.versionAndFlags()
        let entries = try c.checkedCount(try c.u32("entry count"), entrySize: 8, "stts entry")
        var out: [(dts: Int64, duration: Int64, cts: Int64)] = []
        var t: Int64 = 0
        entryLoop: for _ in 0..<entries {
            let count = try c.u32("sample count")
            let delta = Int64(try c.u32("sample delta"))
            for _ in 0..<count {
                guard out.count < limit else { break entryLoop }
                out.append((t, delta, t))
                let (next, overflow) = t.addingReportingOverflow(delta)
                guard !overflow else { throw c.error(.malformed, "decode time overflows") }
                t = next
            }
        }
        if let ctts = stbl.child("ctts") {
            var c = cursor(ctts, stblPath + "/ctts")
            _ = try c.versionAndFlags()
            let entries = try c.checkedCount(try c.u32("entry count"), entrySize: 8, "ctts entry")
            var i = 0
            for _ in 0..<entries where i < out.count {
                let count = try c.u32("sample count")
                let offset = Int64(try c.i32("sample offset"))
                var k: UInt32 = 0
                while k < count && i < out.count {
                    out[i].cts = out[i].dts + offset
                    i += 1
                    k += 1
                }
            }
        }
        return out
    }

    /// File offsets of the first `sizes.count` samples, from `stsc` and `stco`/`co64`.
    func sampleOffsets(_ stbl: BoxNode, _ stblPath: String, sizes: [Int]) throws(BoxError) -> [Int64] {
        var chunkOffsets: [Int64] = []
        if let stco = stbl.child("stco") {
            var c = cursor(stco, stblPath + "/stco")
            _ = try c.versionAndFlags()
            let n = try c.checkedCount(try c.u32("entry count"), entrySize: 4, "stco entry")
            chunkOffsets.reserveCapacity(n)
            for _ in 0..<n { chunkOffsets.append(Int64(try c.u32())) }
        } else if let co64 = stbl.child("co64") {
            var c = cursor(co64, stblPath + "/co64")
            _ = try c.versionAndFlags()
            let n = try c.checkedCount(try c.u32("entry count"), entrySize: 8, "co64 entry")
            chunkOffsets.reserveCapacity(n)
            for _ in 0..<n {
                let v = try c.u64()
                guard v <= UInt64(Int64.max) else { throw c.error(.malformed, "chunk offset \(v) out of range") }
                chunkOffsets.append(Int64(v))
            }
        } else {
            throw BoxError(.malformed, "sample table has neither 'stco' nor 'co64'", path: stblPath, offset: stbl.offset ?? 0)
        }
        guard let stsc = stbl.child("stsc") else {
            throw BoxError(.malformed, "sample table has no 'stsc'", path: stblPath, offset: stbl.offset ?? 0)
        }
        var c = cursor(stsc, stblPath + "/stsc")
        _ = try c.versionAndFlags()
        let n = try c.checkedCount(try c.u32("entry count"), entrySize: 12, "stsc entry")
        var runs: [(firstChunk: Int, perChunk: Int)] = []
        for _ in 0..<n {
            let first = Int(try c.u32("first chunk"))
            let per = Int(try c.u32("samples per chunk"))
            _ = try c.u32("sample description index")
            guard first >= 1, first > (runs.last?.firstChunk ?? 0) else {
                throw c.error(.malformed, "stsc first chunk \(first) is not increasing from 1")
            }
            runs.append((first, per))
        }
        var offsets: [Int64] = []
        offsets.reserveCapacity(sizes.count)
        var sample = 0
        for (r, run) in runs.enumerated() {
            let lastChunk = r + 1 < runs.count ? runs[r + 1].firstChunk - 1 : chunkOffsets.count
            var chunk = run.firstChunk
            while chunk <= lastChunk && chunk <= chunkOffsets.count && sample < sizes.count {
                var position = chunkOffsets[chunk - 1]
                var k = 0
                while k < run.perChunk && sample < sizes.count {
                    offsets.append(position)
                    let (next, overflow) = position.addingReportingOverflow(Int64(sizes[sample]))
                    guard !overflow else { throw c.error(.malformed, "sample offset overflows") }
                    position = next
                    sample += 1
                    k += 1
                }
                chunk += 1
            }
        }
        guard offsets.count == sizes.count else {
            throw c.error(.malformed, "chunk tables locate \(offsets.count) of \(sizes.count) samples")
        }
        return offsets
    }

    // MARK: sample entries

    struct SampleEntry {
        var format: BoxType
        /// The entry's payload after its 8-byte box header (starts with 6 reserved + 2 dref index).
        var payload: ByteCursor
    }

    mutating func firstSampleEntry(_ stsd: BoxNode, _ stsdPath: String) -> SampleEntry? {
        var c = cursor(stsd, stsdPath)
        do throws(BoxError) {
            _ = try c.versionAndFlags()
            let count = try c.u32("entry count")
            guard count > 0 else { return nil }
            guard let (header, payload) = try c.nextBox() else { return nil }
            return SampleEntry(format: header.type, payload: payload)
        } catch {
            fail(error)
            return nil
        }
    }

    /// `mebx`: after 8 bytes, a `keys` box whose children are typed by local key id and hold
    /// `keyd` (namespace + name) and `dtyp` (namespace 0 + well-known type, or a type string).
    mutating func readMebxKeys(_ entry: ByteCursor, _ entryPath: String) -> [MetadataTrackKey] {
        var c = entry
        var out: [MetadataTrackKey] = []
        do throws(BoxError) {
            try c.skip(8, "sample entry header")
            while let (header, payload) = try c.nextBox() {
                guard header.type == "keys" else { continue }
                var keys = payload
                while let (keyHeader, keyPayload) = try keys.nextBox() {
                    let localID = keyHeader.type.rawValue
                    var namespace = "", name = ""
                    var dataType: UInt32?
                    var typeName: String?
                    var k = keyPayload
                    while let (h, p) = try k.nextBox() {
                        var field = p
                        if h.type == "keyd" {
                            namespace = try field.fourCC("key namespace").description
                            name = String(decoding: field.readRest(), as: UTF8.self)
                        } else if h.type == "dtyp" {
                            let ns = try field.u32("type namespace")
                            if ns == 0 {
                                dataType = try field.u32("well-known type")
                            } else {
                                // Namespace 1: a reverse-DNS type name follows (Apple doubles its prefix).
                                typeName = String(decoding: field.readRest(), as: UTF8.self)
                            }
                        }
                    }
                    out.append(MetadataTrackKey(localID: localID, namespace: namespace, name: name,
                                                dataType: dataType, dataTypeName: typeName))
                }
            }
        } catch { fail(error, stops: false) }
        return out
    }

    mutating func readMebxSamples(_ stbl: BoxNode, _ stblPath: String, keys: [MetadataTrackKey],
                                  source: some ByteSource, limit: Int, info: TrackInfo) -> [MetadataSample] {
        guard limit > 0, info.sampleCount > 0 else { return [] }
        guard budget.samples > 0, budget.bytes > 0 else {
            budgetExhausted(stblPath, offset: stbl.offset ?? 0)
            return []
        }
        let wanted = min(limit, info.sampleCount, budget.samples)
        let sizes: [Int], times: [(dts: Int64, duration: Int64, cts: Int64)], offsets: [Int64]
        do throws(BoxError) {
            sizes = try sampleSizes(stbl, stblPath, limit: wanted)
            times = try sampleTimes(stbl, stblPath, limit: sizes.count)
            offsets = try sampleOffsets(stbl, stblPath, sizes: sizes)
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
                              path: stblPath, offset: stbl.offset ?? 0), stops: false)
            }
        }
        for i in 0..<min(sizes.count, times.count, offsets.count) {
            let size = sizes[i]
            let samplePath = stblPath + " sample[\(i + 1)]"
            guard size <= BoxLimits.maxSampleBytes else {
                fail(BoxError(.limit, "metadata sample of \(size) bytes is above the \(BoxLimits.maxSampleBytes)-byte limit",
                              path: samplePath, offset: offsets[i]), stops: false)
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
                fail(BoxError(error.category, "sample \(i + 1) lies outside the file: \(error.message)", path: samplePath, offset: offsets[i]), stops: false)
                break
            }
            var values: [MetadataSampleValue] = []
            var c = ByteCursor(bytes, baseOffset: offsets[i], path: samplePath)
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

    mutating func budgetExhausted(_ where: String, offset: Int64) {
        guard !budget.exhausted else { return }
        budget.exhausted = true
        fail(BoxError(.limit, "timed-metadata samples exceed the per-file limit of \(BoxLimits.maxSamplesPerFile) samples / \(BoxLimits.maxSampleBytesPerFile) bytes; the rest are not read",
                      path: `where`, offset: offset), stops: false)
    }

    mutating func readVisualEntry(_ entry: SampleEntry, _ entryPath: String, info: TrackInfo) -> VideoStream? {
        var c = entry.payload
        var stream = VideoStream(trackID: info.id, codec: entry.format.description,
                                 codecName: Self.codecNames[entry.format.description], width: 0, height: 0,
                                 frameCount: info.sampleCount, duration: info.duration, rotation: info.rotation)
        do throws(BoxError) {
            try c.skip(8 + 16, "sample entry header")
            stream.width = Int(try c.u16("width"))
            stream.height = Int(try c.u16("height"))
            try c.skip(4 + 4 + 4 + 2 + 32 + 2 + 2, "visual sample entry fields")
            var colrFullRange: Bool?
            while c.remaining >= 8, let (header, payload) = try c.nextBox() {
                var p = payload
                switch header.type {
                case "avcC", "hvcC":
                    let bytes = p.readRest()
                    let config = header.type == "avcC" ? MovieCodecConfigParser.avcC(bytes) : MovieCodecConfigParser.hvcC(bytes)
                    if let config {
                        stream.profile = config.profile
                        stream.level = config.level
                        stream.chroma = config.chroma
                        stream.bitDepth = config.bitDepth
                        if stream.fullRange == nil { stream.fullRange = config.fullRange }
                    }
                case "colr":
                    colrFullRange = MovieCodecConfigParser.colrFullRange(p.readRest())
                default:
                    break
                }
            }
            if let colrFullRange { stream.fullRange = colrFullRange }
        } catch { fail(error, stops: false) }
        return stream
    }

    static let codecNames: [String: String] = [
        "avc1": "H.264", "avc3": "H.264", "hvc1": "HEVC", "hev1": "HEVC", "dvh1": "HEVC (Dolby Vision)",
        "dvhe": "HEVC (Dolby Vision)", "mp4v": "MPEG-4 Visual", "jpeg": "Motion JPEG", "av01": "AV1",
        "apcn": "ProRes 422", "apch": "ProRes 422 HQ", "apcs": "ProRes 422 LT", "apco": "ProRes 422 Proxy", "ap4h": "ProRes 4444",
    ]

    /// QuickTime sound sample description v0/v1/v2 (ISO AudioSampleEntry reads as v0).
    mutating func readSoundEntry(_ entry: SampleEntry, _ entryPath: String, info: TrackInfo) -> AudioStream? {
        var c = entry.payload
        var stream = AudioStream(trackID: info.id, codec: entry.format.description, duration: info.duration)
        do throws(BoxError) {
            try c.skip(8, "sample entry header")
            let version = try c.u16("version")
            try c.skip(2 + 4, "revision, vendor")
            let channels = try c.u16("channels")
            try c.skip(2 + 2 + 2, "sample size, compression id, packet size")
            let rate = try c.u32("sample rate")
            switch version {
            case 0, 1:
                stream.channels = Int(channels)
                stream.sampleRate = Double(rate >> 16)
            case 2:
                try c.skip(4, "size of struct")
                stream.sampleRate = Double(bitPattern: try c.u64("audio sample rate"))
                stream.channels = Int(try c.u32("channels"))
            default:
                fail(c.error(.unsupported, "sound sample description version \(version)"), stops: false)
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
