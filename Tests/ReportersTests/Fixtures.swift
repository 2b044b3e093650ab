import LiveLintEngine
import LiveModel
import Reporters

/// Model values built in code, modelled on real corpus files (`lychee/train.jpg` + `train.mov`,
/// an iPhone 6s pair: the makernote tags, keys, four tracks and the edit-list-derived
/// still-image-time of 0.48 s are those files' facts), plus the broken and odd cases reporters
/// must survive.
enum Fixtures {
    static let trainID = "E905E6C6-C747-4805-942F-9904A0281F02"
    static let livpID = "3F1B5E8A-96C2-4B77-9F0B-2D8C1E6A4B10"

    // MARK: Dump inputs

    static func appleMakerNote(id: String) -> AppleMakerNoteInfo {
        AppleMakerNoteInfo(version: 1, tags: [
            MakerAppleTag(tag: 0x0001, name: "MakerNoteVersion", type: "int32s", count: 1, value: .int(12)),
            // A binary plist, longer than any text column: the dump cuts it.
            MakerAppleTag(tag: 0x0002, name: "Apple_0x0002", type: "undef", count: 512,
                          value: .bytes(Array("bplist00\u{D4}\u{01}\u{02}\u{03}\u{04}".utf8) + Array(repeating: 0x5F, count: 120))),
            MakerAppleTag(tag: 0x0003, name: "RunTime", type: "undef", count: 104, value: .dictionary([
                .init("flags", .int(1)), .init("value", .int(173_210_620_147_833)),
                .init("timescale", .int(1_000_000_000)), .init("epoch", .int(0)),
            ])),
            MakerAppleTag(tag: 0x0004, name: "AEStable", type: "int32s", count: 1, value: .int(1)),
            MakerAppleTag(tag: 0x0008, name: "AccelerationVector", type: "rational64s", count: 3,
                          value: .array([.double(-0.985473215), .double(0.01933595725), .double(0.03762020916)])),
            MakerAppleTag(tag: 0x0011, name: "ContentIdentifier", aliases: ["MediaGroupUUID"], type: "string", count: 37,
                          value: .string(id)),
            MakerAppleTag(tag: 0x0017, name: "LivePhotoVideoIndex", type: "int32s", count: 1, value: .int(0)),
            MakerAppleTag(tag: 0x0020, name: "ImageCaptureRequestID", type: "string", count: 37,
                          value: .string("62E16BF5-4BFC-4898-893D-5A4CE6B5925F")),
            MakerAppleTag(tag: 0x002B, name: "PhotoIdentifier", type: "string", count: 37,
                          value: .string("A1D9BEC5-45F2-4171-84C7-5B4E6293047B")),
        ], issues: [ReadIssue(.malformed, "entry count 61 but only 60 fit", location: "makernote/ifd0", offset: 14)])
    }

    static let trainStill = MediaFile(
        path: "lychee/train.jpg", kind: .still, format: .jpeg, size: 3_478_530,
        still: StillInfo(width: 4032, height: 3024, properties: [
            MetadataProperty(key: "Exif.Image.Make", type: "Ascii", value: .string("Apple")),
            MetadataProperty(key: "Exif.Image.Model", type: "Ascii", value: .string("iPhone 6s")),
            MetadataProperty(key: "Exif.Image.Orientation", type: "Short", value: .uint(1)),
            MetadataProperty(key: "Exif.Photo.DateTimeOriginal", type: "Ascii", value: .string("2021:04:10 11:44:00")),
            MetadataProperty(key: "Xmp.xmp.CreatorTool", type: "XmpText", value: .string("14.4.2")),
            // Control characters in file data: never raw in text, escaped in JSON.
            MetadataProperty(key: "Iptc.Application2.Caption", type: "String", value: .string("Train\nat \u{1B}[31mstation")),
        ], makerNote: appleMakerNote(id: trainID)))

    static func edit(_ seconds: Double, from mediaTime: Int64) -> EditListEntry {
        EditListEntry(segmentDuration: UInt64((seconds * 600).rounded()), mediaTime: mediaTime, rate: 1)
    }

    static var trainMovie: MediaFile {
        let liveInfo = (0..<22).map { i in
            // Samples before the edit's media start (0.25 s) are never shown: no presentation time.
            MetadataSample(index: i, mediaTime: Double(i) * 0.0625, presentationTime: i < 4 ? nil : Double(i) * 0.0625 - 0.25,
                           duration: 0.0625, values: [MetadataSampleValue(
                               key: "com.apple.quicktime.live-photo-info", dataType: nil, size: 44,
                               value: .bytes([0x00, 0x00, 0x00, 0x01, UInt8(i), 0x3F, 0x80, 0x00]))])
        }
        let sit = MetadataSample(index: 0, mediaTime: 0, presentationTime: 0.48, duration: 1.0 / 600, values: [
            MetadataSampleValue(key: MovieInfo.stillImageTimeKey, dataType: 65, size: 1, value: .int(-1)),
        ])
        let movie = MovieInfo(
            majorBrand: "qt  ", compatibleBrands: ["qt  "],
            topLevelBoxes: [
                BoxSummary(type: "ftyp", offset: 0, size: 20), BoxSummary(type: "wide", offset: 20, size: 8),
                BoxSummary(type: "mdat", offset: 28, size: 1_503_627), BoxSummary(type: "moov", offset: 1_503_655, size: 6237),
            ],
            timescale: 600, durationTicks: 740,
            keys: [
                QuickTimeKey(key: "com.apple.quicktime.location.accuracy.horizontal", dataType: 1, value: .string("65.000000")),
                QuickTimeKey(key: MovieInfo.contentIdentifierKey, dataType: 1, value: .string(trainID)),
                QuickTimeKey(key: "com.apple.quicktime.location.ISO6709", dataType: 1, value: .string("+52.2097-000.8955+103.640/")),
                QuickTimeKey(key: "com.apple.quicktime.make", dataType: 1, value: .string("Apple")),
                QuickTimeKey(key: "com.apple.quicktime.model", dataType: 1, value: .string("iPhone 6s")),
                QuickTimeKey(key: "com.apple.quicktime.software", dataType: 1, value: .string("14.4.2")),
                QuickTimeKey(key: "com.apple.quicktime.creationdate", dataType: 1, value: .string("2021-04-10T11:43:59+0100")),
                QuickTimeKey(key: "com.apple.quicktime.live-photo.auto", dataType: 22, value: .uint(1)),
                QuickTimeKey(key: "com.apple.quicktime.live-photo.vitality-score", dataType: 23, value: .double(0.9375)),
            ],
            tracks: [
                TrackInfo(id: 1, handler: "vide", format: "avc1", mediaTimescale: 600, mediaDurationTicks: 1242,
                          width: 1440, height: 1080, editList: [edit(1.2333, from: 502)], sampleCount: 22),
                TrackInfo(id: 2, handler: "soun", format: "lpcm", mediaTimescale: 44100, mediaDurationTicks: 91127,
                          editList: [edit(1.2333, from: 37_000)], sampleCount: 91127),
                TrackInfo(id: 3, handler: "meta", format: "mebx", mediaTimescale: 600, mediaDurationTicks: 1242,
                          references: ["cdsc": [1], "cdep": [1]], editList: [edit(1.2333, from: 502)], sampleCount: 22,
                          metadata: MetadataTrack(keys: [MetadataTrackKey(
                              localID: 1, namespace: "mdta", name: "com.apple.quicktime.live-photo-info", dataType: nil,
                              dataTypeName: "com.apple.quicktime.com.apple.quicktime.live-photo-info")], samples: liveInfo)),
                TrackInfo(id: 4, handler: "meta", format: "mebx", mediaTimescale: 600, mediaDurationTicks: 1,
                          references: ["cdsc": [1]], editList: [edit(0.48, from: -1), edit(1.0 / 600, from: 0)], sampleCount: 1,
                          metadata: MetadataTrack(keys: [MetadataTrackKey(
                              localID: 1, namespace: "mdta", name: MovieInfo.stillImageTimeKey, dataType: 65)], samples: [sit])),
            ],
            stillImageTime: StillImageTime(trackID: 4, value: -1, dataType: 65, payloadSize: 1, sampleCount: 1,
                                           mediaTime: 0, presentationTime: 0.48, movieDuration: 740.0 / 600),
            video: VideoStream(trackID: 1, codec: "avc1", codecName: "H.264", profile: "High", level: "4", width: 1440,
                               height: 1080, chroma: "4:2:0", bitDepth: 8, fullRange: true, frameCount: 22, duration: 2.07),
            audio: [AudioStream(trackID: 2, codec: "lpcm", channels: 1, sampleRate: 44100, duration: 2.0664)])
        let props = StreamProperties(streams: [
            .init(kind: "General", index: 0, fields: [
                .init("Format", .string("MPEG-4")), .init("Format_Profile", .string("QuickTime")),
                .init("Duration", .string("1233")), .init("FileSize", .string("1509892")),
            ]),
            .init(kind: "Video", index: 0, fields: [
                .init("Format", .string("AVC")), .init("Format_Profile", .string("High@L4")),
                .init("Width", .string("1440")), .init("Height", .string("1080")),
                .init("ColorSpace", .string("YUV")), .init("ChromaSubsampling", .string("4:2:0")),
            ]),
        ])
        return MediaFile(path: "lychee/train.mov", kind: .movie, format: .quicktime, size: 1_509_892,
                         movie: movie, streamProperties: props)
    }

    /// A movie whose `moov` overruns the file: what was read before it is kept, with a located error.
    static let truncatedMovie = MediaFile(
        path: "broken/IMG_0002, copy.MOV", kind: .movie, format: .quicktime, size: 4096,
        movie: MovieInfo(majorBrand: "qt  ", compatibleBrands: ["qt  "],
                         topLevelBoxes: [BoxSummary(type: "ftyp", offset: 0, size: 20),
                                         BoxSummary(type: "moov", offset: 20, size: 1_000_000)],
                         timescale: 0, durationTicks: 0,
                         keys: [
                            QuickTimeKey(key: "com.apple.quicktime.live-photo.vitality-score", dataType: 23, value: .double(.nan)),
                            QuickTimeKey(key: "com.apple.quicktime.live-photo.vitality-scoring-version", dataType: 24, value: .double(.infinity)),
                            QuickTimeKey(key: "©xyz", namespace: "udta", dataType: 0, value: .bytes([0xDE, 0xAD, 0xBE, 0xEF])),
                         ]),
        error: ReadIssue(.malformed, "box size 1000000 runs past its parent (4076 bytes left)", location: "moov", offset: 20),
        warnings: [ReadIssue(.unsupported, "mvhd version 3", location: "moov/mvhd", offset: 28)])

    /// Not media at all: an error without location or offset.
    static let notMedia = MediaFile(path: "notes.txt", kind: .unknown, format: .unknown, size: 12,
                                    error: ReadIssue(.notMedia, "not a still, movie or archive"))

    /// A still whose makernote was stripped by an editor, at a non-ASCII path.
    static let strippedStill = MediaFile(
        path: "前，竖.JPG", kind: .still, format: .jpeg, size: 812_345,
        still: StillInfo(width: 3024, height: 4032, properties: [
            MetadataProperty(key: "Exif.Image.Make", type: "Ascii", value: .string("Apple")),
        ], makerNoteIssue: ReadIssue(.unsupported, "MakerNote is not an Apple one (starts 'Nikon')", location: "exif")))

    /// A `.livp` from a cloud drive: an HEIC still and an HEVC movie, rotated 90°.
    static var livp: MediaFile {
        let still = MediaFile(
            path: "cloud/IMG_0003.livp!IMG_0003.JPG.heic", kind: .still, format: .heic, size: 1_432_001,
            still: StillInfo(width: 4032, height: 3024, makerNote: AppleMakerNoteInfo(version: 1, tags: [
                MakerAppleTag(tag: 0x0011, name: "ContentIdentifier", aliases: ["MediaGroupUUID"], type: "string",
                              count: 37, value: .string(livpID)),
            ])))
        let movie = MediaFile(
            path: "cloud/IMG_0003.livp!IMG_0003.JPG.mov", kind: .movie, format: .quicktime, size: 2_811_220,
            movie: MovieInfo(
                majorBrand: "qt  ", compatibleBrands: ["qt  "], timescale: 600, durationTicks: 1800,
                keys: [QuickTimeKey(key: MovieInfo.contentIdentifierKey, dataType: 1, value: .string(livpID))],
                tracks: [TrackInfo(id: 1, handler: "vide", format: "hvc1", mediaTimescale: 600, mediaDurationTicks: 1800,
                                   width: 1920, height: 1440, matrix: [0, 1, 0, -1, 0, 0, 1440, 0, 1], sampleCount: 45)],
                stillImageTime: StillImageTime(trackID: 2, value: -1, dataType: 65, payloadSize: 1, sampleCount: 1,
                                               mediaTime: 0, presentationTime: 1.5, movieDuration: 3),
                video: VideoStream(trackID: 1, codec: "hvc1", codecName: "HEVC", profile: "Main", level: "4", width: 1920,
                                   height: 1440, chroma: "4:2:0", bitDepth: 8, fullRange: true, frameCount: 45,
                                   duration: 3, rotation: -90)))
        return MediaFile(path: "cloud/IMG_0003.livp", kind: .livp, format: .zip, size: 4_243_512, members: [still, movie])
    }

    static var dumpFiles: [MediaFile] { [trainStill, trainMovie, truncatedMovie, notMedia, strippedStill, livp] }

    // MARK: Lint inputs

    static let rules: [RuleSummary] = [
        RuleSummary(id: "identifier-mismatch", name: "Identifier Mismatch",
                    summary: "A still and a movie paired by name carry different content identifiers.",
                    defaultSeverity: .error, documentation: "docs/rules/identifier-mismatch.md"),
        RuleSummary(id: "video-codec", name: "Video Codec",
                    summary: "The movie's video is tagged hev1, which Apple players refuse.",
                    defaultSeverity: .warning, documentation: "docs/rules/video-codec.md"),
        RuleSummary(id: "orphan-still", name: "Orphan Still", summary: "A still with no movie.",
                    defaultSeverity: .warning, documentation: "docs/rules/orphan-still.md"),
        RuleSummary(id: "duplicate-identifier", name: "Duplicate Identifier",
                    summary: "Several stills or movies share one content identifier.",
                    defaultSeverity: .error, documentation: "docs/rules/duplicate-identifier.md"),
        RuleSummary(id: "unreadable-file", name: "Unreadable File", summary: "A media file could not be read.",
                    defaultSeverity: .error, documentation: "docs/rules/unreadable-file.md"),
        RuleSummary(id: "still-image-time-out-of-range", name: "Still-Image-Time Out Of Range",
                    summary: "The still-image-time sample is not inside the movie.",
                    defaultSeverity: .error, documentation: "docs/rules/still-image-time-out-of-range.md"),
    ]

    static let lintResult = LintResult(
        root: "photos",
        files: [
            ScannedFile(path: "IMG_0001.JPG", kind: .still, format: .jpeg),
            ScannedFile(path: "IMG_0001.MOV", kind: .movie, format: .quicktime),
            ScannedFile(path: "IMG_0084.JPG", kind: .still, format: .jpeg),
            ScannedFile(path: "IMG_0084_HEVC.MOV", kind: .movie, format: .quicktime),
            ScannedFile(path: "broken/IMG_0002, copy.MOV", kind: .movie, format: .quicktime,
                        error: "box size 1000000 runs past its parent (4076 bytes left) at moov (byte offset 20)"),
            ScannedFile(path: "cloud/IMG_0003.livp", kind: .livp, format: .zip),
            ScannedFile(path: "dup/IMG_0001 copy.JPG", kind: .still, format: .jpeg),
            ScannedFile(path: "notes.txt", kind: .unknown, format: .unknown, error: "not a still, movie or archive"),
            ScannedFile(path: "前，竖.JPG", kind: .still, format: .jpeg),
        ],
        pairs: [
            PairRecord(still: "IMG_0001.JPG", movie: "IMG_0001.MOV", contentIdentifier: trainID, pairedBy: .contentIdentifier,
                       media: PairMedia(stillIdentifier: trainID, movieIdentifier: trainID, stillWidth: 4032, stillHeight: 3024,
                                        movieDuration: 1.2333, edits: [.init(start: 0, duration: 0.1, mediaTime: nil, rate: 1),
                                                                       .init(start: 0.1, duration: 1.1333, mediaTime: 0, rate: 1)],
                                        stillImageTime: 0.48, stillImageTimeValue: -1, videoCodec: "avc1")),
            PairRecord(still: "IMG_0084.JPG", movie: "IMG_0084_HEVC.MOV", contentIdentifier: nil, pairedBy: .name),
            PairRecord(still: "cloud/IMG_0003.livp!IMG_0003.JPG.heic", movie: "cloud/IMG_0003.livp!IMG_0003.JPG.mov",
                       contentIdentifier: livpID, pairedBy: .archive),
            PairRecord(still: "dup/IMG_0001 copy.JPG", movie: nil, contentIdentifier: trainID, pairedBy: .unpaired),
            PairRecord(still: "前，竖.JPG", movie: nil, contentIdentifier: nil, pairedBy: .unpaired),
        ],
        findings: [
            Finding(ruleID: "identifier-mismatch", severity: .error,
                    message: "Still 'IMG_0084.JPG' has identifier \"8C1E…\" but movie 'IMG_0084_HEVC.MOV' has \"8C1F…\"",
                    files: ["IMG_0084.JPG", "IMG_0084_HEVC.MOV"],
                    fixHint: "Copy the still's ContentIdentifier into the movie: livelint fix --identifier",
                    documentation: "docs/rules/identifier-mismatch.md"),
            Finding(ruleID: "video-codec", severity: .warning, message: "Video is tagged 'hev1'; Apple players want 'hvc1'",
                    files: ["IMG_0084_HEVC.MOV"], fixHint: "ffmpeg -i in.mov -c copy -tag:v hvc1 out.mov",
                    documentation: "docs/rules/video-codec.md"),
            Finding(ruleID: "still-image-time-out-of-range", severity: .info,
                    message: "Still-image-time 1.5 s is at 50% of 3 s: fine, noted",
                    files: ["cloud/IMG_0003.livp"], documentation: "docs/rules/still-image-time-out-of-range.md"),
            Finding(ruleID: "orphan-still", severity: .warning,
                    message: "Still '前，竖.JPG' has no movie & no <identifier>: \"a 'quoted' one\" needed",
                    files: ["前，竖.JPG"], fixHint: nil, documentation: "docs/rules/orphan-still.md"),
            Finding(ruleID: "duplicate-identifier", severity: .error,
                    message: "Identifier \(trainID) is carried by 2 stills",
                    files: ["IMG_0001.JPG", "dup/IMG_0001 copy.JPG"],
                    fixHint: "Keep one copy,\nor give the other a new identifier",
                    documentation: "docs/rules/duplicate-identifier.md"),
            Finding(ruleID: "unreadable-file", severity: .error,
                    message: "moov: box size 1000000 runs past its parent, 100% past (byte offset 20)\r\nfile cut short?",
                    files: ["broken/IMG_0002, copy.MOV"], documentation: "docs/rules/unreadable-file.md"),
        ],
        summary: LintSummary(files: 9, pairs: 5, errors: 3, warnings: 2, infos: 1, baselined: 3))

    /// Nothing wrong anywhere: the text report is the summary line alone.
    static let cleanResult = LintResult(
        root: ".", files: [ScannedFile(path: "IMG_0001.JPG", kind: .still, format: .jpeg),
                           ScannedFile(path: "IMG_0001.MOV", kind: .movie, format: .quicktime)],
        pairs: [PairRecord(still: "IMG_0001.JPG", movie: "IMG_0001.MOV", contentIdentifier: trainID, pairedBy: .contentIdentifier)],
        findings: [], summary: LintSummary(files: 2, pairs: 1, errors: 0, warnings: 0, infos: 0))

    static let toolVersion = "0.1.0"
    static let options = LintReportOptions(informationURI: "https://example.invalid/livelint",
                                           documentationBaseURI: "https://example.invalid/livelint/blob/main/",
                                           html: HTMLReportInput(nonce: "golden-nonce"))
}
