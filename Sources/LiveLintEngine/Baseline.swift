import Foundation
import LiveModel
import ScratchFiles

/// Findings accepted as they are, so that only new ones fail CI (model: SwiftLint `Baseline`).
///
/// Stored as JSON with sorted keys — `{"findings": [{"files": [...], "message": "...", "rule": "..."}],
/// "version": 1}` — with paths relative to the scanned root. A finding is baselined when an entry has
/// the same rule and the same files; each entry accepts one finding (exact message matches are
/// used up first), so a second, new problem of the same rule on the same files still shows.
public struct Baseline: Sendable, Hashable {
    public struct Entry: Codable, Sendable, Hashable, Comparable {
        public var rule: String
        public var files: [String]
        public var message: String

        public init(rule: String, files: [String], message: String) {
            self.rule = rule
            self.files = files.sorted()
            self.message = message
        }

        public static func < (a: Entry, b: Entry) -> Bool {
            if a.rule != b.rule { return a.rule < b.rule }
            if a.files != b.files { return a.files.lexicographicallyPrecedes(b.files) }
            return a.message < b.message
        }
    }

    public static let currentVersion = 1
    /// Sorted.
    public let entries: [Entry]
    /// How many times each entry is there: what ``filter(_:keep:)`` takes matches from, counted
    /// once (a scan filters each file's findings as it reads them).
    private let counts: [Entry: Int]

    public init(entries: [Entry]) {
        self.entries = entries.sorted()
        counts = entries.reduce(into: [:]) { $0[$1, default: 0] += 1 }
    }

    /// A baseline accepting exactly these findings.
    public init(findings: some Sequence<Finding>) {
        self.init(entries: findings.map { Entry(rule: $0.ruleID, files: $0.files, message: $0.message) })
    }

    private struct File: Codable {
        var version: Int
        var findings: [Entry]
    }

    /// The JSON text, sorted keys, one field per line, ending in a newline.
    public func jsonData() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Encoding plain strings and arrays cannot fail.
        let data = (try? encoder.encode(File(version: Self.currentVersion, findings: entries))) ?? Data()
        return data + Data("\n".utf8)
    }

    /// Writes the baseline to `path` (atomically).
    public func write(to path: String) throws(BaselineError) {
        do {
            try jsonData().write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw BaselineError(file: path, reason: "cannot write: \(error.localizedDescription)")
        }
    }

    /// Reads a baseline written by ``write(to:)``.
    public static func load(from path: String) throws(BaselineError) -> Baseline {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw BaselineError(file: path, reason: "cannot read: \(error.localizedDescription)")
        }
        return try decode(data, source: path)
    }

    /// Parses baseline JSON; `source` names it in errors.
    public static func decode(_ data: Data, source: String) throws(BaselineError) -> Baseline {
        let file: File
        do {
            file = try JSONDecoder().decode(File.self, from: data)
        } catch {
            throw BaselineError(file: source, reason: "not a livelint baseline: \(error)")
        }
        guard file.version == currentVersion else {
            throw BaselineError(file: source, reason: "unsupported version \(file.version) (this livelint reads version \(currentVersion))")
        }
        return Baseline(entries: file.findings)
    }

    /// Splits findings into those the baseline does not know (kept, in their order) and a count of
    /// those it accepts.
    public func filter(_ findings: [Finding]) -> (kept: [Finding], baselined: Int) {
        var kept: [Finding] = []
        let baselined = filter(findings) { kept.append($0) }
        return (kept, baselined)
    }

    /// What a loose match compares: an entry without its message.
    private struct Subject: Hashable { var rule: String; var files: [String] }

    /// True when it accepts no finding.
    public var isEmpty: Bool { entries.isEmpty }

    /// Calls `keep` with each of `findings` the baseline does not know, in their order, and
    /// returns how many it accepts: each entry accepts one finding, exact matches (rule, files,
    /// message) first, then what is left of it by rule and files only (the message may quote a
    /// value that changed). Two passes over `findings` (a list on disk is read, not held).
    public func filter(_ findings: some Collection<Finding>, keep: (Finding) -> Void) -> Int {
        var counts = counts
        // First pass: what the exact matches leave of each entry.
        var left = counts
        for f in findings {
            let e = Entry(rule: f.ruleID, files: f.files, message: f.message)
            if let n = left[e], n > 0 { left[e] = n - 1 }
        }
        var loose: [Subject: Int] = [:]
        for (e, n) in left where n > 0 { loose[Subject(rule: e.rule, files: e.files), default: 0] += n }
        // Second pass: the exact matches taken again, as the first pass took them; the rest matched
        // loosely against what they left.
        var baselined = 0
        for f in findings {
            let e = Entry(rule: f.ruleID, files: f.files, message: f.message)
            if let n = counts[e], n > 0 {
                counts[e] = n - 1
                baselined += 1
            } else if let n = loose[Subject(rule: e.rule, files: e.files)], n > 0 {
                loose[Subject(rule: e.rule, files: e.files)] = n - 1
                baselined += 1
            } else {
                keep(f)
            }
        }
        return baselined
    }
}

extension Baseline {
    /// The baseline accepting exactly `findings`, as ``jsonData()`` writes it, byte for byte,
    /// handed to `sink` in pieces of about 64 KiB: its entries sorted on disk in `scratch`
    /// (runs of `runSize`; nil: in memory), not held (issue 13: `lint --write-baseline` on a
    /// library with a finding on every file held each entry, its count and the whole text).
    public static func writeJSON(accepting findings: some Sequence<Finding>, scratch: String?, runSize: Int? = nil,
                                 to sink: (String) -> Void) {
        let entries = SortedRecords<Entry>(spillingIn: scratch, prefix: "livelint-baseline", runSize: runSize, by: <)
        for f in findings { entries.append(Entry(rule: f.ruleID, files: f.files, message: f.message)) }
        // JSONEncoder's pretty printing with sorted keys: two spaces an indent, " : " after a
        // key, an empty array as its brackets on lines of their own around an empty line.
        var out = "{\n  \"findings\" : ["
        var first = true
        entries.forEachInOrder { entry in
            out += first ? "\n    {\n      \"files\" : [" : ",\n    {\n      \"files\" : ["
            first = false
            if entry.files.isEmpty { out += "\n" }
            for (i, file) in entry.files.enumerated() {
                out += i == 0 ? "\n        " : ",\n        "
                quote(file, into: &out)
            }
            out += "\n      ],\n      \"message\" : "
            quote(entry.message, into: &out)
            out += ",\n      \"rule\" : "
            quote(entry.rule, into: &out)
            out += "\n    }"
            if out.utf8.count >= 1 << 16 {
                sink(out)
                out = ""
            }
        }
        out += first ? "\n\n  ],\n  \"version\" : \(currentVersion)\n}\n" : "\n  ],\n  \"version\" : \(currentVersion)\n}\n"
        sink(out)
    }

    /// `s` as JSONEncoder quotes it without escaping slashes: `"` and `\\` behind a backslash,
    /// control characters as `\\b \\t \\n \\f \\r` or `\\u00xx` (lower-case hex), all else as it is
    /// (swift-foundation's `JSONWriter`). Not the reports' `JSON.quote`, which also escapes DEL.
    static func quote(_ s: String, into out: inout String) {
        out += "\""
        // Most strings (paths, rule ids) need no escape: as they are.
        guard s.utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }) else {
            out += s
            out += "\""
            return
        }
        var plain = s.unicodeScalars.startIndex
        for i in s.unicodeScalars.indices {
            let c = s.unicodeScalars[i]
            guard c.value < 0x20 || c == "\"" || c == "\\" else { continue }
            out.unicodeScalars.append(contentsOf: s.unicodeScalars[plain..<i])
            plain = s.unicodeScalars.index(after: i)
            switch c {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\u{8}": out += "\\b"
            case "\t": out += "\\t"
            case "\n": out += "\\n"
            case "\u{C}": out += "\\f"
            case "\r": out += "\\r"
            default:
                let hex = String(c.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            }
        }
        out.unicodeScalars.append(contentsOf: s.unicodeScalars[plain...])
        out += "\""
    }
}

extension Baseline.Entry: ScratchRecord {
    /// The rule, the files and the message, each string behind its length.
    public func encode(into bytes: inout [UInt8]) {
        var w = RecordWriter(bytes: consume bytes)
        w.string(rule)
        w.count(files.count)
        for file in files { w.string(file) }
        w.string(message)
        bytes = w.bytes
    }

    public init?(decoding bytes: UnsafeRawBufferPointer) {
        var r = RecordReader(bytes: bytes)
        guard let rule = r.string(), let n = r.count() else { return nil }
        var files: [String] = []
        files.reserveCapacity(n)
        for _ in 0..<n {
            guard let file = r.string() else { return nil }
            files.append(file)
        }
        guard let message = r.string(), r.atEnd else { return nil }
        // Sorted when it was made: kept as it is.
        self.rule = rule
        self.files = files
        self.message = message
    }
}

/// A baseline file that cannot be read or written.
public struct BaselineError: Error, Sendable, Hashable, CustomStringConvertible {
    public var file: String
    public var reason: String
    public init(file: String, reason: String) {
        self.file = file
        self.reason = reason
    }
    public var description: String { "\(file): \(reason)" }
}
