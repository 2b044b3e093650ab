import LiveLintEngine
import LiveModel

/// A media file that could not be read.
public struct UnreadableFileRule: FileRule {
    public init() {}

    public static let description = RuleDescription(
        identifier: "unreadable-file",
        name: "Unreadable file",
        summary: "A file that looks like media could not be read; the message says what broke and where.",
        rationale: """
            Flags every still, movie, `.livp` or archive member whose reading stopped with an \
            error (a box past its parent, a truncated JPEG, an unreadable ZIP entry, a permission \
            error), quoting the reader's message, the location (box path, makernote entry, ZIP \
            member) and the byte offset.

            A file "looks like media" when its bytes were recognised as a still, movie or archive, \
            or when it could not be opened at all but its extension is a media one. Files that are \
            simply not media (a `.txt`, a sidecar `.json`) are listed in the result's files with \
            their error but are not findings. A damaged half hides whatever the other rules would \
            have checked, so it is an error.
            """,
        defaultSeverity: .error,
        triggeringExamples: [
            RuleExample(.files(.unreadable("IMG_0001.JPG", format: .jpeg, error: "JPEG segment runs past the end of the file",
                                           location: "APP1", offset: 2)),
                        .finding(on: "IMG_0001.JPG", saying: "runs past the end", "at APP1", "byte offset 2")),
            RuleExample(.files(.unreadable("IMG_0001.MOV", format: .quicktime, error: "box size 4096 is larger than its parent's 1200 bytes left",
                                           location: "moov/trak[2]/mdia", offset: 88_120)),
                        .finding(on: "IMG_0001.MOV", saying: "this QuickTime movie", "moov/trak[2]/mdia", "byte offset 88120")),
            RuleExample(.files(.unreadable("IMG_0002.HEIC", format: .unknown, category: .io, error: "permission denied")),
                        .finding(on: "IMG_0002.HEIC", saying: "permission denied"),
                        note: "Not even sniffed, but named like media."),
        ],
        nonTriggeringExamples: [
            RuleExample(.pair(still: .jpeg(), movie: .mov())),
            RuleExample(.files(.notMedia("notes.txt"), .notMedia("IMG_0001.HEIC.json")), note: "Not media: listed, not flagged."),
        ]
    )

    static let mediaExtensions: Set<String> = {
        var all = Set<String>()
        for format in ContainerFormat.allCases where format.kind != .unknown { all.formUnion(format.extensions) }
        return all
    }()

    public func check(file: MediaFile) -> [Violation] {
        guard let error = file.error else { return [] }
        if file.kind == .unknown {
            guard error.category != .notMedia, Self.mediaExtensions.contains(file.pathExtension) else { return [] }
        }
        let what: String
        switch file.format {
        case .unknown: what = "the file"
        case .quicktime: what = "this QuickTime movie"
        case .mp4: what = "this MP4 movie"
        case .zip: what = "this archive"
        default: what = "this \(ExtensionMismatchRule.formatName(file.format))"
        }
        return [Violation(
            "could not read \(what) (\(error.category.rawValue)): \(error.description)",
            files: [file.path],
            fixHint: error.category == .io
                ? "Check that the file exists and can be read."
                : "Restore the file from an intact copy; `livelint dump` shows what could be read.")]
    }
}
