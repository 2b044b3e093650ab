import LiveLintEngine
import LiveModel

/// A file name's extension that contradicts the sniffed content.
public struct ExtensionMismatchRule: FileRule {
    public init() {}

    /// The extension to suggest for each format.
    static let preferred: [ContainerFormat: String] = [
        .jpeg: "jpg", .heic: "heic", .heif: "heif", .avif: "avif", .png: "png", .tiff: "tif", .gif: "gif",
        .webp: "webp", .quicktime: "mov", .mp4: "mp4", .zip: "livp",
    ]

    public static let description = RuleDescription(
        identifier: "extension-mismatch",
        name: "Extension mismatch",
        summary: "A file's extension does not match its content (a JPEG named .HEIC, a QuickTime movie named .MP4).",
        rationale: """
            Flags a still, movie or `.livp` whose extension (any case) is not one that honestly \
            names the format sniffed from its bytes, or that has no extension at all. Archive \
            members are checked too.

            Consumers choose a decoder and a MIME type by extension: Nextcloud Memories only takes \
            a `video/quicktime` movie, PhotoPrism only counts a `.mov` next to a HEIC \
            (live-photo-format.md, "How others pair"), and the corpus has a QuickTime movie named \
            `.MP4`. Converters that change the content but keep the name cause this.
            """,
        defaultSeverity: .warning,
        triggeringExamples: [
            RuleExample(.files(.still("IMG_0001.HEIC", format: .jpeg)),
                        .finding(on: "IMG_0001.HEIC", saying: "'.heic'", "JPEG")),
            RuleExample(.files(.mov("IMG_0001.MP4")),
                        .finding(on: "IMG_0001.MP4", saying: "QuickTime", "'.mp4'")),
            RuleExample(.files(.jpeg("IMG_0001")), .finding(on: "IMG_0001", saying: "no extension")),
            RuleExample(.files(.livp("1234.HEIF", members: [.heic("1234.HEIF"), .mov("1234.MOV")])),
                        .finding(on: "1234.HEIF", saying: "ZIP archive", "Synology"),
                        note: "Synology Photos' download of a Live Photo: a ZIP named .HEIF (jaimetur/PhotoMigrator#912); its members are linted too."),
        ],
        nonTriggeringExamples: [
            RuleExample(.pair(still: .jpeg("IMG_0001.jpeg"), movie: .mov("IMG_0001.mov"))),
            RuleExample(.files(.livp(members: [.jpeg("IMG_0001.JPG.jpeg"), .mov("IMG_0001.JPG.mov")]))),
            RuleExample(.files(.notMedia("notes.txt")), note: "Files that are not media are not checked."),
        ]
    )

    public func check(file: MediaFile) -> [Violation] {
        guard file.kind != .unknown, file.format != .unknown else { return [] }
        let ext = file.pathExtension
        guard !file.format.extensions.contains(ext) else { return [] }
        let content = Self.formatName(file.format)
        var rename = Self.preferred[file.format].map { "Rename it to end in .\($0)." } ?? "Rename it to match its content."
        var message = ext.isEmpty
            ? "the file has no extension; its content is \(content)"
            : "the extension '.\(ext)' does not match the content, which is \(content)"
        if file.format == .zip, ["heif", "heic", "hif"].contains(ext) {
            // Synology Photos serves a Live Photo as a ZIP named .HEIF (jaimetur/PhotoMigrator#912).
            message += " holding \(file.members?.count ?? 0) member(s), as Synology Photos downloads a Live Photo; other apps refuse it as an image"
            rename = "Rename it to end in .livp, or `livelint unpack` it into the still and the movie."
        }
        return [Violation(message, files: [file.path], fixHint: rename)]
    }

    static func formatName(_ format: ContainerFormat) -> String {
        switch format {
        case .jpeg: return "JPEG"
        case .heic: return "HEIC"
        case .heif: return "HEIF"
        case .avif: return "AVIF"
        case .png: return "PNG"
        case .tiff: return "TIFF"
        case .gif: return "GIF"
        case .webp: return "WebP"
        case .quicktime: return "a QuickTime movie"
        case .mp4: return "an ISO MP4 movie"
        case .zip: return "a ZIP archive"
        case .unknown: return "unknown"
        }
    }
}
