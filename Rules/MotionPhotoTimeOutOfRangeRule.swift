import LiveLintEngine
import LiveModel

/// A motion photo whose presentation timestamp lies outside its embedded video.
public struct MotionPhotoTimeOutOfRangeRule: FileRule {
    public init() {}

    public static let description = RuleDescription(
        identifier: "motion-photo-time-out-of-range",
        name: "Motion photo time out of range",
        summary: "The motion photo's presentation timestamp lies outside its embedded video.",
        rationale: """
            Flags a motion photo whose `MotionPhotoPresentationTimestampUs` (or \
            `MicroVideoPresentationTimestampUs`) is negative other than -1 ("unspecified"), or \
            later than the embedded video's duration.

            The timestamp says which frame of the video the still is; players start there, and \
            `livelint convert --to live-photo` puts the Live Photo's still-image-time there. A \
            time outside the video names no frame (live-photo-format.md, "Motion photos", \
            **High**: the specification defines the value as a frame's presentation time). \
            Samsung writes times a few milliseconds past the end of the video (corpus MP1: \
            2.990844 s in a 2.9867 s video), hence a warning.
            """,
        defaultSeverity: .warning,
        readsMetadata: [.motionPhoto],
        triggeringExamples: [
            RuleExample(.files(.motionPhoto(timestampUs: 2_990_844, duration: 2.9867)),
                        .finding(on: "PXL_0001.MP.jpg", saying: "2.990844 s", "outside"),
                        note: "Samsung's timestamp just past the end (corpus MP1)."),
            RuleExample(.files(.motionPhoto(timestampUs: -500_000)),
                        .finding(on: "PXL_0001.MP.jpg", saying: "-0.5 s")),
        ],
        nonTriggeringExamples: [
            RuleExample(.files(.motionPhoto(timestampUs: 1_500_000, duration: 3))),
            RuleExample(.files(.motionPhoto(timestampUs: -1)), note: "-1 means unspecified."),
            RuleExample(.files(.motionPhoto(timestampUs: 0))),
            RuleExample(.files(.motionPhoto(videoOffset: nil, timestampUs: 9_000_000)), note: "No video: motion-photo-missing-video reports that."),
        ]
    )

    public func check(file: MediaFile) -> [Violation] {
        guard file.error == nil, let motion = file.still?.motionPhoto, let t = motion.presentationTime,
              motion.hasVideo, motion.videoError == nil, let duration = motion.duration else { return [] }
        guard t < 0 || t > duration else { return [] }
        return [Violation(
            "the presentation timestamp is \(MetadataValue.format(t)) s, outside the embedded video (0 to \(MetadataValue.format(duration)) s)",
            files: [file.path],
            fixHint: "Set MotionPhotoPresentationTimestampUs to the still's frame inside the video, or to -1 when unknown.")]
    }
}
