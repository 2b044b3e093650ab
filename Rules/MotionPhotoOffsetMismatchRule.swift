import LiveLintEngine
import LiveModel

/// A motion photo whose declared video location disagrees with where the video is.
public struct MotionPhotoOffsetMismatchRule: FileRule {
    public init() {}

    public static let description = RuleDescription(
        identifier: "motion-photo-offset-mismatch",
        name: "Motion photo offset mismatch",
        summary: "The motion photo's declared video length or offset disagrees with where the video really is.",
        rationale: """
            Flags a motion photo that holds an MP4 while its claims place it elsewhere: the \
            `Container:Directory` (items laid out from the end of the file backwards, so the video \
            starts at the file size minus its `Item:Length` and the lengths of the items after \
            it), `MicroVideoOffset` (bytes from the end of the file) or a Samsung \
            `MotionPhoto_Data` record give an offset or a length other than those of the MP4 found \
            (at the claimed place, in an HEIC `mpvd` box, or by looking for its `ftyp`), or the \
            video item states no length at all.

            Readers that follow the claims (androidx/media `MotionPhotoDescription`, Immich \
            `offset = size − length − padding`) cut the wrong bytes and play nothing, or garbage; \
            Samsung writes lengths that only its own Gallery ignores (live-photo-format.md, \
            "Motion photos", **High**: corpus MP1 declares 104 bytes for a 2.3 MB video).
            """,
        defaultSeverity: .warning,
        readsMetadata: [.motionPhoto],
        triggeringExamples: [
            RuleExample(.files(.motionPhoto("photo.heic", format: .heic, declaredLength: 104, videoOffset: 507_827, videoLength: 2_342_087)),
                        .finding(on: "photo.heic", saying: "3999896", "104", "507827", "2342087"),
                        note: "A Samsung HEIC: the directory says 104 bytes, the `mpvd` box holds 2,342,087 (corpus MP1)."),
            RuleExample(.files(.motionPhoto(declaredLength: 900_000)),
                        .finding(on: "PXL_0001.MP.jpg", saying: "900000", "1000000")),
            RuleExample(.files(.motionPhoto(declaredLength: nil)),
                        .finding(on: "PXL_0001.MP.jpg", saying: "no place")),
        ],
        nonTriggeringExamples: [
            RuleExample(.files(.motionPhoto())),
            RuleExample(.files(.motionPhoto(kind: .microVideo))),
            RuleExample(.files(.motionPhoto(kind: .embeddedMP4)), note: "No claims to disagree with."),
            RuleExample(.files(.motionPhoto(videoOffset: nil)), note: "No video at all: motion-photo-missing-video reports that."),
        ]
    )

    public func check(file: MediaFile) -> [Violation] {
        guard file.error == nil, let motion = file.still?.motionPhoto, let offset = motion.videoOffset,
              let length = motion.videoLength, motion.format != .embeddedMP4 else { return [] }
        let found = "the video is \(length) bytes at byte \(offset)" + (motion.container == .mpvd ? " (in the 'mpvd' box)" : "")
        let hint = "Rewrite the motion-photo metadata from the bytes (Item:Length = \(length)), or convert the file again."
        guard let declaredOffset = motion.declaredVideoOffset, let declaredLength = motion.declaredVideoLength else {
            guard motion.declared.promisesVideo else { return [] }
            return [Violation("the motion-photo metadata names no place for the video (no Item:Length, MicroVideoOffset or MotionPhoto_Data); \(found)",
                              files: [file.path], fixHint: hint)]
        }
        guard declaredOffset != offset || declaredLength != length else { return [] }
        return [Violation("the metadata (\(MotionPhotoReaderNames.claim(motion))) puts the video at byte \(declaredOffset) for \(declaredLength) bytes; \(found)",
                          files: [file.path], fixHint: hint)]
    }
}

/// How a motion photo's claim is named in messages.
enum MotionPhotoReaderNames {
    static func claim(_ m: MotionPhotoInfo) -> String {
        let d = m.declared
        if let i = d.videoItemIndex { return "Container:Directory item \(i + 1), Item:Length \(d.items[i].length.map(String.init) ?? "unstated")" }
        if let o = d.microVideoOffset { return "MicroVideoOffset \(o)" }
        if let l = d.samsungVideoLength { return "Samsung MotionPhoto_Data, \(l) bytes" }
        return "motion-photo XMP"
    }
}
