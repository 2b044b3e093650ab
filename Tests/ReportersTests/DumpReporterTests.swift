import Foundation
import LiveLintEngine
import LiveModel
@testable import Reporters
import Testing

struct DumpJSONTests {
    let out = DumpJSONReporter.render(Fixtures.dumpFiles)

    private func files() throws -> [[String: Any]] {
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any])
        #expect(doc["schemaVersion"] as? Int == 1)
        return try #require(doc["files"] as? [[String: Any]])
    }

    @Test func mandatoryFieldsAlwaysPresent() throws {
        let files = try files()
        #expect(files.count == Fixtures.dumpFiles.count)
        for f in files {
            for key in ["path", "kind", "format", "contentIdentifier", "error", "warnings"] {
                #expect(f.keys.contains(key), "\(f["path"] ?? "?") lacks \(key)")
            }
        }
        #expect(files[0]["contentIdentifier"] as? String == Fixtures.trainID)
        #expect(files[3]["contentIdentifier"] is NSNull)
        #expect(files[0]["error"] is NSNull)
        let error = try #require(files[2]["error"] as? [String: Any])
        #expect(error["category"] as? String == "malformed")
        #expect(error["location"] as? String == "moov")
        #expect(error["offset"] as? Int == 20)
        let notMedia = try #require(files[3]["error"] as? [String: Any])
        #expect(notMedia["location"] is NSNull && notMedia["offset"] is NSNull)
    }

    @Test func stillFields() throws {
        let still = try files()[0]
        let tags = try #require(still["makerApple"] as? [[String: Any]])
        let id = try #require(tags.first { $0["tag"] as? Int == 17 })
        #expect(id["name"] as? String == "ContentIdentifier")
        #expect(id["hexTag"] as? String == "0x0011")
        #expect(id["aliases"] as? [String] == ["MediaGroupUUID"])
        #expect(id["value"] as? String == Fixtures.trainID)
        let plist = try #require(tags.first { $0["tag"] as? Int == 2 })
        let hex = try #require(plist["value"] as? String)
        #expect(hex.hasPrefix("62706c6973743030c394"))  // "bplist00" then U+00D4 as UTF-8, as hex
        #expect(hex.count == 2 * 134)  // the whole value, never cut: 8 + 2 + 4 + 120 bytes
        let runTime = try #require(tags.first { $0["tag"] as? Int == 3 }?["value"] as? [String: Any])
        #expect(runTime["timescale"] as? Int == 1_000_000_000)
        #expect(try #require(files()[4]["makerApple"]) is NSNull)
    }

    @Test func movieFields() throws {
        let movie = try files()[1]
        #expect(movie["duration"] as? Double == 740.0 / 600)
        let keys = try #require(movie["quickTimeKeys"] as? [[String: Any]])
        #expect(keys.contains { $0["key"] as? String == MovieInfo.contentIdentifierKey && $0["type"] as? String == "utf8" })
        #expect(keys.contains { $0["type"] as? String == "float32" && $0["value"] as? Double == 0.9375 })
        let tracks = try #require(movie["tracks"] as? [[String: Any]])
        #expect(tracks.map { $0["id"] as? Int } == [1, 2, 3, 4])
        #expect(tracks.map { $0["handler"] as? String } == ["vide", "soun", "meta", "meta"])
        #expect(tracks.map { $0["format"] as? String } == ["avc1", "lpcm", "mebx", "mebx"])
        let edits = try #require(tracks[3]["editList"] as? [[String: Any]])
        #expect(edits.first?["mediaTime"] as? Int == -1)
        #expect(edits.first?["segmentDurationSeconds"] as? Double == 0.48)
        #expect((tracks[2]["references"] as? [String: [Int]])?["cdep"] == [1])
        let md = try #require(tracks[2]["metadata"] as? [String: Any])
        #expect((md["samples"] as? [Any])?.count == 22)
        let sit = try #require(movie["stillImageTime"] as? [String: Any])
        #expect(sit["value"] as? Int == -1)
        #expect(sit["dataType"] as? Int == 65)
        #expect(sit["trackID"] as? Int == 4)
        #expect(sit["presentationTime"] as? Double == 0.48)
        #expect(sit["insideMovie"] as? Bool == true)
        let video = try #require(movie["video"] as? [String: Any])
        #expect(video["codec"] as? String == "avc1")
        #expect(video["codecName"] as? String == "H.264")
        #expect(video["chroma"] as? String == "4:2:0")
        let props = try #require(movie["streamProperties"] as? [[String: Any]])
        #expect((props[1]["fields"] as? [String: Any])?["Format"] as? String == "AVC")
    }

    @Test func awkwardValuesStayValidJSON() throws {
        let broken = try files()[2]
        let keys = try #require(broken["quickTimeKeys"] as? [[String: Any]])
        #expect(keys.map { $0["value"] as? String } == ["NaN", "Infinity", "deadbeef"])
        #expect(broken["duration"] as? Int == 0)
        #expect(out.contains(#""value": "Train\nat \u001b[31mstation""#))
    }

    @Test func livpMembersHaveTheSameShape() throws {
        let livp = try files()[5]
        #expect(livp["kind"] as? String == "livp")
        #expect(livp["format"] as? String == "zip")
        let members = try #require(livp["members"] as? [[String: Any]])
        #expect(members.map { $0["kind"] as? String } == ["still", "movie"])
        #expect(members.allSatisfy { $0["contentIdentifier"] as? String == Fixtures.livpID })
        #expect((members[1]["tracks"] as? [[String: Any]])?.first?["rotation"] as? Int == -90)
    }

    @Test(.enabled(if: Support.canValidate))
    func validatesAgainstOwnSchema() throws {
        #expect(try Support.validate([out, DumpJSONReporter.render([])], schema: Support.dumpSchema) == "")
        let broken = out.replacingOccurrences(of: "\"contentIdentifier\": null,", with: "")
        #expect(try Support.validate([broken], schema: Support.dumpSchema).contains("'contentIdentifier' is a required property"))
    }

    @Test func jsonWriterEscapesAndFormats() {
        #expect(JSON.string("a\"b\\c\u{0}\u{1F}é").compact() == #""a\"b\\c\u0000\u001fé""#)
        // The whole-string path (nothing to escape) and one escape at the very end or start.
        #expect(JSON.string("2024/05/IMG_0001 (1) é.JPG").compact() == #""2024/05/IMG_0001 (1) é.JPG""#)
        #expect(JSON.string("del\u{7F}").compact() == #""del\u007f""#)
        #expect(JSON.string("\ttab").compact() == #""\ttab""#)
        #expect(JSON.object(["b": .int(1), "a": .array([]), "B": .object([:])]).compact() == #"{"B":{},"a":[],"b":1}"#)
        #expect(JSON.number(.nan) == .null)
        #expect(JSON.double(2).compact() == "2")
        #expect(JSON.double(1e-5).compact() == "1e-05")
        #expect(JSON.object(["k": .array([.int(1)])]).pretty() == "{\n  \"k\": [\n    1\n  ]\n}")
    }
}

struct DumpTextTests {
    let out = DumpTextReporter.render(Fixtures.dumpFiles)

    @Test func pairingFactsComeFirst() throws {
        let movieHeader = try #require(out.range(of: "== lychee/train.mov =="))
        let facts = try #require(out.range(of: "Pairing facts", range: movieHeader.upperBound..<out.endIndex))
        let sit = try #require(out.range(of: "still-image-time    value -1 (int8, 1 byte), track 4, at 0.48 s of 1.233 s: inside the movie",
                                         range: movieHeader.upperBound..<out.endIndex))
        let movie = try #require(out.range(of: "\nMovie\n", range: movieHeader.upperBound..<out.endIndex))
        #expect(facts.lowerBound < sit.lowerBound && sit.lowerBound < movie.lowerBound)
    }

    @Test func makerNoteTagsAreAlignedColumns() {
        #expect(out.contains("    tag     name                                type         count  value\n"))
        #expect(out.contains("    0x0001  MakerNoteVersion                    int32s       1      12\n"))
        #expect(out.contains("    0x0011  ContentIdentifier (MediaGroupUUID)  string       37     \(Fixtures.trainID)\n"))
    }

    @Test func longRunsAreSummarised() {
        #expect(out.contains("      … 17 more, use --all-samples"))
        let all = DumpTextReporter.render([Fixtures.trainMovie], options: DumpOptions(allSamples: true))
        #expect(!all.contains("more, use --all-samples"))
        #expect(all.contains("      21  1.313 s"))
    }

    @Test func longValuesAreCut() {
        let cut = Text.truncate(String(repeating: "x", count: 200), 80)
        #expect(cut == String(repeating: "x", count: 79) + "… (200 chars)")
        #expect(Text.truncate("short", 80) == "short")
        // Bytes are cut as hex and keep their size: 33 bytes of 134 fit in 80 columns.
        #expect(out.contains("  62706c6973743030c394010203045f5f5f5f5f5f5f5f5f5f5f5f5f5f5f5f5f5f5f… (134 bytes)\n"))
    }

    @Test func fileDataCannotDriveTheTerminal() {
        #expect(!out.contains("\u{1B}"))
        #expect(out.contains("Train\\nat \\u{1b}[31mstation"))
        let coloured = DumpTextReporter.render(Fixtures.dumpFiles, options: DumpOptions(color: true))
        #expect(coloured.contains("\u{1B}[1mPairing facts\u{1B}[0m"))
        #expect(coloured.contains("\u{1B}[31mmalformed: box size"))
    }

    @Test func errorsAndWarningsAreLocated() {
        #expect(out.contains("Error\n  malformed: box size 1000000 runs past its parent (4076 bytes left) at moov (byte offset 20)"))
        #expect(out.contains("Warnings\n  unsupported: mvhd version 3 at moov/mvhd (byte offset 28)"))
        #expect(out.contains("Error\n  notMedia: not a still, movie or archive\n"))
    }

    @Test func livpMembersAreNested() {
        #expect(out.contains("\n    == cloud/IMG_0003.livp!IMG_0003.JPG.mov ==\n"))
        #expect(out.contains("members             2: still cloud/IMG_0003.livp!IMG_0003.JPG.heic, movie cloud/IMG_0003.livp!IMG_0003.JPG.mov"))
    }
}
