import LiveModel

/// How serious a finding is. Ordered: `info` < `warning` < `error`.
public enum Severity: String, Sendable, Codable, CaseIterable, Comparable {
    case info, warning, error

    /// 0, 1, 2 from `info` up (the order, and where a count by severity keeps each).
    var rank: Int {
        switch self {
        case .info: return 0
        case .warning: return 1
        case .error: return 2
        }
    }

    /// The severity of `rank`; nil for none.
    init?(rank: Int) {
        switch rank {
        case 0: self = .info
        case 1: self = .warning
        case 2: self = .error
        default: return nil
        }
    }
    public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
}

/// One problem a rule found. Paths in `files` are relative to the scanned root.
public struct Finding: Sendable, Hashable {
    /// The rule's public identifier (`identifier-mismatch`).
    public var ruleID: String
    public var severity: Severity
    /// What is wrong, quoting the offending values.
    public var message: String
    /// Every file involved, sorted.
    public var files: [String]
    /// How to fix it, kept apart from the message.
    public var fixHint: String?
    /// Where the rule is documented (`docs/rules/<id>.md` or a URL).
    public var documentation: String
    /// The edit `livelint fix` makes for it (``Violation/repair``): held in memory for `fix`,
    /// never written into a report.
    public var repair: Repair?

    public init(ruleID: String, severity: Severity, message: String, files: [String],
                fixHint: String? = nil, documentation: String, repair: Repair? = nil) {
        self.ruleID = ruleID
        self.severity = severity
        self.message = message
        self.files = files
        self.fixHint = fixHint
        self.documentation = documentation
        self.repair = repair
    }
}

/// How a still and a movie were tied together.
public enum PairingMethod: String, Sendable, Codable, BitwiseCopyable {
    /// Both halves carry the same content identifier.
    case contentIdentifier = "content-identifier"
    /// Same (or export-style) file name stem, identifiers absent or not matching anything.
    case name
    /// A lone half: nothing to pair it with.
    case unpaired
    /// Both halves are members of one `.livp` archive.
    case archive
}

/// A pair (or a lone half) as the lint saw it.
public struct PairRecord: Sendable, Hashable {
    public var still: String?
    public var movie: String?
    public var contentIdentifier: String?
    public var pairedBy: PairingMethod
    /// What the halves carry, for reports that draw the pair (HTML); filled only when a scan is
    /// asked for it (``LivePair/media``), nil otherwise. Not written into JSON reports.
    public var media: PairMedia? {
        get { rare?.value.media }
        set { rare = Rare.boxed(media: newValue, consumers: consumers, sidecar: sidecar) }
    }
    /// Each requested consumer's verdict (``Consumer``), by consumer id; empty unless the run
    /// asked for consumers (`lint --consumers`), and then written at `pairs[].consumers`.
    public var consumers: [String: ConsumerVerdict] {
        get { rare?.value.consumers ?? [:] }
        set { rare = Rare.boxed(media: media, consumers: newValue, sidecar: sidecar) }
    }
    /// The Google Takeout sidecar describing the pair: the still's, else the movie's (Takeout
    /// writes one for the still only); written at `pairs[].sidecar` when there is one.
    public var sidecar: String? {
        get { rare?.value.sidecar }
        set { rare = Rare.boxed(media: media, consumers: consumers, sidecar: newValue) }
    }
    /// What only some runs or some pairs fill (HTML media, verdicts, a sidecar), out of line and
    /// nil when all of it is empty: a result lists every pair of the library, 64 bytes each
    /// instead of 88 (issue 13). ``PairRecords`` keeps only this beside a scan's pairs.
    var rare: Boxed<Rare>?

    struct Rare: Sendable, Hashable {
        var media: PairMedia?
        var consumers: [String: ConsumerVerdict]
        var sidecar: String?
        static func boxed(media: PairMedia?, consumers: [String: ConsumerVerdict], sidecar: String?) -> Boxed<Rare>? {
            media == nil && consumers.isEmpty && sidecar == nil
                ? nil : Boxed(Rare(media: media, consumers: consumers, sidecar: sidecar))
        }
    }

    public init(still: String?, movie: String?, contentIdentifier: String?, pairedBy: PairingMethod,
                media: PairMedia? = nil, consumers: [String: ConsumerVerdict] = [:], sidecar: String? = nil) {
        self.still = still
        self.movie = movie
        self.contentIdentifier = contentIdentifier
        self.pairedBy = pairedBy
        self.rare = Rare.boxed(media: media, consumers: consumers, sidecar: sidecar)
    }
}

/// Every file the scan looked at, so CI can tell what was read and what was skipped.
public struct ScannedFile: Sendable, Hashable {
    public var path: String
    public var kind: FileKind
    public var format: ContainerFormat
    /// Why the file could not be read, or nil.
    public var error: String? {
        get { rare?.value.error }
        set { rare = Rare.boxed(error: newValue, sidecar: sidecar) }
    }
    /// The Google Takeout sidecar that describes the file, when one sits beside it.
    public var sidecar: String? {
        get { rare?.value.sidecar }
        set { rare = Rare.boxed(error: error, sidecar: newValue) }
    }
    /// What most files leave empty, out of line (nil when all of it is): a result lists every
    /// file of the library, 32 bytes each instead of 56 (issue 13).
    private var rare: Boxed<Rare>?

    private struct Rare: Sendable, Hashable {
        var error: String?
        var sidecar: String?
        static func boxed(error: String?, sidecar: String?) -> Boxed<Rare>? {
            error == nil && sidecar == nil ? nil : Boxed(Rare(error: error, sidecar: sidecar))
        }
    }

    public init(path: String, kind: FileKind, format: ContainerFormat, error: String? = nil, sidecar: String? = nil) {
        self.path = path
        self.kind = kind
        self.format = format
        self.rare = Rare.boxed(error: error, sidecar: sidecar)
    }
}

public struct LintSummary: Sendable, Hashable {
    public var files: Int
    public var pairs: Int
    public var errors: Int
    public var warnings: Int
    public var infos: Int
    /// Findings the baseline accepted (not in `findings`).
    public var baselined: Int
    /// Per requested consumer id, how many pairs and lone halves get each outcome; empty unless
    /// the run asked for consumers, and never empty when a pair has verdicts (the text report
    /// reads no pair of a result with neither findings nor these).
    public var consumers: [String: [ConsumerOutcome: Int]] = [:]
    public init(files: Int, pairs: Int, errors: Int, warnings: Int, infos: Int, baselined: Int = 0) {
        self.files = files
        self.pairs = pairs
        self.errors = errors
        self.warnings = warnings
        self.infos = infos
        self.baselined = baselined
    }
}

/// The whole outcome of a lint run, in a deterministic (sorted) order.
public struct LintResult: Sendable, Hashable {
    /// Display name of what was scanned (the root folder, or "." for several paths).
    public var root: String
    public var files: ScannedFiles
    public var pairs: PairRecords
    public var findings: Findings
    public var summary: LintSummary

    public init(root: String, files: [ScannedFile], pairs: [PairRecord], findings: [Finding], summary: LintSummary) {
        self.init(root: root, files: ScannedFiles(files), pairs: PairRecords(pairs), findings: Findings(findings), summary: summary)
    }

    public init(root: String, files: ScannedFiles, pairs: PairRecords, findings: Findings, summary: LintSummary) {
        self.root = root
        self.files = files
        self.pairs = pairs
        self.findings = findings
        self.summary = summary
    }

    /// The exit code a CI job gates on: 1 when any finding is at or above `failOn`, else 0.
    public func exitCode(failOn: Severity) -> Int32 {
        Severity.allCases.contains { $0 >= failOn && findings.count(of: $0) > 0 } ? 1 : 0
    }
}

/// What a reporter needs to know of a rule (SARIF `tool.driver.rules`, text legends).
/// The engine's full rule description produces it; reporters never see rule code.
public struct RuleSummary: Sendable, Hashable {
    public var id: String
    public var name: String
    public var summary: String
    public var defaultSeverity: Severity
    public var documentation: String
    public init(id: String, name: String, summary: String, defaultSeverity: Severity, documentation: String) {
        self.id = id
        self.name = name
        self.summary = summary
        self.defaultSeverity = defaultSeverity
        self.documentation = documentation
    }
}
