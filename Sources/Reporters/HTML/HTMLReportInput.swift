/// What the HTML report shows beyond the lint result: thumbnails read from the stills, consumer
/// outcomes, and how the page protects itself. Reporters never read files; the pipeline
/// (`LiveLintKit`) fills this.
public struct HTMLReportInput: Sendable {
    /// Embedded previews by the still's report path (only the cards that get one). They come
    /// first: ``thumbnailSource`` is asked only for the stills not here.
    public var thumbnails: [String: HTMLThumbnail]
    /// Previews read as the cards are written, a batch of cards at a time, so that a library's
    /// thumbnails are never held together (issue 13: `--thumbnails all` on a million stills held
    /// gigabytes). Nil: only ``thumbnails``.
    public var thumbnailSource: HTMLThumbnailSource?
    /// Per consumer (`immich`, `google-photos`, …), how many pairs got each outcome (`ok`,
    /// `degraded`, …): the summary's consumer table. Empty: no table. Fill it with
    /// ``HTMLReporter/consumerOutcomeCounts(_:)`` from each pair's verdicts.
    public var consumerOutcomes: [String: [String: Int]]
    /// The Content-Security-Policy nonce of the page's one style sheet and one script (base64).
    /// Nil: a random one, drawn once per process, so the same process renders the same bytes
    /// and nothing outside the page can know it in advance.
    public var nonce: String?
    /// Cards drawn per page (the page stays quick at 50,000 pairs; `#size=` overrides it).
    public var pageSize: Int

    public init(thumbnails: [String: HTMLThumbnail] = [:], consumerOutcomes: [String: [String: Int]] = [:],
                nonce: String? = nil, pageSize: Int = 100, thumbnailSource: HTMLThumbnailSource? = nil) {
        self.thumbnails = thumbnails
        self.thumbnailSource = thumbnailSource
        self.consumerOutcomes = consumerOutcomes
        self.nonce = nonce
        self.pageSize = pageSize
    }
}

/// Where the HTML report's thumbnails are read from as its cards are written
/// (``HTMLReportInput/thumbnailSource``); which cards get one is found with the findings' join.
public struct HTMLThumbnailSource: Sendable {
    /// True: only cards whose still or movie some finding names get one (`--thumbnails findings`;
    /// named by any finding, whichever card lists it); false: every card with a still (`all`).
    public var onlyCardsWithFindings: Bool
    /// The previews of `stills` (report paths), in order, nil where there is none; called with
    /// the stills of a batch of cards at a time (a still of two cards asked for each).
    public var read: @Sendable (_ stills: [String]) -> [HTMLThumbnail?]

    public init(onlyCardsWithFindings: Bool, read: @escaping @Sendable (_ stills: [String]) -> [HTMLThumbnail?]) {
        self.onlyCardsWithFindings = onlyCardsWithFindings
        self.read = read
    }
}

/// A still's embedded preview, as stored (no pixel decoded).
public struct HTMLThumbnail: Sendable, Hashable {
    /// Only types a browser shows from a `data:` URI are kept (``HTMLThumbnail/init(mimeType:bytes:width:height:)``).
    public var mimeType: String
    public var bytes: [UInt8]
    public var width: Int
    public var height: Int

    /// Nil unless `mimeType` is JPEG, PNG or WebP (an Exif thumbnail may be TIFF, which browsers
    /// do not draw) and there are bytes.
    public init?(mimeType: String, bytes: [UInt8], width: Int, height: Int) {
        guard HTMLThumbnail.drawable.contains(mimeType), !bytes.isEmpty else { return nil }
        self.mimeType = mimeType
        self.bytes = bytes
        self.width = width
        self.height = height
    }

    static let drawable: Set<String> = ["image/jpeg", "image/png", "image/webp"]
}

extension HTMLReporter {
    /// The summary's consumer table from each pair's verdicts (consumer name → outcome): how
    /// many pairs each consumer gave each outcome. This is the one call that wires the
    /// `consumers` field of a pair record (issue 12) into the report:
    /// `HTMLReporter.consumerOutcomeCounts(pairs.map { $0.consumers.mapValues(\.outcome.rawValue) })`.
    public static func consumerOutcomeCounts(_ verdicts: some Sequence<[String: String]>) -> [String: [String: Int]] {
        var counts: [String: [String: Int]] = [:]
        for pair in verdicts {
            for (consumer, outcome) in pair { counts[consumer, default: [:]][outcome, default: 0] += 1 }
        }
        return counts
    }
}
