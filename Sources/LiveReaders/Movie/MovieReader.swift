import ISOBMFF
import LiveModel

/// What the movie reader decodes beyond the structure.
public struct MovieReadOptions: Sendable {
    /// .all: decode every sample of every mebx track (dump); .stillImageTimeOnly: decode only the
    /// track(s) whose keys include the still-image-time key (lint fast path).
    public enum Samples: Sendable { case all, stillImageTimeOnly }
    public var samples: Samples = .all
    /// Samples decoded per `mebx` track at most; the rest are counted but not read
    /// (`MetadataTrack.samplesTruncated` says so).
    public var maxSamplesPerTrack: Int = 10_000
    public init(samples: Samples = .all, maxSamplesPerTrack: Int = 10_000) {
        self.samples = samples
        self.maxSamplesPerTrack = maxSamplesPerTrack
    }
}

/// The outcome of reading a movie: never thrown, always as much as could be read.
public struct MovieReadResult: Sendable {
    /// Whatever was read, even when `error` is set; nil only when nothing movie-like was found.
    public var movie: MovieInfo?
    /// The failure that stopped reading (with a box path and byte offset).
    public var error: ReadIssue?
    /// Problems that did not stop reading (trailing garbage, an unknown `elst` version, a bad sample).
    public var warnings: [ReadIssue]
    /// `ftyp` major brand `qt  `, or no `ftyp` at all (old QuickTime).
    public var isQuickTime: Bool

    public init(movie: MovieInfo? = nil, error: ReadIssue? = nil, warnings: [ReadIssue] = [], isQuickTime: Bool = false) {
        self.movie = movie
        self.error = error
        self.warnings = warnings
        self.isQuickTime = isQuickTime
    }
}

/// Reads QuickTime / ISO-BMFF movies into `MovieInfo` with the bounds-checked box reader.
///
/// Reads the top-level box headers, then `ftyp` and `moov` (at most `BoxLimits.maxLoadedBoxBytes`),
/// and from `mdat` only the samples of timed-metadata (`mebx`) tracks it decodes. A bad box stops
/// its container and keeps what was read before it; the first such problem becomes `error`,
/// later ones `warnings`. It never throws and never traps.
public enum MovieReader {
    public static func read(_ source: some ByteSource, options: MovieReadOptions = .init()) -> MovieReadResult {
        var ctx = MovieReadContext(options: options)
        let movie = ctx.readMovie(source)
        return MovieReadResult(movie: movie, error: ctx.error, warnings: ctx.warnings, isQuickTime: ctx.isQuickTime)
    }

    /// Convenience: opens `path` read-only and reads it.
    public static func read(path: String, options: MovieReadOptions = .init()) -> MovieReadResult {
        do throws(BoxError) {
            let source = try FileByteSource(path: path)
            return read(source, options: options)
        } catch {
            return MovieReadResult(error: ReadIssue(error), isQuickTime: false)
        }
    }
}

extension ReadIssue {
    /// A `ReadIssue` from a box-reader error (same category, path as location, same offset).
    public init(_ error: BoxError) {
        let category: ReadIssue.Category
        switch error.category {
        case .malformed: category = .malformed
        case .unsupported: category = .unsupported
        case .io: category = .io
        case .limit: category = .limit
        }
        self.init(category, error.message, location: error.path.isEmpty ? nil : error.path, offset: error.offset)
    }
}

struct MovieReadContext {
    let options: MovieReadOptions
    var error: ReadIssue?
    var warnings: [ReadIssue] = []
    var isQuickTime = false

    init(options: MovieReadOptions) { self.options = options }

    /// Records a problem: the first stopping problem is the error, everything else a warning.
    mutating func report(_ issue: ReadIssue, stops: Bool = true) {
        if stops && error == nil { error = issue } else { warnings.append(issue) }
    }

    mutating func report(_ e: BoxError, stops: Bool = true) { report(ReadIssue(e), stops: stops) }

    mutating func readMovie(_ source: some ByteSource) -> MovieInfo? {
        let scan = TopLevel.scan(source)
        for w in scan.warnings { report(w, stops: false) }
        if scan.boxes.isEmpty {
            let reason = scan.error.map { $0.message } ?? "empty file"
            report(ReadIssue(.notMedia, "not an ISO-BMFF / QuickTime file: \(reason)", offset: 0))
            return nil
        }
        if !scan.boxes.contains(where: { Self.knownTopLevel.contains($0.type) }) {
            report(ReadIssue(.notMedia, "not an ISO-BMFF / QuickTime file: no known top-level box (first is '\(scan.boxes[0].type)')", offset: 0))
            return nil
        }
        if let e = scan.error { report(e) }
        var movie = MovieInfo()
        movie.topLevelBoxes = scan.boxes.map { BoxSummary(type: $0.type.description, offset: $0.offset, size: $0.size) }

        if let ftyp = scan.first("ftyp") {
            readFtyp(ftyp, source, into: &movie)
        }
        isQuickTime = movie.majorBrand == nil || movie.majorBrand == "qt  "

        guard let moovHeader = scan.first("moov") else {
            report(ReadIssue(.malformed, "no 'moov' box: not a playable movie", offset: 0))
            return movie
        }
        let payloadSize = moovHeader.payloadSize
        guard payloadSize <= BoxLimits.maxLoadedBoxBytes else {
            report(ReadIssue(.limit, "'moov' is \(payloadSize) bytes, above the \(BoxLimits.maxLoadedBoxBytes)-byte limit",
                             location: "moov", offset: moovHeader.offset))
            return movie
        }
        let moovBytes: [UInt8]
        do throws(BoxError) {
            moovBytes = try source.read(at: moovHeader.payloadOffset, count: Int(payloadSize))
        } catch {
            report(error)
            return movie
        }
        // Read in place: the boxes are offsets into `moovBytes`, no payload is copied.
        let tree = BoxIndex(moovBytes, baseOffset: moovHeader.payloadOffset, path: Self.moovPath, ancestors: ["moov"])
        for issue in tree.issues { report(issue) }
        let moov = tree.topLevel

        if let mvhd = moov.first("mvhd") { readMvhd(mvhd, into: &movie) }
        if let meta = moov.first("meta") { movie.keys += readMetaKeys(meta, path: Self.moovPath.appending("meta")) }
        if let udta = moov.first("udta") { movie.keys += readUdta(udta, path: Self.moovPath.appending("udta")) }

        var trackIndex = 0
        var anyVideo: VideoStream?
        // What all tracks together may still decode (see BoxLimits.maxSamplesPerFile).
        var budget = MovieTrackReader.SampleBudget()
        for node in moov where node.type == "trak" {
            trackIndex += 1
            var reader = MovieTrackReader(node: node, path: Self.moovPath.appending("trak", index: trackIndex), movieTimescale: movie.timescale)
            reader.budget = budget
            let track = reader.read(source, options: options)
            budget = reader.budget
            for issue in reader.issues { report(issue.issue, stops: issue.stops) }
            movie.tracks.append(track.info)
            if let video = track.video, track.info.handler == "vide" {
                if movie.video == nil && track.info.enabled { movie.video = video }
                if anyVideo == nil { anyVideo = video }
            }
            if let audio = track.audio { movie.audio.append(audio) }
        }
        // No enabled video track: the first video track at all.
        if movie.video == nil { movie.video = anyVideo }
        movie.stillImageTime = Self.stillImageTime(movie)
        return movie
    }

    static let moovPath = BoxPath().appending("moov")

    /// Top-level boxes that mark a file as ISO-BMFF / QuickTime.
    static let knownTopLevel: Set<BoxType> = ["ftyp", "moov", "mdat", "wide", "free", "skip", "pnot", "uuid", "meta", "moof", "styp", "sidx", "PICT"]

    static func stillImageTime(_ movie: MovieInfo) -> StillImageTime? {
        for track in movie.tracks {
            guard let meta = track.metadata, let key = meta.key(named: MovieInfo.stillImageTimeKey) else { continue }
            let first = meta.samples.first
            let value = first?.values.first { $0.key == MovieInfo.stillImageTimeKey }
            return StillImageTime(trackID: track.id, value: value?.value.intValue, dataType: key.dataType,
                                  payloadSize: value?.size, sampleCount: track.sampleCount,
                                  mediaTime: first?.mediaTime, presentationTime: first?.presentationTime,
                                  movieDuration: movie.duration)
        }
        return nil
    }

    mutating func readFtyp(_ header: BoxHeader, _ source: some ByteSource, into movie: inout MovieInfo) {
        let count = Int(min(header.payloadSize, 4096))
        var ftyp = FileTypeBox(majorBrand: BoxType(rawValue: 0))
        var failure: BoxError?
        do throws(BoxError) {
            let payload = ByteCursor(try source.read(at: header.payloadOffset, count: count), baseOffset: header.payloadOffset,
                                     boxPath: BoxPath().appending("ftyp"))
            do throws(BoxError) {
                try FileTypeBox.read(payload, into: &ftyp)
            } catch { failure = error }
            // What was read before a problem is kept: the major brand when the minor version is cut.
            if failure == nil || payload.remaining >= 4 { movie.majorBrand = ftyp.majorBrand.description }
            movie.compatibleBrands += ftyp.compatibleBrands.map(\.description)
        } catch { failure = error }
        if let failure { report(failure, stops: false) }
    }

    mutating func readMvhd(_ node: BoxIndex.Box, into movie: inout MovieInfo) {
        do throws(BoxError) {
            let mvhd = try MovieHeaderBox.read(node.payloadCursor(path: Self.moovPath.appending("mvhd")))
            (movie.timescale, movie.durationTicks) = (mvhd.timescale, mvhd.knownDuration)
        } catch {
            report(error)
        }
    }

    /// `meta` with `hdlr` `mdta`, `keys` and `ilst` (QuickTime), or the same inside an ISO `meta`.
    mutating func readMetaKeys(_ meta: BoxIndex.Box, path: BoxPath) -> [QuickTimeKey] {
        var keys = MetadataKeysBox(entries: [])
        if let cursor = meta.child("keys")?.dataCursor(path: path.appending("keys")) {
            do throws(BoxError) {
                // Entries read before a bad one are kept.
                try MetadataKeysBox.read(cursor, into: &keys)
            } catch {
                report(error)
            }
        }
        let names = keys.entries
        guard let ilst = meta.child("ilst") else { return [] }
        var out: [QuickTimeKey] = []
        let ilstPath = path.appending("ilst")
        for item in ilst.children {
            let index = Int(item.type.rawValue)
            let itemPath = index > 0 && index <= names.count ? ilstPath.appending("[\(index)]") : ilstPath.appending(item.type)
            guard let (type, value) = readDataAtom(item, path: itemPath) else { continue }
            if index >= 1 && index <= names.count {
                let k = names[index - 1]
                out.append(QuickTimeKey(key: k.name, namespace: k.namespace.description, dataType: type, value: value))
            } else if item.type.looksLikeBoxType {
                // An iTunes-style ilst (atom names, no keys table).
                out.append(QuickTimeKey(key: item.type.description, namespace: "ilst", dataType: type, value: value))
            } else {
                report(ReadIssue(.malformed, "ilst item refers to key \(index), the keys table has \(names.count)",
                                 location: itemPath.description, offset: item.offset), stops: false)
            }
        }
        return out
    }

    /// The first `data` atom of an `ilst` item: type indicator (1 byte set + 3 bytes type), locale, value.
    mutating func readDataAtom(_ item: BoxIndex.Box, path: BoxPath) -> (UInt32, MetadataValue)? {
        guard let cursor = item.child("data")?.dataCursor(path: path.appending("data")) else { return nil }
        do throws(BoxError) {
            let box = try DataBox.read(cursor)
            return (box.wellKnownType, QuickTimeValueDecoder.decode(type: box.wellKnownType, box.value))
        } catch {
            report(error, stops: false)
            return nil
        }
    }

    /// `udta` atoms: QuickTime `©xxx` text items ([length][language][text]) and `udta/meta` ilst.
    mutating func readUdta(_ udta: BoxIndex.Box, path: BoxPath) -> [QuickTimeKey] {
        var out: [QuickTimeKey] = []
        for item in udta.children {
            if item.type == "meta" {
                out += readMetaKeys(item, path: path.appending("meta"))
                continue
            }
            guard item.type.rawValue >> 24 == 0xA9, var c = item.dataCursor(path: BoxPath()) else { continue }
            guard let length = try? c.u16(), (try? c.u16()) != nil, let text = try? c.read(Int(length)) else { continue }
            out.append(QuickTimeKey(key: item.type.description, namespace: "udta", dataType: 1,
                                    value: .string(String(decoding: text, as: UTF8.self))))
        }
        return out
    }
}
