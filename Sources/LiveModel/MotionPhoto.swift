/// An Android motion photo: a still (JPEG or HEIC) that carries a short MP4 after its primary
/// image. What its metadata claims (``MotionPhotoClaims``) and where the video really is are kept
/// apart, because writers get the claims wrong (docs/live-photo-format.md, "Motion photos";
/// developer.android.com/media/platform/motion-photo-format).
public struct MotionPhotoInfo: Sendable {
    /// How the file says (or shows) that it carries a video.
    public enum Format: String, Sendable, Codable, CaseIterable {
        /// Motion Photo 1.0: `Camera:MotionPhoto` and a `Container:Directory` (Pixel, Samsung, converters).
        case googleMotionPhoto = "google-motion-photo"
        /// The older MicroVideo ("MVIMG"): `GCamera:MicroVideo` and `MicroVideoOffset`.
        case microVideo = "microvideo"
        /// Samsung without the Google tags: a SEF trailer's `MotionPhoto_Data`, or an HEIC `mpvd` box.
        case samsung
        /// No metadata at all, but an MP4 (`ftyp`) appended after the primary image (Huawei and others).
        case embeddedMP4 = "embedded-mp4"
    }

    /// Where the video's bytes were found.
    public enum Container: String, Sendable, Codable {
        /// Appended after the primary image (JPEG), found at the offset the metadata gives.
        case appended
        /// The payload of a top-level `mpvd` box (HEIC).
        case mpvd
        /// Found by looking for an MP4 `ftyp` after the primary image (the claims did not lead to it).
        case scan
        /// A Samsung SEF trailer's `MotionPhoto_Data` record.
        case sef
    }

    public var format: Format
    /// What the metadata says, as read.
    public var declared: MotionPhotoClaims
    /// Where the claims put the video (``declaredLocation(fileSize:)`` on the file's size): nil
    /// when they name no place.
    public var declaredVideoOffset: Int64?
    public var declaredVideoLength: Int64?
    /// Where the primary image ends (a JPEG's EOI + 2, a HEIC's last box before the video), when known.
    public var primaryImageEnd: Int64?
    /// Where the video starts and how long it is, from the bytes: both nil when the file holds no video.
    public var videoOffset: Int64?
    public var videoLength: Int64?
    public var container: Container?
    /// The embedded video, read by the movie reader at ``videoOffset``.
    public var video: MovieInfo?
    /// What stopped the movie reader inside the embedded video (offsets are the file's).
    public var videoError: ReadIssue?
    /// Located problems with the claims or the trailer (a length past the end, a directory too
    /// long to read, a truncated SEF trailer). They do not stop the reading.
    public var issues: [ReadIssue]

    public init(format: Format, declared: MotionPhotoClaims, primaryImageEnd: Int64? = nil,
                videoOffset: Int64? = nil, videoLength: Int64? = nil, container: Container? = nil,
                video: MovieInfo? = nil, videoError: ReadIssue? = nil, issues: [ReadIssue] = []) {
        self.format = format
        self.declared = declared
        self.primaryImageEnd = primaryImageEnd
        self.videoOffset = videoOffset
        self.videoLength = videoLength
        self.container = container
        self.video = video
        self.videoError = videoError
        self.issues = issues
    }

    /// True when the file holds an embedded video (whatever the claims).
    public var hasVideo: Bool { videoOffset != nil }

    /// The presentation timestamp in seconds: `MotionPhotoPresentationTimestampUs` (or the
    /// MicroVideo one) / 10⁶; nil when absent or -1 ("unspecified" in the specification).
    public var presentationTime: Double? {
        guard let us = declared.presentationTimestampUs, us != -1 else { return nil }
        return Double(us) / 1_000_000
    }

    /// The embedded video's duration in seconds (`mvhd`), nil without a video.
    public var duration: Double? { video?.duration }
}

/// What a motion photo's metadata claims, as read (nothing is corrected here).
public struct MotionPhotoClaims: Sendable, Hashable {
    /// `Camera:MotionPhoto` (1 = a motion photo), or `GCamera:MicroVideo` for the older format.
    public var motionPhoto: Int64?
    public var microVideo: Int64?
    /// `MotionPhotoVersion` or `MicroVideoVersion`.
    public var version: Int64?
    /// `MotionPhotoPresentationTimestampUs` or `MicroVideoPresentationTimestampUs` (-1 = unspecified).
    public var presentationTimestampUs: Int64?
    /// `MicroVideoOffset`: bytes from the end of the file to the start of the video.
    public var microVideoOffset: Int64?
    /// The `Container:Directory` items, in order (the first should be the primary image).
    public var items: [DirectoryItem]
    /// How many items the directory listed (more than ``items`` holds when it was cut at the limit).
    public var itemCount: Int
    /// A Samsung SEF trailer's `MotionPhoto_Data` record: where it says the video is.
    public var samsungVideoOffset: Int64?
    public var samsungVideoLength: Int64?

    public init(motionPhoto: Int64? = nil, microVideo: Int64? = nil, version: Int64? = nil,
                presentationTimestampUs: Int64? = nil, microVideoOffset: Int64? = nil,
                items: [DirectoryItem] = [], itemCount: Int? = nil,
                samsungVideoOffset: Int64? = nil, samsungVideoLength: Int64? = nil) {
        self.motionPhoto = motionPhoto
        self.microVideo = microVideo
        self.version = version
        self.presentationTimestampUs = presentationTimestampUs
        self.microVideoOffset = microVideoOffset
        self.items = items
        self.itemCount = itemCount ?? items.count
        self.samsungVideoOffset = samsungVideoOffset
        self.samsungVideoLength = samsungVideoLength
    }

    /// True when anything in the metadata says there is a video.
    public var promisesVideo: Bool {
        motionPhoto == 1 || microVideo == 1 || items.contains { $0.semantic == DirectoryItem.motionPhotoSemantic }
            || samsungVideoLength != nil
    }

    /// The index of the directory's video item (`Item:Semantic` MotionPhoto), when there is one.
    public var videoItemIndex: Int? { items.firstIndex { $0.semantic == DirectoryItem.motionPhotoSemantic } }
}

/// One `Container:Item` of a motion photo's directory.
public struct DirectoryItem: Sendable, Hashable {
    public static let motionPhotoSemantic = "MotionPhoto"
    public static let primarySemantic = "Primary"

    /// `Item:Mime` (required by the specification).
    public var mime: String?
    /// `Item:Semantic`: Primary, MotionPhoto, GainMap, Depth…
    public var semantic: String?
    /// `Item:Length` in bytes (required for every item but the primary).
    public var length: Int64?
    /// `Item:Padding` (primary only: bytes between the image and the next item, 8 for an `mpvd` header).
    public var padding: Int64?

    public init(mime: String? = nil, semantic: String? = nil, length: Int64? = nil, padding: Int64? = nil) {
        self.mime = mime
        self.semantic = semantic
        self.length = length
        self.padding = padding
    }
}

extension MotionPhotoInfo {
    /// Where the claims put the video, in file bytes (offset and length), from the directory
    /// (items are laid out from the end of the file backwards: androidx/media
    /// `MotionPhotoDescription`), `MicroVideoOffset` (bytes from the end), or a SEF record; nil
    /// when the claims name no place. Never checked against the file size here.
    public func declaredLocation(fileSize: Int64) -> (offset: Int64, length: Int64)? {
        if let index = declared.videoItemIndex, let length = declared.items[index].length {
            var end = fileSize
            for item in declared.items[(index + 1)...] { end -= item.length ?? 0 }
            return (end - length, length)
        }
        if let back = declared.microVideoOffset { return (fileSize - back, back) }
        if let offset = declared.samsungVideoOffset, let length = declared.samsungVideoLength { return (offset, length) }
        return nil
    }
}
