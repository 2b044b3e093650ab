import LiveModel
import ScratchFiles

/// What each pair's record holds beyond its pair (``PairRecord/Rare``: the consumers' verdicts,
/// the HTML report's media, the sidecar), by pair index, or nothing for any pair.
///
/// A scan that keeps its summaries on disk keeps these there too, in pair order, read back a
/// chunk at a time as the reports go through the pairs: `lint --consumers` and the HTML report
/// held each pair's verdicts and drawing, 505 MiB on a million files (issue 13).
struct PairExtras: Sendable {
    private enum Storage: Sendable {
        case none
        case held([Boxed<PairRecord.Rare>?])
        case file(RecordFile<Entry>)
    }
    private var storage: Storage

    /// Nothing for any pair.
    static let none = PairExtras(storage: .none)

    private init(storage: Storage) { self.storage = storage }

    /// One entry a pair, in memory.
    init(_ held: [Boxed<PairRecord.Rare>?]) { storage = held.isEmpty ? .none : .held(held) }

    /// One entry a pair, in a temporary file of `directory` (nil, or none can be made there: in memory).
    init(writingIn directory: String?) { storage = .file(RecordFile(in: directory, prefix: "livelint-pair-extras")) }

    /// True when the entries are in a temporary file (for the tests).
    var spills: Bool {
        if case .file(let file) = storage { return file.spills }
        return false
    }

    /// Adds the next pair's entry (to a list made ``init(writingIn:)``).
    func append(_ extra: Boxed<PairRecord.Rare>?) {
        guard case .file(let file) = storage else { preconditionFailure("entries are appended to a list made to be written") }
        file.append(Entry(extra: extra))
    }

    /// Adds the next pair's entry as ``Entry/encoded(_:)`` wrote it (not decoded on the way).
    func append(encoded: [UInt8]) {
        guard case .file(let file) = storage else { preconditionFailure("entries are appended to a list made to be written") }
        file.append(encoded: encoded)
    }

    /// Pair `i`'s entry; nil when it holds nothing beyond its pair (or no pair does).
    subscript(i: Int) -> Boxed<PairRecord.Rare>? {
        get {
            switch storage {
            case .none: return nil
            case .held(let held): return held[i]
            case .file(let file): return file[i].extra
            }
        }
    }

    /// Replaces pair `i`'s entry (of `count` pairs; a result changed by hand), all entries then
    /// held in memory: in place, when they were held already and nothing else shares them.
    mutating func replace(_ i: Int, with extra: Boxed<PairRecord.Rare>?, count: Int) {
        var held: [Boxed<PairRecord.Rare>?]
        switch storage {
        case .none: held = Array(repeating: nil, count: count)
        case .held(let entries): held = entries
        case .file(let file):
            held = []
            held.reserveCapacity(count)
            file.forEach { held.append($0.extra) }
        }
        storage = .none  // the array's only owner is `held` now
        held[i] = extra
        storage = .held(held)
    }

    /// A pair's entry as written: a flag (none, or an entry), then the sidecar, the verdicts
    /// (sorted by consumer) and the media, each field as ``RecordWriter`` writes it.
    struct Entry: ScratchRecord {
        var extra: Boxed<PairRecord.Rare>?

        init(extra: Boxed<PairRecord.Rare>?) { self.extra = extra }

        /// The bytes ``encode(into:)`` writes for `extra`.
        static func encoded(_ extra: Boxed<PairRecord.Rare>?) -> [UInt8] {
            var bytes: [UInt8] = []
            Entry(extra: extra).encode(into: &bytes)
            return bytes
        }

        func encode(into bytes: inout [UInt8]) {
            var w = RecordWriter(bytes: consume bytes)
            if let rare = extra?.value {
                w.byte(1)
                w.optional(rare.sidecar)
                w.count(rare.consumers.count)
                for (id, verdict) in rare.consumers.sorted(by: { $0.key < $1.key }) {
                    w.string(id)
                    w.byte(UInt8(ConsumerOutcome.allCases.firstIndex(of: verdict.outcome) ?? 0))
                    w.string(verdict.reason)
                    w.optional(verdict.fix)
                }
                if let m = rare.media {
                    w.byte(1)
                    w.optional(m.stillIdentifier)
                    w.optional(m.movieIdentifier)
                    w.optional(m.stillWidth.map(Int64.init))
                    w.optional(m.stillHeight.map(Int64.init))
                    w.optional(m.movieDuration)
                    w.count(m.edits.count)
                    for e in m.edits {
                        w.double(e.start)
                        w.double(e.duration)
                        w.optional(e.mediaTime)
                        w.double(e.rate)
                    }
                    w.optional(m.stillImageTime)
                    w.optional(m.stillImageTimeValue)
                    w.optional(m.videoCodec)
                } else {
                    w.byte(0)
                }
            } else {
                w.byte(0)
            }
            bytes = w.bytes
        }

        init?(decoding bytes: UnsafeRawBufferPointer) {
            var r = RecordReader(bytes: bytes)
            switch r.byte() {
            case 0:
                guard r.atEnd else { return nil }
                extra = nil
                return
            case 1: break
            default: return nil
            }
            guard let sidecar = r.optionalString(), let n = r.count() else { return nil }
            var consumers: [String: ConsumerVerdict] = [:]
            for _ in 0..<n {
                guard let id = r.string(), let rank = r.byte(), Int(rank) < ConsumerOutcome.allCases.count,
                      let reason = r.string(), let fix = r.optionalString() else { return nil }
                consumers[id] = ConsumerVerdict(ConsumerOutcome.allCases[Int(rank)], reason, fix: fix)
            }
            var media: PairMedia?
            switch r.byte() {
            case 0: break
            case 1:
                guard let stillIdentifier = r.optionalString(), let movieIdentifier = r.optionalString(),
                      let width = r.optionalSigned(), let height = r.optionalSigned(), let duration = r.optionalDouble(),
                      let edits = r.count() else { return nil }
                var segments: [PairMedia.EditSegment] = []
                for _ in 0..<edits {
                    guard let start = r.double(), let length = r.double(), let mediaTime = r.optionalDouble(),
                          let rate = r.double() else { return nil }
                    segments.append(PairMedia.EditSegment(start: start, duration: length, mediaTime: mediaTime, rate: rate))
                }
                guard let time = r.optionalDouble(), let value = r.optionalSigned(), let codec = r.optionalString() else { return nil }
                media = PairMedia(stillIdentifier: stillIdentifier, movieIdentifier: movieIdentifier,
                                  stillWidth: width.map { Int(truncatingIfNeeded: $0) }, stillHeight: height.map { Int(truncatingIfNeeded: $0) },
                                  movieDuration: duration, edits: segments, stillImageTime: time, stillImageTimeValue: value,
                                  videoCodec: codec)
            default: return nil
            }
            guard r.atEnd else { return nil }
            extra = PairRecord.Rare.boxed(media: media, consumers: consumers, sidecar: sidecar)
        }
    }
}
