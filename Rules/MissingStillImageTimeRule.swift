import LiveLintEngine
import LiveModel

/// A Live Photo movie without the still-image-time track.
public struct MissingStillImageTimeRule: PairRule {
    public init() {}

    public static let description = RuleDescription(
        identifier: "missing-still-image-time",
        name: "Missing still-image-time",
        summary: "The movie has no timed metadata track keyed mdta/com.apple.quicktime.still-image-time.",
        rationale: """
            Flags a Live Photo movie (paired, inside a `.livp`, or carrying a content identifier) \
            that has no timed metadata (`mebx`) track with the key \
            `mdta/com.apple.quicktime.still-image-time`.

            The sample of that track marks where the still sits in the movie; every camera movie in \
            the corpus has one, and the open-source Live Photo makers write one too \
            (live-photo-format.md, "The movie"). Without it a player cannot tell which frame is the \
            photo. Re-encoding or trimming with tools that drop timed metadata tracks removes it.
            """,
        defaultSeverity: .warning,
        triggeringExamples: [
            RuleExample(.pair(still: .jpeg(), movie: .mov(stillImageTime: nil)),
                        .finding(on: "IMG_0001.MOV", saying: "com.apple.quicktime.still-image-time"),
                        repairs: [.addStillImageTime(at: 1.5)],
                        note: "`fix` adds the track with its sample in the middle of the movie."),
            RuleExample(.files(.mov("IMG_0001.MOV", stillImageTime: nil)),
                        .finding(on: "IMG_0001.MOV"),
                        repairs: [.addStillImageTime(at: 1.5)],
                        note: "A lone movie carrying an identifier is still a Live Photo movie."),
        ],
        nonTriggeringExamples: [
            RuleExample(.pair(still: .jpeg(), movie: .mov(stillImageTime: 1.5))),
            RuleExample(.files(.mov("CLIP.MOV", id: nil, stillImageTime: nil)), note: "An ordinary video is not linted."),
        ]
    )

    public func check(pair: LivePair) -> [Violation] {
        guard let file = pair.liveMovie, file.error == nil, let movie = file.movie, movie.stillImageTime == nil else { return [] }
        return [Violation(
            "the movie has no timed metadata track keyed 'mdta/\(MovieInfo.stillImageTimeKey)'",
            files: [file.path],
            fixHint: "`livelint fix` adds a metadata track (sample entry mebx) with the key mdta/\(MovieInfo.stillImageTimeKey), type int8, and one sample presented at the still's time; or export the original movie again.",
            repair: .stillImageTime(for: movie))]
    }
}
