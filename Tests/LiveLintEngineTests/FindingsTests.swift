import Foundation
import LiveLintEngine
import LiveModel
import Testing
import TestSupport

/// A run's findings on disk (issue 13: a library with a finding on every file held them all):
/// each finding's bytes, and the sort and baseline that read them back.
struct FindingsTests {
    /// Findings with every field filled and empty, every repair, and text that is not ASCII.
    static let samples: [Finding] = [
        Finding(ruleID: "orphan-still", severity: .warning, message: "no movie", files: ["a/IMG_0001.JPG"],
                documentation: "docs/rules/orphan-still.md"),
        Finding(ruleID: "identifier-mismatch", severity: .error, message: "still says ‘A’, movie says 'B'",
                files: ["a/Ünïcode.HEIC", "a/Ünïcode.MOV"], fixHint: "run livelint fix",
                documentation: "https://example.com/rules/x", repair: .setIdentifier(still: "A", movie: nil)),
        Finding(ruleID: "x", severity: .info, message: "", files: [], documentation: "", repair: .setIdentifier(still: nil, movie: "B")),
        Finding(ruleID: "sit", severity: .error, message: "m", files: ["m.MOV"], documentation: "d", repair: .addStillImageTime(at: 1.5)),
        Finding(ruleID: "sit", severity: .error, message: "m", files: ["m.MOV"], documentation: "d", repair: .addStillImageTime(at: nil)),
        Finding(ruleID: "sit", severity: .error, message: "m", files: ["m.MOV"], documentation: "d",
                repair: .replaceStillImageTime(at: -0.0)),
        Finding(ruleID: "codec", severity: .warning, message: String(repeating: "long ", count: 100), files: ["c.MOV"],
                fixHint: "", documentation: "d", repair: .retagVideoSampleEntry(from: "hev1", to: "hvc1")),
    ]

    private static func bytes(_ f: Finding) -> [UInt8] {
        var bytes: [UInt8] = []
        f.encode(into: &bytes)
        return bytes
    }

    /// Each finding comes back from its bytes whole (the repair too: `fix` reads it); a byte
    /// short, or one too many, or a tag out of range, gives nil, never a crash.
    @Test func findingsComeBackFromTheirBytes() {
        for f in Self.samples {
            let bytes = Self.bytes(f)
            let back = bytes.withUnsafeBytes { Finding(decoding: $0) }
            #expect(back == f && back?.repair == f.repair, "\(f.ruleID)")
            for n in 0..<bytes.count {
                #expect(bytes[..<n].withUnsafeBytes { Finding(decoding: $0) } == nil, "\(f.ruleID) cut at \(n)")
            }
            #expect((bytes + [0]).withUnsafeBytes { Finding(decoding: $0) } == nil)
        }
        var bad = Self.bytes(Self.samples[0])
        bad[bad.count - 1] = 9  // no such repair
        #expect(bad.withUnsafeBytes { Finding(decoding: $0) } == nil)
    }

    /// Many findings, some alike in the report's order: sorted on disk in runs of any size they
    /// come back as held ones do, through a baseline too, and read again by index.
    @Test func sortedOnDiskAsHeld() throws {
        var generator = SplitMix(seed: 2_026)
        let findings = (0..<2_000).map { i -> Finding in
            var f = Self.samples[Int.random(in: 0..<Self.samples.count, using: &generator)]
            f.files = f.files.isEmpty ? [] : ["f\(Int.random(in: 0..<40, using: &generator))/" + f.files[0]]
            // Alike in the order but for the fix hint: they must keep the order they came in.
            f.fixHint = "made \(i)"
            return f
        }
        // A baseline that accepts some exactly and some by rule and files only.
        let accepted = findings.enumerated().filter { $0.offset % 5 == 0 }.map { e -> Finding in
            var f = e.element
            if e.offset % 10 == 0 { f.message += " then" }
            return f
        }
        let baseline = Baseline(findings: accepted)
        let kept = baseline.filter(findings.sorted(by: LintEngine.findingOrder)).kept
        let held = FindingSorter()
        held.append(contentsOf: findings)
        let expected = held.sorted(baseline: baseline)
        #expect(!expected.findings.spills && expected.baselined == accepted.count)
        #expect(Severity.allCases.map { expected.findings.count(of: $0) } == Severity.allCases.map { s in kept.filter { $0.severity == s }.count })
        #expect(Array(expected.findings) == kept, "\(expected.findings.count) findings kept, \(kept.count) expected")
        for run in [1, 7, 500, 3_000] {
            let sorter = FindingSorter(spillingIn: NSTemporaryDirectory(), runSize: run)
            sorter.append(contentsOf: findings)
            #expect(sorter.count == findings.count)
            let (sorted, baselined) = sorter.sorted(baseline: baseline)
            #expect(sorted.spills == (run < findings.count), "runs of \(run)")
            #expect(baselined == expected.baselined && sorted == expected.findings, "runs of \(run)")
            #expect(sorted.indices.reversed().allSatisfy { sorted[$0] == expected.findings[$0] })
            #expect(sorted.hashValue == expected.findings.hashValue)
            #expect(Severity.allCases.allSatisfy { sorted.count(of: $0) == expected.findings.count(of: $0) })
        }
        // Without a baseline, the sorted list is all of them.
        let all = FindingSorter(spillingIn: NSTemporaryDirectory(), runSize: 100)
        all.append(contentsOf: findings)
        let sorted = Array(all.sorted().findings)
        #expect(sorted == findings.sorted(by: LintEngine.findingOrder), "\(sorted.count) findings, sorted on disk in runs of 100")
    }

    /// On random findings and baselines (entries repeated, files unsorted, messages changed), the
    /// filter keeps what the held one kept, in order, and counts the same.
    @Test func theBaselineFiltersAsItDidHeld() {
        var generator = SplitMix(seed: 99)
        for round in 0..<50 {
            let findings = (0..<Int.random(in: 0...300, using: &generator)).map { _ in
                Finding(ruleID: ["a", "b", "c"].randomElement(using: &generator)!, severity: .warning,
                        message: "m\(Int.random(in: 0..<4, using: &generator))",
                        files: ["x", "y", "z"].shuffled(using: &generator).prefix(Int.random(in: 0...2, using: &generator)).map { $0 },
                        documentation: "d")
            }
            let entries = (0..<Int.random(in: 0...200, using: &generator)).map { _ in
                Baseline.Entry(rule: ["a", "b", "c", "d"].randomElement(using: &generator)!,
                               files: ["x", "y", "z"].shuffled(using: &generator).prefix(Int.random(in: 0...2, using: &generator)).map { $0 },
                               message: "m\(Int.random(in: 0..<5, using: &generator))")
            }
            let baseline = Baseline(entries: entries)
            let reference = BaselineStreamTests.heldFilter(baseline.allEntries(), findings)
            var kept: [Finding] = []
            let baselined = baseline.filter(Findings(findings)) { kept.append($0) }
            #expect(kept == reference.kept && baselined == reference.baselined, "round \(round)")
            #expect(baseline.filter(findings) == reference)
        }
    }

    /// A run's worth of findings (4,096) goes to disk; one fewer stays held.
    @Test func aRunsWorthGoesToDisk() {
        for (n, spills) in [(4_095, false), (4_096, true)] {
            let sorter = FindingSorter(spillingIn: NSTemporaryDirectory())
            sorter.append(contentsOf: (0..<n).map { Finding(ruleID: "r", severity: .info, message: "\($0)", files: [], documentation: "") })
            let sorted = sorter.sorted().findings
            #expect(sorted.spills == spills && sorted.count == n && sorted.count(of: .info) == n, "\(n) findings")
        }
    }
}
