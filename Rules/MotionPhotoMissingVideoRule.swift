import LiveLintEngine
import LiveModel

/// A still whose metadata says it is a motion photo, while it holds no video.
public struct MotionPhotoMissingVideoRule: FileRule {
    public init() {}

    public static let description = RuleDescription(
        identifier: "motion-photo-missing-video",
        name: "Motion photo missing its video",
        summary: "The still's metadata promises a motion-photo video that the file does not hold.",
        rationale: """
            Flags a still whose metadata says it is an Android motion photo (`Camera:MotionPhoto` \
            = 1, `GCamera:MicroVideo` = 1, a `Container:Directory` item with semantic \
            `MotionPhoto`, or a Samsung `MotionPhoto_Data` record) while no MP4 starts where the \
            claims point, nor anywhere after the primary image, nor in an HEIC `mpvd` box.

            Viewers that trust the tags (Google Photos, Immich, Samsung Gallery) show a motion \
            badge and then fail to play, or report the file as corrupt; converters that copy the \
            XMP without the video leave exactly this behind (live-photo-format.md, "Motion \
            photos", **High**: the corpus holds two such files). Either put the video back or \
            remove the motion tags so the still is an ordinary photo.
            """,
        defaultSeverity: .error,
        readsMetadata: [.motionPhoto],
        triggeringExamples: [
            RuleExample(.files(.motionPhoto(videoOffset: nil)),
                        .finding(on: "PXL_0001.MP.jpg", saying: "Camera:MotionPhoto", "holds no video"),
                        note: "A converter copied the XMP, not the video."),
            RuleExample(.files(.motionPhoto("MVIMG_0001.jpg", kind: .microVideo, declaredLength: 1024, videoOffset: nil)),
                        .finding(on: "MVIMG_0001.jpg", saying: "MicroVideo", "1024")),
            RuleExample(.files(.motionPhoto("IMG_0001.JPG", id: Sample.uuidA, declaredLength: 4_581_133, videoOffset: nil)),
                        .finding(on: "IMG_0001.JPG", saying: "4581133"),
                        note: "An iPhone still to which a converter added motion-photo XMP (corpus N6)."),
        ],
        nonTriggeringExamples: [
            RuleExample(.files(.motionPhoto())),
            RuleExample(.files(.motionPhoto(declaredLength: 104, videoOffset: 507_827, videoLength: 2_342_087)),
                        note: "The video is there, elsewhere than claimed: motion-photo-offset-mismatch reports that."),
            RuleExample(.files(.jpeg("IMG_0001.JPG", id: nil))),
        ]
    )

    public func check(file: MediaFile) -> [Violation] {
        guard file.error == nil, let motion = file.still?.motionPhoto, motion.declared.promisesVideo, !motion.hasVideo else { return [] }
        let d = motion.declared
        var claims: [String] = []
        if d.motionPhoto == 1 { claims.append("Camera:MotionPhoto = 1") }
        if d.microVideo == 1 { claims.append("GCamera:MicroVideo = 1") }
        if let o = d.microVideoOffset { claims.append("MicroVideoOffset = \(o)") }
        if let i = d.videoItemIndex { claims.append("a MotionPhoto directory item of \(d.items[i].length.map(String.init) ?? "unstated") bytes") }
        if let l = d.samsungVideoLength { claims.append("a Samsung MotionPhoto_Data record of \(l) bytes") }
        var message = "the metadata (\(claims.joined(separator: ", "))) promises a motion-photo video, but the file holds no video"
        message += motion.primaryImageEnd.map { " (no MP4 'ftyp' after the primary image, which ends at byte \($0))" } ?? " (no MP4 'ftyp' after the primary image)"
        if let issue = motion.issues.first { message += "; \(issue.description)" }
        return [Violation(message, files: [file.path],
                          fixHint: "Restore the original motion photo, or remove the GCamera/Container motion tags so the still reads as an ordinary photo.")]
    }
}
