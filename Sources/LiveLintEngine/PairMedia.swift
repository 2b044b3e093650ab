import LiveModel

/// A small summary of what a pair's halves carry, for reports that draw a pair (the HTML
/// report's card: identifiers, the movie's timeline). Built from the slim files the scan keeps
/// (``MediaFile/slimmedForLint(keeping:)``), so it needs no second read; Codable so a scan that
/// keeps its pairs on disk can store it beside the record.
public struct PairMedia: Sendable, Hashable, Codable {
    /// The still's content identifier (Apple makernote tag 0x0011), as read.
    public var stillIdentifier: String?
    /// The movie's `com.apple.quicktime.content.identifier`, as read.
    public var movieIdentifier: String?
    /// The still's pixel size as exiv2 reports it (nil when unknown).
    public var stillWidth: Int?
    public var stillHeight: Int?
    /// The movie's duration in seconds (`mvhd`).
    public var movieDuration: Double?
    /// The video track's edit list in movie seconds; empty when it has none or one edit showing
    /// the whole track from its start (the timeline is then one segment).
    public var edits: [EditSegment]
    /// Where the still sits, in movie seconds (the still-image-time sample's presentation time).
    public var stillImageTime: Double?
    /// The still-image-time sample's value (-1 from Apple's camera, 0 from most makers).
    public var stillImageTimeValue: Int64?
    /// The video codec's sample entry as stored (`hvc1`, `avc1`, `hev1`).
    public var videoCodec: String?

    public init(stillIdentifier: String? = nil, movieIdentifier: String? = nil, stillWidth: Int? = nil,
                stillHeight: Int? = nil, movieDuration: Double? = nil, edits: [EditSegment] = [],
                stillImageTime: Double? = nil, stillImageTimeValue: Int64? = nil, videoCodec: String? = nil) {
        self.stillIdentifier = stillIdentifier
        self.movieIdentifier = movieIdentifier
        self.stillWidth = stillWidth
        self.stillHeight = stillHeight
        self.movieDuration = movieDuration
        self.edits = edits
        self.stillImageTime = stillImageTime
        self.stillImageTimeValue = stillImageTimeValue
        self.videoCodec = videoCodec
    }

    /// One edit of the video track, placed on the movie's timeline.
    public struct EditSegment: Sendable, Hashable, Codable {
        /// Where the segment starts on the movie's timeline, in seconds (the sum of the edits before it).
        public var start: Double
        public var duration: Double
        /// Where it starts in the track's media, in seconds; nil for an empty edit (a gap).
        public var mediaTime: Double?
        public var rate: Double

        public init(start: Double, duration: Double, mediaTime: Double?, rate: Double) {
            self.start = start
            self.duration = duration
            self.mediaTime = mediaTime
            self.rate = rate
        }
    }

    /// The edits of `track` on a movie whose timescale is `movieTimescale`, each placed after the
    /// ones before it. A track without a media timescale or a movie without a timescale has none.
    public static func edits(of track: TrackInfo, movieTimescale: UInt32) -> [EditSegment] {
        guard movieTimescale > 0 else { return [] }
        var start = 0.0
        return track.editList.map { entry in
            let duration = Double(entry.segmentDuration) / Double(movieTimescale)
            let media: Double? = entry.mediaTime < 0 || track.mediaTimescale == 0
                ? nil : Double(entry.mediaTime) / Double(track.mediaTimescale)
            defer { start += duration }
            return EditSegment(start: start, duration: duration, mediaTime: media, rate: entry.rate)
        }
    }

    /// True when `track`'s edit list only shows the whole track from its start (or is empty):
    /// the timeline needs no segments for it. What the lint's slim movie drops.
    public static func isTrivialEditList(_ track: TrackInfo, movieDurationTicks: UInt64) -> Bool {
        guard let only = track.editList.first else { return true }
        return track.editList.count == 1 && only.mediaTime == 0 && only.rate == 1
            && only.segmentDuration == movieDurationTicks
    }
}

extension LivePair {
    /// The pair's ``PairMedia``, from the files as the scan holds them.
    public var media: PairMedia {
        var m = PairMedia()
        if let s = still?.still {
            m.stillIdentifier = s.contentIdentifier
            m.stillWidth = s.width
            m.stillHeight = s.height
        }
        if let movie = movie?.movie {
            m.movieIdentifier = movie.contentIdentifier
            m.movieDuration = movie.duration
            m.videoCodec = movie.video?.codec
            if let video = movie.tracks.first(where: { $0.handler == "vide" }) {
                m.edits = PairMedia.edits(of: video, movieTimescale: movie.timescale)
            }
            m.stillImageTime = movie.stillImageTime?.presentationTime
            m.stillImageTimeValue = movie.stillImageTime?.value
        }
        return m
    }
}
