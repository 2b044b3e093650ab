import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What one child process cost, from the kernel's own counters.
struct Sample {
    /// Wall-clock seconds from spawn to exit.
    var wall: Double
    /// User + system CPU seconds.
    var cpu: Double
    /// `/proc/<pid>/io` rchar: bytes the process asked `read`/`pread` for (page cache included).
    var rchar: Int64
    /// Peak resident set size in bytes (`ru_maxrss`).
    var maxRSS: Int64
    var status: Int32
}

/// Runs a command with stdout and stderr sent to /dev/null (or stdout to `stdoutPath`) and
/// measures it: the child is waited for with `WNOWAIT` first, so its `/proc/<pid>/io` can still be
/// read, then reaped with `wait4` for its resource usage.
///
/// Peak RSS: Linux carries the parent's high-water mark into a spawned child's `ru_maxrss` (the
/// mark is kept across `exec`), so the command runs under GNU `time` when it is installed: `time`
/// is small, forks the command and reports its true `%M`; and since a reaped child's I/O counters
/// are added to its parent's, `time`'s own `/proc/<pid>/io` then holds the command's rchar.
func measure(_ argv: [String], stdoutPath: String = "/dev/null") throws -> Sample {
    guard access("/usr/bin/time", X_OK) == 0 else { return try spawnAndMeasure(argv, stdoutPath: stdoutPath) }
    let report = FileManager.default.temporaryDirectory.appendingPathComponent("livelint-bench-\(getpid())-rss").path
    defer { unlink(report) }
    var sample = try spawnAndMeasure(["/usr/bin/time", "-f", "%M", "-o", report] + argv, stdoutPath: stdoutPath)
    if let text = try? String(contentsOfFile: report, encoding: .utf8),
       let kib = text.split(separator: "\n").last.flatMap({ Int64($0.trimmingCharacters(in: .whitespaces)) }) {
        sample.maxRSS = kib * 1024
    }
    return sample
}

private func spawnAndMeasure(_ argv: [String], stdoutPath: String) throws -> Sample {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, stdoutPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    let cArgs: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
    defer { cArgs.forEach { free($0) } }
    var pid: pid_t = 0
    let start = now()
    let rc = posix_spawnp(&pid, argv[0], &actions, nil, cArgs, environ)
    guard rc == 0 else { throw BenchError("cannot start \(argv[0]): \(String(cString: strerror(rc)))") }
    var info = siginfo_t()
    while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) != 0 {
        guard errno == EINTR else { throw BenchError("waitid failed: \(String(cString: strerror(errno)))") }
    }
    let wall = now() - start
    let rchar = readRChar(pid)
    var status: Int32 = 0
    var usage = rusage()
    while wait4(pid, &status, 0, &usage) < 0 {
        guard errno == EINTR else { throw BenchError("wait4 failed: \(String(cString: strerror(errno)))") }
    }
    let cpu = seconds(usage.ru_utime) + seconds(usage.ru_stime)
    let exited = (status & 0x7f) == 0
    return Sample(wall: wall, cpu: cpu, rchar: rchar, maxRSS: Int64(usage.ru_maxrss) * 1024,
                  status: exited ? (status >> 8) & 0xff : 128 + (status & 0x7f))
}

private func readRChar(_ pid: pid_t) -> Int64 {
    guard let text = try? String(contentsOfFile: "/proc/\(pid)/io", encoding: .utf8) else { return -1 }
    for line in text.split(separator: "\n") where line.hasPrefix("rchar:") {
        return Int64(line.dropFirst(6).trimmingCharacters(in: .whitespaces)) ?? -1
    }
    return -1
}

private func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }

func now() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

func median(_ values: [Double]) -> Double {
    let s = values.sorted()
    guard !s.isEmpty else { return .nan }
    return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
}

/// Is `name` an executable on PATH?
func onPath(_ name: String) -> String? {
    for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
        let candidate = "\(dir)/\(name)"
        if access(candidate, X_OK) == 0 { return candidate }
    }
    return nil
}

/// The floor: open every file under `roots` and read its first and last 256 KiB, one at a time.
/// Returns the number of files and bytes read.
func readFloor(_ paths: [String]) -> (files: Int, bytes: Int64) {
    let window = 256 * 1024
    var buffer = [UInt8](repeating: 0, count: window)
    var files = 0
    var bytes: Int64 = 0
    for path in paths {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { continue }
        var st = stat()
        if fstat(fd, &st) == 0 {
            let size = Int64(st.st_size)
            buffer.withUnsafeMutableBytes { raw in
                bytes += Int64(max(0, pread(fd, raw.baseAddress, window, 0)))
                if size > Int64(window) {
                    bytes += Int64(max(0, pread(fd, raw.baseAddress, window, off_t(max(Int64(window), size - Int64(window))))))
                }
            }
        }
        close(fd)
        files += 1
    }
    return (files, bytes)
}
