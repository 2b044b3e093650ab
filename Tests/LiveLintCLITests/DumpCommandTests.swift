import Foundation
import Testing

@Suite(.enabled(if: CLI.binary != nil, "needs the built livelint"))
struct DumpCommandTests {
    static let pair = CLI.fixtures.appendingPathComponent("pair")

    @Test func dumpsTheFixturePairWithPairingFactsFirst() throws {
        let still = Self.pair.appendingPathComponent("IMG_0001.JPG").path
        let movie = Self.pair.appendingPathComponent("IMG_0001.MOV").path
        let result = try CLI.run(["dump", still, movie])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        // The identifier appears for both halves, before any makernote or track listing.
        let text = result.stdout
        let id = "6E1F7C2A-3B4D-4E5F-8A9B-0C1D2E3F4A5B"
        #expect(text.components(separatedBy: id).count - 1 >= 2)
        let firstID = try #require(text.range(of: id))
        let tags = try #require(text.range(of: "ContentIdentifier"))
        #expect(firstID.lowerBound < tags.lowerBound)
        #expect(text.contains("still-image-time"))
        #expect(text.contains("1.5 s"))
    }

    @Test func jsonForTheFixturePair() throws {
        let movie = Self.pair.appendingPathComponent("IMG_0001.MOV").path
        let result = try CLI.run(["dump", "--format", "json", movie])
        let doc = try #require(result.json as? [String: Any])
        let file = try #require((doc["files"] as? [[String: Any]])?.first)
        #expect(file["format"] as? String == "quicktime")
        let sit = try #require(file["stillImageTime"] as? [String: Any])
        #expect(sit["value"] as? Int == -1)
        #expect(sit["dataType"] as? Int == 65)
        #expect(abs((sit["presentationTime"] as? Double ?? -1) - 1.5) < 0.002)
        let video = try #require(file["video"] as? [String: Any])
        #expect(video["codec"] as? String == "avc1")
        #expect(video["chroma"] as? String == "4:2:0")
        #expect(video["bitDepth"] as? Int == 8)
        #expect(video["frameCount"] as? Int == 30)
    }

    @Test("unreadable files get an error and exit 2, the others are still dumped")
    func unreadableFileExitsTwo() throws {
        let tmp = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: tmp) }
        let empty = tmp.appendingPathComponent("empty.MOV")
        _ = FileManager.default.createFile(atPath: empty.path, contents: Data())
        let garbage = tmp.appendingPathComponent("garbage.JPG")
        try Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }).write(to: garbage)
        let missing = tmp.appendingPathComponent("missing.HEIC")
        let good = Self.pair.appendingPathComponent("IMG_0001.MOV")
        let result = try CLI.run(["dump", "--format", "json", empty.path, garbage.path, missing.path, good.path])
        #expect(result.status == 2)
        let files = try #require((result.json as? [String: Any])?["files"] as? [[String: Any]])
        #expect(files.count == 4)
        for file in files.prefix(3) {
            let error = try #require(file["error"] as? [String: Any], "\(file["path"] ?? "?") has no error")
            #expect((error["message"] as? String)?.isEmpty == false)
        }
        #expect(files[3]["error"] is NSNull)
        #expect(files[3]["contentIdentifier"] as? String == "6E1F7C2A-3B4D-4E5F-8A9B-0C1D2E3F4A5B")
    }

    @Test func livpIsDumpedAsItsMembers() throws {
        let livp = CLI.fixtures.appendingPathComponent("library/2024/07/IMG_0200.livp")
        let result = try CLI.run(["dump", "--format", "json", livp.path])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let file = try #require(((result.json as? [String: Any])?["files"] as? [[String: Any]])?.first)
        #expect(file["kind"] as? String == "livp")
        #expect(file["format"] as? String == "zip")
        let members = try #require(file["members"] as? [[String: Any]])
        #expect(members.compactMap { $0["kind"] as? String }.sorted() == ["movie", "still"])
        let ids = Set(members.compactMap { $0["contentIdentifier"] as? String })
        #expect(ids == ["F0E1D2C3-B4A5-4968-8776-655443322110"])
    }

    @Test("dump and lint never modify what they read")
    func readOnly() throws {
        func snapshot(_ root: URL) throws -> [String: (Data, Date)] {
            var out: [String: (Data, Date)] = [:]
            let e = try #require(FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.contentModificationDateKey, .isRegularFileKey]))
            for case let url as URL in e {
                let values = try url.resourceValues(forKeys: [.contentModificationDateKey, .isRegularFileKey])
                guard values.isRegularFile == true else { continue }
                out[url.path] = (try Data(contentsOf: url), values.contentModificationDate ?? .distantPast)
            }
            return out
        }
        let tmp = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: tmp) }
        let copy = tmp.appendingPathComponent("library")
        try FileManager.default.copyItem(at: CLI.fixtures.appendingPathComponent("library"), to: copy)
        let before = try snapshot(copy)
        _ = try CLI.run(["lint", "--format", "json", copy.path])
        let all = before.keys.sorted()
        _ = try CLI.run(["dump", "--format", "json"] + all)
        _ = try CLI.run(["dump"] + all)
        let after = try snapshot(copy)
        #expect(Set(before.keys) == Set(after.keys), "files appeared or vanished")
        for (path, (data, date)) in before {
            #expect(after[path]?.0 == data, "\(path) changed")
            #expect(after[path]?.1 == date, "\(path) modification time changed")
        }
    }
}
