import LiveLintEngine
import LiveModel

/// The still and the video disagree on shape once each is turned upright.
public struct GeometryMismatchRule: PairRule {
    public init() {}

    var tolerance: Double = 0.02

    public mutating func apply(options: RuleOptions) {
        tolerance = options.double("tolerance") ?? tolerance
    }

    public static let description = RuleDescription(
        identifier: "geometry-mismatch",
        name: "Geometry mismatch",
        summary: "The still's and the video's aspect ratios disagree once the Exif orientation and the track rotation are applied.",
        rationale: """
            Flags a pair whose still (width × height, swapped for Exif orientations 5–8) and \
            video (coded width × height, swapped for a track rotation of ±90°) have aspect ratios \
            that differ by more than `tolerance` (relative). Dimensions that are unknown or zero \
            are not flagged.

            Camera pairs share their shape: a 4032×3024 still goes with a 1920×1440 movie, both \
            4:3, turned the same way (corpus). A still cropped or rotated in an editor while its \
            movie was not makes the Live Photo jump between two framings when it plays. Off by \
            default: cropped stills are a legitimate edit, and no consumer is known to reject them.
            """,
        defaultSeverity: .warning,
        enabledByDefault: false,
        options: [
            RuleOptionDescription(name: "tolerance", kind: .double(min: 0, max: 1), defaultValue: .double(0.02),
                                  summary: "The largest relative difference of the two aspect ratios that is not flagged."),
        ],
        readsMetadata: [.orientation],
        triggeringExamples: [
            RuleExample(.pair(still: .jpeg(width: 3024, height: 3024), movie: .mov(width: 1920, height: 1440)),
                        .finding(on: "IMG_0001.JPG", "IMG_0001.MOV", saying: "3024×3024", "1920×1440"),
                        note: "The still was cropped square."),
            RuleExample(.pair(still: .jpeg(width: 4032, height: 3024, orientation: 6), movie: .mov(width: 1920, height: 1440)),
                        .finding(on: "IMG_0001.JPG", "IMG_0001.MOV", saying: "orientation 6"),
                        note: "The still was turned to portrait; the movie was not."),
        ],
        nonTriggeringExamples: [
            RuleExample(.pair(still: .jpeg(width: 4032, height: 3024), movie: .mov(width: 1920, height: 1440))),
            RuleExample(.pair(still: .jpeg(width: 4032, height: 3024, orientation: 6), movie: .mov(width: 1920, height: 1440, rotation: -90)),
                        note: "Portrait: both are turned upright the same way."),
            RuleExample(.pair(still: .jpeg(width: 4000, height: 3024), movie: .mov(width: 1920, height: 1440)),
                        options: ["tolerance": .double(0.05)]),
        ]
    )

    public func check(pair: LivePair) -> [Violation] {
        guard let stillFile = pair.still, let movieFile = pair.movie, pair.isComplete,
              let still = stillFile.still, let w = still.width, let h = still.height, w > 0, h > 0,
              let video = movieFile.movie?.video, video.width > 0, video.height > 0 else { return [] }
        let orientation = still.property("Exif.Image.Orientation")?.value.intValue ?? 1
        let stillSwapped = (5...8).contains(orientation)
        let rotation = video.rotation.isFinite ? video.rotation : 0
        let quarterTurns = (rotation / 90).rounded()
        let videoSwapped = abs(rotation / 90 - quarterTurns) < 0.01 && abs(quarterTurns.truncatingRemainder(dividingBy: 2)) == 1
        let (sw, sh) = stillSwapped ? (h, w) : (w, h)
        let (vw, vh) = videoSwapped ? (video.height, video.width) : (video.width, video.height)
        let stillRatio = Double(sw) / Double(sh), videoRatio = Double(vw) / Double(vh)
        guard abs(stillRatio - videoRatio) / videoRatio > tolerance else { return [] }
        let f = { (x: Double) in MetadataValue.format((x * 1000).rounded() / 1000) }
        return [Violation(
            "the still is \(w)×\(h) with orientation \(orientation) (upright ratio \(f(stillRatio))), the video \(video.width)×\(video.height) "
                + "rotated \(MetadataValue.format(video.rotation))° (upright ratio \(f(videoRatio)))",
            files: [stillFile.path, movieFile.path],
            fixHint: "If the still was cropped or rotated on purpose, ignore this; otherwise export the original still again.")]
    }
}
