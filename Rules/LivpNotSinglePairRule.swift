import LiveLintEngine
import LiveModel

/// A `.livp` archive that does not hold exactly one still and one movie.
public struct LivpNotSinglePairRule: FileRule {
    public init() {}

    public static let description = RuleDescription(
        identifier: "livp-not-single-pair",
        name: ".livp not a single pair",
        summary: "A .livp archive does not hold exactly one still and one movie.",
        rationale: """
            Flags a `.livp` archive (a ZIP, as cloud drives export Live Photos) whose members are \
            not exactly one still and one movie: a half is missing, or the archive holds several \
            stills or movies. Other members are ignored.

            A `.livp` is one Live Photo: the still and the movie, usually stored uncompressed \
            (live-photo-format.md, "The pair"). An archive missing a half has lost the Live Photo; \
            one with several pairs will be unpacked by tools that expect one, keeping only the \
            first. An archive that could not be opened is `unreadable-file`'s.
            """,
        defaultSeverity: .warning,
        triggeringExamples: [
            RuleExample(.files(.livp(members: [.jpeg("IMG_0001.JPG.jpeg")])),
                        .finding(on: "IMG_0001.livp", saying: "1 still and 0 movies")),
            RuleExample(.files(.livp(members: [.jpeg("IMG_0001.JPG.jpeg"), .mov("IMG_0001.JPG.mov"),
                                               .jpeg("IMG_0002.JPG.jpeg", id: Sample.uuidB), .mov("IMG_0002.JPG.mov", id: Sample.uuidB)])),
                        .finding(on: "IMG_0001.livp", saying: "2 stills and 2 movies")),
        ],
        nonTriggeringExamples: [
            RuleExample(.files(.livp(members: [.heic("IMG_0001.HEIC.heic"), .mov("IMG_0001.HEIC.mov")]))),
            RuleExample(.files(.unreadable("IMG_0001.livp", format: .zip, error: "end of central directory not found")),
                        note: "An archive that cannot be opened is unreadable-file's."),
        ]
    )

    public func check(file: MediaFile) -> [Violation] {
        // An archive that could not be read is unreadable-file's, not a count of what it lost.
        guard file.kind == .livp, file.error == nil, let members = file.members else { return [] }
        let stills = members.filter { $0.kind == .still }.count
        let movies = members.filter { $0.kind == .movie }.count
        guard stills != 1 || movies != 1 else { return [] }
        return [Violation(
            "the archive holds \(stills) still\(stills == 1 ? "" : "s") and \(movies) movie\(movies == 1 ? "" : "s"); a .livp holds exactly one of each",
            files: [file.path],
            fixHint: stills + movies < 2
                ? "Download the Live Photo again; the archive lost a half."
                : "Split the archive into one .livp per Live Photo.")]
    }
}
