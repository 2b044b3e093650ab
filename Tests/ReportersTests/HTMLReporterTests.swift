import Foundation
import LiveLintEngine
import LiveModel
@testable import Reporters
import Testing

/// The HTML report's escaping and structure, without a browser (the browser tests are in
/// LiveLintCLITests, behind LIVELINT_SLOW_TESTS=1).
struct HTMLReporterTests {
    static let hostileStill = #"hostile/IMG_"><img src=x onerror=alert(1)>.JPG"#
    static let hostileMovie = "hostile/IMG_</script><script>alert(2)</script>.MOV"
    static let hostileID = "<script>alert(3)</script>\u{2028}&amp;<!--"

    static let hostile = LintResult(
        root: "lib</title><script>alert(4)</script>",
        files: [ScannedFile(path: hostileStill, kind: .still, format: .jpeg), ScannedFile(path: hostileMovie, kind: .movie, format: .quicktime)],
        pairs: [PairRecord(still: hostileStill, movie: hostileMovie, contentIdentifier: hostileID, pairedBy: .name,
                           media: PairMedia(stillIdentifier: hostileID, movieIdentifier: "x\"y'z</style>", movieDuration: 2, stillImageTime: 1))],
        findings: [Finding(ruleID: "identifier-mismatch\"><u id=pwn>", severity: .error, message: "still says \(hostileID)",
                           files: [hostileStill, hostileMovie], fixHint: "</script>", documentation: "javascript:alert(5)")],
        summary: LintSummary(files: 2, pairs: 1, errors: 1, warnings: 0, infos: 0))

    @Test func textAndAttributeEscaping() {
        #expect(HTMLEscape.text(#"a<b>&"c"'d"#) == "a&lt;b&gt;&amp;&quot;c&quot;&#39;d")
        #expect(HTMLEscape.attribute("x\"\n\ty") == "x&quot;&#10;&#9;y")
        #expect(HTMLEscape.text(Self.hostileStill).contains("<") == false)
    }

    @Test func scriptJSONEscapingKeepsTheValue() throws {
        let raw = JSON.string("</script><!--\u{2028}\u{2029}&x>").compact()
        let escaped = HTMLEscape.scriptJSON(raw)
        for bad in ["<", ">", "&", "\u{2028}", "\u{2029}"] { #expect(!escaped.contains(bad), "\(bad)") }
        let decoded = try JSONSerialization.jsonObject(with: Data(escaped.utf8), options: .fragmentsAllowed) as? String
        #expect(decoded == "</script><!--\u{2028}\u{2029}&x>")
    }

    /// Hostile names, identifiers, rule ids and roots never become markup: the page holds exactly
    /// its two script elements, no `<img`, and the data block reads back to the same strings.
    @Test func hostileStringsStayText() throws {
        let html = HTMLReporter.render(Self.hostile, rules: [], toolVersion: "1",
                                       options: LintReportOptions(html: HTMLReportInput(nonce: "n0nce")))
        #expect(html.components(separatedBy: "<script").count - 1 == 2)
        #expect(html.components(separatedBy: "</script>").count - 1 == 2)
        #expect(!html.contains("<img"))
        #expect(!html.contains("<u id=pwn>"))
        #expect(!html.contains("<!--"))
        #expect(!html.contains("\u{2028}"))
        #expect(html.contains("<title>livelint report: lib&lt;/title&gt;&lt;script&gt;alert(4)&lt;/script&gt;</title>"))
        #expect(html.contains(#"<option value="identifier-mismatch&quot;&gt;&lt;u id=pwn&gt;">"#))

        let data = try Self.dataBlock(html)
        let cards = try #require(data["cards"] as? [[Any]])
        #expect(cards.count == 1)
        #expect(cards[0][0] as? String == Self.hostileStill)
        #expect(cards[0][1] as? String == Self.hostileMovie)
        #expect(cards[0][2] as? String == Self.hostileID)
        #expect((cards[0][5] as? [String: Any])?["mi"] as? String == "x\"y'z</style>")
        #expect(data["root"] as? String == Self.hostile.root)
        let findings = try #require(data["findings"] as? [[Any]])
        #expect(findings[0][2] as? String == "still says \(Self.hostileID)")
        #expect(findings[0][4] as? [String] == [Self.hostileStill, Self.hostileMovie])
        // The page's script only follows http(s) documentation links.
        #expect(HTMLAssets.script.contains("/^https?:\\/\\//i.test(u)"))
    }

    @Test func contentSecurityPolicyAllowsNoNetworkAndOnlyItsOwnCode() {
        let html = HTMLReporter.render(Fixtures.lintResult, rules: Fixtures.rules, toolVersion: "1",
                                       options: LintReportOptions(html: HTMLReportInput(nonce: "abc123")))
        #expect(html.contains(#"<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'nonce-abc123'; style-src 'nonce-abc123'; img-src data:; base-uri 'none'; form-action 'none'">"#))
        #expect(html.contains(#"<script nonce="abc123">"#))
        #expect(html.contains(#"<style nonce="abc123">"#))
        #expect(html.contains(#"<script type="application/json" id="livelint-data">"#))
        // Nothing in the constant parts names a network location.
        for part in [HTMLAssets.css, HTMLAssets.script] {
            #expect(!part.contains("url("))
            #expect(!part.contains("@import"))
            #expect(!part.contains("fetch("))
            #expect(!part.contains("XMLHttpRequest"))
            #expect(!part.contains("innerHTML"))
        }
        // Without a nonce given, one random nonce per process: same process, same bytes.
        let a = HTMLReporter.render(Fixtures.lintResult, rules: [], toolVersion: "1")
        #expect(a == HTMLReporter.render(Fixtures.lintResult, rules: [], toolVersion: "1"))
        #expect(a.contains("'nonce-\(HTMLReporter.processNonce)'") && HTMLReporter.processNonce.count >= 22)
    }

    @Test func cardsCarryTheirFindingsAndOtherFilesGetTheRest() throws {
        let html = HTMLReporter.render(Fixtures.lintResult, rules: Fixtures.rules, toolVersion: "1", options: Fixtures.options)
        let data = try Self.dataBlock(html)
        let cards = try #require(data["cards"] as? [[Any]])
        #expect(cards.count == Fixtures.lintResult.pairs.count)
        // IMG_0084 pair: identifier-mismatch (0) and video-codec (1); IMG_0001: duplicate-identifier (4).
        #expect(cards[0][4] as? [Int] == [4])
        #expect(cards[1][4] as? [Int] == [0, 1])
        #expect(cards[3][4] as? [Int] == [4])
        // The .livp archive itself and the unreadable movie are no pair's halves.
        #expect(data["other"] as? [Int] == [2, 5])
        let media = try #require(cards[0][5] as? [String: Any])
        #expect(media["d"] as? Double == 1.2333 && media["t"] as? Double == 0.48 && media["tv"] as? Int == -1)
        #expect((media["e"] as? [[Any]])?.count == 2)
        // Both halves carry the card's identifier: written once, not in the media.
        #expect(media["si"] == nil && media["mi"] == nil)
        #expect(cards[0][2] as? String == Fixtures.trainID)
        // Summary: counts, lone halves and a bar per rule with findings.
        #expect(html.contains(#"<li class="count lone" data-count="lone"><b>2</b> lone halves</li>"#))
        #expect(html.components(separatedBy: "<g class=\"bar ").count - 1 == 6)
        #expect(html.contains(#"data-rule="identifier-mismatch" data-count="1""#))
    }

    @Test func thumbnailsOnlyForDrawableTypes() throws {
        #expect(HTMLThumbnail(mimeType: "image/tiff", bytes: [1], width: 1, height: 1) == nil)
        #expect(HTMLThumbnail(mimeType: "image/jpeg", bytes: [], width: 1, height: 1) == nil)
        let thumb = try #require(HTMLThumbnail(mimeType: "image/jpeg", bytes: [0xFF, 0xD8, 0xFF], width: 160, height: 120))
        var options = Fixtures.options
        options.html.thumbnails = ["IMG_0001.JPG": thumb]
        let data = try Self.dataBlock(HTMLReporter.render(Fixtures.lintResult, rules: [], toolVersion: "1", options: options))
        let cards = try #require(data["cards"] as? [[Any]])
        #expect((cards[0][6] as? [Any])?.first as? String == "data:image/jpeg;base64,/9j/")
        #expect(cards[1].count == 6)
    }

    @Test func consumerOutcomesAreCountedAndShown() {
        let counts = HTMLReporter.consumerOutcomeCounts([["immich": "ok", "apple-photos": "ok"], ["immich": "broken"], ["immich": "ok"]])
        #expect(counts == ["immich": ["ok": 2, "broken": 1], "apple-photos": ["ok": 1]])
        var options = Fixtures.options
        options.html.consumerOutcomes = counts
        let html = HTMLReporter.render(Fixtures.lintResult, rules: [], toolVersion: "1", options: options)
        #expect(html.contains(#"<tr data-consumer="immich"><th>immich</th><td>1</td><td>2</td></tr>"#))
        #expect(!HTMLReporter.render(Fixtures.lintResult, rules: [], toolVersion: "1", options: Fixtures.options).contains("<table"))
    }

    @Test func writeMatchesRenderInPieces() {
        var pieces: [String] = []
        HTMLReporter.write(Fixtures.lintResult, rules: Fixtures.rules, toolVersion: "1", options: Fixtures.options) { pieces.append($0) }
        #expect(pieces.count >= 3)
        #expect(pieces.joined() == HTMLReporter.render(Fixtures.lintResult, rules: Fixtures.rules, toolVersion: "1", options: Fixtures.options))
    }

    /// The JSON inside `<script type="application/json" id="livelint-data">`.
    static func dataBlock(_ html: String) throws -> [String: Any] {
        let open = #"<script type="application/json" id="livelint-data">"#
        let start = try #require(html.range(of: open))
        let end = try #require(html.range(of: "</script>", range: start.upperBound..<html.endIndex))
        let json = String(html[start.upperBound..<end.lowerBound])
        return try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    }
}

/// `--format markdown` (a job summary): hostile strings show as written, nothing becomes a
/// link, an image or HTML, and the table stays a table.
struct MarkdownReporterTests {
    @Test func hostileStringsStayText() {
        let md = MarkdownReporter.render(HTMLReporterTests.hostile)
        // Outside code spans (where Markdown shows `<` as written) no markup is left.
        let prose = md.split(separator: "`", omittingEmptySubsequences: false).enumerated()
            .filter { $0.offset % 2 == 0 }.map(\.element).joined()
        #expect(!prose.contains("<img") && !prose.contains("<script") && !prose.contains("<u "))
        #expect(md.contains("`hostile/IMG_\"><img src=x onerror=alert(1)>.JPG`"))
        #expect(md.contains("&lt;script&gt;alert\\(3\\)&lt;/script&gt;"))
        // Every findings row has its 4 cells: no pipe from a file name split one.
        let rows = md.split(separator: "\n").filter { $0.hasPrefix("| error |") }
        #expect(rows.count == 1)
        #expect(rows.allSatisfy { $0.replacingOccurrences(of: "\\|", with: "").filter { $0 == "|" }.count == 5 })
        #expect(MarkdownReporter.code("a`b|c\nd") == "aˋb\\|c d")
    }

    @Test func countsAndALimit() {
        let md = MarkdownReporter.render(Fixtures.lintResult, findingLimit: 2)
        #expect(md.contains("**3** errors, **2** warnings, **1** infos in 9 files (5 pairs, 2 lone halves); 3 accepted by the baseline."))
        #expect(md.contains("| `identifier-mismatch` | error | 1 |"))
        #expect(md.contains("… and 4 more"))
        // Most severe first.
        let first = md.split(separator: "\n").first { $0.hasPrefix("| error |") || $0.hasPrefix("| warning |") || $0.hasPrefix("| info |") }
        #expect(first?.hasPrefix("| error |") == true)
        #expect(MarkdownReporter.render(Fixtures.cleanResult).hasPrefix("## livelint: \\.\n\n✅ **0** errors"))
    }

    /// The findings listed are the most severe first, each severity in report order, up to the
    /// limit: what sorting them all by severity gave, without holding them.
    @Test func theFindingsListedAreTheMostSevereFirst() {
        let severities: [Severity] = [.info, .error, .warning, .warning, .info, .error, .error, .info, .warning]
        let findings = severities.enumerated().map { i, s in
            Finding(ruleID: "r\(i % 3)", severity: s, message: "m\(i)", files: ["f\(i)"], documentation: "d")
        }
        let result = LintResult(root: ".", files: [], pairs: [], findings: findings,
                                summary: LintSummary(files: 9, pairs: 0, errors: 3, warnings: 3, infos: 3))
        for limit in [0, 1, 2, 4, 9, 20] {
            let md = MarkdownReporter.render(result, findingLimit: limit)
            let listed = md.split(separator: "\n").filter { $0.hasPrefix("| error |") || $0.hasPrefix("| warning |") || $0.hasPrefix("| info |") }
                .compactMap { line in line.split(separator: "|").last.map { $0.trimmingCharacters(in: .whitespaces) } }
            let expected = findings.enumerated().sorted { a, b in
                a.element.severity != b.element.severity ? a.element.severity > b.element.severity : a.offset < b.offset
            }.prefix(limit).map { "m\($0.offset)" }
            #expect(listed == Array(expected), "limit \(limit)")
            #expect(md.contains("… and \(9 - limit) more") == (limit < 9), "limit \(limit)")
        }
    }
}
