import Dispatch
import LiveLintEngine
import ScratchFiles

/// `livelint lint --reporter json`: one document shaped by `Schemas/lint.schema.json`:
/// `{"schemaVersion": 1, "tool", "root", "findings", "pairs", "summary", "files"}`, sorted keys,
/// 2-space indentation.
public enum LintJSONReporter {
    /// Bumped when a field changes meaning or disappears (adding fields does not bump it).
    public static let schemaVersion = 1

    public static func render(_ result: LintResult, toolVersion: String) -> String {
        var report = ""
        write(result, toolVersion: toolVersion) { report += $0 }
        return report
    }

    /// The bytes ``render(_:toolVersion:)`` returns, handed to `sink` in pieces of about
    /// `chunkSize` bytes (a threaded share's cut after a line: ``JSONBytes/texts(upTo:)``), in order, so that a library-sized report is never held whole: each
    /// file, pair and finding is written at once (issue 4, flat memory), a finding through its
    /// small JSON value, a file or pair straight into the text (``writeFile(_:into:)``). The keys
    /// are written in the writer's order (sorted by UTF-8 bytes).
    ///
    /// With more than one of `threads`, the files and the pairs are written
    /// `share` at a time on each (a tenth of a cached run was this report, on one core: issue
    /// 13), each share into bytes of its own, handed to `sink` in order: the same bytes.
    public static func write(_ result: LintResult, toolVersion: String, chunkSize: Int = 1 << 16,
                             threads: Int = 1, share: Int = 2_048, to sink: (String) -> Void) {
        var out = JSONBytes()
        out.bytes.reserveCapacity(min(max(chunkSize, 0), 1 << 20) + 1024)
        func flush() {
            guard !out.bytes.isEmpty else { return }
            sink(out.text)
            out.bytes.removeAll(keepingCapacity: true)
        }
        // A top-level member: `"key": ` on its own line, one level in.
        func member(_ key: String, first: Bool = false) {
            out.append(first ? "\n  " as StaticString : ",\n  ")
            out.quote(key)
            out.append(": ")
        }
        // A top-level array, one element at a time, exactly as `JSON.array` pretty-prints at depth 1.
        func array<Items: Collection>(_ items: Items, _ write: (Items.Element, inout JSONBytes) -> Void) {
            guard !items.isEmpty else { out.append("[]"); return }
            out.append("[")
            var first = true
            for item in items {
                out.append(first ? "\n    " as StaticString : ",\n    ")
                first = false
                write(item, &out)
                if out.count >= chunkSize { flush() }
            }
            out.append("\n  ]")
        }
        // `array` for a list whose elements can be read from several threads at once: `share`
        // of them on each thread, as many shares at a time as there are threads.
        func threadedArray<Items: RandomAccessCollection & Sendable>(_ items: Items,
                                                                    _ write: @escaping @Sendable (Items.Element, inout JSONBytes) -> Void)
        where Items.Index == Int {
            let share = max(1, share)
            guard threads > 1, items.count > share else { return array(items, write) }
            out.append("[")
            // Each thread's piece stays in its slot from one round to the next, keeping its room.
            let written = Slots<JSONBytes>(count: threads)
            var start = items.startIndex
            while start < items.endIndex {
                let round = start
                DispatchQueue.concurrentPerform(iterations: threads) { t in
                    let from = round + t * share, to = min(from + share, items.endIndex)
                    written.withSlot(t) { slot in
                        var piece = slot.take() ?? JSONBytes()
                        piece.bytes.removeAll(keepingCapacity: true)
                        if piece.bytes.capacity == 0 { piece.bytes.reserveCapacity(share * 128) }
                        for i in from..<max(from, to) {
                            piece.append(i == items.startIndex ? "\n    " as StaticString : ",\n    ")
                            write(items[i], &piece)
                        }
                        slot = piece
                    }
                }
                // Each piece (a few hundred KiB) handed on after what came before it, as texts of
                // at most about `chunkSize` bytes.
                for t in 0..<threads {
                    written.withSlot(t) { slot in
                        guard let piece = slot, !piece.bytes.isEmpty else { return }
                        flush()
                        piece.texts(upTo: chunkSize, sink)
                    }
                }
                start = min(items.endIndex, round + threads * share)
            }
            out.append("\n  ]")
        }
        // Top-level keys in UTF-8 byte order, as `JSON.object` sorts them.
        out.append("{")
        member("files", first: true)
        threadedArray(result.files, writeFile)
        member("findings")
        array(result.findings) { $1.append(finding($0), indent: 2) }
        member("pairs")
        threadedArray(result.pairs, writePair)
        member("root")
        out.append(JSON.string(result.root), indent: 1)
        member("schemaVersion")
        out.append(JSON.integer(schemaVersion), indent: 1)
        member("summary")
        out.append(summary(result.summary), indent: 1)
        member("tool")
        out.append(JSON.object(["name": .string("livelint"), "version": .string(toolVersion)]), indent: 1)
        out.append("\n}\n")
        flush()
    }

    static func finding(_ f: Finding) -> JSON {
        .object([
            "rule": .string(f.ruleID),
            "severity": .string(f.severity.rawValue),
            "message": .string(f.message),
            "files": .array(f.files.map(JSON.string)),
            "documentation": .string(f.documentation),
            "fixHint": .string(f.fixHint),
        ])
    }

    static func pair(_ p: PairRecord) -> JSON {
        var members: [String: JSON] = [
            "still": .string(p.still),
            "movie": .string(p.movie),
            "contentIdentifier": .string(p.contentIdentifier),
            "pairedBy": .string(p.pairedBy.rawValue),
        ]
        // Only when the run asked for consumers (`--consumers`): reports stay as they were otherwise.
        if !p.consumers.isEmpty {
            members["consumers"] = .object(p.consumers.mapValues { v in
                .object(["outcome": .string(v.outcome.rawValue), "reason": .string(v.reason), "fix": .string(v.fix)])
            })
        }
        if let sidecar = p.sidecar { members["sidecar"] = .string(sidecar) }
        return .object(members)
    }

    static func summary(_ s: LintSummary) -> JSON {
        var members: [String: JSON] = [
            "files": .integer(s.files), "pairs": .integer(s.pairs), "errors": .integer(s.errors),
            "warnings": .integer(s.warnings), "infos": .integer(s.infos), "baselined": .integer(s.baselined),
        ]
        if !s.consumers.isEmpty {
            members["consumers"] = .object(s.consumers.mapValues { counts in
                .object(Dictionary(uniqueKeysWithValues: ConsumerOutcome.allCases.map { ($0.rawValue, JSON.integer(counts[$0] ?? 0)) }))
            })
        }
        return .object(members)
    }

    /// ``file(_:)`` as it writes two levels deep in the report, written straight into `out`:
    /// a report lists every file and pair of the library, and building a dictionary for each and
    /// sorting its keys was most of the reporter's time (issue 13). The keys go in their sorted
    /// order; the tests hold the two to the same bytes.
    static func writeFile(_ f: ScannedFile, into out: inout JSONBytes) {
        field("error", f.error, first: true, into: &out)
        field("format", f.format.rawValue, into: &out)
        field("kind", f.kind.rawValue, into: &out)
        field("path", f.path, into: &out)
        if let sidecar = f.sidecar { field("sidecar", sidecar, into: &out) }
        out.append("\n    }")
    }

    /// ``pair(_:)`` as it writes two levels deep in the report (see ``writeFile(_:into:)``); a
    /// pair with consumers' verdicts takes the general path.
    static func writePair(_ p: PairRecord, into out: inout JSONBytes) {
        guard p.consumers.isEmpty else {
            out.append(pair(p), indent: 2)
            return
        }
        field("contentIdentifier", p.contentIdentifier, first: true, into: &out)
        field("movie", p.movie, into: &out)
        field("pairedBy", p.pairedBy.rawValue, into: &out)
        if let sidecar = p.sidecar { field("sidecar", sidecar, into: &out) }
        field("still", p.still, into: &out)
        out.append("\n    }")
    }

    /// One `"key": value` of an object two levels deep (a string, or `null`), opening the object
    /// when `first`, as `JSON.object` pretty-prints it there.
    private static func field(_ key: StaticString, _ value: String?, first: Bool = false, into out: inout JSONBytes) {
        out.append(first ? "{\n      " as StaticString : ",\n      ")
        out.append("\"")
        out.append(key)
        out.append("\": ")
        if let value { out.quote(value) } else { out.append("null") }
    }

    static func file(_ f: ScannedFile) -> JSON {
        var members: [String: JSON] = [
            "path": .string(f.path),
            "kind": .string(f.kind.rawValue),
            "format": .string(f.format.rawValue),
            "error": .string(f.error),
        ]
        // Only for a file a Takeout sidecar describes: other reports stay as they were.
        if let sidecar = f.sidecar { members["sidecar"] = .string(sidecar) }
        return .object(members)
    }
}

/// `livelint lint --reporter jsonl`: one finding per line (the JSON reporter's finding object
/// plus `"type": "finding"`), then one `"type": "summary"` line carrying the summary counts and
/// the tool version. Keys sorted, one compact object per line.
public enum LintJSONLinesReporter {
    public static func render(_ result: LintResult, toolVersion: String) -> String {
        var out = ""
        write(result, toolVersion: toolVersion) { out += $0 }
        return out
    }

    /// The lines ``render(_:toolVersion:)`` returns, handed to `sink` about `chunkSize` bytes at a
    /// time, in order: a report of a finding on every file of a library is never held whole.
    public static func write(_ result: LintResult, toolVersion: String, chunkSize: Int = 1 << 16, to sink: (String) -> Void) {
        Pieces.write(size: chunkSize, to: sink) { add in
            for f in result.findings { add(with(LintJSONReporter.finding(f), "type", .string("finding")).compact() + "\n") }
            var summary = with(LintJSONReporter.summary(result.summary), "type", .string("summary"))
            summary = with(summary, "schemaVersion", .integer(LintJSONReporter.schemaVersion))
            summary = with(summary, "tool", .object(["name": .string("livelint"), "version": .string(toolVersion)]))
            add(summary.compact() + "\n")
        }
    }

    private static func with(_ object: JSON, _ key: String, _ value: JSON) -> JSON {
        guard case .object(var members) = object else { return object }
        members[key] = value
        return .object(members)
    }
}
