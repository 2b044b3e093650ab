import Foundation
@testable import LiveReaders
import LiveModel
import Testing

/// The JPEG segment walk that locates damage exiv2 only names.
struct JPEGSegmentsTests {
    static let still: [UInt8] = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fixtures/pair/IMG_0001.JPG")
        return (try? [UInt8](Data(contentsOf: url))) ?? []
    }()

    @Test func wholeHeaderSegmentsGiveNoIssue() throws {
        try #require(!Self.still.isEmpty)
        #expect(JPEGSegments.diagnose(Self.still, fileSize: Int64(Self.still.count)) == nil)
    }

    @Test("a cut inside a segment names the segment, its offset and what is missing", arguments: [10, 60, 200, 400])
    func truncationIsLocated(_ cut: Int) throws {
        let head = Array(Self.still.prefix(cut))
        let issue = try #require(JPEGSegments.diagnose(head, fileSize: Int64(cut)))
        #expect(issue.category == .malformed)
        #expect(issue.location?.hasPrefix("jpeg") == true)
        #expect(issue.offset != nil && issue.offset! < Int64(cut))
        #expect(issue.message.contains("ends"))
    }

    @Test func truncatedJPEGThroughTheReaderIsLocated() throws {
        let result = StillReader.read(bytes: Array(Self.still.prefix(60)))
        let error = try #require(result.error)
        #expect(error.location == "jpeg/APP1")
        #expect(error.offset == 20)
        #expect(error.message.contains("exiv2"))
    }

    @Test func badLengthAndGarbageAreReported() {
        // SOI, then an APP0 whose length (1) is below its own length field.
        let bad: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x01, 0, 0, 0, 0]
        #expect(JPEGSegments.diagnose(bad, fileSize: 10)?.message.contains("below its own") == true)
        // SOI, then a byte that is not a marker.
        let garbage: [UInt8] = [0xFF, 0xD8, 0x12, 0x34, 0x56, 0x78]
        #expect(JPEGSegments.diagnose(garbage, fileSize: 6)?.offset == 2)
        #expect(JPEGSegments.diagnose([0x00, 0x01], fileSize: 2)?.offset == 0)
    }
}
