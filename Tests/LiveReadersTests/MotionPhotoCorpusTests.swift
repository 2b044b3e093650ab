import Foundation
import LiveModel
import LiveReaders
import Testing

/// The corpus motion photos (MP1, MP2, N6), read as `dump` and `lint` read them, against what
/// `manifest.json` records (exiftool, ffprobe and a box-level reader).
@Suite("Motion photos against the corpus", .enabled(if: StillCorpus.isPresent, "needs ../shared/corpus"))
struct MotionPhotoCorpusTests {
    static func entry(_ id: String) -> [String: Any]? { StillCorpus.entries.first { $0["id"] as? String == id } }

    static func read(_ id: String, _ options: InspectOptions = .dump) throws -> (MediaFile, MotionPhotoInfo?) {
        let path = try #require(StillCorpus.path(id))
        let file = MediaInspector.inspect(path: path, options: options)
        #expect(file.error == nil, "\(id): \(String(describing: file.error))")
        return (file, file.still?.motionPhoto)
    }

    /// The manifest's `gcamera_xmp` facts are the claims read.
    static func checkClaims(_ id: String, _ motion: MotionPhotoInfo) throws {
        let facts = try #require(StillCorpus.facts(id)?["gcamera_xmp"] as? [String: Any])
        let d = motion.declared
        for (name, value) in facts {
            let expected = StillCorpus.int(value)
            switch name {
            case "MotionPhoto": #expect(d.motionPhoto == expected, "\(id) \(name)")
            case "MicroVideo": #expect(d.microVideo == expected, "\(id) \(name)")
            case "MotionPhotoVersion", "MicroVideoVersion": #expect(d.version == expected, "\(id) \(name)")
            case "MotionPhotoPresentationTimestampUs", "MicroVideoPresentationTimestampUs":
                #expect(d.presentationTimestampUs == expected, "\(id) \(name)")
            case "MicroVideoOffset": #expect(d.microVideoOffset == expected, "\(id) \(name)")
            default: Issue.record("\(id): unexpected manifest fact \(name)")
            }
        }
    }

    /// MP1, Samsung HEIC: the video is the payload of `mpvd`, the directory's 104 bytes are wrong.
    @Test func samsungHEICVideoIsInMpvd() throws {
        for options in [InspectOptions.dump, .lint] {
            let (_, read) = try Self.read("MP1", options)
            let motion = try #require(read)
            try Self.checkClaims("MP1", motion)
            let embedded = try #require(Self.entry("MP1")?["embedded_video"] as? [String: Any])
            #expect(motion.format == .googleMotionPhoto)
            #expect(motion.container == .mpvd)
            #expect(motion.videoLength == StillCorpus.int(embedded["bytes"]))
            let duration = try #require(Double(embedded["duration"] as? String ?? ""))
            #expect(abs((motion.duration ?? 0) - duration) < 0.0005)
            // The claims: the MotionPhoto item's Length is 104, so it is "at" size - 104.
            let size = try #require(StillCorpus.int(Self.entry("MP1")?["size"]))
            #expect(motion.declaredVideoLength == 104)
            #expect(motion.declaredVideoOffset == size - 104)
            #expect(motion.declaredVideoOffset != motion.videoOffset)
            // ffprobe's streams: hevc video 1440×1080 yuvj420p (8-bit 4:2:0, full range), aac audio.
            let streams = try #require(embedded["streams"] as? [[Any]])
            let video = try #require(motion.video?.video)
            #expect(streams.first?[1] as? String == "hevc" && video.codec == "hvc1")
            #expect(streams.first?[3] as? Int == video.width && streams.first?[4] as? Int == video.height)
            #expect(video.chroma == "4:2:0" && video.bitDepth == 8 && video.fullRange == true)
            #expect(motion.video?.audio.count == streams.filter { $0.first as? String == "audio" }.count)
            // The still-image frame it names is past the end of the video (a warning in lint).
            #expect(try #require(motion.presentationTime) > duration)
            #expect(motion.videoError == nil)
        }
    }

    /// MP2, MicroVideo JPEG: MicroVideoOffset 1024 points at 1024 zero bytes; no video anywhere.
    @Test func microVideoOffsetPointsAtNoVideo() throws {
        let (file, read) = try Self.read("MP2")
        let motion = try #require(read)
        try Self.checkClaims("MP2", motion)
        #expect(motion.format == .microVideo)
        #expect(!motion.hasVideo && motion.videoOffset == nil && motion.videoLength == nil)
        #expect(motion.declaredVideoOffset == (file.size ?? 0) - 1024)
        #expect(motion.primaryImageEnd == (file.size ?? 0) - 1024, "the JPEG ends right where the claimed video would start")
        #expect(motion.presentationTime == nil, "-1 is unspecified")
        #expect(motion.declared.promisesVideo)
    }

    /// N6, iPhone JPEG with motion-photo XMP added and no video: both a Live Photo still and a
    /// (broken) motion photo.
    @Test func iPhoneStillWithMotionTagsAndNoVideo() throws {
        let (file, read) = try Self.read("N6")
        let motion = try #require(read)
        try Self.checkClaims("N6", motion)
        #expect(file.contentIdentifier == StillCorpus.string(StillCorpus.facts("N6")?["content_identifier_0x0011"]))
        #expect(motion.format == .googleMotionPhoto)
        #expect(!motion.hasVideo)
        #expect(motion.declaredVideoLength == 4_581_133, "the manifest's note: a 4,581,133-byte video item")
        #expect(motion.primaryImageEnd == file.size, "the file ends at the JPEG EOI")
        let issue = try #require(motion.issues.first)
        #expect(issue.location == "xmp/Container:Directory" && issue.message.contains("outside the file"))
    }

    /// The other corpus stills are no motion photos (the manifest records no motion XMP for them).
    @Test func otherStillsAreNoMotionPhotos() throws {
        for id in StillCorpus.stillIDs where !["MP1", "MP2", "N6"].contains(id) {
            let facts = StillCorpus.facts(id)
            #expect((facts?["gcamera_xmp"] as? [String: Any])?.isEmpty ?? true, "\(id)")
            let path = try #require(StillCorpus.path(id))
            #expect(MediaInspector.inspect(path: path, options: .lint).still?.motionPhoto == nil, "\(id)")
        }
    }
}
