import LiveLintEngine
import LiveModel

/// A still that belongs to a Live Photo but carries no pairing key.
public struct StillMissingIdentifierRule: PairRule {
    public init() {}

    public static let description = RuleDescription(
        identifier: "still-missing-identifier",
        name: "Still missing identifier",
        summary: "A still that belongs to a Live Photo has no Apple makernote ContentIdentifier (tag 0x0011).",
        rationale: """
            Flags the still of a pair (paired by name, since it has nothing to pair by identifier) or \
            the still inside a `.livp` when its Exif MakerNote has no Apple tag 0x0011 \
            (ContentIdentifier; exiftool 12.57 calls it MediaGroupUUID).

            Tag 0x0011 is the pairing key: Photos on the Mac pairs by identifier alone, and Immich, \
            PhotoPrism and Nextcloud Memories look it up under either name. Without it the still shows \
            as a plain photo and the movie as a separate video. This is the most common breakage in the \
            wild: HEIC-to-JPEG converters, web uploads and editors drop the MakerNote \
            (live-photo-format.md, "The still"; Immich, Memories and libheif issues), and exiftool \
            cannot create a MakerNote that does not exist.

            A still whose reading failed is left to `unreadable-file`: the tag may sit past the damage.
            """,
        defaultSeverity: .error,
        triggeringExamples: [
            RuleExample(.pair(still: .jpeg(id: nil), movie: .mov()),
                        .finding(on: "IMG_0001.JPG", saying: "0x0011", Sample.uuidA),
                        repairs: [.setIdentifier(still: nil, movie: Sample.uuidA)],
                        note: "The makernote is there but has no tag 0x0011; the movie still has its identifier."),
            RuleExample(.pair(still: .jpeg(makerNote: false), movie: .mov(id: nil)),
                        .finding(on: "IMG_0001.JPG", saying: "no Apple MakerNote"),
                        repairs: [.setIdentifier(still: nil, movie: nil)],
                        note: "A converter dropped the whole MakerNote; `fix` gives both halves a fresh identifier."),
            RuleExample(.files(.livp(members: [.jpeg("IMG_0001.JPG.jpeg", makerNote: false), .mov("IMG_0001.JPG.mov")])),
                        .finding(on: "IMG_0001.livp!IMG_0001.JPG.jpeg", saying: "no Apple MakerNote"),
                        repairs: [.setIdentifier(still: nil, movie: Sample.uuidA)]),
        ],
        nonTriggeringExamples: [
            RuleExample(.pair(still: .jpeg(), movie: .mov())),
            RuleExample(.files(.jpeg("DSC_0001.JPG", makerNote: false)),
                        note: "A still with no movie is an ordinary photo."),
            RuleExample(.pair(still: .unreadable("IMG_0001.JPG", format: .jpeg, error: "JPEG segment runs past the end of the file",
                                                 location: "APP1", offset: 2),
                              movie: .mov()),
                        note: "Unreadable stills are reported by unreadable-file instead."),
        ]
    )

    public func check(pair: LivePair) -> [Violation] {
        guard let file = pair.pairedStill, file.error == nil, file.contentIdentifier == nil else { return [] }
        var message: String
        if file.still?.makerNote != nil {
            message = "the still's Apple MakerNote has no ContentIdentifier (tag 0x0011)"
        } else if let issue = file.still?.makerNoteIssue {
            message = "the still has no Apple MakerNote (its MakerNote is not Apple's: \(issue)), so no ContentIdentifier (tag 0x0011)"
        } else {
            message = "the still has no Apple MakerNote, so no ContentIdentifier (tag 0x0011)"
        }
        let partnerID = pair.movie?.contentIdentifier
        if let movie = pair.movie {
            message += partnerID.map { "; its movie '\(movie.path)' carries '\($0)'" } ?? "; its movie '\(movie.path)' has none either"
        }
        let hint = partnerID.map {
            "`livelint fix` writes '\($0)' into makernote tag 0x0011 of the still; or export the original still and movie again from Photos."
        } ?? "Export the original still and movie again from Photos; converters and editors drop the MakerNote (exiftool cannot create one, `livelint fix` can)."
        // With its movie at hand, `fix` gives both halves one identifier (the movie's, or a fresh one).
        let repair = pair.movie.map { _ in Repair.setIdentifier(still: nil, movie: partnerID) }
        return [Violation(message, files: [file.path], fixHint: hint, repair: repair)]
    }
}
