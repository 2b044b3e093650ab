import Foundation
import LiveReaders
import TestSupport
import Testing

/// `lint --format html` end to end without a browser: the page's data block against the JSON
/// report, the per-pair media the scan fills, thumbnails read through exiv2's preview API.
struct HTMLReportCLITests {
    /// The JSON inside the page's data block.
    static func data(_ html: String) throws -> [String: Any] {
        let open = #"<script type="application/json" id="livelint-data">"#
        let start = try #require(html.range(of: open))
        let end = try #require(html.range(of: "</script>", range: start.upperBound..<html.endIndex))
        return try #require(try JSONSerialization.jsonObject(with: Data(html[start.upperBound..<end.lowerBound].utf8)) as? [String: Any])
    }

    @Test func dataBlockMatchesTheJSONReport() throws {
        let library = CLI.fixtures.appendingPathComponent("library").path
        let html = try CLI.run(["lint", "--format", "html", "--quiet", library])
        #expect(html.status == 1)
        #expect(html.stdout.hasPrefix("<!DOCTYPE html>") && html.stdout.hasSuffix("</html>\n"))
        let json = try #require(try CLI.run(["lint", "--format", "json", "--quiet", library]).json as? [String: Any])
        let data = try Self.data(html.stdout)
        let cards = try #require(data["cards"] as? [[Any]])
        let pairs = try #require(json["pairs"] as? [[String: Any]])
        #expect(cards.map { "\($0[0])|\($0[1])" } == pairs.map { "\($0["still"] as? String ?? "")|\($0["movie"] as? String ?? "")" })
        #expect((data["findings"] as? [[Any]])?.map { $0[0] as? String } == (json["findings"] as? [[String: Any]])?.map { $0["rule"] as? String })

        // The still-image-time out of range pair: its timeline puts the still at 5 s in a 3 s movie.
        let outOfRange = try #require(cards.first { ($0[0] as? String)?.contains("still-image-time-out-of-range") == true })
        let media = try #require(outOfRange[5] as? [String: Any])
        #expect(media["t"] as? Double == 5 && media["d"] as? Double == 3)
        // Identifiers that differ are both written.
        let mismatch = try #require(cards.first { ($0[0] as? String)?.contains("broken/identifier-mismatch") == true })
        let ids = try #require(mismatch[5] as? [String: Any])
        #expect(ids["mi"] as? String == "99999999-8888-4777-8666-555555555555" || ids["si"] as? String == "11111111-2222-4333-8444-555555555555")
    }

    @Test func thumbnailsNeedTheHTMLFormat() throws {
        let r = try CLI.run(["lint", "--format", "json", "--thumbnails", "all", CLI.fixtures.appendingPathComponent("library").path])
        #expect(r.status == 2 && r.stderr.contains("--thumbnails is for --format html"))
    }

    /// lychee/train.jpg carries an 8,612-byte Exif thumbnail (exiftool: ThumbnailLength): the
    /// card's thumbnail is those bytes, as stored; its pair is clean, so only `--thumbnails all`
    /// shows it.
    @Test(.enabled(if: TestPaths.corpusPresent)) func corpusThumbnailIsTheExifThumbnail() throws {
        let still = CLI.corpus.appendingPathComponent("lychee/train.jpg")
        let preview = try #require(StillPreview.read(path: still.path))
        #expect(preview.mimeType == "image/jpeg" && preview.bytes.count == 8612 && preview.bytes.starts(with: [0xFF, 0xD8]))
        #expect(preview.width == 160 && preview.height == 120)
        #expect(StillPreview.read(path: still.path, maxBytes: 4096) == nil)
        #expect(StillPreview.read(path: CLI.corpus.appendingPathComponent("lychee/train.mov").path) == nil)

        let folder = CLI.corpus.appendingPathComponent("lychee").path
        let all = try Self.data(try CLI.run(["lint", "--format", "html", "--thumbnails", "all", "--quiet", folder]).stdout)
        let card = try #require((all["cards"] as? [[Any]])?.first { $0[0] as? String == "train.jpg" })
        let uri = try #require((card.count > 6 ? card[6] as? [Any] : nil)?.first as? String)
        #expect(uri == "data:image/jpeg;base64," + Data(preview.bytes).base64EncodedString())
        let byDefault = try Self.data(try CLI.run(["lint", "--format", "html", "--quiet", folder]).stdout)
        #expect((byDefault["cards"] as? [[Any]])?.first { $0[0] as? String == "train.jpg" }?.count == 6)
    }
}
