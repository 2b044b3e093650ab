import LiveLintEngine
import LiveModel

/// A still whose content identifier is in XMP only, not in the Apple makernote where Apple Photos
/// and Immich read it.
public struct IdentifierOnlyInXMPRule: PairRule {
    public init() {}

    public static let description = RuleDescription(
        identifier: "identifier-only-in-xmp",
        name: "Identifier only in XMP",
        summary: "A still carries its content identifier in XMP but not in Apple makernote tag 0x0011, where Apple Photos and Immich read it.",
        rationale: """
            Flags a still (paired, alone, or inside a `.livp`) that has no ContentIdentifier in its \
            Apple makernote (tag 0x0011) but has one in XMP (`XMP-apple-fi:ContentIdentifier`, exiv2's \
            `Xmp.apple-fi.ContentIdentifier`, or the same property under another prefix).

            Converters that cannot create an Apple makernote (exiftool cannot) write the identifier \
            into XMP instead, and the pair looks right in tools that print every tag. But Apple Photos, \
            on the Mac and the iPhone, pairs by makernote 0x0011 and the movie's `content.identifier` \
            key and ignores XMP (RaylenZed/vivo-live-photo-converter README): it shows a photo and a \
            separate video. Immich and Nextcloud Memories take exiftool's `ContentIdentifier` tag, \
            which exiftool also reports from embedded XMP (checked with exiftool 12.57), so they may \
            link the pair; an `.xmp` sidecar's identifier they do not read (immich#25810). \
            `lint --consumers` says which app does what.

            `fix` writes the identifier into the makernote (creating an Apple makernote if needed): the \
            movie's when it has one, else the XMP value, so both halves carry it. A still whose makernote \
            already has an identifier is not flagged (a different XMP value is left alone).
            """,
        defaultSeverity: .warning,
        readsMetadata: [.xmpContentIdentifier],
        triggeringExamples: [
            RuleExample(.pair(still: .jpeg(makerNote: false, xmpID: Sample.uuidA), movie: .mov()),
                        .finding(on: "IMG_0001.JPG", saying: "only in XMP", "Xmp.apple-fi.ContentIdentifier", Sample.uuidA),
                        repairs: [.setIdentifier(still: nil, movie: Sample.uuidA)],
                        note: "A converter wrote the identifier into XMP because it could not create a makernote; the movie carries it."),
            RuleExample(.pair(still: .jpeg(makerNote: false, xmpID: Sample.uuidA), movie: .mov(id: nil)),
                        .finding(on: "IMG_0001.JPG", saying: "only in XMP", "has none"),
                        repairs: [.setIdentifier(still: Sample.uuidA, movie: nil)],
                        note: "Neither half carries it where Apple reads it: `fix` writes the XMP value into both."),
            RuleExample(.files(.heic("IMG_0002.HEIC", id: nil, xmpID: Sample.uuidB)),
                        .finding(on: "IMG_0002.HEIC", saying: "only in XMP", "no movie pairs with it"),
                        note: "Alone: no movie pairs with it by identifier, and no movie shares its name."),
        ],
        nonTriggeringExamples: [
            RuleExample(.pair(still: .jpeg(), movie: .mov())),
            RuleExample(.pair(still: .jpeg(xmpID: Sample.uuidA), movie: .mov()),
                        note: "The makernote carries the identifier too: XMP is extra."),
            RuleExample(.pair(still: .jpeg(makerNote: false), movie: .mov()),
                        note: "No identifier anywhere in the still: still-missing-identifier's."),
        ]
    )

    public func check(pair: LivePair) -> [Violation] {
        guard let still = pair.still, still.kind == .still, still.error == nil, still.contentIdentifier == nil,
              let xmp = still.still?.xmpContentIdentifier else { return [] }
        var message = "the still's identifier '\(xmp.value)' is only in XMP (\(xmp.key)), not in Apple makernote tag 0x0011 where Apple Photos and Immich read it"
        let movieID = pair.movie?.contentIdentifier
        if let movie = pair.movie {
            message += movieID.map { "; its movie '\(movie.path)' carries '\($0)'" }
                ?? "; its movie '\(movie.path)' has none"
        } else if pair.archive == nil {
            message += "; no movie pairs with it by identifier"
        }
        let hint = pair.movie == nil
            ? "Put the movie beside it and run `livelint fix`, which writes the identifier into the still's makernote."
            : "`livelint fix` writes the identifier into the still's makernote 0x0011" + (movieID == nil ? " and the movie's content.identifier." : ".")
        // The planner offers the makernote the movie's identifier, or the XMP value when the movie has none.
        let repair = pair.movie.map { _ in Repair.setIdentifier(still: movieID == nil ? xmp.value : nil, movie: movieID) }
        return [Violation(message, files: [still.path], fixHint: hint, repair: repair)]
    }
}
