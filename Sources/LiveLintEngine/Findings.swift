import LiveModel
import ScratchFiles

/// A result's findings, in the report's order (``LintResult/findings``): held in memory, or, for
/// a run that made a run's worth of them or more (``FindingSorter``), in a temporary file read
/// back a chunk at a time (``RecordFile``). A library with a finding on every file held them all,
/// about 600 bytes each (issue 13: 313 MiB for 500,000 stills without their movies).
public struct Findings: RandomAccessCollection, Sendable, Hashable, ExpressibleByArrayLiteral {
    enum Storage: Sendable {
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
        case .file(_, let bySeverity): return bySeverity[severity.rank]
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

    /// Goes through the findings in order, a list on disk a chunk at a time (one read, one lock,
    /// for 64 findings).
    public struct Iterator: IteratorProtocol {
        let storage: Storage
        let end: Int
        var index = 0
        var chunk: [Finding] = []
        var base = 0

        public mutating func next() -> Finding? {
            guard index < end else { return nil }
            defer { index += 1 }
            switch storage {
            case .held(let findings): return findings[index]
            case .file(let file, _):
                if index - base >= chunk.count {
                    base = index / file.chunk * file.chunk
                    chunk = file.records(inChunk: index / file.chunk)
                }
                return chunk[index - base]
            }
        }
    }

    public func makeIterator() -> Iterator { Iterator(storage: storage, end: count) }

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
        // On disk when the unsorted ones were (a run was written), else held.
        let directory = records.spills ? directory : nil
        var sorted = Made(in: directory)
        // The findings equal in the order to the last one given: alike ones come together.
        var alike: [Finding] = []
        records.forEachInOrder { finding in
            if distinct {
                if let last = alike.last, LintEngine.findingOrder(last, finding) { alike.removeAll(keepingCapacity: true) }
                if alike.contains(finding) { return }
                alike.append(finding)
            }
            sorted.append(finding)
        }
        guard let baseline, !baseline.isEmpty else { return (sorted.findings, 0) }
        var kept = Made(in: directory)
        let baselined = baseline.filter(sorted.findings, scratch: directory, runSize: records.runSize) { kept.append($0) }
        return (kept.findings, baselined)
    }

    /// Findings listed in order as they come, in a temporary file in `directory` (nil: held),
    /// counted by severity.
    private struct Made {
        var file: RecordFile<Finding>?
        var held: [Finding] = []
        var bySeverity = [0, 0, 0]

        init(in directory: String?) { file = directory.map { RecordFile(in: $0, prefix: "livelint-findings") } }

        mutating func append(_ finding: Finding) {
            if let file { file.append(finding) } else { held.append(finding) }
            bySeverity[finding.severity.rank] += 1
        }

        var findings: Findings { file.map { Findings($0, bySeverity: bySeverity) } ?? Findings(held) }
    }
}

// MARK: - Encoding

extension Finding: ScratchRecord {
    /// The rule id, severity, message, files, fix hint, documentation and repair, each string
    /// behind its length.
    public func encode(into bytes: inout [UInt8]) {
        var w = RecordWriter(bytes: consume bytes)
        w.string(ruleID)
        w.byte(UInt8(severity.rank))
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
        guard let ruleID = r.string(), let severity = r.byte().flatMap({ Severity(rank: Int($0)) }),
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

