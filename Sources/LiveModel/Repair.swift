/// An edit `livelint fix` can make to a pair, carried by the finding that asks for it.
///
/// A rule that flags something `fix` can mend attaches the repair to its violation (the engine's
/// `Violation.repair`): the rule decides what is broken and says how to mend it, and `fix` applies
/// what the enabled rules attached instead of detecting the problems a second time, so a rule and
/// `fix` cannot disagree (astral-sh/ruff: a `Diagnostic` carries its `Fix`). The planner in
/// LiveWriters only chooses the winning identifier and merges one pair's repairs into one plan.
///
/// The type lives here, in the model, so that rules and LiveWriters both see it without
/// LiveWriters depending on the engine.
public enum Repair: Sendable, Hashable {
    /// Give both halves one content identifier (still makernote 0x0011, movie
    /// `com.apple.quicktime.content.identifier`). The candidates are the identifiers the halves
    /// carry now, as the rule saw them (nil: none); the planner chooses the winner, or a fresh
    /// upper-case UUID when neither has one.
    case setIdentifier(still: String?, movie: String?)
    /// Add a still-image-time track to a movie that has none, its sample presented at `at`
    /// seconds; `at` is nil when the movie has no duration to place one in (nothing can be added).
    case addStillImageTime(at: Double?)
    /// Replace an unusable still-image-time track (not exactly one sample presented inside the
    /// movie, or not a one-byte int8) with a good one presented at `at` seconds (nil as above).
    case replaceStillImageTime(at: Double?)
    /// Rewrite the video sample entry's four-character code, leaving the samples alone
    /// (`hev1` → `hvc1`: the same HEVC bitstream, which Apple players accept only as `hvc1`).
    case retagVideoSampleEntry(from: String, to: String)
}

extension Repair {
    /// The identifiers the repair offers the pair (both of ``setIdentifier(still:movie:)``'s that
    /// are there; none for the others): the plan picks one of them, or makes a fresh one.
    public var offeredIdentifiers: [String] {
        guard case let .setIdentifier(still, movie) = self else { return [] }
        return [still, movie].compactMap { $0 }
    }

    /// The still-image-time repair of `movie`: add a track when it has none, else replace it.
    /// The sample is presented where the old one was when that lay inside the movie (only its type
    /// was wrong), else in the middle of the movie; nowhere (`at: nil`) when the movie has no
    /// duration. Every rule about the still-image-time attaches this one value, so rules that
    /// flag the same track ask for the same edit.
    public static func stillImageTime(for movie: MovieInfo) -> Repair {
        let duration = movie.duration
        let sit = movie.stillImageTime
        var at: Double?
        if duration > 0 {
            let kept = sit?.presentationTime.flatMap { $0 >= 0 && $0 < duration ? $0 : nil }
            at = kept ?? duration / 2
        }
        return sit == nil ? .addStillImageTime(at: at) : .replaceStillImageTime(at: at)
    }
}

extension Repair: CustomStringConvertible {
    /// What the repair does, for people (rule pages, `livelint rules ID`).
    public var description: String {
        func quoted(_ id: String?) -> String { id.map { "'\($0)'" } ?? "none" }
        func seconds(_ t: Double) -> String { MetadataValue.format((t * 1000).rounded() / 1000) + " s" }
        switch self {
        case let .setIdentifier(still, movie):
            return "give both halves one identifier (the still has \(quoted(still)), the movie \(quoted(movie)))"
        case let .addStillImageTime(at):
            return at.map { "add a still-image-time track at \(seconds($0))" }
                ?? "add a still-image-time track (the movie has no duration to place it in)"
        case let .replaceStillImageTime(at):
            return at.map { "replace the still-image-time track with one at \(seconds($0))" }
                ?? "replace the still-image-time track (the movie has no duration to place it in)"
        case let .retagVideoSampleEntry(from, to):
            return "retag the video sample entry '\(from)' as '\(to)' (samples unchanged)"
        }
    }
}
