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
            """,
        defaultSeverity: .warning,
        triggeringExamples: [
            RuleExample(.pair(still: .jpeg(), movie: .mov(bitDepth: 10)),
                        .finding(on: "IMG_0001.MOV", saying: "10-bit")),
            RuleExample(.pair(still: .jpeg(), movie: .mov(chroma: "4:2:2")),
                        .finding(on: "IMG_0001.MOV", saying: "4:2:2")),
        ],
        nonTriggeringExamples: [
            RuleExample(.pair(still: .jpeg(), movie: .mov(chroma: "4:2:0", bitDepth: 8))),
            RuleExample(.pair(still: .jpeg(), movie: .mov(chroma: nil, bitDepth: nil)), note: "Unknown values are not guessed at."),
        ]
    )

    public func check(pair: LivePair) -> [Violation] {
        guard let file = pair.liveMovie, file.error == nil, let video = file.movie?.video else { return [] }
        let badChroma = video.chroma.map { $0 != "4:2:0" } ?? false
        let badDepth = video.bitDepth.map { $0 != 8 } ?? false
        guard badChroma || badDepth else { return [] }
        let chroma = video.chroma ?? "unknown chroma"
        let depth = video.bitDepth.map { "\($0)-bit" } ?? "unknown bit depth"
        return [Violation(
            "the video ('\(video.codec)') is \(chroma) \(depth); Live Photo movies are 8-bit 4:2:0",
            files: [file.path],
            fixHint: "Re-encode the video as 8-bit 4:2:0 (yuv420p / yuvj420p), keeping the metadata keys and the still-image-time track.")]
    }
}
