import Foundation
import LiveModel
import ScratchFiles

/// Findings accepted as they are, so that only new ones fail CI (model: SwiftLint `Baseline`).
///
/// Stored as JSON with sorted keys — `{"findings": [{"files": [...], "message": "...", "rule": "..."}],
/// "version": 1}` — with paths relative to the scanned root. A finding is baselined when an entry has
/// the same rule and the same files; each entry accepts one finding (exact message matches are
/// used up first), so a second, new problem of the same rule on the same files still shows.
///
/// Not held (issue 13: a baseline of 500,000 entries held 399.5 MiB as a dictionary): the entries
/// are read a piece of the file at a time (``BaselineJSON``), sorted on disk in a scan's temporary
/// folder (``SortedRecords``) and kept there, in order, read again by each filter, which joins
/// them with the findings sorted the same way (``filter(_:scratch:runSize:keep:)``). What is held is
/// a 64-bit hash of each entry's rule and files (8 bytes an entry), for counting a file's findings
/// as it is read (``countAccepted(_:)``, the progress line's count).
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

        /// Same rule and files (what a loose match compares).
        func sameSubject(as other: Entry) -> Bool { rule == other.rule && files == other.files }

        /// The hash of the rule and the files, this process's (``Hasher``).
        var subjectHash: UInt64 {
            var hasher = Hasher()
            hasher.combine(rule)
            hasher.combine(files)
            return UInt64(bitPattern: Int64(hasher.finalize()))
        }
    }

    public static let currentVersion = 1
    /// The entries, sorted: in a temporary file when they were sorted on disk, else held.
    private let sorted: RecordFile<Entry>
    /// Each entry's ``Entry/subjectHash``, sorted.
    private let subjects: [UInt64]

    /// How many entries there are.
    public var count: Int { sorted.count }

    /// Every entry, sorted, read back and held (for the tests and small baselines: each call
    /// reads them all).
    public func allEntries() -> [Entry] {
        var all: [Entry] = []
        sorted.forEach { all.append($0) }
        return all
    }

    /// A baseline of `entries`, sorted in runs of `runSize` (nil: 4,096) in temporary files in
    /// `scratch` and kept there (nil: held).
    public init(entries: some Sequence<Entry>, scratch: String? = nil, runSize: Int? = nil) {
        let order = SortedRecords<Entry>(spillingIn: scratch, prefix: "livelint-baseline", runSize: runSize, by: <)
        for entry in entries { order.append(entry) }
        self.init(order, scratch: scratch)
    }

    private init(_ order: SortedRecords<Entry>, scratch: String?) {
        // Kept where they were sorted: on disk past a run's worth.
        let sorted = RecordFile<Entry>(in: order.spills ? scratch : nil, prefix: "livelint-baseline")
        var subjects: [UInt64] = []
        subjects.reserveCapacity(order.count)
        order.forEachInOrder { entry in
            sorted.append(entry)
            subjects.append(entry.subjectHash)
        }
        subjects.sort()
        self.sorted = sorted
        self.subjects = subjects
    }

    /// A baseline accepting exactly these findings.
    public init(findings: some Sequence<Finding>) {
        self.init(entries: findings.lazy.map { Entry(rule: $0.ruleID, files: $0.files, message: $0.message) })
    }

    /// The same entries (each read back: for the tests and small baselines).
    public static func == (a: Baseline, b: Baseline) -> Bool { a.count == b.count && a.allEntries() == b.allEntries() }
    /// The count alone: equal baselines have equal counts, and hashing reads no entry back.
    public func hash(into hasher: inout Hasher) { hasher.combine(count) }

    /// The JSON text, sorted keys, one field per line, ending in a newline.
    public func jsonData() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Encoding plain strings and arrays cannot fail.
        let data = (try? encoder.encode(File(version: Self.currentVersion, findings: allEntries()))) ?? Data()
        return data + Data("\n".utf8)
    }

    private struct File: Encodable {
        var version: Int
        var findings: [Entry]
    }

    /// Writes the baseline to `path` (atomically).
    public func write(to path: String) throws(BaselineError) {
        do {
            try jsonData().write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw BaselineError(file: path, reason: "cannot write: \(error.localizedDescription)")
        }
    }

    /// Reads a baseline written by ``write(to:)`` a piece at a time, its entries sorted on disk in
    /// `scratch` (nil: held) in runs of `runSize` (nil: 4,096). Text in UTF-16 or UTF-32 (which
    /// JSONDecoder reads too: PowerShell 5 writes UTF-16) is turned into UTF-8 whole first.
    public static func load(from path: String, scratch: String? = nil, runSize: Int? = nil) throws(BaselineError) -> Baseline {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw BaselineError(file: path, reason: "cannot read: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var start = [UInt8](repeating: 0, count: 4)
        let n = start.withUnsafeMutableBytes { pread(fd, $0.baseAddress, 4, 0) }
        if n > 0, BaselineJSON.wideEncoding(of: start.prefix(n)) != nil {
            let data: Data
            do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
                throw BaselineError(file: path, reason: "cannot read: \(error.localizedDescription)")
            }
            return try decode(data, source: path, scratch: scratch, runSize: runSize)
        }
        return try read(BaselineJSON(descriptor: fd), source: path, scratch: scratch, runSize: runSize)
    }

    /// Parses baseline JSON; `source` names it in errors.
    public static func decode(_ data: Data, source: String, scratch: String? = nil, runSize: Int? = nil) throws(BaselineError) -> Baseline {
        guard let wide = BaselineJSON.wideEncoding(of: data.prefix(4)) else {
            return try read(BaselineJSON(bytes: Array(data)), source: source, scratch: scratch, runSize: runSize)
        }
        guard let text = String(data: data, encoding: wide) else {
            throw BaselineError(file: source, reason: "not a livelint baseline: not valid \(wide)")
        }
        return try read(BaselineJSON(bytes: Array(text.utf8)), source: source, scratch: scratch, runSize: runSize)
    }

    private static func read(_ json: consuming BaselineJSON, source: String, scratch: String?, runSize: Int?) throws(BaselineError) -> Baseline {
        let order = SortedRecords<Entry>(spillingIn: scratch, prefix: "livelint-baseline", runSize: runSize, by: <)
        let version: Int
        do {
            version = try json.read { order.append($0) }
        } catch {
            throw BaselineError(file: source, reason: error.unreadable ? error.reason : "not a livelint baseline: line \(error.line): \(error.reason)")
        }
        guard version == currentVersion else {
            throw BaselineError(file: source, reason: "unsupported version \(version) (this livelint reads version \(currentVersion))")
        }
        return Baseline(order, scratch: scratch)
    }

    /// Splits findings into those the baseline does not know (kept, in their order) and a count of
    /// those it accepts.
    public func filter(_ findings: [Finding]) -> (kept: [Finding], baselined: Int) {
        var kept: [Finding] = []
        let baselined = filter(findings) { kept.append($0) }
        return (kept, baselined)
    }

    /// True when it accepts no finding.
    public var isEmpty: Bool { sorted.count == 0 }

    /// How many of `findings`, the findings of one file, the baseline accepts, counted from the
    /// entries' hashes: a file rule's findings name only their file, so no other file's findings
    /// share their rule and files, and by rule and files, exact matches first or not, an entry
    /// accepts one finding: min(entries, findings) of each (a hash shared by two subjects, one
    /// chance in 2^64 a pair, would count one too many; the report's own filter compares the
    /// entries themselves).
    public func countAccepted(_ findings: [Finding]) -> Int {
        guard !subjects.isEmpty, !findings.isEmpty else { return 0 }
        let hashes = findings.map { Entry(rule: $0.ruleID, files: $0.files, message: "").subjectHash }.sorted()
        var accepted = 0
        var i = 0
        while i < hashes.count {
            var j = i + 1
            while j < hashes.count, hashes[j] == hashes[i] { j += 1 }
            accepted += min(j - i, entries(withSubject: hashes[i]))
            i = j
        }
        return accepted
    }

    /// How many entries have the subject hash `h`.
    private func entries(withSubject h: UInt64) -> Int {
        var low = 0, high = subjects.count
        while low < high {
            let mid = (low + high) / 2
            if subjects[mid] < h { low = mid + 1 } else { high = mid }
        }
        var n = 0
        while low + n < subjects.count, subjects[low + n] == h { n += 1 }
        return n
    }

    /// Calls `keep` with each of `findings` the baseline does not know, in their order, and
    /// returns how many it accepts: each entry accepts one finding, exact matches (rule, files,
    /// message) first, the earliest findings first, then what is left of it by rule and files
    /// only (the message may quote a value that changed), the earliest findings first.
    ///
    /// A join on disk: the findings, each with its place, are sorted as the entries are (in runs
    /// of `runSize` in `scratch`; nil: held), the two sorted lists read side by side, and the places
    /// of those accepted sorted again; a last pass over `findings` keeps the others. What is held
    /// is the places of one rule and files' findings that no entry took exactly.
    public func filter(_ findings: some Collection<Finding>, scratch: String? = nil, runSize: Int? = nil,
                       keep: (Finding) -> Void) -> Int {
        guard !isEmpty else {
            findings.forEach(keep)
            return 0
        }
        let placed = SortedRecords<Placed>(spillingIn: scratch, prefix: "livelint-baseline-join", runSize: runSize) {
            $0.entry < $1.entry
        }
        for (place, f) in findings.enumerated() {
            placed.append(Placed(entry: Entry(rule: f.ruleID, files: f.files, message: f.message), place: UInt64(place)))
        }
        let accepted = SortedRuns<UInt64>(spillingIn: scratch, prefix: "livelint-baseline-accepted")
        var found = placed.inOrder()
        var finding = found.next()
        var entryAt = 0
        var entry: Entry? = entryAt < sorted.count ? sorted[entryAt] : nil
        // The rule and files being matched: what their exact matches left of their entries, and
        // the places of their findings no entry took exactly.
        var subject: Entry?
        var left = 0
        var loose: [UInt64] = []
        func endSubject() {
            loose.sort()
            for place in loose.prefix(left) { accepted.append(place) }
            loose.removeAll(keepingCapacity: true)
            left = 0
        }
        while finding != nil || entry != nil {
            // The smaller of the two keys: every entry and finding equal to it is taken.
            let key = switch (finding, entry) {
            case let (f?, e?): f.entry < e ? f.entry : e
            case let (f?, nil): f.entry
            case let (nil, e?): e
            case (nil, nil): preconditionFailure()
            }
            if let s = subject, !s.sameSubject(as: key) { endSubject() }
            subject = key
            var entries = 0
            while let e = entry, e == key {
                entries += 1
                entryAt += 1
                entry = entryAt < sorted.count ? sorted[entryAt] : nil
            }
            var matched = 0
            while let f = finding, f.entry == key {
                if matched < entries { accepted.append(f.place) } else { loose.append(f.place) }
                matched += 1
                finding = found.next()
            }
            left += max(0, entries - matched)
        }
        endSubject()
        var baselined = 0
        var rest = findings.makeIterator()
        var place: UInt64 = 0
        accepted.forEachInOrder { taken in
            while place < taken, let f = rest.next() {
                keep(f)
                place += 1
            }
            _ = rest.next()
            place += 1
            baselined += 1
        }
        while let f = rest.next() { keep(f) }
        return baselined
    }

    /// A finding as an entry, with its place in the findings filtered.
    struct Placed: ScratchRecord {
        var entry: Entry
        var place: UInt64

        func encode(into bytes: inout [UInt8]) {
            entry.encode(into: &bytes)
            var w = RecordWriter(bytes: consume bytes)
            w.number(place)
            bytes = w.bytes
        }

        init(entry: Entry, place: UInt64) {
            self.entry = entry
            self.place = place
        }

        init?(decoding bytes: UnsafeRawBufferPointer) {
            var r = RecordReader(bytes: bytes)
            guard let entry = Entry.read(&r), let place = r.number(), r.atEnd else { return nil }
            self.entry = entry
            self.place = place
        }
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

    /// `s` as JSONEncoder quotes it without escaping slashes (swift-foundation's `JSONWriter`):
    /// ``JSONQuote`` leaving DEL as it is, where the reports' JSON escapes it.
    static func quote(_ s: String, into out: inout String) { JSONQuote.append(s, to: &out, escapingDelete: false) }
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
        guard let entry = Self.read(&r), r.atEnd else { return nil }
        self = entry
    }

    /// An entry ``encode(into:)`` wrote, read from `r`'s place on.
    static func read(_ r: inout RecordReader) -> Self? {
        guard let rule = r.string(), let n = r.count() else { return nil }
        var files: [String] = []
        files.reserveCapacity(n)
        for _ in 0..<n {
            guard let file = r.string() else { return nil }
            files.append(file)
        }
        guard let message = r.string() else { return nil }
        // Sorted when it was made: kept as it is.
        var entry = Self(rule: rule, files: [], message: message)
        entry.files = files
        return entry
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
