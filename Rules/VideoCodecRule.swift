import LiveLintEngine
import LiveModel

/// The video is not H.264 `avc1` or HEVC `hvc1`.
public struct VideoCodecRule: PairRule {
    public init() {}

    static let accepted: Set<String> = ["avc1", "hvc1"]

    public static let description = RuleDescription(
        identifier: "video-codec",
        name: "Video codec",
        summary: "The movie's video is not H.264 (avc1) or HEVC tagged hvc1.",
        rationale: """
            Flags a Live Photo movie whose video sample entry is anything but `avc1` (H.264) or \
            `hvc1` (HEVC with its parameter sets in the sample entry) — for example `hev1`, `avc3`, \
            or another codec — and a Live Photo movie with no video track at all.

            Camera movies are H.264 (older devices) or HEVC tagged `hvc1` (live-photo-format.md, \
            "The movie", **High**). HEVC tagged `hev1` does not play in Apple players (**Medium**), \
            which is what ffmpeg writes by default when it re-encodes to HEVC.

            The video embedded in an Android motion photo is checked too; there AV1 (`av01`) is \
            also accepted, as the Motion Photo 1.0 specification allows it (live-photo-format.md, \
            "Motion photos").
            """,
        defaultSeverity: .error,
        readsMetadata: [.motionPhoto],
        triggeringExamples: [
            RuleExample(.pair(still: .jpeg(), movie: .mov(codec: "hev1")),
                        .finding(on: "IMG_0001.MOV", saying: "'hev1'"),
                        repairs: [.retagVideoSampleEntry(from: "hev1", to: "hvc1")],
                        note: "`fix` retags the sample entry as hvc1; the samples stay as they are."),
            RuleExample(.pair(still: .jpeg(), movie: .mov(codec: "av01")),
                        .finding(on: "IMG_0001.MOV", saying: "'av01'"),
                        note: "Another codec needs a re-encode: no repair is attached."),
            RuleExample(.pair(still: .jpeg(), movie: .mov(codec: nil)),
                        .finding(on: "IMG_0001.MOV", saying: "no video track")),
            RuleExample(.files(.motionPhoto(codec: "hev1")),
                        .finding(on: "PXL_0001.MP.jpg", saying: "embedded", "'hev1'"),
                        note: "The video embedded in a motion photo."),
        ],
        nonTriggeringExamples: [
            RuleExample(.pair(still: .jpeg(), movie: .mov(codec: "hvc1"))),
            RuleExample(.pair(still: .jpeg(), movie: .mov(codec: "avc1"))),
            RuleExample(.files(.mov("CLIP.MOV", id: nil, codec: "hev1")), note: "An ordinary video is not linted."),
            RuleExample(.files(.motionPhoto(codec: "av01")), note: "Motion photos may carry AV1."),
        ]
    )

    public func check(pair: LivePair) -> [Violation] {
        checkMovie(pair) + checkMotionPhoto(pair)
    }

    /// The video embedded in the still, when the still is a motion photo.
    private func checkMotionPhoto(_ pair: LivePair) -> [Violation] {
        guard let (file, _, stream) = pair.motionPhotoVideo else { return [] }
        guard let video = stream else {
            return [Violation("the motion photo's embedded video has no video track", files: [file.path],
                              fixHint: "Convert the motion photo again from its original; its MP4 needs an H.264, HEVC or AV1 video track.")]
        }
        guard !Self.accepted.contains(video.codec), video.codec != "av01" else { return [] }
        return [Violation("the motion photo's embedded video's sample entry is '\(video.codec)'; motion photos use 'avc1', 'hvc1' or 'av01'",
                          files: [file.path],
                          fixHint: "Re-mux or re-encode the embedded video as H.264 (avc1) or HEVC (hvc1).")]
    }

    private func checkMovie(_ pair: LivePair) -> [Violation] {
        guard let file = pair.liveMovie, file.error == nil, let movie = file.movie else { return [] }
        guard let video = movie.video else {
            return [Violation("the movie has no video track", files: [file.path],
                              fixHint: "Export the original movie again; a Live Photo movie needs an H.264 or HEVC video track.")]
        }
        guard !Self.accepted.contains(video.codec) else { return [] }
        let name = video.codecName.map { " (\($0))" } ?? ""
        let hint: String
        switch video.codec {
        case "hev1":
            hint = "`livelint fix` re-tags the HEVC track as hvc1 without re-encoding, keeping the metadata keys and the still-image-time track."
        case "avc3":
            hint = "Re-mux the H.264 track as avc1 (parameter sets in the sample entry), keeping the metadata keys and the still-image-time track."
        default:
            hint = "Re-encode the video as H.264 (avc1) or HEVC (hvc1), keeping the metadata keys and the still-image-time track."
        }
        // Only `hev1` is mended (a retag; the samples stay): anything else needs a re-mux or a re-encode.
        let repair: Repair? = video.codec == "hev1" ? .retagVideoSampleEntry(from: "hev1", to: "hvc1") : nil
        return [Violation("the video's sample entry is '\(video.codec)'\(name); Live Photos use 'avc1' (H.264) or 'hvc1' (HEVC)",
                          files: [file.path], fixHint: hint, repair: repair)]
    }
}
