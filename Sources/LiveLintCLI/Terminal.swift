import Foundation
import LiveLintEngine
import LiveModel

/// Where output goes: stdout for reports, stderr for progress and errors.
enum Terminal {
    static func isTTY(_ fd: Int32) -> Bool { isatty(fd) == 1 }
    static var stdoutIsTTY: Bool { isTTY(STDOUT_FILENO) }
    static var stderrIsTTY: Bool { isTTY(STDERR_FILENO) }

    static func out(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    static func err(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }

    /// Colour is used on a terminal unless NO_COLOR is set (https://no-color.org).
    static func useColor(_ choice: ColorChoice, fd: Int32) -> Bool {
        switch choice {
        case .always: return true
        case .never: return false
        case .auto: return isTTY(fd) && ProcessInfo.processInfo.environment["NO_COLOR"] == nil
        }
    }
}

/// `--color auto|always|never`.
enum ColorChoice: String, CaseIterable, Sendable {
    case auto, always, never
}

/// Writes a report atomically: to a temporary file beside the target, then renamed over it, so a
/// reader never sees half a report and an interrupted run never leaves a truncated one.
enum ReportWriter {
    static func write(_ text: String, to path: String) throws {
        let url = URL(fileURLWithPath: path)
        try Data(text.utf8).write(to: url, options: .atomic)
    }
}

/// A one-line progress display on stderr, redrawn at most ten times a second: files read out of
/// the total, pairs found so far (identifiers seen on both a still and a movie), findings so far
/// (those of the file rules; pair and scan rules run once every file is read), files per second;
/// and a closing line with all the findings. Silent unless stderr is a terminal and the user
/// did not ask for `--quiet`.
final class Progress: @unchecked Sendable {
    // @unchecked: every mutable field is guarded by `lock`.
    private let enabled: Bool
    private let total: Int
    private let lock = NSLock()
    private var done = 0
    // 64-bit hashes of the upper-cased identifiers seen, not the strings: a terminal run of
    // 100,000 files would otherwise keep ~10 MB just to count pairs for this line.
    private var stills = Set<UInt64>()
    private var movies = Set<UInt64>()
    private var pairs = 0
    private var findings = 0
    private let countFindings: (@Sendable (MediaFile) -> Int)?
    private var lastDraw = Date.distantPast
    private let start = Date()

    init(total: Int, enabled: Bool, countFindings: (@Sendable (MediaFile) -> Int)? = nil) {
        self.total = total
        self.enabled = enabled
        self.countFindings = countFindings
    }

    /// One more file read (`file` is nil when it belongs to another shard).
    func advance(_ file: MediaFile? = nil) {
        guard enabled else { return }
        lock.lock()
        defer { lock.unlock() }
        done += 1
        if let file {
            count(file)
            findings += countFindings?(file) ?? 0
        }
        let now = Date()
        guard now.timeIntervalSince(lastDraw) >= 0.1 || done == total else { return }
        lastDraw = now
        Terminal.err("\r\u{1B}[2Kreading \(done)/\(total) files, \(pairs) pairs, \(findings) findings so far, \(rate(now)) files/s")
    }

    private func count(_ file: MediaFile) {
        if let text = file.contentIdentifier {
            let id = Shard.fnv1a(text.uppercased())
            if file.kind == .still, stills.insert(id).inserted, movies.contains(id) { pairs += 1 }
            if file.kind == .movie, movies.insert(id).inserted, stills.contains(id) { pairs += 1 }
        }
        file.members?.forEach(count)
    }

    private func rate(_ now: Date) -> Int {
        Int(Double(done) / max(now.timeIntervalSince(start), 0.001))
    }

    /// Clears the line and, when given, prints the summary: `files, pairs, findings, seconds, rate`.
    func finish(_ summary: LintSummary?) {
        guard enabled else { return }
        lock.lock()
        defer { lock.unlock() }
        Terminal.err("\r\u{1B}[2K")
        if let s = summary {
            let now = Date()
            let seconds = String(format: "%.2f", now.timeIntervalSince(start))
            Terminal.err("livelint: \(s.files) files, \(s.pairs) pairs, \(s.errors + s.warnings + s.infos) findings "
                + "in \(seconds) s (\(rate(now)) files/s)\n")
        }
    }
}
