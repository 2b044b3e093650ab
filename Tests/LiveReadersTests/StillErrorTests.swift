import AppleMakerNote
import Foundation
import LiveModel
import LiveReaders
import Testing

/// Bad input: a clear error, no crash, nothing on stderr.
@Suite("Still reader on bad input", .serialized)
struct StillErrorTests {
    struct Case: Sendable, CustomStringConvertible {
        var name: String
        var bytes: [UInt8]
        var categories: Set<ReadIssue.Category>
        var description: String { name }
    }

    static let cases: [Case] = {
        var rng: UInt64 = 0x1234_5678
        let garbage: [UInt8] = (0..<4096).map { _ in
            rng = rng &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: rng >> 33)
        }
        let jpeg = StillFixtures.minimalJPEG()
        return [
            Case(name: "empty", bytes: [], categories: [.notMedia]),
            Case(name: "garbage", bytes: garbage, categories: [.notMedia]),
            Case(name: "text", bytes: Array("hello, this is not an image\n".utf8), categories: [.notMedia]),
            Case(name: "SOI only", bytes: [0xFF, 0xD8], categories: [.notMedia, .malformed]),
            Case(name: "SOI then garbage", bytes: [0xFF, 0xD8, 0xFF] + garbage, categories: [.notMedia, .malformed]),
            Case(name: "JPEG cut in its first segment", bytes: Array(jpeg.prefix(12)), categories: [.notMedia, .malformed]),
            Case(name: "ftyp heic with nothing after", bytes: [0, 0, 0, 0x18] + Array("ftypheic".utf8) + [0, 0, 0, 0] + Array("mif1heic".utf8), categories: [.notMedia, .malformed]),
        ]
    }()

    @Test(arguments: cases)
    func badBytesGiveAClearErrorAndPrintNothing(_ c: Case) {
        var result = StillReadResult()
        let printed = captureStandardError { result = StillReader.read(bytes: c.bytes) }
        #expect(printed.isEmpty, "stderr: \(printed)")
        #expect(result.still == nil)
        let error = result.error
        #expect(error != nil)
        if let error {
            #expect(c.categories.contains(error.category), "\(error.category): \(error.message)")
            #expect(!error.message.isEmpty)
        }
    }

    @Test func theStderrCaptureWorks() {
        let printed = captureStandardError {
            let line = Array("exiv2-like warning line\n".utf8)
            _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
        }
        #expect(printed.contains("exiv2-like warning line"))
    }

    @Test func missingFileIsAnIOError() {
        let result = StillReader.read(path: "/nonexistent/dir/IMG_0001.JPG")
        #expect(result.error?.category == .io)
        #expect(result.error?.message.contains("IMG_0001") == true)
    }

    @Test func urlLikePathIsNotFetched() {
        let result = StillReader.read(path: "http://127.0.0.1:9/IMG_0001.JPG")
        #expect(result.error?.category == .io)
    }

    @Test func emptyFileOnDisk() throws {
        let path = NSTemporaryDirectory() + "livelint-empty-\(UUID().uuidString).jpg"
        #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        defer { try? FileManager.default.removeItem(atPath: path) }
        var result = StillReadResult()
        let printed = captureStandardError { result = StillReader.read(path: path) }
        #expect(printed.isEmpty)
        #expect(result.error?.category == .notMedia)
    }

    @Test func jpegWithoutExifIsAStillWithoutMakerNote() throws {
        let result = StillReader.read(bytes: StillFixtures.minimalJPEG(width: 24, height: 16))
        #expect(result.error == nil)
        let still = try #require(result.still)
        #expect(still.width == 24 && still.height == 16)
        #expect(still.makerNote == nil && still.makerNoteIssue == nil)
        #expect(still.contentIdentifier == nil)
    }

    /// Cut a real JPEG at many points: each read either succeeds or fails cleanly, silently.
    @Test(.enabled(if: StillCorpus.isPresent, "needs ../shared/corpus"))
    func truncatedRealJPEGs() throws {
        let path = try #require(StillCorpus.path("P1s"))
        let whole = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let exifEnd = 20_000  // P1s's APP1 (Exif + makernote) ends well before this.
        var errors = 0
        var identifiers = 0
        let printed = captureStandardError {
            for cut in [0, 1, 2, 3, 4, 10, 100, 500, 1000, 2000, 4000, 8000, 12_000, 16_000, exifEnd, 100_000, whole.count - 1] {
                let result = StillReader.read(bytes: Array(whole.prefix(cut)))
                if let e = result.error {
                    errors += 1
                    #expect(!e.message.isEmpty)
                } else if result.still?.contentIdentifier == "E905E6C6-C747-4805-942F-9904A0281F02" {
                    identifiers += 1
                }
            }
        }
        #expect(printed.isEmpty, "stderr: \(printed)")
        #expect(errors >= 5, "cuts inside the header must fail")
        #expect(identifiers >= 1, "a cut after the Exif keeps the identifier")
    }
}
