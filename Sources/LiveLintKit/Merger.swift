import Foundation
import LiveLintEngine
import LiveModel
import Rules

/// An input line `merge` cannot use: where it is and why.
public struct MergeError: Error, Sendable, CustomStringConvertible {
    public var source: String
    public var line: Int
    public var reason: String
    public var description: String { "\(source):\(line): \(reason)" }
}

/// Folds the JSON Lines outputs of lint jobs (`--format jsonl` reports and `--identifiers`
/// lists) into one result: every finding of every job, plus a `duplicate-identifier` finding for
/// each identifier more than one still, or more than one movie, carries in different jobs.
public struct Merger {
    private var findings = Set<Finding>()
    private var summary = LintSummary(files: 0, pairs: 0, errors: 0, warnings: 0, infos: 0)
    /// identifier → kind → the files carrying it, each as (job, path): a job is a shard, or an
    /// input file for unsharded runs, whose paths are relative to their own roots (two jobs over
    /// `2019/` and `2020/` may both list `IMG_0001.JPG`, and those are two files).
    private var identifiers: [String: [FileKind: Set<JobPath>]] = [:]

    private struct JobPath: Hashable {
        var job: String
        var path: String
    }

    /// Adds every line of one input. Blank lines are skipped; anything else must be a JSON object
    /// with `"type"` of `finding`, `summary` or `identifier`.
    public init() {}

    public mutating func add(_ text: String, source: String) throws(MergeError) {
        var number = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            number += 1
            if line.allSatisfy(\.isWhitespace) { continue }
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
                findings.insert(Finding(ruleID: rule, severity: severity, message: message, files: files,
                                        fixHint: object["fixHint"] as? String,
                                        documentation: object["documentation"] as? String ?? ""))
            case "summary":
                for key in ["files", "pairs", "baselined"] where !(object[key] is Int) && object[key] != nil {
                    throw MergeError(source: source, line: number, reason: "summary field '\(key)' is not a number")
                }
                summary.files += object["files"] as? Int ?? 0
                summary.pairs += object["pairs"] as? Int ?? 0
                summary.baselined += object["baselined"] as? Int ?? 0
            case "identifier":
                guard let id = object["id"] as? String, let kindText = object["kind"] as? String,
                      let kind = FileKind(rawValue: kindText), kind == .still || kind == .movie,
                      let path = object["path"] as? String else {
                    throw MergeError(source: source, line: number, reason: "an identifier record without id, kind (still or movie) or path")
                }
                // A job is its shard; an unsharded run (`1/1`) is told apart by its file name.
                let shard = object["shard"] as? String
                let job = shard == nil || shard == "1/1" ? source : "shard " + (shard ?? "")
                identifiers[id, default: [:]][kind, default: []].insert(JobPath(job: job, path: path))
            default:
                throw MergeError(source: source, line: number, reason: "unknown record type '\(type)'")
            }
        }
    }

    /// The findings of every job plus the cross-job duplicates, sorted, with the summary recounted.
    public func result() -> LintResult {
        var all = findings
        let documentation = builtinRegistry.rule("duplicate-identifier")?.description.documentation ?? ""
        for (id, kinds) in identifiers {
            let stills = kinds[.still] ?? [], movies = kinds[.movie] ?? []
            guard stills.count > 1 || movies.count > 1 else { continue }
            let jobs = Set((stills.union(movies)).map(\.job))
            guard jobs.count > 1 else { continue }  // one job saw them all and reported them itself
            let order = { (a: JobPath, b: JobPath) in (a.path, a.job) < (b.path, b.job) }
            let listed = (stills.sorted(by: order) + movies.sorted(by: order)).map { "'\($0.path)' (\($0.job))" }
            all.insert(Finding(
                ruleID: "duplicate-identifier", severity: .error,
                message: "identifier '\(id)' is carried by \(count(stills.count, "still")) and \(count(movies.count, "movie")) "
                    + "across \(jobs.count) jobs: " + listed.joined(separator: ", "),
                files: Array(Set(stills.union(movies).map(\.path))).sorted(),
                fixHint: "Remove the duplicate copies; if they are different captures, give each still and its movie an identifier of their own.",
                documentation: documentation))
        }
        let sorted = all.sorted(by: LintEngine.findingOrder)
        var s = summary
        s.errors = sorted.filter { $0.severity == .error }.count
        s.warnings = sorted.filter { $0.severity == .warning }.count
        s.infos = sorted.filter { $0.severity == .info }.count
        return LintResult(root: ".", files: [], pairs: [], findings: sorted, summary: s)
    }

    private func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }
}
