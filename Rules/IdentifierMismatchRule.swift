import LiveLintEngine
import LiveModel

/// Two halves paired by name (or by a `.livp`) whose identifiers differ.
public struct IdentifierMismatchRule: PairRule {
    public init() {}

    public static let description = RuleDescription(
        identifier: "identifier-mismatch",
        name: "Identifier mismatch",
        summary: "A still and a movie that look like one Live Photo carry different content identifiers.",
        rationale: """
            Flags a pair made by name (same stem in one folder, or the two members of a `.livp`) when \
            both halves carry an identifier and the two differ, even ignoring case (a difference in case \
            only is `identifier-case-mismatch`).

            File names do not tie a Live Photo: Photos on the Mac pairs by identifier alone, Immich by an \
            exact match on ContentIdentifier / MediaGroupUUID (live-photo-format.md, "The pair" and \
            "How others pair"). Such a pair is shown as a photo and an unrelated video. It usually means \
            one half was replaced by another capture's file (a re-export, a renamed copy).
            """,
        defaultSeverity: .error,
        triggeringExamples: [
            RuleExample(.pair(still: .jpeg(id: Sample.uuidA), movie: .mov(id: Sample.uuidB)),
                        .finding(on: "IMG_0001.JPG", "IMG_0001.MOV", saying: Sample.uuidA, Sample.uuidB, "name"),
                        repairs: [.setIdentifier(still: Sample.uuidA, movie: Sample.uuidB)]),
            RuleExample(.files(.livp(members: [.heic("IMG_0002.HEIC.heic", id: Sample.uuidA),
                                               .mov("IMG_0002.HEIC.mov", id: Sample.uuidC)])),
                        .finding(on: "IMG_0001.livp!IMG_0002.HEIC.heic", "IMG_0001.livp!IMG_0002.HEIC.mov", saying: "archive"),
                        repairs: [.setIdentifier(still: Sample.uuidA, movie: Sample.uuidC)]),
        ],
        nonTriggeringExamples: [
            RuleExample(.pair(still: .jpeg(id: Sample.uuidA), movie: .mov(id: Sample.uuidA))),
            RuleExample(.pair(still: .jpeg(id: Sample.uuidA.lowercased()), movie: .mov(id: Sample.uuidA)),
                        note: "A difference in case only is identifier-case-mismatch."),
            RuleExample(.pair(still: .jpeg(id: nil), movie: .mov(id: Sample.uuidA)),
                        note: "A missing identifier is movie- or still-missing-identifier."),
            RuleExample(.files(.jpeg("a/IMG_0001.JPG", id: Sample.uuidA), .mov("b/IMG_0001.MOV", id: Sample.uuidB)),
                        note: "Name pairing is within one folder: these are two lone halves."),
        ]
    )

    public func check(pair: LivePair) -> [Violation] {
        guard let still = pair.still, let movie = pair.movie,
              let s = still.contentIdentifier, let m = movie.contentIdentifier,
              s != m, s.uppercased() != m.uppercased() else { return [] }
        let how = pair.pairedBy == .archive ? "they share the archive '\(pair.archive ?? "")'" : "they are paired by \(pair.pairedBy.rawValue)"
        return [Violation(
            "\(how), but the still carries '\(s)' and the movie '\(m)'",
            files: [still.path, movie.path],
            fixHint: "If they are one Live Photo, `livelint fix` writes one identifier into the other half (makernote 0x0011 or the movie's content.identifier key); if not, rename one so they no longer look like a pair.",
            repair: .setIdentifier(still: s, movie: m))]
    }
}
