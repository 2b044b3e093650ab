import LiveLintEngine
import LiveModel
import LiveWriters

/// What a repair does to each consumer's verdict: the pair as the readers saw it, and as the plan
/// will leave it (the plan's identifier in both halves, the still-image-time track it adds, the
/// sample entry it retags), judged by every consumer. Nothing is read or written: the edits are
/// applied to the model, as the writers will apply them to the bytes (and the writers' own
/// verification checks that they did).
public enum RepairPrediction {
    /// One consumer whose outcome the repair changes.
    public struct Change: Sendable, Hashable, CustomStringConvertible {
        public var consumer: String
        public var displayName: String
        public var before: ConsumerOutcome
        public var after: ConsumerOutcome
        /// The consumer's reason after the repair.
        public var reason: String

        /// `Immich: split → live`.
        public var description: String { "\(displayName): \(before.rawValue) → \(after.rawValue)" }
    }

    /// `still` and `movie` as `plan` leaves them.
    public static func repaired(still: MediaFile, movie: MediaFile, plan: RepairPlan) -> (still: MediaFile, movie: MediaFile) {
        var s = still, m = movie
        if plan.editStill {
            var info = s.still ?? StillInfo()
            var note = info.makerNote ?? AppleMakerNoteInfo(version: 1, tags: [])
            note.tags.removeAll { $0.tag == AppleMakerNoteInfo.contentIdentifierTag }
            note.tags.append(MakerAppleTag(tag: AppleMakerNoteInfo.contentIdentifierTag, name: "ContentIdentifier",
                                           aliases: ["MediaGroupUUID"], type: "string",
                                           count: UInt32(plan.identifier.utf8.count + 1), value: .string(plan.identifier)))
            info.makerNote = note
            s.still = info
        }
        if let edit = plan.movieEdit, var info = m.movie {
            if let id = edit.contentIdentifier {
                info.keys.removeAll { $0.key == MovieInfo.contentIdentifierKey }
                info.keys.append(QuickTimeKey(key: MovieInfo.contentIdentifierKey, dataType: 1, value: .string(id)))
            }
            if let at = edit.stillImageTime {
                info.stillImageTime = StillImageTime(trackID: info.stillImageTime?.trackID ?? 0, value: Int64(edit.stillImageTimeValue),
                                                     dataType: edit.stillImageTimeDataType, payloadSize: 1, sampleCount: 1,
                                                     mediaTime: 0, presentationTime: at, movieDuration: info.duration)
            }
            if let format = edit.videoSampleEntryFormat { info.video?.codec = format }
            m.movie = info
        }
        return (s, m)
    }

    /// The consumers whose outcome on `pair` changes when `plan` is applied, judged against
    /// `library` (the facts of the library as read; the other files do not change).
    public static func changes(pair: LivePair, plan: RepairPlan, library: LibraryFacts,
                               consumers: [any Consumer] = Consumers.all) -> [Change] {
        guard let still = pair.still, let movie = pair.movie else { return [] }
        let after = repaired(still: still, movie: movie, plan: plan)
        let fixed = LivePair(still: after.still, movie: after.movie, pairedBy: pair.pairedBy, archive: pair.archive)
        return consumers.compactMap { consumer in
            let was = consumer.verdict(on: pair, in: library), now = consumer.verdict(on: fixed, in: library)
            guard was.outcome != now.outcome else { return nil }
            return Change(consumer: consumer.id, displayName: consumer.displayName, before: was.outcome, after: now.outcome, reason: now.reason)
        }
    }
}
