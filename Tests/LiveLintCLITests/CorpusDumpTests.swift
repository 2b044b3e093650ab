import Foundation
import Testing

/// `livelint dump --format json` on every real device file agrees with the facts that
/// `../shared/corpus/manifest.json` records (read there with exiftool, ffprobe and a box reader).
@Suite(.enabled(if: CLI.corpusPresent && CLI.binary != nil, "needs ../shared/corpus and the built livelint"))
struct CorpusDumpTests {
    static let entries = CorpusEntry.load()

    func dump(_ entry: CorpusEntry) throws -> [String: Any] {
        let result = try CLI.run(["dump", "--format", "json", "--no-stream-properties", entry.url.path])
        let doc = try #require(result.json as? [String: Any], "dump printed no JSON: \(result.stderr)")
        #expect(doc["schemaVersion"] as? Int == 1)
        let files = try #require(doc["files"] as? [[String: Any]])
        try #require(files.count == 1)
        return files[0]
    }

    @Test("still facts match the manifest", arguments: entries.filter { $0.still != nil })
    func stillFacts(_ entry: CorpusEntry) throws {
        let file = try dump(entry)
        let still = try #require(entry.still)
        #expect(file["kind"] as? String == "still")
        #expect(file["error"] is NSNull, "unexpected error: \(String(describing: file["error"]))")
        let expectedID = still["content_identifier_0x0011"] as? String
        #expect(file["contentIdentifier"] as? String == expectedID)
        if let ids = still["makernote_tag_ids"] as? [Int], !ids.isEmpty {
            // The manifest lists tags as exiftool shows them, and exiftool hides some entries:
            // 0x0003 (RunTime) always (it shows RunTimeFlags/Value/… instead), and 0x0002, 0x0041,
            // 0x0042 when they are not binary plists. We list every entry in the IFD.
            let hiddenByExiftool: Set<Int> = [0x0002, 0x0003, 0x0041, 0x0042]
            let tags = try #require(file["makerApple"] as? [[String: Any]])
            let ours = Set(tags.compactMap { $0["tag"] as? Int })
            #expect(ours.isSuperset(of: ids), "missing tags: \(Set(ids).subtracting(ours).sorted())")
            #expect(ours.subtracting(ids).isSubset(of: hiddenByExiftool), "unexpected tags: \(ours.subtracting(ids).sorted())")
        } else {
            #expect((file["makerApple"] as? [Any] ?? []).isEmpty)
        }
    }

    @Test("movie facts match the manifest", arguments: entries.filter { $0.movie != nil })
    func movieFacts(_ entry: CorpusEntry) throws {
        let file = try dump(entry)
        let movie = try #require(entry.movie)
        #expect(file["kind"] as? String == "movie")
        #expect(file["error"] is NSNull, "unexpected error: \(String(describing: file["error"]))")
        #expect(file["contentIdentifier"] as? String == movie["content_identifier"] as? String)

        // Duration within 1 ms.
        let duration = try #require(file["duration"] as? Double)
        let expectedDuration = try #require(movie["duration_s"] as? Double)
        #expect(abs(duration - expectedDuration) < 0.001, "duration \(duration) vs \(expectedDuration)")

        // Video stream: fourcc as stored, and geometry.
        let video = try #require(movie["video"] as? [String: Any])
        let ours = try #require(file["video"] as? [String: Any])
        #expect(ours["codec"] as? String == video["tag"] as? String)
        let dims = try #require(video["dims"] as? [Int])
        #expect(ours["width"] as? Int == dims[0])
        #expect(ours["height"] as? Int == dims[1])

        // Tracks: count, ids and handlers.
        let expectedTracks = try #require(movie["tracks"] as? [[String: Any]])
        let tracks = try #require(file["tracks"] as? [[String: Any]])
        #expect(tracks.count == expectedTracks.count)
        #expect(tracks.compactMap { $0["id"] as? Int } == expectedTracks.compactMap { $0["id"] as? Int })
        #expect(tracks.compactMap { $0["handler"] as? String } == expectedTracks.compactMap { $0["handler"] as? String })

        // Still-image-time: value, type and presentation time through the edit list (1 ms).
        if let sit = movie["still_image_time"] as? [String: Any] {
            let ours = try #require(file["stillImageTime"] as? [String: Any], "no stillImageTime")
            #expect(ours["value"] as? Int == sit["value"] as? Int)
            #expect(ours["dataType"] as? Int == sit["dtyp"] as? Int)
            #expect(ours["trackID"] as? Int == sit["track_id"] as? Int)
            let t = try #require(ours["presentationTime"] as? Double)
            let expected = try #require(sit["presentation_time_s_via_elst"] as? Double)
            #expect(abs(t - expected) < 0.001, "presentation time \(t) vs \(expected)")
        } else {
            #expect(file["stillImageTime"] is NSNull || file["stillImageTime"] == nil)
        }
    }

    @Test("every corpus file dumps without crashing, as text too", arguments: entries)
    func textDump(_ entry: CorpusEntry) throws {
        let result = try CLI.run(["dump", "--no-stream-properties", entry.url.path])
        #expect(result.status == 0, "exit \(result.status): \(result.stderr)")
        #expect(result.stdout.contains(entry.url.lastPathComponent))
        #expect(result.stderr.isEmpty, "stderr: \(result.stderr)")
    }
}
