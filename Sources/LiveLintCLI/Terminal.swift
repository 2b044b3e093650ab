import Foundation
import LiveLintEngine
import LiveLintKit
import ScratchFiles

/// Where output goes: stdout for reports, stderr for progress and errors.
enum Terminal {
    static func isTTY(_ fd: Int32) -> Bool { isatty(fd) == 1 }
    static var stdoutIsTTY: Bool { isTTY(STDOUT_FILENO) }
    static var stderrIsTTY: Bool { isTTY(STDERR_FILENO) }

    static func out(_ text: String) {
        guard !write(text, to: STDOUT_FILENO) else { return }
        // Output that cannot be written (a full disk, an I/O error) ends the run, with the reason
        // and exit code 2 (`FileHandle` crashed): a report with a gap must not pass for whole. A
        // closed pipe ends it as before, by SIGPIPE.
        let reason = String(cString: strerror(errno))
        err("livelint: cannot write to standard output: \(reason)\n")
        exit(LiveLintExit.failure)
    }

    static func err(_ text: String) {
        _ = write(text, to: STDERR_FILENO)
    }

    /// `text`'s UTF-8 written where it lies to `fd` (made into `Data` first, a report's every
    /// piece was copied once more: issue 13); false when it could not all be.
    private static func write(_ text: String, to fd: Int32) -> Bool {
        var text = text
        return text.withUTF8 { TemporaryFile.write(fd, UnsafeRawBufferPointer($0)) }
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

/// A one-line progress display on stderr, drawn from a scan's ``ScanEvent``s and redrawn at most
/// ten times a second: files read out of the total, pairs formed (once reading is done), findings so far (those of the
/// file rules, counted as each file is read; pair and scan rules run once every file is read),
/// files per second; and, when `showTotals`, a closing line with all the findings. The lint
/// command makes one only when stderr is a terminal and the user did not ask for `--quiet`.
final class ProgressLine {
    private let showTotals: Bool
    private var total = 0
    private var done = 0
    private var pairs = 0
    private var findings = 0
    /// Files taken from the cache rather than read (counted in `done` too).
    private var cached = 0
    private var lastDraw = Date.distantPast
    private let start = Date()

    init(showTotals: Bool) {
        self.showTotals = showTotals
    }

    func handle(_ event: ScanEvent) {
        switch event {
        case .walked(let files):
            total = files
        case .fileRead(_, _, let count):
            done += 1
            findings += count
            draw(force: done == total)
        case .fileFromCache(_, _, let count):
            done += 1
            cached += 1
            findings += count
            draw(force: done == total)
        case .pairFormed:
            pairs += 1
            draw(force: false)
        case .pairsFromCache(let count):
            pairs += count
            draw(force: false)
        case .warning:
            break  // printed by the command, on a line of its own
        case .finished(let summary):
            draw(force: true)
            finish(showTotals ? summary : nil)
        }
    }

    private func draw(force: Bool) {
        let now = Date()
        guard force || now.timeIntervalSince(lastDraw) >= 0.1 else { return }
        lastDraw = now
        // Pairs are formed once every file is read (one pairing, in the engine): until then the
        // line says nothing of them rather than "0 pairs".
        let paired = done == total ? "\(pairs) pairs, " : ""
        let fromCache = cached > 0 ? ", \(cached) from cache" : ""
        Terminal.err("\r\u{1B}[2Kreading \(done)/\(total) files\(fromCache), \(paired)\(findings) findings so far, \(rate(now)) files/s")
    }

    /// Wipes the line, so a message can be printed on a line of its own (the next event redraws it).
    func clear() {
        Terminal.err("\r\u{1B}[2K")
    }

    private func rate(_ now: Date) -> Int {
        Int(Double(done) / max(now.timeIntervalSince(start), 0.001))
    }

    /// Clears the line and, when given, prints the summary: `files, pairs, findings, seconds, rate`.
    private func finish(_ summary: LintSummary?) {
        Terminal.err("\r\u{1B}[2K")
        if let s = summary {
            let now = Date()
            let seconds = String(format: "%.2f", now.timeIntervalSince(start))
            let fromCache = cached > 0 ? ", \(cached) from cache" : ""
            Terminal.err("livelint: \(s.files) files\(fromCache), \(s.pairs) pairs, \(s.errors + s.warnings + s.infos) findings "
                + "in \(seconds) s (\(rate(now)) files/s)\n")
        }
    }
}
