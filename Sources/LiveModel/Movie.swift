import Foundation

/// What a QuickTime / ISO-BMFF movie carries, as our own box reader sees it.
public struct MovieInfo: Sendable {
    /// `ftyp` major brand (`qt  `, `mp42`, `isom`), nil when the file has no `ftyp`.
    public var majorBrand: String?
    public var compatibleBrands: [String]
    /// Top-level boxes in file order.
    public var topLevelBoxes: [BoxSummary]
    /// `mvhd` timescale and duration.
    public var timescale: UInt32
    public var durationTicks: UInt64
    /// `moov/meta` keys with their values (QuickTime `keys`+`ilst`, and `udta/meta` ilst atoms).
    public var keys: [QuickTimeKey]
    public var tracks: [TrackInfo]
    /// Read once, in one place: the still-image-time the pairing rules look at.
    public var stillImageTime: StillImageTime?
    public var video: VideoStream?
    public var audio: [AudioStream]

    public init(majorBrand: String? = nil, compatibleBrands: [String] = [], topLevelBoxes: [BoxSummary] = [],
                timescale: UInt32 = 0, durationTicks: UInt64 = 0, keys: [QuickTimeKey] = [],
                tracks: [TrackInfo] = [], stillImageTime: StillImageTime? = nil,
                video: VideoStream? = nil, audio: [AudioStream] = []) {
        self.majorBrand = majorBrand
        self.compatibleBrands = compatibleBrands
        self.topLevelBoxes = topLevelBoxes
        self.timescale = timescale
        self.durationTicks = durationTicks
        self.keys = keys
        self.tracks = tracks
        self.stillImageTime = stillImageTime
        self.video = video
        self.audio = audio
    }

    /// Movie duration in seconds (`mvhd` duration / timescale), 0 when the timescale is 0.
    public var duration: Double {
        timescale == 0 ? 0 : Double(durationTicks) / Double(timescale)
    }

    public static let contentIdentifierKey = MetadataKey.contentIdentifier.key
    public static let stillImageTimeKey = MetadataKey.stillImageTime.key

    public func key(_ name: String) -> QuickTimeKey? { keys.first { $0.key == name } }

    /// `com.apple.quicktime.content.identifier`, the pairing key.
    public var contentIdentifier: String? {
        guard let k = key(MovieInfo.contentIdentifierKey) else { return nil }
        switch k.value {
        case .string(let s): return s
        case .bytes(let b): return String(decoding: b.prefix { $0 != 0 }, as: UTF8.self)
        default: return k.value.displayString
        }
    }
}

public struct BoxSummary: Sendable, Hashable {
    public var type: String
    public var offset: Int64
    public var size: Int64
    public init(type: String, offset: Int64, size: Int64) {
        self.type = type
        self.offset = offset
        self.size = size
    }
}

/// One `moov/meta` (or `udta`) metadata item.
public struct QuickTimeKey: Sendable, Hashable {
    /// The full key (`com.apple.quicktime.content.identifier`), or the atom name for `udta` items (`©xyz`).
    public var key: String
    /// Key namespace (`mdta`, `udta`, …).
    public var namespace: String
    /// The well-known data type number from the `data` atom (1 = UTF-8, 23 = float32, …).
    public var dataType: UInt32
    public var value: MetadataValue
    public init(key: String, namespace: String = "mdta", dataType: UInt32, value: MetadataValue) {
        self.key = key
        self.namespace = namespace
        self.dataType = dataType
        self.value = value
    }
    public var typeName: String { WellKnownDataType.name(dataType) }
}

/// QuickTime well-known data types (QuickTime File Format, "Well-known types").
public enum WellKnownDataType {
    public static let names: [UInt32: String] = [
        0: "binary", 1: "utf8", 2: "utf16", 3: "sjis", 4: "utf8-sort", 5: "utf16-sort",
        13: "jpeg", 14: "png", 21: "int-be", 22: "uint-be", 23: "float32", 24: "float64",
        27: "bmp", 28: "metadata-atom", 65: "int8", 66: "int16", 67: "int32",
        70: "point-f32", 71: "dimensions-f32", 72: "rect-f32", 74: "int64", 75: "uint8",
        76: "uint16", 77: "uint32", 78: "uint64", 79: "affine-transform-f64",
    ]
    public static func name(_ type: UInt32) -> String { names[type] ?? "type-\(type)" }
    /// The int8 type the still-image-time key must use.
    public static let int8: UInt32 = 65
}

/// One edit list (`elst`) entry. `segmentDuration` is in movie timescale ticks,
/// `mediaTime` in media timescale ticks (-1 = empty edit).
public struct EditListEntry: Sendable, Hashable {
    public var segmentDuration: UInt64
    public var mediaTime: Int64
    public var rate: Double
    public init(segmentDuration: UInt64, mediaTime: Int64, rate: Double) {
        self.segmentDuration = segmentDuration
        self.mediaTime = mediaTime
        self.rate = rate
    }
}

public struct TrackInfo: Sendable {
    public var id: UInt32
    /// `hdlr` handler type (`vide`, `soun`, `meta`, `auxv`, …).
    public var handler: String
    /// Sample entry fourcc as stored (`avc1`, `hvc1`, `hev1`, `mebx`, `lpcm`, …); nil without `stsd`.
    public var format: String?
    public var mediaTimescale: UInt32
    public var mediaDurationTicks: UInt64
    /// `tkhd` width and height (16.16 fixed), in pixels.
    public var width: Double
    public var height: Double
    /// `tkhd` matrix a, b, u, c, d, v, x, y, w as doubles.
    public var matrix: [Double]
    /// `tref` links: reference type → track ids.
    public var references: [String: [UInt32]]
    public var editList: [EditListEntry]
    public var sampleCount: Int
    /// For timed metadata (`mebx`) tracks: the keys and the decoded samples.
    public var metadata: MetadataTrack?
    public var enabled: Bool

    public init(id: UInt32, handler: String, format: String? = nil, mediaTimescale: UInt32 = 0,
                mediaDurationTicks: UInt64 = 0, width: Double = 0, height: Double = 0,
                matrix: [Double] = [1, 0, 0, 0, 1, 0, 0, 0, 1], references: [String: [UInt32]] = [:],
                editList: [EditListEntry] = [], sampleCount: Int = 0, metadata: MetadataTrack? = nil,
                enabled: Bool = true) {
        self.id = id
        self.handler = handler
        self.format = format
        self.mediaTimescale = mediaTimescale
        self.mediaDurationTicks = mediaDurationTicks
        self.width = width
        self.height = height
        self.matrix = matrix
        self.references = references
        self.editList = editList
        self.sampleCount = sampleCount
        self.metadata = metadata
        self.enabled = enabled
    }

    /// Media duration in seconds.
    public var duration: Double {
        mediaTimescale == 0 ? 0 : Double(mediaDurationTicks) / Double(mediaTimescale)
    }

    /// Rotation in degrees (counter-clockwise positive, as ffprobe reports it) from the `tkhd` matrix.
    public var rotation: Double {
        guard matrix.count >= 5 else { return 0 }
        let a = matrix[0], b = matrix[1]
        var deg = -atan2Degrees(b, a)
        if deg == -0 { deg = 0 }
        return deg
    }

    private func atan2Degrees(_ y: Double, _ x: Double) -> Double {
        // Matrices in files are exact multiples of 90 degrees; keep them exact.
        switch (x, y) {
        case (1, 0): return 0
        case (0, 1): return 90
        case (-1, 0): return 180
        case (0, -1): return -90
        default:
            return atan2(y, x) * 180 / Double.pi
        }
    }
}

/// A timed metadata track (`mebx` sample entry): its key table and its samples.
public struct MetadataTrack: Sendable {
    public var keys: [MetadataTrackKey]
    public var samples: [MetadataSample]
    /// True when the samples list was cut short by a reading limit.
    public var samplesTruncated: Bool
    public init(keys: [MetadataTrackKey], samples: [MetadataSample], samplesTruncated: Bool = false) {
        self.keys = keys
        self.samples = samples
        self.samplesTruncated = samplesTruncated
    }
    public func key(named name: String) -> MetadataTrackKey? { keys.first { $0.name == name } }
}

public struct MetadataTrackKey: Sendable, Hashable {
    /// The local key id samples use (the child box type of `keys` in the `mebx` entry).
    public var localID: UInt32
    /// `keyd` namespace (`mdta`).
    public var namespace: String
    /// `keyd` value (`com.apple.quicktime.still-image-time`).
    public var name: String
    /// `dtyp` well-known type (namespace 0), nil when the type is given as a string.
    public var dataType: UInt32?
    /// `dtyp` with a non-zero namespace: the type as a reverse-DNS string.
    public var dataTypeName: String?
    public init(localID: UInt32, namespace: String, name: String, dataType: UInt32?, dataTypeName: String? = nil) {
        self.localID = localID
        self.namespace = namespace
        self.name = name
        self.dataType = dataType
        self.dataTypeName = dataTypeName
    }
}

public struct MetadataSample: Sendable, Hashable {
    public var index: Int
    /// Decode time in the media timescale, in seconds.
    public var mediaTime: Double
    /// Presentation time in movie seconds after the edit list; nil when the edit list never shows it.
    public var presentationTime: Double?
    public var duration: Double
    public var values: [MetadataSampleValue]
    public init(index: Int, mediaTime: Double, presentationTime: Double?, duration: Double, values: [MetadataSampleValue]) {
        self.index = index
        self.mediaTime = mediaTime
        self.presentationTime = presentationTime
        self.duration = duration
        self.values = values
    }
}

public struct MetadataSampleValue: Sendable, Hashable {
    /// The key name (`com.apple.quicktime.still-image-time`), or `local:N` when the key is not in the table.
    public var key: String
    public var dataType: UInt32?
    /// Payload size in bytes.
    public var size: Int
    public var value: MetadataValue
    public init(key: String, dataType: UInt32?, size: Int, value: MetadataValue) {
        self.key = key
        self.dataType = dataType
        self.size = size
        self.value = value
    }
}

/// The still-image-time, gathered in one place from the `mebx` track that carries it.
public struct StillImageTime: Sendable, Hashable {
    public var trackID: UInt32
    /// The first sample's value (-1 from Apple's camera, 0 from most makers).
    public var value: Int64?
    /// The key's `dtyp` (65 = int8 expected).
    public var dataType: UInt32?
    /// Payload size of the first sample's value in bytes (1 expected).
    public var payloadSize: Int?
    public var sampleCount: Int
    /// The first sample's media time in seconds.
    public var mediaTime: Double?
    /// The first sample's presentation time in movie seconds, through the track's edit list.
    public var presentationTime: Double?
    /// Movie duration in seconds, for reference.
    public var movieDuration: Double

    public init(trackID: UInt32, value: Int64?, dataType: UInt32?, payloadSize: Int?, sampleCount: Int,
                mediaTime: Double?, presentationTime: Double?, movieDuration: Double) {
        self.trackID = trackID
        self.value = value
        self.dataType = dataType
        self.payloadSize = payloadSize
        self.sampleCount = sampleCount
        self.mediaTime = mediaTime
        self.presentationTime = presentationTime
        self.movieDuration = movieDuration
    }

    /// True when the still lies inside the movie: 0 ≤ time < duration, with exactly one sample.
    public var isInsideMovie: Bool {
        guard sampleCount == 1, let t = presentationTime else { return false }
        return t >= 0 && t < movieDuration
    }
}

public struct VideoStream: Sendable, Hashable {
    public var trackID: UInt32
    /// Sample entry fourcc exactly as stored (`avc1`, `avc3`, `hvc1`, `hev1`, …).
    public var codec: String
    /// A readable codec name (`H.264`, `HEVC`).
    public var codecName: String?
    /// Profile name from `avcC` / `hvcC` (`High`, `Main`, `Main 10`).
    public var profile: String?
    /// Level (e.g. 4.0 → "4", 5.1 → "5.1").
    public var level: String?
    /// Coded width and height from the sample entry.
    public var width: Int
    public var height: Int
    /// `4:2:0`, `4:2:2`, `4:4:4`, `4:0:0`, nil when unknown.
    public var chroma: String?
    public var bitDepth: Int?
    /// Full-range flag from the `colr` nclx box or the SPS VUI, when present.
    public var fullRange: Bool?
    public var frameCount: Int
    public var duration: Double
    public var rotation: Double

    public init(trackID: UInt32, codec: String, codecName: String? = nil, profile: String? = nil, level: String? = nil,
                width: Int, height: Int, chroma: String? = nil, bitDepth: Int? = nil, fullRange: Bool? = nil,
                frameCount: Int, duration: Double, rotation: Double = 0) {
        self.trackID = trackID
        self.codec = codec
        self.codecName = codecName
        self.profile = profile
        self.level = level
        self.width = width
        self.height = height
        self.chroma = chroma
        self.bitDepth = bitDepth
        self.fullRange = fullRange
        self.frameCount = frameCount
        self.duration = duration
        self.rotation = rotation
    }
}

public struct AudioStream: Sendable, Hashable {
    public var trackID: UInt32
    public var codec: String
    public var channels: Int?
    public var sampleRate: Double?
    public var duration: Double
    public init(trackID: UInt32, codec: String, channels: Int? = nil, sampleRate: Double? = nil, duration: Double) {
        self.trackID = trackID
        self.codec = codec
        self.channels = channels
        self.sampleRate = sampleRate
        self.duration = duration
    }
}
