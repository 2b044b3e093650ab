import LiveLintEngine
import LiveModel

/// The Live Photo movie is ISO MP4 rather than QuickTime.
public struct MovieNotQuickTimeRule: PairRule {
    public init() {}

    public static let description = RuleDescription(
        identifier: "movie-not-quicktime",
        name: "Movie not QuickTime",
        summary: "The Live Photo movie is an ISO MP4 file rather than a QuickTime movie.",
        rationale: """
            Flags a Live Photo movie whose container, sniffed from its `ftyp` brands, is ISO MP4 \
            (`isom`, `mp42`, …) rather than QuickTime (`qt  `, or no `ftyp`), whatever its name.

            Apple's camera writes QuickTime (live-photo-format.md, "The movie"); some consumers \
            only take `video/quicktime`: Nextcloud Memories requires it, and PhotoPrism only pairs \
            a `.mov` with a HEIC ("How others pair"). Google Takeout and converters hand out `.mp4` \
            files. The name is `extension-mismatch`'s business: a QuickTime movie named `.MP4` is \
            not flagged here.
            """,
        defaultSeverity: .warning,
        triggeringExamples: [
            RuleExample(.pair(still: .heic("IMG_0769(1).HEIC"), movie: .mp4("IMG_0769(1).mp4")),
                        .finding(on: "IMG_0769(1).mp4", saying: "ISO MP4", "mp42")),
        ],
        nonTriggeringExamples: [
            RuleExample(.pair(still: .jpeg(), movie: .mov())),
            RuleExample(.pair(still: .jpeg(), movie: .mov("IMG_0001.MP4")), note: "QuickTime content named .MP4: extension-mismatch."),
            RuleExample(.files(.mp4("CLIP.MP4", id: nil)), note: "An ordinary video is not linted."),
        ]
    )

    public func check(pair: LivePair) -> [Violation] {
        guard let file = pair.liveMovie, file.format == .mp4 else { return [] }
        let brand = file.movie?.majorBrand.map { " (ftyp major brand '\($0)')" } ?? ""
        return [Violation(
            "the movie is ISO MP4\(brand), not QuickTime",
            files: [file.path],
            fixHint: "Re-mux into a QuickTime .mov (ftyp 'qt  '), keeping the content identifier key and the still-image-time track.")]
    }
}
