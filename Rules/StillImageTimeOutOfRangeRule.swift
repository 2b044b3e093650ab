import LiveLintEngine
import LiveModel

/// The still-image-time sample does not point inside the movie.
public struct StillImageTimeOutOfRangeRule: PairRule {
    public init() {}

    public static let description = RuleDescription(
        identifier: "still-image-time-out-of-range",
        name: "Still-image-time out of range",
        summary: "The still-image-time is presented before 0 s or at or after the movie's end, or its track has no sample or several.",
        rationale: """
            Flags a still-image-time track whose single sample is not presented inside the movie: \
            the presentation time, taken through the track's edit list, must be at least 0 and \
            before the movie's duration. A track with no sample, with several samples, or whose \
            edit list never presents its sample is flagged too.

            In every camera movie the sample's media time is 0 and the edit list does the work: an \
            empty edit lasting the offset, then a one-tick segment (live-photo-format.md, "Where the \
            still sits"). A time outside the movie points at no frame, so the still and the motion \
            disagree. Note that a reader ignoring `elst` would report 0 s everywhere; livelint reads \
            the edit list.
            """,
        defaultSeverity: .error,
        triggeringExamples: [
            RuleExample(.pair(still: .jpeg(), movie: .mov(stillImageTime: 3.2, duration: 3)),
                        .finding(on: "IMG_0001.MOV", saying: "3.2 s", "3 s"),
                        repairs: [.replaceStillImageTime(at: 1.5)],
                        note: "`fix` replaces the track with one presented in the middle of the movie."),
            RuleExample(.pair(still: .jpeg(), movie: .mov(stillImageTime: 3, duration: 3)),
                        .finding(on: "IMG_0001.MOV", saying: "3 s"),
                        repairs: [.replaceStillImageTime(at: 1.5)],
                        note: "The end of the movie is already outside it."),
            RuleExample(.pair(still: .jpeg(), movie: .mov(stillImageTime: -0.5)),
                        .finding(on: "IMG_0001.MOV", saying: "-0.5 s"),
                        repairs: [.replaceStillImageTime(at: 1.5)]),
            RuleExample(.pair(still: .jpeg(), movie: .mov(stillImageTime: .samples(0))),
                        .finding(on: "IMG_0001.MOV", saying: "no sample"),
                        repairs: [.replaceStillImageTime(at: 1.5)]),
            RuleExample(.pair(still: .jpeg(), movie: .mov(stillImageTime: .samples(2))),
                        .finding(on: "IMG_0001.MOV", saying: "2 samples"),
                        repairs: [.replaceStillImageTime(at: 1)],
                        note: "The first sample lies inside the movie: `fix` keeps its time."),
            RuleExample(.pair(still: .jpeg(), movie: .mov(stillImageTime: .notPresented)),
                        .finding(on: "IMG_0001.MOV", saying: "edit list"),
                        repairs: [.replaceStillImageTime(at: 1.5)]),
        ],
        nonTriggeringExamples: [
            RuleExample(.pair(still: .jpeg(), movie: .mov(stillImageTime: 0.48, duration: 1.2333)),
                        note: "The Lychee iPhone 6s movie: 0.48 s into a 1.23 s movie."),
            RuleExample(.pair(still: .jpeg(), movie: .mov(stillImageTime: 0, duration: 3)),
                        note: "Makers often put the sample at 0 s."),
            RuleExample(.pair(still: .jpeg(), movie: .mov(stillImageTime: nil)),
                        note: "No track at all is missing-still-image-time."),
        ]
    )

    public func check(pair: LivePair) -> [Violation] {
        guard let file = pair.liveMovie, file.error == nil, let movie = file.movie, let sit = movie.stillImageTime else { return [] }
        let track = "the still-image-time track (track \(sit.trackID))"
        let fix = "Give the track exactly one sample, presented (through the edit list) at the still's time inside the movie; or export the original movie again."
        if sit.sampleCount == 0 {
            return [Violation("\(track) has no sample", files: [file.path], fixHint: fix, repair: .stillImageTime(for: movie))]
        }
        if sit.sampleCount > 1 {
            return [Violation("\(track) has \(sit.sampleCount) samples; a Live Photo has exactly one", files: [file.path], fixHint: fix, repair: .stillImageTime(for: movie))]
        }
        guard let t = sit.presentationTime else {
            let media = sit.mediaTime.map { " (media time \(MetadataValue.format($0)) s)" } ?? ""
            return [Violation("\(track)'s edit list never presents its sample\(media)", files: [file.path], fixHint: fix, repair: .stillImageTime(for: movie))]
        }
        let duration = movie.duration > 0 ? movie.duration : sit.movieDuration
        guard t < 0 || t >= duration else { return [] }
        return [Violation(
            "\(track) is presented at \(MetadataValue.format(t)) s, outside the movie (0 s to \(MetadataValue.format(duration)) s)",
            files: [file.path], fixHint: fix, repair: .stillImageTime(for: movie))]
    }
}
