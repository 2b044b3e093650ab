import ScratchFiles

/// What a file brings to its bucket's key (``BucketOutcomes``): `key`, a hash of everything the
/// engine reads of it (its record, checked by the cache, and its display path), and `mark`, a
/// hash of its display path alone, which cuts the buckets (``Partition/assign(_:target:mark:release:)``):
/// a file changed in place changes its bucket's key but not where the buckets end.
public struct FileKey: Hashable, Sendable, BitwiseCopyable {
    /// 0: unknown (no record was made, or the file has what records do not carry, a Takeout
    /// sidecar): its bucket's outcome is neither looked up nor kept.
    public var key: UInt64
    public var mark: UInt32

    public init(key: UInt64, mark: UInt32) {
        self.key = key
        self.mark = mark
    }

    /// A file whose key is not known.
    public static let unknown = FileKey(key: 0, mark: 0)
}

/// A bucket's key: two 64-bit hashes, of different multipliers, of its files' keys in order and
/// the run's ``BucketOutcomes/seed``.
public struct BucketKey: Hashable, Sendable {
    public var high: UInt64
    public var low: UInt64

    public init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// The key of the files `keys` (in order), under `seed`; nil when one of them is unknown.
    static func of(_ keys: some Sequence<FileKey>, seed: UInt64) -> BucketKey? {
        var high = seed ^ 0x6A09_E667_F3BC_C908, low = seed ^ 0xBB67_AE85_84CA_A73B
        var count: UInt64 = 0
        for file in keys {
            guard file.key != 0 else { return nil }
            high = mix(high ^ file.key, by: Mix.golden)
            low = mix(low &+ file.key, by: 0xC2B2_AE3D_27D4_EB4F)
            count += 1
        }
        return BucketKey(high: mix(high ^ count, by: Mix.golden), low: mix(low &+ count, by: 0xC2B2_AE3D_27D4_EB4F))
    }

    @inline(__always) private static func mix(_ x: UInt64, by multiplier: UInt64) -> UInt64 {
        Mix.spread(x &* multiplier)
    }
}

/// Where a library-sized run keeps each bucket's outcome, so that a later run does not pair and
/// check again a bucket none of whose files changed (issue 13: a cached run's engine).
///
/// A bucket's outcome (its pairs, what the pair and scan rules find in it, the consumers' verdicts
/// and the media its pairs carry) depends only on its files and the engine's configuration: it is kept under a key
/// made of its files' keys (``FileKey``, from their records and display paths) and `seed`, which
/// the caller makes from ``LintEngine/outcomeSignature`` and the build (and, as the media a
/// pair carries come from its records, whether they keep the movie's timeline). A bucket with a
/// file whose key is unknown is neither looked up nor kept; one with a `.livp` archive is not kept.
public protocol BucketOutcomes: AnyObject, Sendable {
    /// What the keys start from: the engine's configuration and the build.
    var seed: UInt64 { get }
    /// A bucket with more findings than this keeps no outcome (``BucketOutcome/findingsLimit``,
    /// less in the tests): its findings go to disk as they are found, and would otherwise be held.
    var findingsLimit: Int { get }
    /// The outcome kept under `key` (as ``keep(_:under:)`` was given it), if any.
    func outcome(under key: BucketKey) -> [UInt8]?
    /// Keeps `outcome` under `key`.
    func keep(_ outcome: [UInt8], under key: BucketKey)
}

/// A bucket's outcome as ``BucketOutcomes`` keeps it: its pairs by their halves' places among the
/// bucket's files (in pairing's order), what their records hold beyond them (the consumers'
/// verdicts, the media: a ``PairExtras/Entry``'s bytes, by pair), the verdicts counted, and what
/// its scan and pair rules found (in the order they were found). (What keeps it checks the bytes
/// whole: ``OutcomeCache`` a checksum of them.)
public struct BucketOutcome {
    /// The layout: the first byte. Another is not read (it is looked up again, and replaced).
    static let format: UInt8 = 1

    /// The most findings a bucket's outcome holds (by default: ``BucketOutcomes/findingsLimit``;
    /// a quarter of what the findings' sorter holds before it writes them to disk), and the most
    /// pairs (1 MiB as the outcome holds them: a bucket four times the target, which only one
    /// group of that many files makes) and bytes of what they carry beyond their halves: a larger
    /// bucket keeps none, so that an outcome never holds what grows with a library. (With 4,096
    /// findings, a cached run on 50,000 pairs every one broken peaked 7.5 MiB higher, 46 MiB:
    /// the findings held while collected, encoded, written and read back.)
    public static let findingsLimit = 1_024
    static let pairsLimit = 65_536
    static let extrasLimit = 4 << 20

    var spans: [PairList.Span] = []
    var findings: [Finding] = []
    /// The pairs that hold anything beyond their halves, by their index in ``spans``, in order.
    var extras: [(pair: Int, entry: [UInt8])] = []
    var verdicts: LintEngine.OutcomeCounts = [:]

    init() {}

    /// The bytes of ``extras``' entries so far.
    var extrasBytes = 0

    /// True while it holds no more than the limits allow (`findings` of them).
    func fits(findings limit: Int) -> Bool {
        findings.count <= limit && spans.count <= Self.pairsLimit && extrasBytes <= Self.extrasLimit
    }

    /// How many of its pairs are complete (both halves: ``PairList/isComplete(_:)``).
    var complete: Int { spans.reduce(0) { $0 + ($1.isComplete ? 1 : 0) } }

    func encoded(files: Int) -> [UInt8] {
        var w = RecordWriter()
        w.byte(Self.format)
        w.count(files)
        w.count(spans.count)
        for span in spans {
            w.number(UInt64(span.still + 1))
            w.number(UInt64(span.movie + 1))
            w.byte(Self.methods.firstIndex(of: span.method).map(UInt8.init) ?? 0)
        }
        w.count(extras.count)
        for (pair, entry) in extras {
            w.count(pair)
            w.blob(entry)
        }
        let counted = verdicts.flatMap { id, counts in counts.map { (id, $0.key, $0.value) } }
            .sorted { ($0.0, $0.1) < ($1.0, $1.1) }
        w.count(counted.count)
        for (id, verdict, n) in counted { w.bytes += Self.countedVerdict(id, verdict, n) }
        w.count(findings.count)
        var one: [UInt8] = []
        for finding in findings {
            one.removeAll(keepingCapacity: true)
            finding.encode(into: &one)
            w.blob(one)
        }
        return w.bytes
    }

    /// The outcome `bytes` hold for a bucket of `files` files; nil when they hold another
    /// layout, another count of files, a half outside the bucket or in two pairs, an archive's
    /// pair (never kept), an entry beyond a pair that does not decode, or a verdict counted twice.
    init?(decoding bytes: UnsafeRawBufferPointer, files: Int) {
        var r = RecordReader(bytes: bytes)
        guard r.byte() == Self.format, r.count() == files, let spans = r.count(), spans <= files else { return nil }
        self.spans.reserveCapacity(spans)
        var taken = [Bool](repeating: false, count: files)
        func take(_ place: UInt64) -> Bool {
            guard place > 0 else { return true }
            guard place <= UInt64(files), !taken[Int(place) - 1] else { return false }
            taken[Int(place) - 1] = true
            return true
        }
        for _ in 0..<spans {
            guard let still = r.number(), let movie = r.number(), still + movie > 0, take(still), take(movie),
                  let method = r.byte(), Int(method) < Self.methods.count, Self.methods[Int(method)] != .archive
            else { return nil }
            self.spans.append(PairList.Span(still: Int32(still) - 1, movie: Int32(movie) - 1, method: Self.methods[Int(method)]))
        }
        guard let extras = r.count(), extras <= spans else { return nil }
        for _ in 0..<extras {
            // Each pair's index inside the pairs, after the one before; an entry that decodes to
            // something (a check never keeps an empty one).
            guard let pair = r.number(), pair < UInt64(spans), self.extras.last.map({ pair > UInt64($0.pair) }) ?? true,
                  let entry = r.blob(), entry.withUnsafeBytes({ PairExtras.Entry(decoding: $0)?.extra != nil })
            else { return nil }
            self.extras.append((Int(pair), entry))
        }
        guard let counted = r.count() else { return nil }
        for _ in 0..<counted {
            guard let id = r.string(), let code = r.byte(), Int(code) < ConsumerOutcome.allCases.count, let n = r.count(),
                  verdicts[id]?[ConsumerOutcome.allCases[Int(code)]] == nil else { return nil }
            verdicts[id, default: [:]][ConsumerOutcome.allCases[Int(code)]] = n
        }
        guard let count = r.count() else { return nil }
        findings.reserveCapacity(count)
        for _ in 0..<count {
            guard let slice = r.slice(), let finding = Finding(decoding: slice) else { return nil }
            findings.append(finding)
        }
        guard r.atEnd else { return nil }
    }

    /// A verdict counted, as the layout writes it: the consumer, the outcome's code, the count.
    static func countedVerdict(_ id: String, _ verdict: ConsumerOutcome, _ n: Int) -> [UInt8] {
        var w = RecordWriter()
        w.string(id)
        w.byte(UInt8(ConsumerOutcome.allCases.firstIndex(of: verdict) ?? 0))
        w.count(n)
        return w.bytes
    }

    /// The pairing methods by their code in the layout (`.archive` never: such buckets are not kept).
    private static let methods: [PairingMethod] = [.contentIdentifier, .name, .unpaired, .archive]
}
