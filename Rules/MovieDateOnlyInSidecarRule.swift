import LiveLintEngine
import LiveModel

/// A Live Photo from Google Takeout whose still has a sidecar with the capture time and whose
/// movie has none: importers that date files by sidecar lose the movie's date.
public struct MovieDateOnlyInSidecarRule: PairRule {
    public init() {}

    public static let description = RuleDescription(
        identifier: "movie-date-only-in-sidecar",
        name: "Movie date only in the still's sidecar",
        summary: "In a Google Takeout export, the still's JSON sidecar holds the capture time but the movie has no sidecar: importers that date files by sidecar lose the movie's date.",
        rationale: """
            Google Takeout writes one JSON sidecar per item, and a Live Photo is one item in Google \
            Photos: the still gets `IMG_1234.HEIC.json` (or `.supplemental-metadata.json`), the \
            movie `IMG_1234.MP4` gets none. Importers that take the date from the sidecar then \
            date the still correctly and the movie by its name, its download time, or not at all: \
            Google Photos Takeout Helper files such movies under "date-unknown" \
            (TheLastGimbus/GooglePhotosTakeoutHelper#460) and immich-go had to learn to give the \
            movie its still's sidecar (simulot/immich-go PR #1432). The two halves then land in \
            different places on the timeline, and name-based pairing across folders breaks.

            Flags a pair (by identifier or by name) whose still has a readable sidecar with \
            `photoTakenTime` and whose movie has no sidecar of its own. Whether the movie carries its \
            own `com.apple.quicktime.creationdate` does not help those importers (they date by \
            sidecar); `livelint dump` shows it, and `creation-date-skew` compares it with the still. \
            Copying the still's sidecar to `<movie name>.json` gives both halves the same date in \
            every importer. `lint` never writes sidecars.
            """,
        defaultSeverity: .warning,
        triggeringExamples: [
            RuleExample(.pair(still: .heic("Takeout/IMG_0001.HEIC").withSidecar(), movie: .mov("Takeout/IMG_0001.MP4")),
                        .finding(on: "Takeout/IMG_0001.MP4", saying: "IMG_0001.HEIC.supplemental-metadata.json",
                                 "2021-04-10 09:44:00 UTC", "download time"),
                        note: "Takeout wrote the sidecar for the still only."),
            RuleExample(.pair(still: .jpeg("Takeout/IMG_0002(1).JPG").withSidecar("IMG_0002.JPG.supplemental-metadata(1).json"),
                              movie: .mov("Takeout/IMG_0002(1).MP4", id: nil)),
                        .finding(on: "Takeout/IMG_0002(1).MP4", saying: "IMG_0002.JPG.supplemental-metadata(1).json"),
                        note: "Paired by name (a duplicate, `(1)` moved in the sidecar's name): the same loss."),
        ],
        nonTriggeringExamples: [
            RuleExample(.pair(still: .heic("Takeout/IMG_0001.HEIC").withSidecar(),
                              movie: .mov("Takeout/IMG_0001.MP4").withSidecar()),
                        note: "Each half has its sidecar."),
            RuleExample(.pair(still: .heic("IMG_0001.HEIC"), movie: .mov("IMG_0001.MOV")), note: "Not from Takeout: no sidecars."),
            RuleExample(.pair(still: .heic("Takeout/IMG_0001.HEIC").withSidecar(taken: nil), movie: .mov("Takeout/IMG_0001.MP4")),
                        note: "The sidecar has no capture time to lose."),
            RuleExample(.pair(still: .heic("Takeout/IMG_0001.HEIC").withSidecar(problem: "is empty"), movie: .mov("Takeout/IMG_0001.MP4")),
                        note: "An unusable sidecar is unreadable-sidecar's."),
        ]
    )

    public func check(pair: LivePair) -> [Violation] {
        guard pair.isComplete, let still = pair.still, let movie = pair.movie, movie.sidecar == nil,
              let sidecar = still.sidecar, sidecar.problem == nil, let taken = sidecar.photoTakenText else { return [] }
        let message = "the movie has no Google Takeout sidecar, only its still does: '\(sidecar.path)' says it was taken \(taken); importers that date files by their sidecar (immich-go, Google Photos Takeout Helper) will date the movie by its name or its download time, apart from its still"
        let movieName = movie.path.split(separator: "/").last.map(String.init) ?? movie.path
        return [Violation(message, files: [movie.path],
                          fixHint: "Copy the still's sidecar to '\(movieName).json' beside the movie so every importer dates both halves alike.")]
    }
}
