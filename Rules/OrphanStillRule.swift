import LiveLintEngine
import LiveModel

/// A Live Photo still whose movie is nowhere in the scan.
public struct OrphanStillRule: ScanRule {
    public init() {}

    public static let description = RuleDescription(
        identifier: "orphan-still",
        name: "Orphan still",
        summary: "A still carries a content identifier but no movie in the scan carries it.",
        rationale: """
            Flags a still that has a content identifier (so it was a Live Photo) and ended up alone: \
            no movie anywhere in the scan carries that identifier, even ignoring case, and no movie \
            shares its name.

            Exports and uploads often keep the still and drop the movie (web uploads, "export \
            unmodified original" of the still only); the Live Photo is then lost. Consumers show a \
            plain photo. Turn the rule off for folders that are meant to hold stills only.

            A still that is also an Android motion photo holding its video is a complete unit, \
            like a `.livp`: it needs no partner and is not flagged.
            """,
        defaultSeverity: .warning,
        readsMetadata: [.motionPhoto],
        triggeringExamples: [
            RuleExample(.files(.heic("IMG_0001.HEIC")), .finding(on: "IMG_0001.HEIC", saying: Sample.uuidA)),
            RuleExample(.files(.motionPhoto("IMG_0001.JPG", id: Sample.uuidA, declaredLength: 4_581_133, videoOffset: nil)),
                        .finding(on: "IMG_0001.JPG", saying: Sample.uuidA),
                        note: "Motion-photo tags without the video do not make a complete unit (corpus N6)."),
            RuleExample(.files(.jpeg("IMG_0001.JPG", id: Sample.uuidA), .mov("IMG_0002.MOV", id: Sample.uuidB)),
                        .finding(on: "IMG_0001.JPG", saying: Sample.uuidA),
                        note: "The movie next to it belongs to another capture."),
        ],
        nonTriggeringExamples: [
            RuleExample(.pair(still: .jpeg(), movie: .mov())),
            RuleExample(.files(.jpeg("stills/IMG_0001.JPG"), .mov("movies/IMG_0001.MOV")),
                        note: "Identifiers pair across folders."),
            RuleExample(.files(.jpeg("DSC_0001.JPG", id: nil)), note: "A still with no identifier is an ordinary photo."),
            RuleExample(.files(.jpeg("IMG_0001.JPG"), .jpeg("IMG_0001 copy.JPG"), .mov("IMG_0001.MOV")),
                        note: "The left-over copy has a movie carrying its identifier: duplicate-identifier reports it."),
            RuleExample(.files(.motionPhoto("IMG_0001.JPG", id: Sample.uuidA)),
                        note: "A Live Photo still that is also a motion photo holding its video needs no movie."),
        ]
    )

    public func check(scan: ScanContext) -> [Violation] {
        scan.pairs.compactMap { pair in
            guard !pair.isComplete, let still = pair.still, let id = still.contentIdentifier,
                  !still.hasMotionVideo,
                  !scan.anyMovie(withIdentifierIgnoringCase: id) else { return nil }
            return Violation(
                "the still carries identifier '\(id)' but no movie in the scan carries it",
                files: [still.path],
                fixHint: "Put the Live Photo's movie next to it (export it with the still), or turn this rule off for folders of stills.")
        }
    }
}
