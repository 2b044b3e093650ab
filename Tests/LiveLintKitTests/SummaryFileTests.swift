import Foundation
import LiveLintEngine
@testable import LiveLintKit
import LiveModel
import Testing

/// Summaries written to a temporary file and read back (docs/flat-memory.md, step 2): every field
/// comes back as it was, a damaged encoding reads as nothing rather than as something else, and
/// the file leaves nothing behind.
@Suite struct SummaryFileTests {
    static let uuid = "5C1F8D2A-0B7E-4F4C-9A61-3D2E8C7B9F10"

    /// Paths and identifiers a summary must give back byte for byte.
    static var files: [MediaFile] {
        var files: [MediaFile] = [
            .jpeg("a/IMG_1.JPG", id: uuid), .mov("a/IMG_1.MOV", id: uuid.lowercased()), .jpeg("a/PXL_20231105_123456789.jpg", id: "5c1F8D2A-0B7E-4F4C-9A61-3D2E8C7B9F10"),
            .jpeg("caf\u{E9}/IMG_2.JPG", id: "not-a-uuid"), .mov("cafe\u{301}/IMG_2.MOV", id: "\u{3B1}\u{345}\u{301}"), .jpeg("IMG_bare.JPG", id: nil),
            .jpeg("/IMG_root.JPG", id: ""), .jpeg("a/\u{0}x.JPG", id: nil), .jpeg("n/\u{301}x.JPG", id: nil), .jpeg("a/x!y.JPG", id: nil),
            .livp("b/IMG_3.livp", members: [.jpeg("IMG_3.JPG", id: uuid), .mov("IMG_3.MOV", id: nil)]),
            MediaFile(path: "c/broken.MOV", kind: .movie, format: .quicktime, error: ReadIssue(.malformed, "ends inside moov")),
            MediaFile(path: "c/what.bin", kind: .unknown, format: .unknown),
        ]
        var withSidecar = MediaFile.jpeg("d/IMG_4.JPG", id: nil)
        withSidecar.sidecar = TakeoutSidecar(path: "d/IMG_4.JPG.json")
        files.append(withSidecar)
        return files
    }

    static func same(_ a: FileSummary, _ b: FileSummary) -> Bool {
        let (x, y) = (a.identifierKey.packed, b.identifierKey.packed)
        let (tx, ty) = (x.text.map { Array($0.utf8) }, y.text.map { Array($0.utf8) })
        guard Array(a.path.utf8) == Array(b.path.utf8), a.kind == b.kind, a.format == b.format,
              x.code == y.code, x.high == y.high, x.low == y.low, tx == ty,
              a.hasMotionVideo == b.hasMotionVideo, a.error == b.error, a.sidecarPath == b.sidecarPath,
              a.member == b.member, a.slot == b.slot, (a.members == nil) == (b.members == nil) else { return false }
        return zip(a.members ?? [], b.members ?? []).allSatisfy { same($0, $1) } && a.members?.count == b.members?.count
    }

    @Test func everyFieldComesBack() {
        let summaries = Self.files.enumerated().map { FileSummary($1, slot: $0 * 7) }
        var folders = RecentFolders()
        for s in summaries {
            let bytes = SummaryCodec.encode(s)
            let back = bytes.withUnsafeBytes { SummaryCodec.decode($0, folders: &folders) }
            #expect(back.map { Self.same($0, s) } == true, "\(s.path)")
        }
        #expect(summaries.contains { $0.members?.count == 2 } && summaries.contains { $0.sidecarPath != nil } && summaries.contains { $0.error != nil })
    }

    /// Every prefix of an encoding, and the encoding with a byte more, read as nothing.
    @Test func aDamagedEncodingReadsAsNothing() {
        var folders = RecentFolders()
        for s in Self.files.map({ FileSummary($0, slot: 1) }) {
            let bytes = SummaryCodec.encode(s)
            for n in 0..<bytes.count {
                #expect(Array(bytes[..<n]).withUnsafeBytes { SummaryCodec.decode($0, folders: &folders) } == nil, "\(s.path) cut at \(n)")
            }
            #expect((bytes + [0]).withUnsafeBytes { SummaryCodec.decode($0, folders: &folders) } == nil)
        }
    }

    @Test func aFileOfSummariesReadsBackInAnyOrder() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("livelint-summaries-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        // On disk, and with the disk full after 10 KiB, after 0 bytes and after 64 KiB (one
        // buffer written, the rest held): the same summaries come back.
        // And not mapped (read back into memory): on disk and with the disk full after 10 KiB.
        for (limit, maps): (Int64, Bool) in [(.max, true), (10_000, true), (0, true), (65_536, true), (.max, false), (10_000, false)] {
            let file = try #require(SummaryFile(directory: dir.path, writeLimit: limit, maps: maps))
            // Nothing is left in the folder, from the start.
            #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
            var written: [FileSummary] = []
            for i in 0..<5_000 {
                let source = Self.files[i % Self.files.count]
                var copy = source
                copy.path = "\(i / 100)/" + source.path
                let s = FileSummary(copy, slot: i)
                written.append(s)
                file.append(s)
            }
            file.finish()
            #expect(file.count == written.count)
            #expect(file.isOnDisk == (limit == .max), "limit \(limit), maps \(maps)")
            #expect((0..<written.count).allSatisfy { i in file.read(i).map { Self.same($0, written[i]) } == true }, "limit \(limit)")
            for i in stride(from: written.count - 1, through: 0, by: -37) {
                #expect(Self.same(file.summary(i), written[i]), "limit \(limit)")
            }
            #expect(file.read(-1) == nil && file.read(written.count) == nil)
            // What the result reads without making the summary is what the summary gives.
            #expect((0..<written.count).allSatisfy { i in
                let half = file.half(i), s = written[i]
                return file.scanned(i) == s.scanned && Array(half.path.utf8) == Array(s.path.utf8)
                    && half.contentIdentifier.map { Array($0.utf8) } == s.contentIdentifier.map { Array($0.utf8) }
                    && half.sidecar == s.sidecarPath
            }, "limit \(limit)")
            // Read in order, a folder's summaries share one folder object, as the read makes them.
            let a = try #require(file.read(0)), b = try #require(file.read(1))
            #expect(a.folder != nil && a.folder === b.folder)
        }
    }

    @Test func noFileWhereNoneCanBeMade() throws {
        #expect(SummaryFile(directory: "/no/such/folder") == nil)
        let empty = try #require(SummaryFile())
        empty.finish()
        #expect(empty.count == 0 && empty.read(0) == nil)
    }
}
