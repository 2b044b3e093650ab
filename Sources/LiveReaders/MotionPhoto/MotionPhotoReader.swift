import ISOBMFF
import LiveModel

/// Reads the motion photo a still may carry: the claims its XMP (or Samsung trailer) makes, and
/// where an MP4 really starts after the primary image, then the embedded MP4 with the movie reader.
///
/// Where the video is looked for, in order:
/// 1. HEIC/HEIF/AVIF: a top-level `mpvd` box (its payload is the MP4, Samsung adds a `sefd` box
///    inside), or a second top-level `ftyp` (an MP4 appended without a box around it);
/// 2. JPEG: where the claims put it (the `Container:Directory`, `MicroVideoOffset`, the SEF
///    trailer's `MotionPhoto_Data`), when an `ftyp` starts there;
/// 3. otherwise the first `ftyp` after the primary image (the truth when the metadata lies or is
///    absent: immich#30654, Huawei).
///
/// A JPEG with no claims and no trailer (it ends with the EOI marker `FF D9`) costs one read of
/// its last bytes, so `lint` stays cheap on ordinary stills. Never throws, never writes.
public enum MotionPhotoReader {
    public static func read(_ source: some ByteSource, format: ContainerFormat, properties: [MetadataProperty],
                            movieOptions: MovieReadOptions, locatePrimaryEnd: Bool) -> MotionPhotoInfo? {
        var issues: [ReadIssue] = []
        let claims = MotionPhotoClaimsReader.read(properties, issues: &issues)
        let size = source.size
        var found: (start: Int64, end: Int64, container: MotionPhotoInfo.Container)?
        var primaryEnd: Int64?
        var samsung = false

        switch format {
        case .heic, .heif, .avif:
            let scan = TopLevel.scan(source)
            if let mpvd = scan.first("mpvd") {
                samsung = true
                primaryEnd = mpvd.offset
                found = (mpvd.payloadOffset, mpvd.offset + mpvd.size, .mpvd)
                if !scan.boxes.contains(where: { $0.type == "mdat" && $0.offset < mpvd.offset }) {
                    issues.append(ReadIssue(.malformed, "the 'mpvd' box comes before 'mdat'; the specification puts it after every other box",
                                            location: "mpvd", offset: mpvd.offset))
                }
            } else if let second = scan.boxes.dropFirst().first(where: { $0.type == "ftyp" }) {
                primaryEnd = second.offset
                found = (second.offset, size, .scan)
            } else if claims?.promisesVideo == true, let last = scan.boxes.last {
                primaryEnd = last.offset + last.size
                if let error = scan.error {
                    issues.append(ReadIssue(.malformed, "top-level boxes stop early: \(error.message)", location: "heif", offset: error.offset))
                }
            }
        case .jpeg:
            let sef = SEFTrailer.read(source, issues: &issues)
            let sefVideo = sef?.record(named: "MotionPhoto_Data")
            var claimsWithSEF = claims
            if let sefVideo {
                samsung = true
                if claimsWithSEF == nil { claimsWithSEF = MotionPhotoClaims() }
                claimsWithSEF?.samsungVideoOffset = sefVideo.dataOffset
                claimsWithSEF?.samsungVideoLength = sefVideo.dataLength
            }
            let hasTrailer = endsWithTrailer(source)
            // A directory of only a primary and a gain map (Ultra HDR) promises no video.
            guard claimsWithSEF?.promisesVideo == true || hasTrailer else { return nil }
            let videoEnd = sef.map { $0.start } ?? size
            // 2: the claims, when they lead to an ftyp.
            let probe = MotionPhotoInfo(format: .googleMotionPhoto, declared: claimsWithSEF ?? MotionPhotoClaims())
            if let claimed = probe.declaredLocation(fileSize: size) {
                if claimed.offset < 0 || claimed.offset + claimed.length > size || claimed.length <= 0 {
                    issues.append(ReadIssue(.malformed, "the claims put the video at byte \(claimed.offset) for \(claimed.length) bytes, outside the file's \(size) bytes",
                                            location: claimLocation(claimsWithSEF), offset: claimed.offset >= 0 ? claimed.offset : nil))
                } else if TrailerScan.isFtyp(source, at: claimed.offset, end: min(size, claimed.offset + claimed.length)) {
                    found = (claimed.offset, claimed.offset + claimed.length, sefVideo != nil && claims?.videoItemIndex == nil ? .sef : .appended)
                }
            }
            if found == nil || locatePrimaryEnd {
                primaryEnd = TrailerScan.jpegPrimaryEnd(source)
            }
            // 3: the first ftyp after the primary image.
            if found == nil, hasTrailer || claimsWithSEF?.promisesVideo == true {
                let from = primaryEnd ?? 2
                if let start = TrailerScan.findFtyp(source, from: from, end: videoEnd) {
                    found = (start, videoEnd, .scan)
                }
            }
            if found == nil, claimsWithSEF?.promisesVideo != true { return nil }
            return finish(source, claims: claimsWithSEF ?? MotionPhotoClaims(), samsung: samsung, found: found,
                          primaryEnd: primaryEnd, issues: issues, movieOptions: movieOptions)
        default:
            break
        }
        guard claims?.promisesVideo == true || found != nil else { return nil }
        return finish(source, claims: claims ?? MotionPhotoClaims(), samsung: samsung, found: found,
                      primaryEnd: primaryEnd, issues: issues, movieOptions: movieOptions)
    }

    /// The motion-photo claims in a still's XMP properties (nil when there are none), without
    /// looking at the bytes: a converter keeps a directory's other items (an Ultra HDR gain map).
    public static func claims(in properties: [MetadataProperty]) -> MotionPhotoClaims? {
        var issues: [ReadIssue] = []
        return MotionPhotoClaimsReader.read(properties, issues: &issues)
    }

    private static func finish(_ source: some ByteSource, claims: MotionPhotoClaims, samsung: Bool,
                               found: (start: Int64, end: Int64, container: MotionPhotoInfo.Container)?,
                               primaryEnd: Int64?, issues: [ReadIssue], movieOptions: MovieReadOptions) -> MotionPhotoInfo {
        let format: MotionPhotoInfo.Format
        if claims.motionPhoto != nil || !claims.items.isEmpty { format = .googleMotionPhoto }
        else if claims.microVideo != nil || claims.microVideoOffset != nil { format = .microVideo }
        else if samsung { format = .samsung }
        else { format = .embeddedMP4 }
        var info = MotionPhotoInfo(format: format, declared: claims, primaryImageEnd: primaryEnd, issues: issues)
        if let claimed = info.declaredLocation(fileSize: source.size) {
            info.declaredVideoOffset = claimed.offset
            info.declaredVideoLength = claimed.length
        }
        guard let found, found.end > found.start else { return info }
        let slice = SliceByteSource(source, offset: found.start, size: found.end - found.start)
        // The video's extent: its top-level boxes, up to whatever follows (a SEF trailer, padding).
        let top = TopLevel.scan(slice)
        let length = top.boxes.last.map { $0.offset + $0.size } ?? 0
        guard length > 0 else { return info }
        info.videoOffset = found.start
        info.videoLength = length
        info.container = found.container
        let result = MovieReader.read(SliceByteSource(source, offset: found.start, size: length), options: movieOptions)
        info.video = result.movie
        if var error = result.error {
            error.offset = error.offset.map { $0 + found.start }
            error.location = "embedded-video" + (error.location.map { "/" + $0 } ?? "")
            info.videoError = error
        }
        return info
    }

    /// Where the claim that placed the video lives, for messages.
    static func claimLocation(_ claims: MotionPhotoClaims?) -> String {
        guard let claims else { return "xmp" }
        if claims.videoItemIndex != nil { return "xmp/Container:Directory" }
        if claims.microVideoOffset != nil { return "xmp/GCamera:MicroVideoOffset" }
        if claims.samsungVideoLength != nil { return "sef/MotionPhoto_Data" }
        return "xmp"
    }

    /// False when the JPEG ends with its EOI marker (`FF D9`), as a still without a trailer does.
    static func endsWithTrailer(_ source: some ByteSource) -> Bool {
        let size = source.size
        guard size >= 4, let tail = try? source.read(at: size - 2, count: 2) else { return false }
        return tail != [0xFF, 0xD9]
    }
}
