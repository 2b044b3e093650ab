import LiveLintEngine
import LiveModel

/// A Google Takeout sidecar that cannot be used: not JSON, cut short, far too large, or with a
/// field of the wrong type.
public struct UnreadableSidecarRule: FileRule {
    public init() {}

    public static let description = RuleDescription(
        identifier: "unreadable-sidecar",
        name: "Unreadable sidecar",
        summary: "The Google Takeout JSON sidecar of a photo or video is not JSON, is cut short, is far too large, or has a field of the wrong type.",
        rationale: """
            Google Takeout puts what Google Photos knew of each file (when it was taken, where, its \
            original name) in a JSON sidecar beside it: `IMG_1234.HEIC.json`, since 2024 \
            `IMG_1234.HEIC.supplemental-metadata.json`, the part before `.json` clipped to 46 \
            characters, a duplicate's `(N)` moved before `.json`. Importers that work from Takeout \
            (immich-go, Google Photos Takeout Helper) date and place each file by its sidecar; one \
            they cannot parse leaves the file dated by its name or its download time, and some stop on it.

            livelint finds each file's sidecar the way those importers do (`lint --format json` gives \
            it as `files[].sidecar`; `livelint dump` shows what it says) and flags one that is empty, \
            not JSON, cut short (an interrupted download or unzip), over 1 MiB (a sidecar is a few \
            hundred bytes), not a JSON object, or whose `title`, `photoTakenTime.timestamp`, \
            `creationTime.timestamp` or `geoData` fields have the wrong type. The scan goes on either \
            way, and `lint` never writes a sidecar.
            """,
        defaultSeverity: .warning,
        triggeringExamples: [
            RuleExample(.files(.heic("Takeout/IMG_0001.HEIC").withSidecar(problem: "is not valid JSON: it is cut short (212 bytes, no closing brace)")),
                        .finding(on: "Takeout/IMG_0001.HEIC", "Takeout/IMG_0001.HEIC.supplemental-metadata.json", saying: "cut short"),
                        note: "A download or unzip stopped part-way through the sidecar."),
            RuleExample(.files(.jpeg("Takeout/IMG_0002.JPG").withSidecar("IMG_0002.JPG.json",
                                                                          problem: "has fields of the wrong type: 'photoTakenTime.timestamp' is a boolean, not a number of seconds")),
                        .finding(on: "Takeout/IMG_0002.JPG", "Takeout/IMG_0002.JPG.json", saying: "photoTakenTime.timestamp"),
                        note: "Well-formed JSON, but a field a tool rewrote with the wrong type."),
        ],
        nonTriggeringExamples: [
            RuleExample(.files(.heic("Takeout/IMG_0001.HEIC").withSidecar()), note: "A sidecar that reads cleanly."),
            RuleExample(.files(.heic("IMG_0001.HEIC")), note: "No sidecar at all: nothing to read."),
        ]
    )

    public func check(file: MediaFile) -> [Violation] {
        guard let sidecar = file.sidecar, let problem = sidecar.problem else { return [] }
        return [Violation(
            "its Google Takeout sidecar '\(sidecar.path)' \(problem): importers that date and place files by their sidecar (immich-go, Google Photos Takeout Helper) cannot use it",
            files: [file.path, sidecar.path],
            fixHint: "Export or unzip the sidecar again from the Takeout archive; a sidecar cut short usually means the archive was not fully extracted.")]
    }
}
