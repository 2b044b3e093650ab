import Foundation

/// What every test target needs to find: the repository, its fixtures, the shared real-device
/// corpus and its manifest, the built `livelint`, and tools on PATH. One copy, shared by the test
/// targets (which cannot import each other).
public enum TestPaths {
    /// `<repo>/Tests/TestSupport/TestSupport.swift` → `<repo>` (symlinks resolved, so the corpus
    /// is found beside the checkout the file really lives in).
    public static let repoRoot: URL = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    public static let fixtures = repoRoot.appendingPathComponent("Fixtures")

    /// `../shared/corpus` beside the repository: present on developer machines and in CI, absent
    /// elsewhere (tests that need it skip).
    public static let corpus = repoRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus")

    public static var corpusPresent: Bool {
        FileManager.default.fileExists(atPath: corpus.appendingPathComponent("manifest.json").path)
    }

    /// The corpus manifest's entries, or none when the corpus is absent. Immutable after first use;
    /// JSON values are not Sendable, so the compiler cannot prove it.
    nonisolated(unsafe) public static let manifestEntries: [[String: Any]] = {
        guard corpusPresent,
              let data = try? Data(contentsOf: corpus.appendingPathComponent("manifest.json")),
              let list = try? JSONSerialization.jsonObject(with: data) as? [[String: Any]]
        else { return [] }
        return list
    }()

    /// `XDG_CACHE_HOME` for every `livelint` a test spawns (``ProcessRunner`` sets it unless a
    /// test gives its own): a folder of this test process, removed when it exits, so tests never
    /// read or write the developer's `~/.cache/livelint`.
    public static let cacheHome: String = {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("livelint-test-cache-\(getpid())").path
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(atPath: TestPaths.cacheHomeToRemove) }
        return path
    }()
    /// ``cacheHome``, spelled out again for the C exit handler (which cannot capture).
    static var cacheHomeToRemove: String {
        FileManager.default.temporaryDirectory.appendingPathComponent("livelint-test-cache-\(getpid())").path
    }

    /// The `livelint` executable SwiftPM built beside the running test bundle.
    public static let livelintBinary: URL? = {
        let testBinary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var dir = testBinary.deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = dir.appendingPathComponent("livelint")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            dir = dir.deletingLastPathComponent()
        }
        for config in ["debug", "release"] {
            let candidate = repoRoot.appendingPathComponent(".build/\(config)/livelint")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }()
}

/// External tools (exiftool, ffmpeg, exiv2) used as independent oracles.
public enum TestTools {
    /// The tool's path on PATH, or nil when it is not installed.
    public static func which(_ name: String) -> String? {
        let dirs = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return dirs.map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Runs the executable at `path`; returns its exit status, stdout and stderr.
    public static func run(_ path: String, _ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: path)
        p.arguments = arguments
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: o, as: UTF8.self), String(decoding: e, as: UTF8.self))
    }
}

/// A deterministic random number generator (SplitMix64, https://prng.di.unimi.it/splitmix64.c),
/// so every randomised test and sweep is reproducible from its seed.
public struct SplitMix: RandomNumberGenerator {
    public var state: UInt64
    public init(seed: UInt64) { state = seed }
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Runs a program with its output captured in files (so a large report cannot fill a pipe and
/// stall it), standard input closed, `NO_COLOR=1`, and a wall-clock limit.
public enum ProcessRunner {
    public struct Outcome: Sendable {
        public var status: Int32
        /// True when the process died of a signal (a crash), not an exit.
        public var signaled: Bool
        public var timedOut: Bool
        public var seconds: Double
        public var stdout: Data
        public var stderr: Data
    }

    public static func run(_ executable: URL, _ arguments: [String], in directory: URL? = nil,
                           environment: [String: String] = [:], timeout: Double = 300) throws -> Outcome {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        var env = ProcessInfo.processInfo.environment
        env["NO_COLOR"] = "1"
        env["XDG_CACHE_HOME"] = TestPaths.cacheHome
        for (k, v) in environment { env[k] = v }
        process.environment = env
        let tmp = FileManager.default.temporaryDirectory.appendingPathComponent("livelint-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: tmp) }
        let outURL = tmp.appendingPathComponent("out"), errURL = tmp.appendingPathComponent("err")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let out = try FileHandle(forWritingTo: outURL), err = try FileHandle(forWritingTo: errURL)
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        let start = Date()
        try process.run()
        var timedOut = false
        while process.isRunning {
            if Date().timeIntervalSince(start) > timeout {
                timedOut = true
                process.terminate()
                break
            }
            usleep(5_000)
        }
        process.waitUntilExit()
        let seconds = Date().timeIntervalSince(start)
        try out.close()
        try err.close()
        return Outcome(status: process.terminationStatus, signaled: process.terminationReason == .uncaughtSignal,
                       timedOut: timedOut, seconds: seconds, stdout: try Data(contentsOf: outURL),
                       stderr: try Data(contentsOf: errURL))
    }
}
