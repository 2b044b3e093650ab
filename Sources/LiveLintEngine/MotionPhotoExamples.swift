import LiveModel

extension MediaFile {
    /// The size of every example motion photo, in bytes.
    public static let sampleMotionPhotoSize: Int64 = 4_000_000

    /// An example Android motion photo (a JPEG unless `format` says otherwise) as the motion photo
    /// reader would produce it: its claims (`kind`: a Motion Photo 1.0 directory whose video item
    /// is `declaredLength` bytes, or MicroVideo with `MicroVideoOffset` = `declaredLength`; nil:
    /// the metadata names no place), and the video really found at `videoOffset` (nil: none) for
    /// `videoLength` bytes, `duration` seconds long. By default the claims and the bytes agree:
    /// a 1,000,000-byte video at the end of a 4,000,000-byte file. `id` adds an Apple makernote
    /// with that identifier (a still that is both a Live Photo still and a motion photo).
    public static func motionPhoto(_ path: String = "PXL_0001.MP.jpg", format: ContainerFormat = .jpeg,
                                   id: String? = nil, kind: MotionPhotoInfo.Format = .googleMotionPhoto,
                                   declaredLength: Int64? = 1_000_000, videoOffset: Int64? = 3_000_000,
                                   videoLength: Int64 = 1_000_000, timestampUs: Int64? = 1_500_000,
                                   duration: Double = 3, codec: String? = "hvc1", chroma: String? = "4:2:0",
                                   bitDepth: Int? = 8) -> MediaFile {
        var file = still(path, format: format, id: id, makerNote: id != nil)
        file.size = sampleMotionPhotoSize
        var claims = MotionPhotoClaims(version: 1, presentationTimestampUs: timestampUs)
        switch kind {
        case .googleMotionPhoto:
            claims.motionPhoto = 1
            claims.items = [DirectoryItem(mime: format == .jpeg ? "image/jpeg" : "image/heic", semantic: DirectoryItem.primarySemantic,
                                          length: 0, padding: 0)]
            if let declaredLength {
                claims.items.append(DirectoryItem(mime: "video/mp4", semantic: DirectoryItem.motionPhotoSemantic, length: declaredLength))
            }
            claims.itemCount = claims.items.count
        case .microVideo:
            claims.microVideo = 1
            claims.microVideoOffset = declaredLength
        case .samsung:
            if let declaredLength {
                claims.samsungVideoOffset = sampleMotionPhotoSize - declaredLength
                claims.samsungVideoLength = declaredLength
            }
        case .embeddedMP4:
            claims = MotionPhotoClaims()
        }
        var info = MotionPhotoInfo(format: kind, declared: claims)
        if let claimed = info.declaredLocation(fileSize: sampleMotionPhotoSize) {
            info.declaredVideoOffset = claimed.offset
            info.declaredVideoLength = claimed.length
        }
        if let videoOffset {
            info.videoOffset = videoOffset
            info.videoLength = videoLength
            info.container = format == .jpeg ? .appended : .mpvd
            let timescale: UInt32 = 600
            let ticks = UInt64(max(0, (duration * Double(timescale)).rounded()))
            info.video = MovieInfo(majorBrand: "mp42", compatibleBrands: ["isom", "mp42"], timescale: timescale, durationTicks: ticks,
                                   video: codec.map {
                                       VideoStream(trackID: 1, codec: $0, width: 1440, height: 1080, chroma: chroma, bitDepth: bitDepth,
                                                   fullRange: true, frameCount: Int(duration * 30), duration: duration)
                                   })
        }
        file.still?.motionPhoto = info
        return file
    }
}

extension LivePair {
    /// The still's embedded motion-photo video, as (still file, motion photo, video), when the
    /// still carries one that read.
    public var motionPhotoVideo: (file: MediaFile, motion: MotionPhotoInfo, video: VideoStream?)? {
        guard let file = still, file.error == nil, let motion = file.still?.motionPhoto, motion.hasVideo,
              motion.videoError == nil, let movie = motion.video else { return nil }
        return (file, motion, movie.video)
    }
}
