import LiveLintEngine
import LiveModel

/// The video is not 8-bit 4:2:0.
public struct VideoPixelFormatRule: PairRule {
    public init() {}

    public static let description = RuleDescription(
        identifier: "video-pixel-format",
        name: "Video pixel format",
        summary: "The movie's video is not 8-bit 4:2:0.",
        rationale: """
            Flags a Live Photo movie whose video is known to use another chroma subsampling than \
            4:2:0 or another bit depth than 8. Values the reader could not tell are not guessed at.

            Every camera movie in the corpus is 4:2:0 8-bit, full range (live-photo-format.md, \
            "The movie", **High**); 10-bit or 4:2:2/4:4:4 video comes from re-encoding and may not \
            decode on older devices or in consumers' thumbnailers.

            The video embedded in an Android motion photo is checked the same way \
            (live-photo-format.md, "Motion photos").
            """,
        defaultSeverity: .warning,
        readsMetadata: [.motionPhoto],
        triggeringExamples: [
            RuleExample(.pair(still: .jpeg(), movie: .mov(bitDepth: 10)),
                        .finding(on: "IMG_0001.MOV", saying: "10-bit")),
            RuleExample(.pair(still: .jpeg(), movie: .mov(chroma: "4:2:2")),
                        .finding(on: "IMG_0001.MOV", saying: "4:2:2")),
            RuleExample(.files(.motionPhoto(bitDepth: 10)),
                        .finding(on: "PXL_0001.MP.jpg", saying: "embedded", "10-bit")),
        ],
        nonTriggeringExamples: [
            RuleExample(.pair(still: .jpeg(), movie: .mov(chroma: "4:2:0", bitDepth: 8))),
            RuleExample(.pair(still: .jpeg(), movie: .mov(chroma: nil, bitDepth: nil)), note: "Unknown values are not guessed at."),
            RuleExample(.files(.motionPhoto())),
        ]
    )

    public func check(pair: LivePair) -> [Violation] {
        var found: [Violation] = []
        if let file = pair.liveMovie, file.error == nil, let video = file.movie?.video {
            found += check(video, file: file.path, what: "the video")
        }
        if let (file, _, stream) = pair.motionPhotoVideo, let video = stream {
            found += check(video, file: file.path, what: "the motion photo's embedded video")
        }
        return found
    }

    private func check(_ video: VideoStream, file: String, what: String) -> [Violation] {
        let badChroma = video.chroma.map { $0 != "4:2:0" } ?? false
        let badDepth = video.bitDepth.map { $0 != 8 } ?? false
        guard badChroma || badDepth else { return [] }
        let chroma = video.chroma ?? "unknown chroma"
        let depth = video.bitDepth.map { "\($0)-bit" } ?? "unknown bit depth"
        return [Violation(
            "\(what) ('\(video.codec)') is \(chroma) \(depth); Live Photo movies are 8-bit 4:2:0",
            files: [file],
            fixHint: "Re-encode the video as 8-bit 4:2:0 (yuv420p / yuvj420p), keeping the metadata keys and the still-image-time track.")]
    }
}
