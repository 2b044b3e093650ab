import Foundation
import LiveModel
@testable import LiveReaders
import Testing

/// Issue 12: which `.json` beside a file is its Google Takeout sidecar (the names Takeout gives
/// them, after GooglePhotosTakeoutHelper's matching), and what a sidecar says or why it cannot be used.
@Suite struct TakeoutSidecarTests {
    struct MatchCase: Sendable, CustomTestStringConvertible {
        var media: String
        var folder: [String]
        var expected: String?
        var testDescription: String { "\(media) → \(expected ?? "none")" }
    }

    static let long = "Screenshot_20230815_123456_com.example.longappname"  // 50 characters

    static let cases: [MatchCase] = [
        MatchCase(media: "IMG_1234.HEIC", folder: ["IMG_1234.HEIC.json"], expected: "IMG_1234.HEIC.json"),
        MatchCase(media: "IMG_1234.HEIC", folder: ["IMG_1234.HEIC.supplemental-metadata.json", "IMG_1234.HEIC.json"],
                  expected: "IMG_1234.HEIC.supplemental-metadata.json"),
        // The (N) of a duplicate name moves before .json.
        MatchCase(media: "IMG_1234(1).HEIC", folder: ["IMG_1234.HEIC.json", "IMG_1234.HEIC(1).json"], expected: "IMG_1234.HEIC(1).json"),
        MatchCase(media: "IMG_1234(2).HEIC", folder: ["IMG_1234.HEIC.supplemental-metadata(2).json"],
                  expected: "IMG_1234.HEIC.supplemental-metadata(2).json"),
        MatchCase(media: "IMG_1234.HEIC", folder: ["IMG_1234.HEIC(1).json"], expected: nil),
        // supplemental-metadata cut short where the whole name passes 46 characters.
        MatchCase(media: "PXL_20230518_143219862.MP.jpg", folder: ["PXL_20230518_143219862.MP.jpg.supplemental-met.json"],
                  expected: "PXL_20230518_143219862.MP.jpg.supplemental-met.json"),
        MatchCase(media: "PXL_20230518_143219862.jpg", folder: ["PXL_20230518_143219862.jpg.supplemental-metad.json"],
                  expected: "PXL_20230518_143219862.jpg.supplemental-metad.json"),
        // A long name clipped to 46 characters, extension and all.
        MatchCase(media: long + ".jpg", folder: [String((long + ".jpg").prefix(46)) + ".json"],
                  expected: String((long + ".jpg").prefix(46)) + ".json"),
        MatchCase(media: long + "(1).jpg", folder: [String((long + ".jpg").prefix(43)) + "(1).json"],
                  expected: String((long + ".jpg").prefix(43)) + "(1).json"),
        // An edited copy has none of its own: the original's.
        MatchCase(media: "IMG_1234-edited.JPG", folder: ["IMG_1234.JPG.json"], expected: "IMG_1234.JPG.json"),
        MatchCase(media: "IMG_1234-bearbeitet.JPG", folder: ["IMG_1234.JPG.supplemental-metadata.json"],
                  expected: "IMG_1234.JPG.supplemental-metadata.json"),
        // The movie of a Live Photo: Takeout wrote the still's only.
        MatchCase(media: "IMG_1234.MP4", folder: ["IMG_1234.HEIC.json"], expected: nil),
        // Older exports: the name without its extension.
        MatchCase(media: "IMG_1234.JPG", folder: ["IMG_1234.json"], expected: "IMG_1234.json"),
        // Another file's sidecar is never taken.
        MatchCase(media: "IMG_1234.JPG", folder: ["IMG_12345.JPG.json", "IMG_123.JPG.json", "metadata.json"], expected: nil),
        MatchCase(media: "IMG_1234.JPG.json", folder: ["IMG_1234.JPG.json.json"], expected: nil),
    ]

    @Test(arguments: cases)
    func matchesTheNameTakeoutGave(_ c: MatchCase) {
        #expect(TakeoutSidecars.match(media: c.media, in: Set(c.folder)) == c.expected)
    }

    @Test func readsTheFieldsImportersUse() {
        let json = """
            {"title": "IMG_1234.HEIC", "description": "",
             "creationTime": {"timestamp": "1618050000", "formatted": "Apr 10, 2021, 10:20:00 AM UTC"},
             "photoTakenTime": {"timestamp": "1618047840", "formatted": "Apr 10, 2021, 9:44:00 AM UTC"},
             "geoData": {"latitude": 48.8584, "longitude": 2.2945, "altitude": 35.0},
             "url": "https://photos.google.com/photo/x"}
            """
        let s = TakeoutSidecars.parse(Data(json.utf8), path: "a/IMG_1234.HEIC.json")
        #expect(s.problem == nil)
        #expect(s.title == "IMG_1234.HEIC")
        #expect(s.photoTakenTime == 1_618_047_840 && s.creationTime == 1_618_050_000)
        #expect(s.photoTakenText == "2021-04-10 09:44:00 UTC")
        #expect(s.latitude == 48.8584 && s.longitude == 2.2945)
        // 0, 0 is Takeout's "no location"; a numeric timestamp is taken too.
        let none = TakeoutSidecars.parse(Data(#"{"photoTakenTime": {"timestamp": 0}, "geoData": {"latitude": 0.0, "longitude": 0.0}}"#.utf8), path: "x.json")
        #expect(none.problem == nil && none.photoTakenTime == 0 && none.latitude == nil)
    }

    struct BadCase: Sendable, CustomTestStringConvertible {
        var name: String
        var bytes: [UInt8]
        var says: String
        var testDescription: String { name }
    }

    static let bad: [BadCase] = [
        BadCase(name: "empty", bytes: [], says: "is empty"),
        BadCase(name: "not JSON", bytes: Array("PK\u{3}\u{4}zip".utf8), says: "is not JSON"),
        BadCase(name: "cut short", bytes: Array(#"{"title": "IMG_1.JPG", "photoTakenTime": {"timest"#.utf8), says: "cut short"),
        BadCase(name: "damaged", bytes: Array(#"{"title": "IMG_1.JPG",, }"#.utf8), says: "is not valid JSON"),
        BadCase(name: "an array", bytes: Array("[1, 2]".utf8), says: "is JSON but not an object"),
        BadCase(name: "a string timestamp that is no number", bytes: Array(#"{"photoTakenTime": {"timestamp": "yesterday"}}"#.utf8),
                says: "'photoTakenTime.timestamp' is the string \"yesterday\""),
        BadCase(name: "a boolean timestamp", bytes: Array(#"{"photoTakenTime": {"timestamp": true}}"#.utf8),
                says: "'photoTakenTime.timestamp' is a boolean"),
        BadCase(name: "a numeric title", bytes: Array(#"{"title": 12}"#.utf8), says: "'title' is a number, not a string"),
        BadCase(name: "geoData a string", bytes: Array(#"{"geoData": "Paris"}"#.utf8), says: "'geoData' is a string, not an object"),
        BadCase(name: "latitude a string", bytes: Array(#"{"geoData": {"latitude": "48.8", "longitude": 2.2}}"#.utf8),
                says: "'geoData.latitude' is a string"),
        BadCase(name: "photoTakenTime null", bytes: Array(#"{"photoTakenTime": null}"#.utf8), says: "'photoTakenTime' is null"),
    ]

    @Test(arguments: bad)
    func reportsWhatCannotBeUsed(_ c: BadCase) {
        let s = TakeoutSidecars.parse(Data(c.bytes), path: "x.json")
        #expect(s.problem?.contains(c.says) == true, "\(s.problem ?? "no problem")")
    }

    @Test func keepsWhatReadBeforeAWrongField() {
        let s = TakeoutSidecars.parse(Data(#"{"title": "IMG_1.JPG", "photoTakenTime": {"timestamp": "1618047840"}, "geoData": []}"#.utf8), path: "x.json")
        #expect(s.title == "IMG_1.JPG" && s.photoTakenTime == 1_618_047_840)
        #expect(s.problem?.contains("'geoData' is an array") == true)
    }

    @Test func aHugeSidecarIsNotRead() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("livelint-sidecar-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        // 2 MiB of valid JSON: refused for its size, not parsed.
        let big = "{\"title\": \"" + String(repeating: "x", count: 2 << 20) + "\"}"
        try Data(big.utf8).write(to: dir.appendingPathComponent("IMG_1.JPG.json"))
        try Data([0xFF, 0xD8]).write(to: dir.appendingPathComponent("IMG_1.JPG"))
        let s = try #require(TakeoutSidecars.find(forMediaAt: dir.appendingPathComponent("IMG_1.JPG").path))
        #expect(s.problem?.contains("larger than 1 MiB") == true && s.title == nil)
        #expect(TakeoutSidecars.find(forMediaAt: dir.appendingPathComponent("IMG_2.JPG").path) == nil)
    }

    @Test func utcTextMatchesTheCalendar() {
        #expect(TakeoutSidecar.utcText(0) == "1970-01-01 00:00:00 UTC")
        #expect(TakeoutSidecar.utcText(951_782_400) == "2000-02-29 00:00:00 UTC")
        #expect(TakeoutSidecar.utcText(1_709_251_199) == "2024-02-29 23:59:59 UTC")
        #expect(TakeoutSidecar.utcText(-1) == "1969-12-31 23:59:59 UTC")
    }
}
