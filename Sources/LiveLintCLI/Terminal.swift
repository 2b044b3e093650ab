import Foundation

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

/// A one-line progress display on stderr, redrawn at most ten times a second. Silent unless
/// stderr is a terminal and the user did not ask for `--quiet`.
final class Progress: @unchecked Sendable {
    private let enabled: Bool
    private let total: Int
    private let lock = NSLock()
    private var done = 0
    private var lastDraw = Date.distantPast
    private let start = Date()

    init(total: Int, enabled: Bool) {
        self.total = total
        self.enabled = enabled
    }

    func advance() {
        guard enabled else { return }
        lock.lock()
        defer { lock.unlock() }
        done += 1
        let now = Date()
        guard now.timeIntervalSince(lastDraw) >= 0.1 || done == total else { return }
        lastDraw = now
        let elapsed = max(now.timeIntervalSince(start), 0.001)
        let rate = Int(Double(done) / elapsed)
        Terminal.err("\r\u{1B}[2Kreading \(done)/\(total) files, \(rate) files/s")
    }

    func finish(_ line: String?) {
        guard enabled else { return }
        lock.lock()
        defer { lock.unlock() }
        Terminal.err("\r\u{1B}[2K")
        if let line { Terminal.err(line + "\n") }
    }
}
