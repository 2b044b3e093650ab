import Foundation
import LiveModel

/// What `livelint fix` will do to one pair, decided from what the readers saw (no I/O).
public struct RepairPlan: Sendable {
    /// Where the identifier both halves will carry comes from.
    public enum Source: String, Sendable {
        /// Both halves already agree (or no enabled rule asks to change their identifiers).
        case agreed
        case still
        case movie
        /// Neither half has one worth keeping: a fresh upper-case UUID.
        case fresh
    }

    /// The identifier both halves carry after the repair.
    public var identifier: String
    public var identifierSource: Source
    /// Why that identifier was chosen, for people (nil when the halves already agree).
    public var reason: String?
    /// The still's makernote gets `identifier`.
    public var editStill: Bool
    /// The movie edit; nil when the movie stays as it is.
    public var movieEdit: LivePhotoMovieEdit?
    /// One line per change, for the plan printout ("movie: add a still-image-time track at 1.5 s").
    public var actions: [String]
    /// Problems the plan cannot repair (the pair is then left alone).
    public var blockers: [String]

    /// True when there is something to write and nothing blocks it.
    public var isRepairable: Bool { (editStill || movieEdit != nil) && blockers.isEmpty }
    /// True when the pair needs nothing.
    public var isClean: Bool { !editStill && movieEdit == nil && blockers.isEmpty }
}

/// Turns the repairs the rules attached to a pair's findings into one plan: a missing or
/// mismatched identifier, a missing (or unusable) still-image-time track, `hev1` video that Apple
/// players refuse. It does not look for problems itself (the rules found them, see ``Repair``):
/// it chooses the winning identifier, merges the repairs, and says what blocks writing.
public enum RepairPlanner {
    /// Plans the repair of `still` + `movie` (files as `MediaInspector` read them) from `repairs`,
    /// the repairs the enabled rules attached for this pair (`LintEngine.repairs(for:)`); no
    /// repairs, nothing to do (unless a half does not read: that blocks the pair, since it cannot
    /// be rewritten).
    ///
    /// Which identifier wins on a mismatch: an upper-case UUID beats a lower-case one, which beats
    /// anything that is not a UUID; on a tie the still's wins. Why the still: the movie is the
    /// half we rewrite byte-exactly (only `moov` metadata changes, in pure Swift), the still's
    /// Exif rewrite goes through exiv2 (a HEIC's Exif item is re-encoded and moved); and the still is
    /// the half photo libraries index (Photos, Immich and PhotoPrism key the pair on it).
    /// When only one half has an identifier, it is copied to the other; when neither does, a fresh
    /// upper-case UUID is made with `freshIdentifier`. The candidates are those the rule saw
    /// (``Repair/setIdentifier(still:movie:)``); without that repair each half keeps its own.
    public static func plan(still: MediaFile, movie: MediaFile, repairs: [Repair],
                            freshIdentifier: () -> String = { UUID().uuidString }) -> RepairPlan {
        var blockers: [String] = []
        if let e = still.error { blockers.append("the still does not read: \(e)") }
        if let e = movie.error { blockers.append("the movie does not read: \(e)") }
        // The first repair of each kind; rules that flag the same thing attach the same repair.
        var candidates: (still: String?, movie: String?)?
        var stillImageTime: (at: Double?, replacing: Bool)?
        var retag: (from: String, to: String)?
        for repair in repairs {
            switch repair {
            case let .setIdentifier(s, m):
                if candidates == nil { candidates = (s, m) }
            case let .addStillImageTime(at):
                if stillImageTime == nil { stillImageTime = (at, false) }
            case let .replaceStillImageTime(at):
                if stillImageTime == nil { stillImageTime = (at, true) }
            case let .retagVideoSampleEntry(from, to):
                if retag == nil { retag = (from, to) }
            }
        }
        func nonEmpty(_ id: String?) -> String? { id.flatMap { $0.isEmpty ? nil : $0 } }

        var identifier: String
        var source: RepairPlan.Source
        var reason: String?
        var editStill = false
        var edit = LivePhotoMovieEdit(contentIdentifier: nil, stillImageTime: nil)
        var editMovie = false
        var actions: [String] = []
        if let candidates {
            let s = nonEmpty(candidates.still), m = nonEmpty(candidates.movie)
            switch (s, m) {
            case let (s?, m?) where s == m:
                identifier = s
                source = .agreed
            case let (s?, m?):
                if rank(m) > rank(s) {
                    identifier = m
                    source = .movie
                    reason = "the movie's identifier wins: '\(m)' is \(rankName(m)), the still's '\(s)' is \(rankName(s))"
                } else {
                    identifier = s
                    source = .still
                    reason = rank(s) > rank(m)
                        ? "the still's identifier wins: '\(s)' is \(rankName(s)), the movie's '\(m)' is \(rankName(m))"
                        : "the still's identifier wins ('\(s)' over the movie's '\(m)'): photo libraries key the pair on the still, and the movie is the half rewritten byte-exactly"
                }
            case let (s?, nil):
                identifier = s
                source = .still
                reason = nonEmpty(still.still?.contentIdentifier) == nil
                    ? "the still carries '\(s)' only in XMP: its makernote and the movie get it"
                    : "only the still has an identifier ('\(s)'): the movie gets it"
            case let (nil, m?):
                identifier = m
                source = .movie
                reason = "only the movie has an identifier ('\(m)'): the still gets it"
            case (nil, nil):
                identifier = freshIdentifier()
                source = .fresh
                reason = "neither half has an identifier: both get a fresh one, '\(identifier)'"
            }
            // Compared with what the halves carry now: a candidate may come from elsewhere (the
            // still's XMP, identifier-only-in-xmp) and still have to be written.
            let stillNow = still.error == nil ? nonEmpty(still.still?.contentIdentifier) : s
            editStill = stillNow != identifier
            if editStill {
                actions.append("still: set makernote ContentIdentifier (0x0011) to '\(identifier)'" + (stillNow.map { " (was '\($0)')" } ?? " (had none)"))
                if ![.jpeg, .heic, .heif].contains(still.format) {
                    blockers.append("the still is \(still.format.rawValue.uppercased()); only JPEG and HEIC stills are written")
                }
            }
            if m != identifier {
                edit.contentIdentifier = identifier
                editMovie = true
                actions.append("movie: set com.apple.quicktime.content.identifier to '\(identifier)'" + (m.map { " (was '\($0)')" } ?? " (had none)"))
            }
        } else {
            // No rule asks for a new identifier: each half keeps its own, and the movie's is the
            // one a rewritten movie is verified against.
            let m = nonEmpty(movie.movie?.contentIdentifier)
            identifier = m ?? nonEmpty(still.still?.contentIdentifier) ?? ""
            source = .agreed
            if m == nil && (stillImageTime != nil || retag != nil) {
                blockers.append("the movie has no identifier, and no enabled rule asks to give it one")
            }
        }
        if let stillImageTime {
            if let at = stillImageTime.at {
                edit.stillImageTime = at
                editMovie = true
                let what = stillImageTime.replacing ? "replace the unusable still-image-time track" : "add a still-image-time track"
                actions.append("movie: \(what) (int8 -1) at \(MetadataValue.format((at * 1000).rounded() / 1000)) s")
            } else {
                blockers.append("the movie has no duration to place a still-image-time in")
            }
        }
        if let retag {
            edit.videoSampleEntryFormat = retag.to
            editMovie = true
            let codec = retag.from == "hev1" ? "HEVC" : "video"
            actions.append("movie: retag the \(codec) sample entry '\(retag.from)' as '\(retag.to)' (samples unchanged)")
        }
        // A half that does not read cannot be rewritten, so it blocks the pair even when no rule
        // asked for a repair (the rules leave unreadable halves to `unreadable-file`).
        let unreadable = still.error != nil || movie.error != nil
        return RepairPlan(identifier: identifier, identifierSource: source, reason: editStill || editMovie ? reason : nil,
                          editStill: editStill, movieEdit: editMovie ? edit : nil, actions: actions,
                          blockers: editStill || editMovie || unreadable ? blockers : [])
    }

    static func rank(_ s: String) -> Int {
        guard ContentIdentifier.isUUID(s) else { return 0 }
        return s == s.uppercased() ? 2 : 1
    }

    static func rankName(_ s: String) -> String {
        switch rank(s) {
        case 2: return "an upper-case UUID"
        case 1: return "a UUID in lower case"
        default: return "not a UUID"
        }
    }
}
