import LiveLintEngine
import LiveModel

/// An identifier that is not shaped like a UUID.
public struct IdentifierNotUUIDRule: FileRule {
    public init() {}

    public static let description = RuleDescription(
        identifier: "identifier-not-uuid",
        name: "Identifier not a UUID",
        summary: "A content identifier is not an 8-4-4-4-12 hexadecimal UUID.",
        rationale: """
            Flags any still or movie whose content identifier (makernote 0x0011, or the movie's \
            `com.apple.quicktime.content.identifier`) is not a UUID string of 8-4-4-4-12 hexadecimal \
            digits. Apple writes an upper-case UUID (live-photo-format.md, "The pair"); PhotoPrism's \
            fallback pairing looks for a 36-character UUID ("How others pair"), so anything else \
            pairs only with tools that compare blindly. Letter case is not this rule's business \
            (`identifier-case-mismatch` compares the two halves).
            """,
        defaultSeverity: .warning,
        triggeringExamples: [
            RuleExample(.pair(still: .jpeg(id: "IMG_0001"), movie: .mov(id: "IMG_0001")),
                        .finding(on: "IMG_0001.JPG", saying: "'IMG_0001'"),
                        .finding(on: "IMG_0001.MOV", saying: "'IMG_0001'")),
            RuleExample(.files(.mov(id: Sample.uuidA + "}")),
                        .finding(on: "IMG_0001.MOV", saying: Sample.uuidA)),
        ],
        nonTriggeringExamples: [
            RuleExample(.pair(still: .jpeg(), movie: .mov())),
            RuleExample(.files(.jpeg(id: Sample.uuidB.lowercased())), note: "Lower-case hex is still a UUID."),
            RuleExample(.files(.jpeg(id: nil)), note: "No identifier at all is another rule's business."),
        ]
    )

    public func check(file: MediaFile) -> [Violation] {
        guard let id = file.contentIdentifier, !ContentIdentifier.isUUID(id) else { return [] }
        let source = file.kind == .movie ? "content.identifier key" : "makernote tag 0x0011"
        return [Violation(
            "the \(file.kind.rawValue)'s \(source) is '\(id)', not an 8-4-4-4-12 hexadecimal UUID",
            files: [file.path],
            fixHint: "Give both halves one new upper-case UUID (for example from `uuidgen`).")]
    }
}
