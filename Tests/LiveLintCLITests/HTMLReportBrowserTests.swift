import Foundation
import ISOBMFF
import LiveModel
import LiveWriters
import TestSupport
import Testing

/// LIVELINT_SLOW_TESTS=1, with chromium and python3 on PATH.
enum BrowserTestGate {
    static let enabled = ProcessInfo.processInfo.environment["LIVELINT_SLOW_TESTS"] == "1"
        && TestTools.which("chromium") != nil && TestTools.which("python3") != nil
}

/// The HTML report in a real browser (Debian's `chromium`, headless): the cards and findings
/// the page draws against the JSON report of the same library, filters that hide cards, hostile
/// names shown as text, and no network request of any kind. Slow (a browser start per view):
/// behind LIVELINT_SLOW_TESTS=1, and skipped without chromium or python3.
/// Screenshots are kept under `.build/test-artifacts/html-report/` (paths printed).
@Suite(.serialized, .enabled(if: BrowserTestGate.enabled))
struct HTMLReportBrowserTests {
    static let hostileStem = #"IMG_"><img src=x onerror=alert(1)>"#
    static let hostileStillID = "<script>document.title='pwned'</script>"
    static let hostileMovieID = "</script><img src=x onerror=alert(2)>"
    static let artifacts = TestPaths.repoRoot.appendingPathComponent(".build/test-artifacts/html-report")

    /// Fixtures/library plus a pair with a hostile name and hostile identifiers, linted to HTML
    /// and JSON; the checks below read both.
    struct Library {
        var dir: URL
        var html: URL
        var json: [String: Any]
        var findings: [[String: Any]] { json["findings"] as? [[String: Any]] ?? [] }
        var pairs: [[String: Any]] { json["pairs"] as? [[String: Any]] ?? [] }
    }

    static func makeLibrary() throws -> Library {
        let dir = try CLI.temporaryDirectory()
        let lib = dir.appendingPathComponent("library")
        try FileManager.default.copyItem(at: CLI.fixtures.appendingPathComponent("library"), to: lib)
        let hostile = lib.appendingPathComponent("hostile")
        try FileManager.default.createDirectory(at: hostile, withIntermediateDirectories: true)
        let still = try [UInt8](Data(contentsOf: CLI.fixtures.appendingPathComponent("pair/IMG_0001.JPG")))
        let movie = try [UInt8](Data(contentsOf: CLI.fixtures.appendingPathComponent("pair/IMG_0001.MOV")))
        let s = try LivePhotoEdits.settingStillIdentifier(hostileStillID, in: still, format: .jpeg).bytes
        let m = try LivePhotoEdits.editingMovie(LivePhotoMovieEdit(contentIdentifier: hostileMovieID),
                                                source: MemoryByteSource(movie), quickTime: true)
        try Data(s).write(to: hostile.appendingPathComponent(hostileStem + ".JPG"))
        try Data(m).write(to: hostile.appendingPathComponent(hostileStem + ".MOV"))

        let html = dir.appendingPathComponent("report.html")
        let h = try CLI.run(["lint", "--format", "html", "--output", html.path, "--quiet", lib.path])
        #expect(h.status == 1, "\(h.stderr)")
        let j = try CLI.run(["lint", "--format", "json", "--quiet", lib.path])
        let json = try #require(j.json as? [String: Any])
        return Library(dir: dir, html: html, json: json)
    }

    // MARK: the browser

    struct DOM {
        var raw: String
        var facts: [String: Any]
        var cards: [(still: String, movie: String)] {
            (facts["cards"] as? [[String: Any]] ?? []).map { ($0["still"] as? String ?? "?", $0["movie"] as? String ?? "?") }
        }
        var findings: [(rule: String, index: Int, card: Int?)] {
            (facts["findings"] as? [[String: Any]] ?? []).map {
                ($0["rule"] as? String ?? "?", Int($0["index"] as? String ?? "") ?? -1, $0["card"] as? Int)
            }
        }
        var matching: Int? { Int(((facts["status"] as? [String: Any])?["matching"] as? String) ?? "") }
        var body: [String: Any] { facts["body"] as? [String: Any] ?? [:] }
    }

    static let chromiumFlags = [
        "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run", "--hide-scrollbars", "--virtual-time-budget=4000",
    ]

    static func chromium(_ args: [String], profile: URL) throws -> ProcessRunner.Outcome {
        let exe = URL(fileURLWithPath: try #require(TestTools.which("chromium")))
        let r = try ProcessRunner.run(exe, chromiumFlags + ["--user-data-dir=\(profile.path)"] + args, timeout: 120)
        #expect(r.status == 0 && !r.timedOut, "chromium: \(String(decoding: r.stderr.suffix(2000), as: UTF8.self))")
        return r
    }

    /// The page at `url` after its script ran, as chromium serialises it, and the facts
    /// `Scripts/dom_facts.py` reads from it (Python's HTML parser, not a regex).
    static func dom(_ url: String, profile: URL, netLog: URL? = nil) throws -> DOM {
        var args = ["--dump-dom"]
        if let netLog { args += ["--log-net-log=\(netLog.path)", "--net-log-capture-mode=Everything"] }
        let r = try chromium(args + [url], profile: profile)
        let script = CLI.repoRoot.appendingPathComponent("Tests/LiveLintCLITests/Scripts/dom_facts.py")
        let dumped = profile.deletingLastPathComponent().appendingPathComponent("dom-\(UUID().uuidString).html")
        try r.stdout.write(to: dumped)
        let py = try ProcessRunner.run(URL(fileURLWithPath: "/bin/sh"), ["-c", "python3 \"$0\" < \"$1\"", script.path, dumped.path])
        #expect(py.status == 0, "\(String(decoding: py.stderr, as: UTF8.self))")
        let facts = try #require(try JSONSerialization.jsonObject(with: py.stdout) as? [String: Any])
        return DOM(raw: String(decoding: r.stdout, as: UTF8.self), facts: facts)
    }

    /// Requests the page itself started (chromium's own update and account requests are left
    /// out: their network isolation key is not the page's `file://`) to anything but `file:`
    /// and `data:`, from a net log.
    static func pageNetworkRequests(_ netLog: URL) throws -> [String] {
        let log = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: netLog)) as? [String: Any])
        let events = log["events"] as? [[String: Any]] ?? []
        var urls: [String] = []
        for e in events {
            guard let p = e["params"] as? [String: Any], let url = p["url"] as? String else { continue }
            let key = (p["network_isolation_key"] as? String) ?? ""
            let fromPage = key.contains("file://") || (p["initiator"] as? String) == "null"
            if fromPage && !url.hasPrefix("file:") && !url.hasPrefix("data:") { urls.append(url) }
        }
        return urls
    }

    // MARK: tests

    @Test func cardsAndFindingsMatchTheJSONReport() throws {
        let lib = try Self.makeLibrary()
        defer { try? FileManager.default.removeItem(at: lib.dir) }
        let profile = lib.dir.appendingPathComponent("profile")
        let url = lib.html.absoluteString
        let dom = try Self.dom(url + "#size=all", profile: profile)

        // Cards: exactly the pairs and lone halves that have a finding (the default view).
        let named = Set(lib.findings.flatMap { $0["files"] as? [String] ?? [] })
        let expected = lib.pairs.compactMap { p -> String? in
            let s = p["still"] as? String ?? "", m = p["movie"] as? String ?? ""
            return named.contains(s) || named.contains(m) ? s + "\u{0}" + m : nil
        }
        #expect(dom.cards.map { $0.still + "\u{0}" + $0.movie }.sorted() == expected.sorted())
        #expect(dom.matching == expected.count)
        #expect(expected.count >= 15)

        // Findings: every one of the JSON report's, each under a card that holds one of its
        // files (or among the other files'), with its rule.
        #expect(Set(dom.findings.map(\.index)) == Set(lib.findings.indices))
        for f in dom.findings {
            let want = try #require(lib.findings.indices.contains(f.index) ? lib.findings[f.index] : nil)
            #expect(f.rule == want["rule"] as? String)
            if let card = f.card {
                let files = want["files"] as? [String] ?? []
                #expect(files.contains(dom.cards[card].still) || files.contains(dom.cards[card].movie), "\(f)")
            }
        }

        // The hostile pair: a card with its name as data, its identifiers as text, nothing run.
        let hostileStill = "hostile/" + Self.hostileStem + ".JPG"
        #expect(dom.cards.contains { $0.still == hostileStill && $0.movie == "hostile/" + Self.hostileStem + ".MOV" })
        #expect(dom.raw.contains("still id &lt;script&gt;document.title='pwned'&lt;/script&gt;"))
        #expect(dom.raw.contains("movie id &lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;"))
        #expect((dom.facts["images"] as? [String?] ?? []).allSatisfy { $0?.hasPrefix("data:image/") == true })
        #expect((dom.facts["handlers"] as? [String])?.isEmpty == true)
        #expect(dom.facts["scripts"] as? [String] == ["application/json", "text/javascript"])
        #expect((dom.facts["title"] as? String)?.hasPrefix("livelint report: ") == true)
        #expect(dom.body["rendered"] as? String == "1")
        #expect(dom.body["csp_violations"] as? String == "0")

        // Every pair with all=1; paging.
        let all = try Self.dom(url + "#all=1&size=all", profile: profile)
        #expect(all.cards.count == lib.pairs.count)
        let paged = try Self.dom(url + "#size=5&page=2", profile: profile)
        #expect(paged.cards.count == 5 && paged.matching == expected.count)
        #expect(Set(paged.cards.map(\.still)).isDisjoint(with: Set(try Self.dom(url + "#size=5", profile: profile).cards.map(\.still))))
    }

    @Test func filtersHideCards() throws {
        let lib = try Self.makeLibrary()
        defer { try? FileManager.default.removeItem(at: lib.dir) }
        let profile = lib.dir.appendingPathComponent("profile")
        let url = lib.html.absoluteString
        let everything = try Self.dom(url + "#size=all", profile: profile).cards.count

        func pairsWith(_ rule: String) -> Int {
            let files = Set(lib.findings.filter { $0["rule"] as? String == rule }.flatMap { $0["files"] as? [String] ?? [] })
            return lib.pairs.filter { files.contains($0["still"] as? String ?? "\u{0}") || files.contains($0["movie"] as? String ?? "\u{0}") }.count
        }
        let byRule = try Self.dom(url + "#size=all&rule=identifier-mismatch", profile: profile)
        #expect(byRule.cards.count == pairsWith("identifier-mismatch"))
        #expect(byRule.cards.count >= 2 && byRule.cards.count < everything)
        #expect(byRule.findings.allSatisfy { $0.rule == "identifier-mismatch" })

        let errors = lib.findings.filter { $0["severity"] as? String == "error" }
        let bySeverity = try Self.dom(url + "#size=all&sev=error", profile: profile)
        #expect(bySeverity.cards.count < everything && !bySeverity.cards.isEmpty)
        #expect(Set(bySeverity.findings.map(\.index)).isSubset(of: Set(lib.findings.indices.filter { lib.findings[$0]["severity"] as? String == "error" })))
        #expect(!errors.isEmpty)

        let byFolder = try Self.dom(url + "#size=all&folder=broken/video-codec", profile: profile)
        #expect(byFolder.cards.map(\.still) == ["broken/video-codec/IMG_0106.JPG"])

        let byText = try Self.dom(url + "#size=all&q=img_0101", profile: profile)
        #expect(byText.cards.map(\.still) == ["broken/identifier-mismatch/IMG_0101.JPG"])

        let none = try Self.dom(url + "#size=all&q=no-such-thing-anywhere", profile: profile)
        #expect(none.cards.isEmpty && none.matching == 0)
    }

    /// No request leaves the page: chromium's net log names none (and does name one from a
    /// page without our policy: the check can fail), and the page's policy blocks an image
    /// injected after the fact (the page counts the violation).
    @Test func thePageMakesNoNetworkRequest() throws {
        let lib = try Self.makeLibrary()
        defer { try? FileManager.default.removeItem(at: lib.dir) }
        let profile = lib.dir.appendingPathComponent("profile")

        let log = lib.dir.appendingPathComponent("report.netlog.json")
        let dom = try Self.dom(lib.html.absoluteString + "#all=1&size=all", profile: profile, netLog: log)
        #expect(dom.body["csp_violations"] as? String == "0")
        #expect(try Self.pageNetworkRequests(log) == [])

        // Control 1: the same check sees a request from a page with no policy.
        let probe = lib.dir.appendingPathComponent("probe.html")
        try Data(#"<!DOCTYPE html><html><body><img src="http://127.0.0.1:9/probe.png"></body></html>"#.utf8).write(to: probe)
        let probeLog = lib.dir.appendingPathComponent("probe.netlog.json")
        _ = try Self.dom(probe.absoluteString, profile: profile, netLog: probeLog)
        #expect(try Self.pageNetworkRequests(probeLog).contains("http://127.0.0.1:9/probe.png"))

        // Control 2: markup slipped into the report (what escaping prevents) is still stopped by its policy.
        var html = try String(contentsOf: lib.html, encoding: .utf8)
        html = html.replacingOccurrences(of: "</body>", with: #"<img src="http://127.0.0.1:9/injected.png"><script>document.title='ran'</script></body>"#)
        let injected = lib.dir.appendingPathComponent("injected.html")
        try Data(html.utf8).write(to: injected)
        let injectedLog = lib.dir.appendingPathComponent("injected.netlog.json")
        let blocked = try Self.dom(injected.absoluteString, profile: profile, netLog: injectedLog)
        #expect(Int(blocked.body["csp_violations"] as? String ?? "0") ?? 0 >= 2)
        #expect((blocked.facts["title"] as? String) != "ran")
        #expect(try Self.pageNetworkRequests(injectedLog) == [])
    }

    /// Screenshots of the report on Fixtures/library and (when present) on the corpus, kept as
    /// test artefacts; the corpus report shows the embedded preview of `lychee/train.jpg`.
    @Test func screenshots() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createDirectory(at: Self.artifacts, withIntermediateDirectories: true)
        var targets = [("fixtures", CLI.fixtures.appendingPathComponent("library"))]
        if CLI.corpusPresent { targets.append(("corpus", CLI.corpus)) }
        for (name, library) in targets {
            let html = Self.artifacts.appendingPathComponent("\(name).html")
            let r = try CLI.run(["lint", "--format", "html", "--thumbnails", "all", "--output", html.path, "--quiet", library.path])
            #expect(r.status == 0 || r.status == 1, "\(r.stderr)")
            let png = Self.artifacts.appendingPathComponent("\(name).png")
            try? FileManager.default.removeItem(at: png)
            _ = try Self.chromium(["--window-size=1280,2400", "--screenshot=\(png.path)", html.absoluteString + "#all=1"],
                                  profile: dir.appendingPathComponent("profile"))
            let size = (try? FileManager.default.attributesOfItem(atPath: png.path)[.size] as? Int) ?? 0
            #expect(size > 20_000, "\(png.path)")
            print("HTML report screenshot (\(name)): \(png.path)")
            if name == "corpus" {
                let dom = try Self.dom(html.absoluteString + "#all=1&size=all", profile: dir.appendingPathComponent("profile"))
                #expect((dom.facts["images"] as? [String] ?? []).contains { $0.hasPrefix("data:image/jpeg;base64,/9j/") })
            }
        }
    }
}
