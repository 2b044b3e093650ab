import Foundation
import LiveLintEngine
import LiveModel
import Testing
import TestSupport

/// A baseline read a piece at a time and kept on disk (issue 13: `lint --baseline` held 399.5 MiB
/// for 500,000 entries): the reader takes what `JSONDecoder` takes and refuses what it refuses, and
/// the filter joined on disk keeps what the held one kept.
struct BaselineStreamTests {
    /// The reference: `JSONDecoder` on the layout (an entry's files sorted, as the reader sorts them).
    private struct Reference: Decodable {
        var version: Int
        var findings: [Baseline.Entry]
    }

    private static func reference(_ data: Data) -> (version: Int, entries: [Baseline.Entry])? {
        guard let file = try? JSONDecoder().decode(Reference.self, from: data) else { return nil }
        return (file.version, file.findings.map { Baseline.Entry(rule: $0.rule, files: $0.files, message: $0.message) }.sorted())
    }

    /// Strings with every kind of character JSON escapes or does not.
    private static func word(_ g: inout SplitMix) -> String {
        var controls = ""
        for c in 0..<0x20 { controls.unicodeScalars.append(Unicode.Scalar(UInt8(c))) }
        let words = ["a/IMG_0001.JPG", "", "\"q\" \\ /x/", controls, "\u{7F}\u{80}\u{2028}", "Ünïcode é",
                     "Ünïcode e\u{301}", "😀</script>", "\u{FFFF}\u{10FFFF}", String(repeating: "long ", count: 30)]
        return words[Int.random(in: 0..<words.count, using: &g)]
    }

    private static func entries(_ n: Int, _ g: inout SplitMix) -> [Baseline.Entry] {
        (0..<n).map { _ in
            Baseline.Entry(rule: ["orphan-still", "x", word(&g)][Int.random(in: 0..<3, using: &g)],
                           files: (0..<Int.random(in: 0...3, using: &g)).map { _ in word(&g) }, message: word(&g))
        }
    }

    /// The same entries written every way JSON allows: JSONEncoder's pretty and compact text,
    /// JSONSerialization's (keys in its own order), `\u` escapes for every character, white space
    /// of every kind, keys it does not know, a byte order mark. Each is read as `JSONDecoder`
    /// reads it, from bytes held and from a file a piece at a time.
    @Test func readsWhatJSONDecoderReads() throws {
        var g = SplitMix(seed: 77)
        let dir = try TemporaryFolder()
        for round in 0..<30 {
            let list = Self.entries(Int.random(in: 0...40, using: &g), &g)
            let object: [String: Any] = [
                "version": 1, "findings": list.map { ["rule": $0.rule, "files": $0.files, "message": $0.message, "extra": [1, [true, nil as Any? as Any], ["k": "v"]]] as [String: Any] },
            ]
            let pretty = Baseline(entries: list).jsonData()
            let compact = try JSONSerialization.data(withJSONObject: object)
            // Every character as \uXXXX (pairs for those past the BMP), white space around each token.
            var escaped = "\u{FEFF}\t{ \"version\" :1.0 ,\r\n \"findings\":[\n"
            for (i, e) in list.enumerated() {
                func u(_ s: String) -> String {
                    "\"" + s.utf16.map { String(format: "\\u%04X", $0) }.joined() + "\""
                }
                escaped += (i == 0 ? "" : " ,") + "{\"message\":\(u(e.message)),\"unknown\":{\"a\":[[],{}]},\"files\":[\(e.files.map(u).joined(separator: " , "))],\"rule\":\(u(e.rule))}"
            }
            escaped += "] }  \n"
            for (name, data) in [("pretty", pretty), ("compact", compact), ("escaped", Data(escaped.utf8))] {
                let expected = try #require(Self.reference(data), "\(name), round \(round)")
                let held = try Baseline.decode(data, source: "b.json")
                #expect(held.allEntries() == expected.entries, "\(name), round \(round)")
                let path = dir.path + "/b.json"
                try data.write(to: URL(fileURLWithPath: path))
                let read = try Baseline.load(from: path, scratch: dir.path, runSize: 3)
                #expect(read.allEntries() == expected.entries && read == held, "\(name), round \(round)")
            }
        }
        // A file of many pieces: its entries all read, sorted on disk, none left in the folder.
        let many = Self.entries(5_000, &g)
        let path = dir.path + "/many.json"
        try Baseline(entries: many).jsonData().write(to: URL(fileURLWithPath: path))
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0 > 4 << 16)
        let read = try Baseline.load(from: path, scratch: dir.path, runSize: 100)
        #expect(read.allEntries() == many.sorted())
        try FileManager.default.removeItem(atPath: path)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["b.json"])
    }

    /// Cut anywhere before its last `}`, a baseline is refused; after it (white space), read.
    /// Bytes changed at random are taken or refused as `JSONDecoder` takes or refuses them.
    @Test func refusesWhatJSONDecoderRefuses() throws {
        var g = SplitMix(seed: 78)
        let text = Array(Baseline(entries: Self.entries(12, &g)).jsonData())
        let close = try #require(text.lastIndex(of: UInt8(ascii: "}")))
        for cut in 0...text.count {
            let taken = (try? Baseline.decode(Data(text[..<cut]), source: "b.json")) != nil
            #expect(taken == (cut > close), "cut at \(cut) of \(text.count)")
        }
        let alphabet = Array("{}[]\",:\\/u0019aeEfnlrstx-+. \n\t".utf8) + [0x00, 0x1F, 0x7F, 0xC3, 0xFF, 0xED, 0xA0]
        var compared = 0
        for _ in 0..<3_000 {
            var bytes = text
            for _ in 0..<Int.random(in: 1...3, using: &g) {
                bytes[Int.random(in: 0..<bytes.count, using: &g)] = alphabet[Int.random(in: 0..<alphabet.count, using: &g)]
            }
            let data = Data(bytes)
            let expected = Self.reference(data).flatMap { $0.version == 1 ? $0.entries : nil }
            let read = try? Baseline.decode(data, source: "b.json")
            #expect(read?.allEntries() == expected, "\(String(decoding: bytes, as: UTF8.self))")
            compared += expected == nil ? 0 : 1
        }
        // Some of the changed texts are still baselines (a changed letter inside a string).
        #expect(compared > 100)
    }

    /// Texts at the edges of JSON, each read as `JSONDecoder` reads it or refused as it refuses
    /// it: commas before a closing bracket, keys given twice (the first counts), values under keys
    /// nobody asks for that are checked only for their shape, numbers written every way, UTF-16
    /// and UTF-32 with and without a byte order mark, nesting at JSONDecoder's limit and past it.
    @Test func readsTheEdgesAsJSONDecoderDoes() throws {
        let entry = #"{"files":["b","a",],"message":"m","rule":"r",}"#
        var texts = [
            #"{"findings":[],"version":1,}"#, "{\"findings\":[\(entry),],\"version\":1}",
            #"{"findings":[],"version":1,"version":2}"#, #"{"version":2,"findings":[],"version":1}"#,
            #"{"findings":[{"files":[],"message":"m","rule":"r","rule":"s","files":["x"]}],"version":1}"#,
            "{\"findings\":[\(entry)],\"findings\":[],\"version\":1}", "{\"findings\":[],\"findings\":[\(entry)],\"version\":1}",
            "{\"findings\":[],\"version\":1,\"x\":\"a\tb\"}", #"{"findings":[],"version":1,"x":"\q\ud800"}"#,
            #"{"findings":[],"version":1,"x":1.2.3}"#, #"{"findings":[],"version":1,"x":-}"#, #"{"findings":[],"version":1,"x":+1}"#,
            #"{"findings":[],"version":1,"x":tru}"#, #"{"findings":[],"version":1,"x":[1 2]}"#, #"{"findings":[],"version":1,"x":}"#,
            #"{"findings":[{"files":[],"message":"m","rule":"r","x":"\q"}],"version":1}"#,
            #"{"findings":[],"version":1e0}"#, #"{"findings":[],"version":1.0}"#, #"{"findings":[],"version":-0}"#,
            #"{"findings":[],"version":01}"#, #"{"findings":[],"version":1.}"#, #"{"findings":[],"version":"1"}"#,
            #"{"findings":[],,"version":1}"#, #"{"findings":[,],"version":1}"#, #"{,"findings":[],"version":1}"#,
            #"{"findings":[{"files":[],"message":"\ud83d\ude00\u00e9","rule":"r"}],"version":1}"#,
            #"{"findings":[{"files":[],"message":"\ude00","rule":"r"}],"version":1}"#,
            #"{"findings":[{"files":[],"message":null,"rule":"r"}],"version":1}"#, "", " ", "{", "\u{FEFF}{\"findings\":[],\"version\":1}",
        ]
        for depth in [510, 511, 512] {
            texts.append("{\"findings\":[],\"version\":1,\"x\":" + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + "}")
            texts.append("{\"findings\":[{\"files\":[],\"message\":\"m\",\"rule\":\"r\",\"x\":" + String(repeating: "{\"a\":", count: depth - 2)
                         + "1" + String(repeating: "}", count: depth - 2) + "}],\"version\":1}")
        }
        var datas = texts.map { Data($0.utf8) }
        let plain = String(decoding: Baseline(entries: [Baseline.Entry(rule: "r", files: ["ü", "a"], message: "😀")]).jsonData(), as: UTF8.self)
        for encoding: String.Encoding in [.utf16, .utf16LittleEndian, .utf16BigEndian, .utf32, .utf32LittleEndian, .utf32BigEndian] {
            datas.append(try #require(plain.data(using: encoding)))
        }
        let dir = try TemporaryFolder()
        for data in datas {
            let expected = Self.reference(data).flatMap { $0.version == 1 ? $0.entries : nil }
            let read = try? Baseline.decode(data, source: "b.json")
            #expect(read?.allEntries() == expected, "\(String(decoding: data.prefix(120), as: UTF8.self))")
            try data.write(to: URL(fileURLWithPath: dir.path + "/b.json"))
            let loaded = try? Baseline.load(from: dir.path + "/b.json", scratch: dir.path)
            #expect(loaded?.allEntries() == expected, "\(String(decoding: data.prefix(120), as: UTF8.self)), from a file")
        }
        // Some are taken, some refused.
        #expect(datas.filter { Self.reference($0) != nil }.count > 15 && datas.filter { Self.reference($0) == nil }.count > 10)
    }

    /// What is refused is said, with the line it is on.
    @Test func refusalsNameTheLineAndTheReason() {
        let cases: [(String, String)] = [
            ("[]", "line 1: a JSON object"),
            ("{\"version\": 1}", "no \"findings\" list"),
            ("{\"findings\": []}", "no \"version\""),
            ("{\"findings\": [\n{\"files\": [], \"rule\": \"r\"}], \"version\": 1}", "line 2: entry 1 of \"findings\" has no \"message\""),
            ("{\"findings\": [{\"files\": [1], \"message\": \"m\", \"rule\": \"r\"}], \"version\": 1}", "entry 1 of \"findings\": a file: a string"),
            ("{\"findings\": [{\"files\": [], \"message\": \"\\ud800\", \"rule\": \"r\"}], \"version\": 1}", "a lone surrogate"),
            ("{\"findings\": [{\"files\": [], \"message\": \"\u{1}\", \"rule\": \"r\"}], \"version\": 1}", "a control character (U+1) not escaped"),
            ("{\"findings\": [{\"files\": [], \"message\": \"\\q\", \"rule\": \"r\"}], \"version\": 1}", "an unknown escape \\q"),
            ("{\"findings\": [], \"version\": 1.5}", "a whole number, not 1.5"),
            ("{\"findings\": [], \"version\": 01}", "a number with a leading zero"),
            ("{\"findings\": [], \"version\": 1} x", "more text after the baseline's object"),
            ("{\"x\": \(String(repeating: "[", count: 600))}", "line 1: nested more than 512 deep"),
            ("{\"findings\": [], \"version\": 1, \"x\": [1 2]}", "a list: ',' or ']' after a value"),
        ]
        for (text, reason) in cases {
            do {
                _ = try Baseline.decode(Data(text.utf8), source: "b.json")
                Issue.record("\(text) was taken")
            } catch {
                #expect(error.file == "b.json" && error.description.contains(reason), "\(error)")
            }
        }
        // Not UTF-8, and a version this livelint does not read.
        #expect(throws: BaselineError.self) {
            try Baseline.decode(Data([0x7B, 0x22, 0xC3, 0x28, 0x22, 0x3A, 0x31, 0x7D]), source: "b.json")
        }
        // A folder given for the file: it cannot be read, whatever its text.
        do {
            _ = try Baseline.load(from: NSTemporaryDirectory())
            Issue.record("a folder was taken")
        } catch {
            #expect(error.reason.hasPrefix("cannot read: "), "\(error)")
        }
        do {
            _ = try Baseline.decode(Data(#"{"version": 2, "findings": []}"#.utf8), source: "b.json")
            Issue.record("version 2 was taken")
        } catch {
            #expect(error.reason == "unsupported version 2 (this livelint reads version 1)")
        }
    }

    /// The filter with its entries on disk and the findings joined on disk (runs of 1, 7 and the
    /// default) keeps what the held filter keeps, in order, counting the same, and a file's count
    /// from the hashes is what the filter accepts of that file's findings alone.
    @Test func theJoinOnDiskKeepsWhatTheHeldFilterKeeps() throws {
        var g = SplitMix(seed: 79)
        let dir = try TemporaryFolder()
        for round in 0..<40 {
            let findings = (0..<Int.random(in: 0...400, using: &g)).map { _ in
                Finding(ruleID: ["a", "b", "c"].randomElement(using: &g)!, severity: .warning,
                        message: "m\(Int.random(in: 0..<4, using: &g))",
                        files: ["x", "y", "z"].shuffled(using: &g).prefix(Int.random(in: 0...2, using: &g)).map { $0 },
                        documentation: "d")
            }
            let entries = (0..<Int.random(in: 0...300, using: &g)).map { _ in
                Baseline.Entry(rule: ["a", "b", "c", "d"].randomElement(using: &g)!,
                               files: ["x", "y", "z"].shuffled(using: &g).prefix(Int.random(in: 0...2, using: &g)).map { $0 },
                               message: "m\(Int.random(in: 0..<5, using: &g))")
            }
            let held = Baseline(entries: entries)
            let reference = Self.heldFilter(held.allEntries(), findings)
            for run in [1, 7, nil] {
                let onDisk = Baseline(entries: entries, scratch: dir.path, runSize: run)
                #expect(onDisk == held)
                var kept: [Finding] = []
                let baselined = onDisk.filter(Findings(findings), scratch: dir.path, runSize: run) { kept.append($0) }
                #expect(kept == reference.kept && baselined == reference.baselined, "round \(round), runs of \(run ?? 0)")
            }
            // One file's findings: counted from the hashes as the filter counts them.
            for file in ["x", "y", "z"] {
                let own = findings.filter { $0.files == [file] }
                #expect(held.countAccepted(own) == own.count - Self.heldFilter(held.allEntries(), own).kept.count, "round \(round), \(file)")
            }
            #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
        }
    }

    /// The filter as a dictionary of the entries held did it: exact matches first, then by rule and
    /// files what those left, each in the findings' order (the reference for the filters on disk,
    /// here and in `FindingsTests`).
    static func heldFilter(_ entries: [Baseline.Entry], _ findings: [Finding]) -> (kept: [Finding], baselined: Int) {
        struct Subject: Hashable { var rule: String; var files: [String] }
        var exact: [Baseline.Entry: Int] = [:]
        for e in entries { exact[e, default: 0] += 1 }
        var notExact: [Int] = []
        for (i, f) in findings.enumerated() {
            let e = Baseline.Entry(rule: f.ruleID, files: f.files, message: f.message)
            if let n = exact[e], n > 0 { exact[e] = n - 1 } else { notExact.append(i) }
        }
        var loose: [Subject: Int] = [:]
        for (e, n) in exact where n > 0 { loose[Subject(rule: e.rule, files: e.files), default: 0] += n }
        var kept: [Finding] = []
        for i in notExact {
            let s = Subject(rule: findings[i].ruleID, files: findings[i].files.sorted())
            if let n = loose[s], n > 0 { loose[s] = n - 1 } else { kept.append(findings[i]) }
        }
        return (kept, findings.count - kept.count)
    }
}

/// A folder made for a test and removed with it.
private final class TemporaryFolder {
    let path: String
    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("livelint-baseline-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(atPath: path) }
}
