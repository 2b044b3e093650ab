import LiveModel
import ScratchFiles

/// A result's findings, in the report's order (``LintResult/findings``): held in memory, or, for
/// a run that made a run's worth of them or more (``FindingSorter``), in a temporary file read
/// back a chunk at a time (``RecordFile``). A library with a finding on every file held them all,
/// about 600 bytes each (issue 13: 313 MiB for 500,000 stills without their movies).
public struct Findings: RandomAccessCollection, Sendable, Hashable, ExpressibleByArrayLiteral {
    private enum Storage: Sendable {
        case held([Finding])
        /// With how many of each severity it holds (info, warning, error), counted as it was
        /// written: a count that would read the whole file back otherwise.
        case file(RecordFile<Finding>, bySeverity: [Int])
    }
    private let storage: Storage

    public init(_ findings: [Finding]) { storage = .held(findings) }
    public init(arrayLiteral elements: Finding...) { storage = .held(elements) }
    init(_ file: RecordFile<Finding>, bySeverity: [Int]) { storage = .file(file, bySeverity: bySeverity) }

    /// How many findings are of `severity`.
    public func count(of severity: Severity) -> Int {
        switch storage {
        case .held(let findings): return findings.reduce(0) { $0 + ($1.severity == severity ? 1 : 0) }
        case .file(_, let bySeverity): return bySeverity[Severity.allCases.firstIndex(of: severity)!]
        }
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int {
        switch storage {
        case .held(let findings): return findings.count
        case .file(let file, _): return file.count
        }
    }

    public subscript(i: Int) -> Finding {
        switch storage {
        case .held(let findings): return findings[i]
        case .file(let file, _): return file[i]
        }
    }

    /// True when the findings are in a temporary file (for the tests).
    public var spills: Bool {
        if case .file(let file, _) = storage { return file.spills }
        return false
    }

    public static func == (a: Findings, b: Findings) -> Bool { a.elementsEqual(b) }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        for finding in self { hasher.combine(finding) }
    }
}

/// A run's findings as its rules make them, put in the report's order
/// (``LintEngine/findingOrder(_:_:)``, findings equal in it in the order they were made) at the end
/// (``sorted(baseline:distinct:)``). Once there are a run's worth (4,096), with a folder given, they
/// go to a temporary file as they come, and so do the sorted ones (``Findings``).
public final class FindingSorter: @unchecked Sendable {
    private let records: SortedRecords<Finding>
    private let directory: String?

    /// Findings sorted in memory, or, with `directory`, in runs of `runSize` (nil: 4,096) written
    /// there.
    public init(spillingIn directory: String? = nil, runSize: Int? = nil) {
        self.directory = directory
        records = SortedRecords(spillingIn: directory, prefix: "livelint-findings", runSize: runSize,
                                by: LintEngine.findingOrder)
    }

    public var count: Int { records.count }

    public func append(_ finding: Finding) { records.append(finding) }
    public func append(contentsOf findings: some Sequence<Finding>) { records.append(contentsOf: findings) }

    /// The findings in order, without those `baseline` accepts (and how many it accepted), and,
    /// when `distinct`, each finding once (`livelint merge`: jobs that overlap report a finding
    /// twice); once.
    public func sorted(baseline: Baseline? = nil, distinct: Bool = false) -> (findings: Findings, baselined: Int) {
        // On disk when the unsorted ones were (a run was written).
        let spills = records.spills
        var bySeverity = [0, 0, 0]
        let sorted = RecordFile<Finding>(in: spills ? directory : nil, prefix: "livelint-findings")
        // The findings equal in the order to the last one given: alike ones come together.
        var alike: [Finding] = []
        records.forEachInOrder { finding in
            if distinct {
                if let last = alike.last, LintEngine.findingOrder(last, finding) { alike.removeAll(keepingCapacity: true) }
                if alike.contains(finding) { return }
                alike.append(finding)
            }
            sorted.append(finding)
            bySeverity[Severity.allCases.firstIndex(of: finding.severity)!] += 1
        }
        guard let baseline, !baseline.isEmpty else { return (Findings(sorted, bySeverity: bySeverity), 0) }
        let all = Findings(sorted, bySeverity: bySeverity)
        bySeverity = [0, 0, 0]
        let kept = RecordFile<Finding>(in: spills ? directory : nil, prefix: "livelint-findings")
        let baselined = baseline.filter(all) { finding in
            kept.append(finding)
            bySeverity[Severity.allCases.firstIndex(of: finding.severity)!] += 1
        }
        return (Findings(kept, bySeverity: bySeverity), baselined)
    }
}

// MARK: - Encoding

extension Finding: ScratchRecord {
    /// The rule id, severity, message, files, fix hint, documentation and repair, each string
    /// behind its length.
    public func encode(into bytes: inout [UInt8]) {
        var w = RecordWriter(bytes: consume bytes)
        w.string(ruleID)
        w.byte(severity == .info ? 0 : severity == .warning ? 1 : 2)
        w.string(message)
        w.count(files.count)
        for file in files { w.string(file) }
        w.optional(fixHint)
        w.string(documentation)
        switch repair {
        case nil: w.byte(0)
        case let .setIdentifier(still, movie): w.byte(1); w.optional(still); w.optional(movie)
        case let .addStillImageTime(at): w.byte(2); w.optional(at)
        case let .replaceStillImageTime(at): w.byte(3); w.optional(at)
        case let .retagVideoSampleEntry(from, to): w.byte(4); w.string(from); w.string(to)
        }
        bytes = w.bytes
    }

    public init?(decoding bytes: UnsafeRawBufferPointer) {
        var r = RecordReader(bytes: bytes)
        guard let ruleID = r.string(), let severity = r.byte().flatMap({ [Severity.info, .warning, .error].element(at: Int($0)) }),
              let message = r.string(), let n = r.count() else { return nil }
        var files: [String] = []
        files.reserveCapacity(n)
        for _ in 0..<n {
            guard let file = r.string() else { return nil }
            files.append(file)
        }
        guard let fixHint = r.optionalString(), let documentation = r.string(), let tag = r.byte() else { return nil }
        var repair: Repair?
        switch tag {
        case 0: repair = nil
        case 1:
            guard let still = r.optionalString(), let movie = r.optionalString() else { return nil }
            repair = .setIdentifier(still: still, movie: movie)
        case 2, 3:
            guard let at = r.optionalDouble() else { return nil }
            repair = tag == 2 ? .addStillImageTime(at: at) : .replaceStillImageTime(at: at)
        case 4:
            guard let from = r.string(), let to = r.string() else { return nil }
            repair = .retagVideoSampleEntry(from: from, to: to)
        default: return nil
        }
        guard r.atEnd else { return nil }
        self.init(ruleID: ruleID, severity: severity, message: message, files: files, fixHint: fixHint,
                  documentation: documentation, repair: repair)
    }
}

private extension Array {
    func element(at i: Int) -> Element? { indices.contains(i) ? self[i] : nil }
}
