import Foundation
import LiveLintEngine
import LiveModel
import Rules
import ScratchFiles

/// An input line `merge` cannot use: where it is and why.
public struct MergeError: Error, Sendable, CustomStringConvertible {
    public var source: String
    public var line: Int
    public var reason: String
    public var description: String { "\(source):\(line): \(reason)" }
}

/// Folds the JSON Lines outputs of lint jobs (`--format jsonl` reports and `--identifiers`
/// lists) into one result: every finding of every job (each distinct one once), plus a
/// `duplicate-identifier` finding for each identifier more than one still, or more than one movie,
/// carries in different jobs.
///
/// Nothing it merges is held whole: inputs are read a line at a time (``add(reading:source:)``),
/// and the findings and the identifiers are sorted on disk past a run's worth (``FindingSorter``,
/// and `SortedRecords` by identifier), so merging the shards of a million files takes what one
/// shard's run does (issue 13).
public struct Merger {
    private let findings: FindingSorter
    private var summary = LintSummary(files: 0, pairs: 0, errors: 0, warnings: 0, infos: 0)
    /// Every still and movie carrying an identifier, as (identifier, kind, job, path): a job is a
    /// shard, or an input file for unsharded runs, whose paths are relative to their own roots
    /// (two jobs over `2019/` and `2020/` may both list `IMG_0001.JPG`, and those are two files).
    private let identifiers: SortedRecords<Carried>

    struct JobPath: Hashable {
        var job: String
        var path: String
    }

    /// One identifier record of an input.
    struct Carried: ScratchRecord {
        var id: String
        var isStill: Bool
        var job: JobPath

        func encode(into bytes: inout [UInt8]) {
            var w = RecordWriter(bytes: consume bytes)
            w.string(id)
            w.byte(isStill ? 1 : 0)
            w.string(job.job)
            w.string(job.path)
            bytes = w.bytes
        }

        init?(decoding bytes: UnsafeRawBufferPointer) {
            var r = RecordReader(bytes: bytes)
            guard let id = r.string(), let kind = r.byte(), kind <= 1, let job = r.string(), let path = r.string(), r.atEnd
            else { return nil }
            self.init(id: id, isStill: kind == 1, job: JobPath(job: job, path: path))
        }

        init(id: String, isStill: Bool, job: JobPath) {
            self.id = id
            self.isStill = isStill
            self.job = job
        }
    }

    /// A merger whose lists go to temporary files in `$TMPDIR` (else `/var/tmp`) past a run's
    /// worth of entries.
    public init() { self.init(scratch: ScanRecords.temporaryDirectory) }

    /// A merger whose lists go to temporary files in `scratch` past `runSize` entries (nil: the
    /// default runs; `scratch` nil: held in memory).
    public init(scratch: String?, runSize: Int? = nil) {
        findings = FindingSorter(spillingIn: scratch, runSize: runSize)
        identifiers = SortedRecords(spillingIn: scratch, prefix: "livelint-merge-ids", runSize: runSize) { $0.id < $1.id }
    }

    /// Adds every line of one input. Blank lines are skipped; anything else must be a JSON object
    /// with `"type"` of `finding`, `summary` or `identifier`.
    public mutating func add(_ text: String, source: String) throws(MergeError) {
        var chunk: Data? = Data(text.utf8)
        try add(chunks: {
            defer { chunk = nil }
            return chunk
        }, source: source)
    }

    /// Adds every line `handle` reads, to its end, 64 KiB at a time (a file, standard input).
    public mutating func add(reading handle: FileHandle, source: String) throws(MergeError) {
        try add(chunks: { try handle.read(upToCount: 1 << 16) }, source: source)
    }

    /// The longest line an input may have: a record of `lint`'s is a few KiB at most.
    static let maxLine = 64 << 20

    /// Adds the lines of the bytes `next` gives until it gives nil or nothing, split at each
    /// `\n` (a `\r` before it is whitespace to the JSON parser), each byte looked at once; a
    /// read that fails is told at the line it was reading.
    private mutating func add(chunks next: () throws -> Data?, source: String) throws(MergeError) {
        var pending: [UInt8] = []
        var scanned = 0  // bytes of `pending` known to hold no newline
        var number = 0
        while true {
            let chunk: Data?
            do { chunk = try next() } catch {
                throw MergeError(source: source, line: number + 1, reason: "cannot read: \(error.localizedDescription)")
            }
            guard let chunk, !chunk.isEmpty else { break }
            pending.append(contentsOf: chunk)
            var start = 0
            while let newline = pending[(start + scanned)...].firstIndex(of: 0x0A) {
                number += 1
                try add(line: Substring(String(decoding: pending[start..<newline], as: UTF8.self)), number: number, source: source)
                start = newline + 1
                scanned = 0
            }
            pending.removeSubrange(..<start)
            scanned = pending.count
            if pending.count > Self.maxLine {
                throw MergeError(source: source, line: number + 1, reason: "a line longer than \(Self.maxLine >> 20) MiB: not a livelint JSON Lines record")
            }
        }
        if !pending.isEmpty { try add(line: Substring(String(decoding: pending, as: UTF8.self)), number: number + 1, source: source) }
    }

    private mutating func add(line: Substring, number: Int, source: String) throws(MergeError) {
        if line.allSatisfy(\.isWhitespace) { return }
        guard let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any],
              let type = object["type"] as? String else {
            throw MergeError(source: source, line: number, reason: "not a livelint JSON Lines record")
        }
        switch type {
        case "finding":
            guard let rule = object["rule"] as? String, let severityText = object["severity"] as? String,
                  let severity = Severity(rawValue: severityText), let message = object["message"] as? String,
                  let files = object["files"] as? [String] else {
                throw MergeError(source: source, line: number, reason: "a finding without rule, severity, message or files")
            }
            findings.append(Finding(ruleID: rule, severity: severity, message: message, files: files,
                                    fixHint: object["fixHint"] as? String,
                                    documentation: object["documentation"] as? String ?? ""))
        case "summary":
            for key in ["files", "pairs", "baselined"] where !(object[key] is Int) && object[key] != nil {
                throw MergeError(source: source, line: number, reason: "summary field '\(key)' is not a number")
            }
            for (key, total) in [("files", \LintSummary.files), ("pairs", \.pairs), ("baselined", \.baselined)] {
                let (sum, overflow) = summary[keyPath: total].addingReportingOverflow(object[key] as? Int ?? 0)
                if overflow { throw MergeError(source: source, line: number, reason: "summary field '\(key)' is too large") }
                summary[keyPath: total] = sum
            }
        case "identifier":
            guard let id = object["id"] as? String, let kindText = object["kind"] as? String,
                  let kind = FileKind(rawValue: kindText), kind == .still || kind == .movie,
                  let path = object["path"] as? String else {
                throw MergeError(source: source, line: number, reason: "an identifier record without id, kind (still or movie) or path")
            }
            // A job is its shard; an unsharded run (`1/1`) is told apart by its file name.
            let shard = object["shard"] as? String
            let job = shard == nil || shard == "1/1" ? source : "shard " + (shard ?? "")
            identifiers.append(Carried(id: id, isStill: kind == .still, job: JobPath(job: job, path: path)))
        default:
            throw MergeError(source: source, line: number, reason: "unknown record type '\(type)'")
        }
    }

    /// The findings of every job (each distinct one once) plus the cross-job duplicates, sorted,
    /// with the summary recounted. Once: the lists are let go as they are read.
    public consuming func result() -> LintResult {
        let documentation = builtinRegistry.rule("duplicate-identifier")?.description.documentation ?? ""
        var id: String?
        var stills = Set<JobPath>(), movies = Set<JobPath>()
        func duplicates() {
            defer { stills = []; movies = [] }
            guard let id, stills.count > 1 || movies.count > 1 else { return }
            let jobs = Set((stills.union(movies)).map(\.job))
            guard jobs.count > 1 else { return }  // one job saw them all and reported them itself
            let order = { (a: JobPath, b: JobPath) in (a.path, a.job) < (b.path, b.job) }
            let listed = (stills.sorted(by: order) + movies.sorted(by: order)).map { "'\($0.path)' (\($0.job))" }
            findings.append(Finding(
                ruleID: "duplicate-identifier", severity: .error,
                message: "identifier '\(id)' is carried by \(count(stills.count, "still")) and \(count(movies.count, "movie")) "
                    + "across \(jobs.count) jobs: " + listed.joined(separator: ", "),
                files: Array(Set(stills.union(movies).map(\.path))).sorted(),
                fixHint: "Remove the duplicate copies; if they are different captures, give each still and its movie an identifier of their own.",
                documentation: documentation))
        }
        identifiers.forEachInOrder { carried in
            if carried.id != id {
                duplicates()
                id = carried.id
            }
            if carried.isStill { stills.insert(carried.job) } else { movies.insert(carried.job) }
        }
        duplicates()
        let sorted = findings.sorted(distinct: true).findings
        var s = summary
        s.errors = sorted.count(of: .error)
        s.warnings = sorted.count(of: .warning)
        s.infos = sorted.count(of: .info)
        return LintResult(root: ".", files: ScannedFiles([]), pairs: PairRecords([]), findings: sorted, summary: s)
    }

    private func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }
}
