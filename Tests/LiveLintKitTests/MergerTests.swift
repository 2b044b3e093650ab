import Foundation
import LiveLintEngine
@testable import LiveLintKit
import Testing

/// Folding the JSON Lines of several lint jobs, as a library.
@Suite struct MergerTests {
    @Test func addsUpSummariesAndFindsIdentifiersRepeatedAcrossJobs() throws {
        var merger = Merger()
        let id = "11111111-2222-4333-8444-555555555555"
        try merger.add("""
            {"files":3,"pairs":1,"type":"summary"}
            {"id":"\(id)","kind":"still","path":"a/IMG_1.JPG","shard":"1/1","type":"identifier"}
            """, source: "a.jsonl")
        try merger.add("""
            {"files":2,"pairs":1,"type":"summary"}
            {"id":"\(id)","kind":"still","path":"b/IMG_1.JPG","shard":"1/1","type":"identifier"}
            """, source: "b.jsonl")
        let result = merger.result()
        #expect(result.summary.files == 5 && result.summary.pairs == 2)
        #expect(result.findings.map(\.ruleID) == ["duplicate-identifier"])
        #expect(result.findings.first?.files == ["a/IMG_1.JPG", "b/IMG_1.JPG"])
    }

    @Test func refusesWhatIsNotLivelintJSONLines() {
        var merger = Merger()
        #expect(throws: MergeError.self) { try merger.add("not json\n", source: "x.txt") }
    }

    /// Inputs of many lines: findings some jobs share, identifiers carried in several jobs,
    /// summaries; as text and as a file more than 64 KiB long (lines cut by the reads), the last
    /// line without its newline.
    private static func inputs() -> [(source: String, text: String)] {
        (0..<4).map { job in
            var lines: [String] = []
            for i in 0..<600 {
                let file = "d\(i % 37)/IMG_\(i).JPG"
                // Every finding in two jobs, some in all four.
                if i % 4 == job || i % 4 == (job + 1) % 4 || i % 50 == 0 {
                    lines.append(#"{"documentation":"docs/rules/orphan-still.md","files":["\#(file)"],"fixHint":null,"#
                                 + #""message":"'\#(file)' has no movie \#(String(repeating: "·", count: i % 90))","rule":"orphan-still","severity":"warning","type":"finding"}"#)
                }
                let id = String(format: "%08d-2222-4333-8444-555555555555", i % 150)
                lines.append(#"{"id":"\#(id)","kind":"\#(i % 3 == 0 ? "movie" : "still")","path":"\#(file)","shard":"1/1","type":"identifier"}"#)
            }
            lines.append(#"{"baselined":1,"files":600,"pairs":\#(job),"type":"summary"}"#)
            return ("job\(job).jsonl", lines.joined(separator: "\n"))
        }
    }

    /// Merged with its lists sorted on disk in runs of 1 or 7 (or held), read from files a line at a
    /// time, the result is the one merged in memory from the texts: each finding once, the
    /// identifiers repeated across jobs found.
    @Test func listsOnDiskAndInputsReadALineAtATimeGiveTheSameResult() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("livelint-merge-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        var held = Merger(scratch: nil)
        for input in Self.inputs() { try held.add(input.text, source: input.source) }
        let expected = held.result()
        #expect(expected.summary.files == 2_400 && expected.summary.pairs == 6 && expected.summary.baselined == 4)
        #expect(Set(expected.findings).count == expected.findings.count, "each finding once")
        #expect(expected.findings.filter { $0.ruleID == "orphan-still" }.count == 600)
        #expect(expected.findings.filter { $0.ruleID == "duplicate-identifier" }.count == 150)
        #expect(expected.summary.errors == 150 && expected.summary.warnings == 600)
        for input in Self.inputs() {
            try Data(input.text.utf8).write(to: dir.appendingPathComponent(input.source))
        }
        #expect(try Data(contentsOf: dir.appendingPathComponent("job0.jsonl")).count > 1 << 16)
        for run in [1, 7, 100_000] {
            var merger = Merger(scratch: NSTemporaryDirectory(), runSize: run)
            for input in Self.inputs() {
                let handle = try #require(FileHandle(forReadingAtPath: dir.appendingPathComponent(input.source).path))
                try merger.add(reading: handle, source: input.source)
            }
            let result = merger.result()
            #expect(result.findings.spills == (run < 100_000), "runs of \(run)")
            #expect(result == expected, "runs of \(run): \(result.findings.count) findings, \(expected.findings.count) expected")
        }
    }

    /// A bad line is told by its number, in a file read a line at a time too.
    @Test func aBadLineIsToldByItsNumber() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("livelint-merge-\(UUID().uuidString).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data("{\"files\":1,\"type\":\"summary\"}\n\n{\"type\":\"nothing\"}\n".utf8).write(to: URL(fileURLWithPath: path))
        var merger = Merger()
        let handle = try #require(FileHandle(forReadingAtPath: path))
        #expect(throws: MergeError.self) { try merger.add(reading: handle, source: "x.jsonl") }
        let again = try #require(FileHandle(forReadingAtPath: path))
        do {
            try merger.add(reading: again, source: "x.jsonl")
            Issue.record("an unknown record type was accepted")
        } catch {
            #expect(error.line == 3 && error.description == "x.jsonl:3: unknown record type 'nothing'")
        }
    }

    /// Lines ending in CRLF, an empty input, a line longer than a read (64 KiB), findings alike in
    /// the report's order but for their fix hint (each kept, in the order met; the same twice is
    /// one): all merge, from a text as from a file; a line with no end past 64 MiB is an error.
    @Test func linesOfAnyShapeMerge() throws {
        let long = String(repeating: "é", count: 50_000)  // 100 KB of message
        func finding(_ hint: String, _ message: String = "m") -> String {
            #"{"documentation":"d","files":["a.JPG"],"fixHint":"\#(hint)","message":"\#(message)","rule":"orphan-still","severity":"warning","type":"finding"}"#
        }
        let text = [finding("second"), finding("first"), finding("second"), finding("x", long), #"{"files":2,"type":"summary"}"#]
            .joined(separator: "\r\n") + "\r\n"
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("livelint-merge-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("crlf.jsonl"), empty = dir.appendingPathComponent("empty.jsonl")
        try Data(text.utf8).write(to: file)
        try Data().write(to: empty)
        var fromText = Merger(scratch: nil)
        try fromText.add(text, source: "crlf.jsonl")
        try fromText.add("", source: "empty.jsonl")
        var fromFiles = Merger(scratch: NSTemporaryDirectory(), runSize: 1)
        try fromFiles.add(reading: try #require(FileHandle(forReadingAtPath: file.path)), source: "crlf.jsonl")
        try fromFiles.add(reading: try #require(FileHandle(forReadingAtPath: empty.path)), source: "empty.jsonl")
        let a = fromText.result(), b = fromFiles.result()
        #expect(a == b && a.summary.files == 2)
        #expect(a.findings.map(\.fixHint) == ["second", "first", "x"], "alike findings in the order met, each once")
        #expect(a.findings.last?.message == long)
        let endless = dir.appendingPathComponent("endless.jsonl")
        try Data(repeating: UInt8(ascii: "x"), count: Merger.maxLine + 1).write(to: endless)
        var merger = Merger()
        let handle = try #require(FileHandle(forReadingAtPath: endless.path))
        do {
            try merger.add(reading: handle, source: "endless.jsonl")
            Issue.record("a line without end was taken")
        } catch {
            #expect(error.description == "endless.jsonl:1: a line longer than 64 MiB: not a livelint JSON Lines record")
        }
    }
}
