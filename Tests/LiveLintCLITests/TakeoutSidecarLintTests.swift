import Foundation
import Testing

/// Google Takeout sidecars on real files (issue 12): `lint` maps each sidecar to its file and its
/// pair (`files[].sidecar`, `pairs[].sidecar`), flags a movie whose date only its still's sidecar
/// holds and a sidecar that cannot be used, goes on past bad ones, never writes one, and never
/// takes a sidecar from the cache; `dump` shows what the sidecar says.
@Suite struct TakeoutSidecarLintTests {
    /// A Takeout-shaped folder built from the fixture pairs: a duplicate-named pair (`(1)` moved in
    /// the sidecar's name, `.MP4` that is QuickTime), a pair whose sidecar is cut short, and the
    /// album's `metadata.json`, which describes no file.
    static func takeoutTree() throws -> (root: URL, album: URL) {
        let root = try CLI.temporaryDirectory()
        let album = root.appendingPathComponent("Takeout/Google Photos/Photos from 2021")
        try FileManager.default.createDirectory(at: album, withIntermediateDirectories: true)
        let source = CLI.fixtures.appendingPathComponent("library/2024/05")
        _ = try Repair.copy(source.appendingPathComponent("IMG_0001.JPG"), into: album, as: "IMG_0769(1).JPG")
        _ = try Repair.copy(source.appendingPathComponent("IMG_0001.MOV"), into: album, as: "IMG_0769(1).MP4")
        _ = try Repair.copy(source.appendingPathComponent("IMG_0002.JPG"), into: album, as: "IMG_0770.JPG")
        _ = try Repair.copy(source.appendingPathComponent("IMG_0002.MOV"), into: album, as: "IMG_0770.MP4")
        let good = #"{"title": "IMG_0769.JPG", "photoTakenTime": {"timestamp": "1618047840", "formatted": "Apr 10, 2021"}, "geoData": {"latitude": 48.8584, "longitude": 2.2945}}"#
        try Data(good.utf8).write(to: album.appendingPathComponent("IMG_0769.JPG.supplemental-metadata(1).json"))
        try Data(#"{"title": "IMG_0770.JPG", "photoTakenTime": {"timesta"#.utf8).write(to: album.appendingPathComponent("IMG_0770.JPG.json"))
        try Data(#"{"title": "Photos from 2021"}"#.utf8).write(to: album.appendingPathComponent("metadata.json"))
        return (root, album)
    }

    /// Every file under `root` with its size, modification time and bytes.
    static func snapshot(_ root: URL) throws -> [String: String] {
        var out: [String: String] = [:]
        let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.contentModificationDateKey])
        while let url = walker?.nextObject() as? URL {
            guard let values = try? url.resourceValues(forKeys: [.isRegularFileKey, .contentModificationDateKey]),
                  values.isRegularFile == true else { continue }
            let data = try Data(contentsOf: url)
            out[url.path] = "\(data.count) \(values.contentModificationDate?.timeIntervalSince1970 ?? 0) \(data.hashValue)"
        }
        return out
    }

    static func lint(_ root: URL, _ extra: [String] = []) throws -> [String: Any] {
        let result = try CLI.run(["lint", "--format", "json", "--quiet", "--no-config", "--no-cache"] + extra + [root.path])
        return try #require(result.json as? [String: Any], "no JSON: \(result.stderr)")
    }

    @Test func lintMapsSidecarsAndFlagsWhatImportersLose() throws {
        let (root, _) = try Self.takeoutTree()
        defer { try? FileManager.default.removeItem(at: root) }
        let before = try Self.snapshot(root)
        let doc = try Self.lint(root)
        #expect(try Self.snapshot(root) == before, "lint changed or added a file")

        let dir = "Takeout/Google Photos/Photos from 2021/"
        let files = try #require(doc["files"] as? [[String: Any]])
        func file(_ name: String) -> [String: Any]? { files.first { $0["path"] as? String == dir + name } }
        #expect(file("IMG_0769(1).JPG")?["sidecar"] as? String == dir + "IMG_0769.JPG.supplemental-metadata(1).json")
        #expect(file("IMG_0769(1).MP4")?["sidecar"] == nil, "Takeout wrote the still's sidecar only")
        #expect(file("IMG_0770.JPG")?["sidecar"] as? String == dir + "IMG_0770.JPG.json")
        #expect((file("metadata.json")?["error"] as? String)?.contains("a JSON file") == true)
        #expect(files.allSatisfy { ($0["sidecar"] as? String)?.hasSuffix("metadata.json") != true })

        let pairs = try #require(doc["pairs"] as? [[String: Any]])
        let pair = try #require(pairs.first { $0["still"] as? String == dir + "IMG_0769(1).JPG" })
        #expect(pair["movie"] as? String == dir + "IMG_0769(1).MP4")
        #expect(pair["sidecar"] as? String == dir + "IMG_0769.JPG.supplemental-metadata(1).json")

        let findings = try #require(doc["findings"] as? [[String: Any]])
        let dated = findings.filter { $0["rule"] as? String == "movie-date-only-in-sidecar" }
        #expect(dated.count == 1 && (dated.first?["files"] as? [String]) == [dir + "IMG_0769(1).MP4"], "\(dated)")
        #expect((dated.first?["message"] as? String)?.contains("2021-04-10 09:44:00 UTC") == true)
        let unreadable = findings.filter { $0["rule"] as? String == "unreadable-sidecar" }
        #expect(unreadable.count == 1, "\(unreadable)")
        #expect((unreadable.first?["files"] as? [String])?.contains(dir + "IMG_0770.JPG.json") == true)
        #expect((unreadable.first?["message"] as? String)?.contains("cut short") == true)
        // A cut-short sidecar dates nothing: its pair is not flagged for the movie's date.
        #expect(!dated.contains { ($0["files"] as? [String])?.contains(dir + "IMG_0770.MP4") == true })
        // The rest of the scan went on: both pairs formed, every file listed.
        #expect(pairs.filter { $0["pairedBy"] as? String == "content-identifier" }.count == 2)
        #expect((doc["summary"] as? [String: Any])?["files"] as? Int == 7)
    }

    @Test func aCachedRunReadsTheSidecarsAgain() throws {
        let (root, album) = try Self.takeoutTree()
        defer { try? FileManager.default.removeItem(at: root) }
        let cache = root.appendingPathComponent("cache").path
        let library = root.appendingPathComponent("Takeout").path
        let first = try CLI.run(["lint", "--no-config", "--format", "json", "--cache-dir", cache, library])
        #expect(first.stdout.contains("unreadable-sidecar"))
        // The media files are unchanged (cached); the sidecar is repaired: the finding goes.
        try Data(#"{"title": "IMG_0770.JPG", "photoTakenTime": {"timestamp": "1618047900"}}"#.utf8)
            .write(to: album.appendingPathComponent("IMG_0770.JPG.json"))
        let second = try CLI.run(["lint", "--no-config", "--format", "json", "--cache-dir", cache, library])
        let uncached = try CLI.run(["lint", "--no-config", "--format", "json", "--no-cache", library])
        #expect(!second.stdout.contains("unreadable-sidecar"))
        #expect(second.stdout == uncached.stdout)
        // Now both stills' sidecars date their pairs and neither movie has one.
        #expect(second.stdout.components(separatedBy: "\"rule\": \"movie-date-only-in-sidecar\"").count - 1 == 2)
    }

    @Test func dumpShowsTheMappedSidecar() throws {
        let (root, album) = try Self.takeoutTree()
        defer { try? FileManager.default.removeItem(at: root) }
        let text = try CLI.run(["dump", "--no-stream-properties", album.appendingPathComponent("IMG_0769(1).JPG").path])
        #expect(text.stdout.contains("Takeout sidecar"), "\(text.stdout)")
        #expect(text.stdout.contains("IMG_0769.JPG.supplemental-metadata(1).json"))
        #expect(text.stdout.contains("2021-04-10 09:44:00 UTC") && text.stdout.contains("48.8584, 2.2945"))
        let json = try CLI.run(["dump", "--format", "json", "--no-stream-properties", album.appendingPathComponent("IMG_0770.JPG").path])
        let doc = try #require(json.json as? [String: Any])
        let sidecar = try #require(((doc["files"] as? [[String: Any]])?.first?["sidecar"]) as? [String: Any])
        #expect((sidecar["problem"] as? String)?.contains("cut short") == true)
        let movie = try CLI.run(["dump", "--no-stream-properties", album.appendingPathComponent("IMG_0769(1).MP4").path])
        #expect(!movie.stdout.contains("Takeout sidecar"))
    }
}
