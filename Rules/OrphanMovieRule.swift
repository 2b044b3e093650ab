import LiveLintEngine
import LiveModel

/// A Live Photo movie whose still is nowhere in the scan.
public struct OrphanMovieRule: ScanRule {
    public init() {}

    public static let description = RuleDescription(
        identifier: "orphan-movie",
        name: "Orphan movie",
        summary: "A movie carries a content identifier but no still in the scan carries it.",
        rationale: """
            Flags a movie that has a content identifier (so it was the motion half of a Live Photo) \
            and ended up alone: no still anywhere in the scan carries that identifier, even ignoring \
            case, and no still shares its name.

            Such movies are usually left behind when the still was converted (and lost its makernote \
            and its name) or deleted; consumers list them as short, unexplained videos.
            """,
        defaultSeverity: .warning,
        triggeringExamples: [
            RuleExample(.files(.mov("IMG_0001.MOV")), .finding(on: "IMG_0001.MOV", saying: Sample.uuidA)),
            RuleExample(.files(.mov("IMG_0001.MOV", id: Sample.uuidB), .jpeg("Photo.jpg", id: Sample.uuidA)),
                        .finding(on: "IMG_0001.MOV", saying: Sample.uuidB)),
        ],
        nonTriggeringExamples: [
            RuleExample(.pair(still: .jpeg(), movie: .mov())),
            RuleExample(.files(.mov("CLIP.MOV", id: nil)), note: "A movie with no identifier is an ordinary video."),
            RuleExample(.files(.jpeg("IMG_0001.JPG", id: nil), .mov("IMG_0001.MOV")),
                        note: "Paired by name: still-missing-identifier reports the still."),
        ]
    )

    public func check(scan: ScanContext) -> [Violation] {
        scan.pairs.compactMap { pair in
            guard !pair.isComplete, let movie = pair.movie, let id = movie.contentIdentifier,
                  !scan.anyStill(withIdentifierIgnoringCase: id) else { return nil }
            return Violation(
                "the movie carries identifier '\(id)' but no still in the scan carries it",
                files: [movie.path],
                fixHint: "Put the Live Photo's still next to it, or delete the movie if the still is gone for good.")
        }
    }
}
