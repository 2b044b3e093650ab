import LiveModel

/// One runnable example of a rule: a tiny scan (literal model values) and the findings the rule
/// must report on it — none for a non-triggering example. The rules' example test runs every one,
/// and a failure points at the line where the example was written (captured here).
///
/// An example also states the repairs the rule attaches for `livelint fix` (none unless given),
/// and the test checks them too.
///
/// ```swift
/// RuleExample(.pair(still: .jpeg(id: Sample.uuidA), movie: .mov(id: Sample.uuidA, codec: "hev1")),
///             .finding(on: "IMG_0001.MOV", saying: "hev1"),
///             repairs: [.retagVideoSampleEntry(from: "hev1", to: "hvc1")])
/// ```
public struct RuleExample: Sendable {
    /// The files of the scan, as readers would produce them.
    public var files: [MediaFile]
    /// The findings of this rule expected on `files`, in any order.
    public var expected: [ExpectedFinding]
    /// The repairs this rule attaches on `files` (``runRepairs(_:)``), each once, in any order.
    public var repairs: [Repair]
    /// Options for this run (on top of the rule's defaults).
    public var options: [String: OptionValue]
    /// A few words on what the example shows, for the docs.
    public var note: String?
    /// Where the example was written.
    public var fileID: String
    public var filePath: String
    public var line: Int
    public var column: Int

    public init(_ scan: SampleScan, _ expected: ExpectedFinding..., repairs: [Repair] = [],
                options: [String: OptionValue] = [:], note: String? = nil, fileID: String = #fileID,
                filePath: String = #filePath, line: Int = #line, column: Int = #column) {
        self.files = scan.files
        self.expected = expected
        self.repairs = repairs
        self.options = options
        self.note = note
        self.fileID = fileID
        self.filePath = filePath
        self.line = line
        self.column = column
    }
}

extension RuleExample {
    /// Runs `rule` alone on this example as ``run(_:)`` does and returns the repairs it attaches
    /// (``LintEngine/repairs(for:)``) on every pair and lone half of the scan, in pairing order,
    /// each distinct repair once.
    public func runRepairs(_ rule: any Rule.Type) throws(ConfigurationError) -> [Repair] {
        let config = Configuration(rules: [rule.description.identifier: RuleSetting(enabled: true, options: options)])
        let engine = try LintEngine(rules: [rule], configuration: config)
        var repairs: [Repair] = []
        for pair in Pairing.pair(files.map { $0.slimmedForLint(keeping: engine.metadataKeys) }) {
            for r in engine.repairs(for: pair) where !repairs.contains(r) { repairs.append(r) }
        }
        return repairs
    }
}

/// A finding an example expects: exactly these files, and a message containing each fragment.
public struct ExpectedFinding: Sendable, Hashable, CustomStringConvertible {
    public var files: [String]
    public var messageFragments: [String]

    public init(files: [String], messageFragments: [String] = []) {
        self.files = files.sorted()
        self.messageFragments = messageFragments
    }

    /// `.finding(on: "IMG_0001.MOV", saying: "hev1")`.
    public static func finding(on files: String..., saying fragments: String...) -> ExpectedFinding {
        ExpectedFinding(files: files, messageFragments: fragments)
    }

    /// True when `finding` involves exactly these files and says every fragment.
    public func matches(_ finding: Finding) -> Bool {
        finding.files.sorted() == files && messageFragments.allSatisfy { finding.message.contains($0) }
    }

    public var description: String {
        let quoted = messageFragments.map { "\"\($0)\"" }.joined(separator: ", ")
        return "on " + files.joined(separator: ", ") + (quoted.isEmpty ? "" : " saying " + quoted)
    }
}

/// The files of an example scan. Build one with `.pair(still:movie:)`, `.files(...)`, an array
/// literal of files, or `+` to combine.
public struct SampleScan: Sendable, ExpressibleByArrayLiteral {
    public var files: [MediaFile]
    public init(_ files: [MediaFile]) { self.files = files }
    public init(arrayLiteral elements: MediaFile...) { self.files = elements }

    /// A still and a movie (default names `IMG_0001.JPG` / `IMG_0001.MOV`).
    public static func pair(still: MediaFile, movie: MediaFile) -> SampleScan { SampleScan([still, movie]) }
    public static func files(_ files: MediaFile...) -> SampleScan { SampleScan(files) }
    public static func + (lhs: SampleScan, rhs: SampleScan) -> SampleScan { SampleScan(lhs.files + rhs.files) }
}

/// Well-formed values for examples and tests.
public enum Sample {
    /// The identifier of the Lychee iPhone 6s pair in the corpus.
    public static let uuidA = "E905E6C6-C747-4805-942F-9904A0281F02"
    public static let uuidB = "5C1F8D2A-0B7E-4F4C-9A61-3D2E8C7B9F10"
    public static let uuidC = "9B2D4E6F-1A3C-4B5D-8E7F-0A1B2C3D4E5F"
}

/// How an example movie carries its still-image-time. A number literal means "one int8 sample of
/// one byte, presented at that many seconds".
public struct SampleStillTime: Sendable, Hashable, ExpressibleByFloatLiteral, ExpressibleByIntegerLiteral {
    public var presentationTime: Double?
    public var dataType: UInt32?
    public var payloadSize: Int?
    public var sampleCount: Int
    public var value: Int64?

    public init(presentationTime: Double?, dataType: UInt32? = WellKnownDataType.int8, payloadSize: Int? = 1,
                sampleCount: Int = 1, value: Int64? = -1) {
        self.presentationTime = presentationTime
        self.dataType = dataType
        self.payloadSize = payloadSize
        self.sampleCount = sampleCount
        self.value = value
    }
    public init(floatLiteral value: Double) { self.init(presentationTime: value) }
    public init(integerLiteral value: Int) { self.init(presentationTime: Double(value)) }

    /// One sample at `seconds`, with the given key type and payload size.
    public static func at(_ seconds: Double, type: UInt32? = WellKnownDataType.int8, size: Int? = 1) -> SampleStillTime {
        SampleStillTime(presentationTime: seconds, dataType: type, payloadSize: size)
    }
    /// A track that has the key but `count` samples (0: none; the first at `seconds`).
    public static func samples(_ count: Int, at seconds: Double = 1) -> SampleStillTime {
        SampleStillTime(presentationTime: count == 0 ? nil : seconds, payloadSize: count == 0 ? nil : 1,
                        sampleCount: count, value: count == 0 ? nil : -1)
    }
    /// One sample that the edit list never presents.
    public static let notPresented = SampleStillTime(presentationTime: nil)
}

extension MediaFile {
    /// An example still (JPEG unless `format` says otherwise) with an Apple makernote holding `id`
    /// in tag 0x0011 (`id: nil` keeps the makernote but drops 0x0011; `makerNote: false` drops it).
    public static func still(_ path: String, format: ContainerFormat = .jpeg, id: String? = Sample.uuidA,
                             makerNote: Bool = true, width: Int? = 4032, height: Int? = 3024,
                             orientation: Int? = nil, date: String? = "2021:04:10 11:44:00",
                             offset: String? = nil, xmpID: String? = nil) -> MediaFile {
        var properties = [
            MetadataProperty(key: "Exif.Image.Make", type: "Ascii", value: .string("Apple")),
            MetadataProperty(key: "Exif.Image.Model", type: "Ascii", value: .string("iPhone 6s")),
        ]
        if let orientation {
            properties.append(MetadataProperty(key: "Exif.Image.Orientation", type: "Short", value: .int(Int64(orientation))))
        }
        if let date {
            properties.append(MetadataProperty(key: "Exif.Photo.DateTimeOriginal", type: "Ascii", value: .string(date)))
        }
        if let offset {
            properties.append(MetadataProperty(key: "Exif.Photo.OffsetTimeOriginal", type: "Ascii", value: .string(offset)))
        }
        if let xmpID {
            properties.append(MetadataProperty(key: MetadataKey.xmpContentIdentifier.key, type: "XmpText", value: .string(xmpID)))
        }
        var note: AppleMakerNoteInfo?
        if makerNote {
            var tags = [MakerAppleTag(tag: 0x0001, name: "MakerNoteVersion", type: "int32s", count: 1, value: .int(12))]
            if let id {
                tags.append(MakerAppleTag(tag: 0x0011, name: "ContentIdentifier", aliases: ["MediaGroupUUID"],
                                          type: "string", count: UInt32(id.utf8.count + 1), value: .string(id)))
            }
            tags.append(MakerAppleTag(tag: 0x0017, name: "LivePhotoVideoIndex", type: "int32s", count: 1, value: .int(0)))
            note = AppleMakerNoteInfo(version: 1, tags: tags)
        }
        let info = StillInfo(width: width, height: height, properties: properties, makerNote: note)
        return MediaFile(path: path, kind: .still, format: format, size: 3_478_530, still: info)
    }

    /// An example JPEG still (see ``still(_:format:id:makerNote:width:height:orientation:date:offset:)``).
    public static func jpeg(_ path: String = "IMG_0001.JPG", id: String? = Sample.uuidA, makerNote: Bool = true,
                            width: Int? = 4032, height: Int? = 3024, orientation: Int? = nil,
                            date: String? = "2021:04:10 11:44:00", offset: String? = nil, xmpID: String? = nil) -> MediaFile {
        still(path, format: .jpeg, id: id, makerNote: makerNote, width: width, height: height,
              orientation: orientation, date: date, offset: offset, xmpID: xmpID)
    }

    /// An example HEIC still.
    public static func heic(_ path: String = "IMG_0001.HEIC", id: String? = Sample.uuidA, makerNote: Bool = true,
                            width: Int? = 4032, height: Int? = 3024, orientation: Int? = nil,
                            date: String? = "2021:04:10 11:44:00", offset: String? = nil, xmpID: String? = nil) -> MediaFile {
        still(path, format: .heic, id: id, makerNote: makerNote, width: width, height: height,
              orientation: orientation, date: date, offset: offset, xmpID: xmpID)
    }

    /// An example Live Photo movie: QuickTime unless `format` says otherwise, `id` in the
    /// `moov/meta` keys, a still-image-time track (nil: none), one video stream.
    public static func movie(_ path: String, format: ContainerFormat = .quicktime, id: String? = Sample.uuidA,
                             stillImageTime: SampleStillTime? = 1.5, duration: Double = 3,
                             codec: String? = "hvc1", chroma: String? = "4:2:0", bitDepth: Int? = 8,
                             width: Int = 1920, height: Int = 1440, rotation: Double = 0,
                             creationDate: String? = "2021-04-10T11:44:00+0200") -> MediaFile {
        let timescale: UInt32 = 600
        let ticks = UInt64(max(0, (duration * Double(timescale)).rounded()))
        var keys: [QuickTimeKey] = []
        if let id {
            keys.append(QuickTimeKey(key: MovieInfo.contentIdentifierKey, dataType: 1, value: .string(id)))
        }
        if let creationDate {
            keys.append(QuickTimeKey(key: "com.apple.quicktime.creationdate", dataType: 1, value: .string(creationDate)))
        }
        var video: VideoStream?
        var tracks: [TrackInfo] = []
        if let codec {
            video = VideoStream(trackID: 1, codec: codec, width: width, height: height, chroma: chroma,
                                bitDepth: bitDepth, fullRange: true, frameCount: Int(min(max(0, duration * 30), 100_000)),
                                duration: duration, rotation: rotation)
            tracks.append(TrackInfo(id: 1, handler: "vide", format: codec, mediaTimescale: timescale,
                                    mediaDurationTicks: ticks, width: Double(width), height: Double(height)))
        }
        var sit: StillImageTime?
        if let s = stillImageTime {
            sit = StillImageTime(trackID: 2, value: s.value, dataType: s.dataType, payloadSize: s.payloadSize,
                                 sampleCount: s.sampleCount, mediaTime: s.sampleCount == 0 ? nil : 0,
                                 presentationTime: s.presentationTime, movieDuration: duration)
            tracks.append(TrackInfo(id: 2, handler: "meta", format: "mebx", mediaTimescale: timescale,
                                    mediaDurationTicks: ticks, sampleCount: s.sampleCount))
        }
        let info = MovieInfo(majorBrand: format == .quicktime ? "qt  " : "mp42",
                             compatibleBrands: format == .quicktime ? ["qt  "] : ["isom", "mp42"],
                             timescale: timescale, durationTicks: ticks, keys: keys, tracks: tracks,
                             stillImageTime: sit, video: video)
        return MediaFile(path: path, kind: .movie, format: format, size: 1_509_892, movie: info)
    }

    /// An example QuickTime movie (see ``movie(_:format:id:stillImageTime:duration:codec:chroma:bitDepth:width:height:rotation:creationDate:)``).
    public static func mov(_ path: String = "IMG_0001.MOV", id: String? = Sample.uuidA,
                           stillImageTime: SampleStillTime? = 1.5, duration: Double = 3,
                           codec: String? = "hvc1", chroma: String? = "4:2:0", bitDepth: Int? = 8,
                           width: Int = 1920, height: Int = 1440, rotation: Double = 0,
                           creationDate: String? = "2021-04-10T11:44:00+0200") -> MediaFile {
        movie(path, format: .quicktime, id: id, stillImageTime: stillImageTime, duration: duration, codec: codec,
              chroma: chroma, bitDepth: bitDepth, width: width, height: height, rotation: rotation,
              creationDate: creationDate)
    }

    /// An example ISO MP4 movie.
    public static func mp4(_ path: String = "IMG_0001.MP4", id: String? = Sample.uuidA,
                           stillImageTime: SampleStillTime? = 1.5, duration: Double = 3,
                           codec: String? = "hvc1", chroma: String? = "4:2:0", bitDepth: Int? = 8,
                           width: Int = 1920, height: Int = 1440, rotation: Double = 0,
                           creationDate: String? = "2021-04-10T11:44:00+0200") -> MediaFile {
        movie(path, format: .mp4, id: id, stillImageTime: stillImageTime, duration: duration, codec: codec,
              chroma: chroma, bitDepth: bitDepth, width: width, height: height, rotation: rotation,
              creationDate: creationDate)
    }

    /// An example `.livp` archive; member paths are prefixed with `path!` here.
    public static func livp(_ path: String = "IMG_0001.livp", members: [MediaFile], layout: SampleLivpLayout = SampleLivpLayout()) -> MediaFile {
        let prefixed = members.map { member -> MediaFile in
            var m = member
            m.path = path + "!" + member.path
            return m
        }
        var file = MediaFile(path: path, kind: .livp, format: .zip, size: 4_988_422, members: prefixed)
        file.archiveLayout = layout.layout(of: members)
        return file
    }

    /// A file whose reading failed: sniffed as `format`, with what was read before the failure lost.
    public static func unreadable(_ path: String, format: ContainerFormat, category: ReadIssue.Category = .malformed,
                                  error: String, location: String? = nil, offset: Int64? = nil) -> MediaFile {
        MediaFile(path: path, kind: format.kind, format: format, size: 1_024,
                  error: ReadIssue(category, error, location: location, offset: offset))
    }

    /// A file that is not media at all (`kind` `.unknown`, a `notMedia` error).
    public static func notMedia(_ path: String) -> MediaFile {
        MediaFile(path: path, kind: .unknown, format: .unknown, size: 120,
                  error: ReadIssue(.notMedia, "not a still, movie or .livp"))
    }
}


/// How an example `.livp` lays out its members: by default as `livelint pack` and Baidu write it
/// (stored, in the order given, no extra fields, the 1000LIVP comment with the right offsets).
public struct SampleLivpLayout: Sendable {
    public enum Comment: Sendable { case correct, none, wrongOffsets, text(String) }
    public var compressed: Bool
    public var extraFieldBytes: Int
    public var comment: Comment

    public init(compressed: Bool = false, extraFieldBytes: Int = 0, comment: Comment = .correct) {
        self.compressed = compressed
        self.extraFieldBytes = extraFieldBytes
        self.comment = comment
    }

    public static let baidu = SampleLivpLayout()

    func layout(of members: [MediaFile]) -> ArchiveLayout {
        var offset: Int64 = 0
        var entries: [ArchiveLayout.Entry] = []
        for m in members {
            let size = UInt64(max(0, m.size ?? 1_000))
            let stored = compressed ? size * 9 / 10 : size
            let data = offset + 30 + Int64(m.path.utf8.count) + Int64(extraFieldBytes)
            entries.append(ArchiveLayout.Entry(name: m.path, compressionMethod: compressed ? 8 : 0, localExtraLength: extraFieldBytes,
                                               centralExtraLength: extraFieldBytes, dataOffset: data, compressedSize: stored, size: size))
            offset = data + Int64(stored)
        }
        var bytes: [UInt8] = []
        let still = zip(members, entries).first { $0.0.kind == .still }, movie = zip(members, entries).first { $0.0.kind == .movie }
        switch comment {
        case .none: break
        case .text(let t): bytes = Array(t.utf8)
        case .correct, .wrongOffsets:
            if let (s, se) = still, let (_, me) = movie {
                let shift: Int64 = { if case .wrongOffsets = comment { return 16 } else { return 0 } }()
                bytes = LivpComment(stillType: LivpComment.stillType(for: s.format) ?? 0, stillOffset: UInt32(se.dataOffset),
                                    stillSize: UInt32(se.compressedSize), movieOffset: UInt32(me.dataOffset + shift),
                                    movieSize: UInt32(me.compressedSize)).bytes
            }
        }
        return ArchiveLayout(entries: entries, comment: bytes)
    }
}

extension MediaFile {
    /// This example file with a Google Takeout sidecar beside it: `NAME.supplemental-metadata.json`
    /// unless `name` says otherwise (a name without a folder is put in the file's folder), taken at
    /// `taken` (Unix seconds; 1618047840 is 2021-04-10 09:44:00 UTC), or unusable for `problem`.
    public func withSidecar(_ name: String? = nil, taken: Int64? = 1_618_047_840, title: String? = nil,
                            problem: String? = nil) -> MediaFile {
        var file = self
        let folder = path.lastIndex(of: "/").map { String(path[...$0]) } ?? ""
        let fileName = path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? path
        let sidecarPath = name.map { $0.contains("/") ? $0 : folder + $0 } ?? path + ".supplemental-metadata.json"
        file.sidecar = TakeoutSidecar(path: sidecarPath, title: title ?? fileName, photoTakenTime: problem == nil ? taken : nil,
                                      creationTime: problem == nil ? taken : nil, problem: problem)
        return file
    }
}
