import AppleMakerNote
import Foundation
import TestSupport
import LiveModel
import LiveReaders
import LiveWriters
import Testing

/// Runs a command-line tool found on PATH; nil when it is not installed.
enum ExternalTool {
    static func path(_ name: String) -> String? { TestTools.which(name) }

    static func run(_ name: String, _ arguments: [String]) throws -> (status: Int32, out: String, err: String)? {
        guard let tool = path(name) else { return nil }
        return try TestTools.run(tool, arguments)
    }

    static func withTemporaryFile<R>(_ bytes: [UInt8], ext: String = "jpg", _ body: (String) throws -> R) throws -> R {
        let path = NSTemporaryDirectory() + "livelint-\(UUID().uuidString).\(ext)"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try body(path)
    }
}

@Suite("JPEG Exif writer")
struct JPEGExifWriterTests {
    static let uuid = "B01BC40E-F156-46B2-B7C8-706EF089DF07"

    static func written(_ jpeg: [UInt8] = StillFixtures.minimalJPEG()) throws -> [UInt8] {
        let makerNote = try AppleMakerNoteEncoder.makerNote(contentIdentifier: uuid, extraTags: [AppleMakerNoteEncoder.Entry.int32s(1, [16])])
        return try JPEGExifWriter.withAppleMakerNote(
            jpeg: jpeg, makerNote: makerNote, model: "iPhone 16 Pro Max", dateTimeOriginal: "2026:02:25 19:39:36")
    }

    @Test func freshExifSegmentReadsBack() throws {
        let input = StillFixtures.minimalJPEG()
        let output = try Self.written(input)
        // APP1 goes right after SOI + APP0 (2 + 18 bytes); everything else is untouched.
        #expect(Array(output[0..<20]) == Array(input[0..<20]))
        #expect(output[20] == 0xFF && output[21] == 0xE1)
        let app1Length = Int(output[22]) << 8 | Int(output[23])
        #expect(Array(output[(22 + app1Length)...]) == Array(input[20...]))

        let result = StillReader.read(bytes: output)
        #expect(result.error == nil)
        let still = try #require(result.still)
        #expect(still.contentIdentifier == Self.uuid)
        #expect(still.make == "Apple")
        #expect(still.model == "iPhone 16 Pro Max")
        #expect(still.dateTimeOriginal == "2026:02:25 19:39:36")
        #expect(still.makerNote?.tag(1)?.value == .int(16))
        #expect(still.makerNoteIssue == nil)
        #expect(still.width == 16 && still.height == 8)
    }

    @Test func withoutJFIFTheSegmentFollowsSOI() throws {
        let input = StillFixtures.minimalJPEG(jfif: false)
        let output = try Self.written(input)
        #expect(output[2] == 0xFF && output[3] == 0xE1)
        #expect(StillReader.read(bytes: output).still?.contentIdentifier == Self.uuid)
    }

    @Test func existingExifIsEditedThroughExiv2() throws {
        let first = try Self.written()
        let other = "0613C413-6787-42FE-833B-BEB860F385B9"
        let second = try JPEGExifWriter.withAppleMakerNote(
            jpeg: first, makerNote: try AppleMakerNoteEncoder.makerNote(contentIdentifier: other), model: nil, dateTimeOriginal: nil)
        let still = try #require(StillReader.read(bytes: second).still)
        #expect(still.contentIdentifier == other)
        #expect(still.makerNote?.tag(1) == nil, "the old makernote is replaced, not merged")
        // Values the edit did not name are kept.
        #expect(still.model == "iPhone 16 Pro Max")
        #expect(still.dateTimeOriginal == "2026:02:25 19:39:36")
        #expect(still.make == "Apple")
    }

    @Test(.enabled(if: StillCorpus.isPresent, "needs ../shared/corpus"))
    func realCameraJPEGKeepsItsOtherMetadata() throws {
        let path = try #require(StillCorpus.path("P1s"))
        let input = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let before = try #require(StillReader.read(bytes: input).still)
        // Re-key the real makernote: every other entry stays byte-exact in value.
        let original = try #require(StillReader.makerNoteBytes(bytes: input))
        #expect(StillReader.makerNoteBytes(path: path) == original)
        let rekeyed = try AppleMakerNoteEncoder.replacingContentIdentifier(in: original, with: Self.uuid)
        let output = try JPEGExifWriter.withAppleMakerNote(jpeg: input, makerNote: rekeyed, model: before.model)
        let after = try #require(StillReader.read(bytes: output).still)
        #expect(after.contentIdentifier == Self.uuid)
        #expect(after.makerNote?.tags.filter { $0.tag != 0x0011 } == before.makerNote?.tags.filter { $0.tag != 0x0011 })
        for key in ["Exif.Photo.FNumber", "Exif.Photo.ExposureTime", "Exif.Image.Software", "Exif.Photo.LensModel", "Exif.GPSInfo.GPSLatitude"] {
            #expect(after.property(key) == before.property(key), "\(key)")
        }
        #expect(after.width == before.width && after.height == before.height)
    }

    @Test(.enabled(if: StillCorpus.isPresent, "needs ../shared/corpus"))
    func motionPhotoWithoutMakerNoteGetsOneAndKeepsItsXMP() throws {
        // Google MicroVideo JPEG: a small Exif (Orientation, no Make, no MakerNote) and XMP.
        let path = try #require(StillCorpus.path("MP2"))
        let input = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let before = try #require(StillReader.read(bytes: input).still)
        #expect(before.property("Exif.Image.Make") == nil && before.makerNote == nil)
        let output = try Self.written(input)
        let after = try #require(StillReader.read(bytes: output).still)
        #expect(after.contentIdentifier == Self.uuid)
        #expect(after.make == "Apple")
        #expect(after.property("Exif.Image.Orientation") == before.property("Exif.Image.Orientation"))
        #expect(after.property("Exif.Image.Orientation") != nil)
        #expect(after.property("Xmp.GCamera.MicroVideo") == before.property("Xmp.GCamera.MicroVideo"))
        #expect(Array(output.suffix(4096)) == Array(input.suffix(4096)), "the image data is untouched")
    }

    @Test(.enabled(if: ExternalTool.path("exiftool") != nil, "needs exiftool"))
    func exiftoolReadsTheIdentifier() throws {
        let output = try Self.written()
        let printed = try ExternalTool.withTemporaryFile(output) { path in
            try ExternalTool.run("exiftool", ["-s", "-s", "-s", "-ContentIdentifier", "-MediaGroupUUID", "-Make", "-Model", "-warning", path])
        }
        let result = try #require(printed)
        #expect(result.status == 0)
        // exiftool 12.57 names tag 0x0011 MediaGroupUUID, 12.65+ ContentIdentifier: one of them prints it.
        let lines = result.out.split(separator: "\n").map(String.init)
        #expect(lines.contains(Self.uuid), "\(result.out)")
        #expect(lines.contains("Apple") && lines.contains("iPhone 16 Pro Max"))
        #expect(!result.out.lowercased().contains("warning") && result.err.isEmpty, "\(result.out)\(result.err)")
    }

    @Test(.enabled(if: ExternalTool.path("exiv2") != nil, "needs the exiv2 CLI"))
    func exiv2PrintsNoWarnings() throws {
        for input in [try Self.written(), try Self.written(Self.written())] {
            let printed = try ExternalTool.withTemporaryFile(input) { path in try ExternalTool.run("exiv2", ["-pa", path]) }
            let result = try #require(printed)
            #expect(result.status == 0)
            #expect(result.err.isEmpty, "\(result.err)")
            #expect(result.out.contains("Exif.Photo.MakerNote"))
            #expect(result.out.contains("Exif.Image.Make"))
        }
    }

    @Test func notAJPEGIsRefused() {
        let makerNote = (try? AppleMakerNoteEncoder.makerNote(contentIdentifier: Self.uuid)) ?? []
        let heicLike: [UInt8] = [0, 0, 0, 0x18] + Array("ftypheic".utf8) + [UInt8](repeating: 0, count: 12)
        let good = StillFixtures.minimalJPEG()
        let cases: [[UInt8]] = [
            [], [0xFF], heicLike, Array("GIF89a".utf8),
            Array(good.prefix(5)),  // cut inside APP0's length
            Array(good.prefix(30)),  // cut inside DQT
            [0xFF, 0xD8, 0x00, 0x00],  // no marker after SOI
            [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x01],  // length below 2
            [0xFF, 0xD8, 0xFF, 0xD9],  // EOI before any image data
        ]
        for bytes in cases {
            #expect(throws: JPEGExifWriter.WriteError.self) { try JPEGExifWriter.withAppleMakerNote(jpeg: bytes, makerNote: makerNote) }
        }
    }

    @Test func oversizedMakerNoteAndBadTextAreRefused() {
        let jpeg = StillFixtures.minimalJPEG()
        #expect(throws: JPEGExifWriter.WriteError.self) {
            try JPEGExifWriter.withAppleMakerNote(jpeg: jpeg, makerNote: [UInt8](repeating: 1, count: 70_000))
        }
        #expect(throws: JPEGExifWriter.WriteError.self) {
            try JPEGExifWriter.withAppleMakerNote(jpeg: jpeg, makerNote: [1], dateTimeOriginal: "yesterday")
        }
        #expect(throws: JPEGExifWriter.WriteError.self) { try JPEGExifWriter.withAppleMakerNote(jpeg: jpeg, makerNote: [1], make: "Äpple") }
    }

    @Test func foreignOrBrokenMakerNotesAreReported() throws {
        let jpeg = StillFixtures.minimalJPEG()
        let nikon = Array("Nikon\0".utf8) + [2, 0x10, 0, 0] + Array("MM".utf8) + [0, 42, 0, 0, 0, 8, 0, 0]
        let foreign = try #require(StillReader.read(bytes: try JPEGExifWriter.withAppleMakerNote(jpeg: jpeg, makerNote: nikon, make: "NIKON")).still)
        #expect(foreign.makerNote == nil)
        #expect(foreign.makerNoteIssue?.category == .unsupported)

        // An Apple makernote whose only entry points past its end.
        let broken = AppleMakerNoteDecoder.signature + [0, 1, 0x4D, 0x4D, 0, 1, 0, 0x11, 0, 2, 0, 0, 0, 37, 0, 0, 0x10, 0] + [0, 0, 0, 0]
        let damaged = try #require(StillReader.read(bytes: try JPEGExifWriter.withAppleMakerNote(jpeg: jpeg, makerNote: broken)).still)
        #expect(damaged.contentIdentifier == nil)
        #expect(damaged.makerNote?.issues.first?.location == "makernote/ifd0/entry[0]")

        // Only the signature: the header is cut off.
        let truncated = try #require(
            StillReader.read(bytes: try JPEGExifWriter.withAppleMakerNote(jpeg: jpeg, makerNote: AppleMakerNoteDecoder.signature)).still)
        #expect(truncated.makerNote == nil)
        #expect(truncated.makerNoteIssue?.category == .malformed)
    }
}
