import LiveLintEngine
import LiveModel

/// A movie that belongs to a Live Photo but carries no pairing key.
public struct MovieMissingIdentifierRule: PairRule {
    public init() {}

    public static let description = RuleDescription(
        identifier: "movie-missing-identifier",
        name: "Movie missing identifier",
        summary: "A movie that belongs to a Live Photo has no com.apple.quicktime.content.identifier key.",
        rationale: """
            Flags the movie of a pair (or the movie inside a `.livp`) whose `moov/meta` keys have no \
            `com.apple.quicktime.content.identifier`.

            That key holds the same UUID as the still's makernote tag 0x0011 and is the movie's half of \
            the pairing key (live-photo-format.md, "The movie"; every corpus pair). Photos pairs by \
            identifier alone, Immich and PhotoPrism match on it; without it the movie is an ordinary \
            video. Re-encoding with tools that do not copy QuickTime `mdta` keys (a plain \
            `ffmpeg -i in.mov out.mov`) drops it.

            A movie whose reading failed is left to `unreadable-file`.
            """,
        defaultSeverity: .error,
        triggeringExamples: [
            RuleExample(.pair(still: .jpeg(), movie: .mov(id: nil)),
                        .finding(on: "IMG_0001.MOV", saying: "com.apple.quicktime.content.identifier", Sample.uuidA),
                        repairs: [.setIdentifier(still: Sample.uuidA, movie: nil)]),
            RuleExample(.pair(still: .heic("IMG_0001.HEIC"), movie: .mov("IMG_0001_HEVC.MOV", id: nil)),
                        .finding(on: "IMG_0001_HEVC.MOV", saying: "content.identifier"),
                        repairs: [.setIdentifier(still: Sample.uuidA, movie: nil)],
                        note: "icloudpd names the movie of a HEIC `_HEVC`; the pair is still made by name."),
        ],
        nonTriggeringExamples: [
            RuleExample(.pair(still: .jpeg(), movie: .mov())),
            RuleExample(.files(.mov("CLIP.MOV", id: nil)), note: "A movie with no still is an ordinary video."),
        ]
    )

    public func check(pair: LivePair) -> [Violation] {
        guard let file = pair.pairedMovie, file.error == nil, file.contentIdentifier == nil else { return [] }
        var message = "the movie has no '\(MovieInfo.contentIdentifierKey)' key"
        let partnerID = pair.still?.contentIdentifier
        if let still = pair.still {
            message += partnerID.map { "; its still '\(still.path)' carries '\($0)'" } ?? "; its still '\(still.path)' has none either"
        }
        let hint = partnerID.map {
            "`livelint fix` adds the key '\(MovieInfo.contentIdentifierKey)' = '\($0)' (UTF-8) to the movie's moov/meta; or export the original again from Photos."
        } ?? "Export the original still and movie again from Photos; re-encoders that do not copy QuickTime metadata keys drop the identifier."
        // With its still at hand, `fix` gives both halves one identifier (the still's, or a fresh one).
        let repair = pair.still.map { _ in Repair.setIdentifier(still: partnerID, movie: nil) }
        return [Violation(message, files: [file.path], fixHint: hint, repair: repair)]
    }
}
