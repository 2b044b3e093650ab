import LiveLintEngine
import LiveModel

/// Identifiers equal except for letter case.
public struct IdentifierCaseMismatchRule: PairRule {
    public init() {}

    public static let description = RuleDescription(
        identifier: "identifier-case-mismatch",
        name: "Identifier case mismatch",
        summary: "The still's and the movie's identifiers are equal only when case is ignored.",
        rationale: """
            Flags a pair whose identifiers differ in letter case only (`e905e6c6-…` against \
            `E905E6C6-…`). livelint pairs such halves (after exact matches, before names) so the cause is \
            visible, but Immich compares identifiers exactly and will not pair them \
            (live-photo-format.md, "How others pair"). Apple writes upper-case UUIDs \
            ("The pair"); a lower-case one usually comes from a tool that generated or rewrote it.
            """,
        defaultSeverity: .warning,
        triggeringExamples: [
            RuleExample(.pair(still: .jpeg(id: Sample.uuidA.lowercased()), movie: .mov(id: Sample.uuidA)),
                        .finding(on: "IMG_0001.JPG", "IMG_0001.MOV", saying: Sample.uuidA.lowercased(), Sample.uuidA),
                        repairs: [.setIdentifier(still: Sample.uuidA.lowercased(), movie: Sample.uuidA)]),
            RuleExample(.files(.jpeg("stills/IMG_0001.JPG", id: Sample.uuidA), .mov("movies/clip.mov", id: Sample.uuidA.lowercased())),
                        .finding(on: "stills/IMG_0001.JPG", "movies/clip.mov", saying: "case"),
                        repairs: [.setIdentifier(still: Sample.uuidA, movie: Sample.uuidA.lowercased())],
                        note: "Paired across folders by identifier ignoring case."),
        ],
        nonTriggeringExamples: [
            RuleExample(.pair(still: .jpeg(id: Sample.uuidA), movie: .mov(id: Sample.uuidA))),
            RuleExample(.pair(still: .jpeg(id: Sample.uuidA), movie: .mov(id: Sample.uuidB)),
                        note: "Different identifiers are identifier-mismatch."),
        ]
    )

    public func check(pair: LivePair) -> [Violation] {
        guard let still = pair.still, let movie = pair.movie,
              let s = still.contentIdentifier, let m = movie.contentIdentifier,
              s != m, s.uppercased() == m.uppercased() else { return [] }
        return [Violation(
            "the still carries '\(s)' and the movie '\(m)': equal only when case is ignored, and Immich compares exactly",
            files: [still.path, movie.path],
            fixHint: "Rewrite the lower-case identifier in upper case, as Apple writes it ('\(s.uppercased())').",
            repair: .setIdentifier(still: s, movie: m))]
    }
}
