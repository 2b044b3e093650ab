import Foundation
import ISOBMFF
import LiveModel
@testable import LiveReaders
import Testing

/// `ZipGuard` checks a ZIP's directory before ZIPFoundation reads it, because ZIPFoundation traps
/// (ending the process) on some hostile values instead of throwing.
struct ZipGuardTests {
    static let goodLivp = Paths.fixtures.appendingPathComponent("library/2024/07/IMG_0200.livp")
    static let trap = Paths.malformed.appendingPathComponent("zip64-local-offset-past-int64.livp")

    func bytes(_ url: URL) throws -> [UInt8] { [UInt8](try Data(contentsOf: url)) }

    @Test func consistentArchivePasses() throws {
        #expect(ZipGuard.check(MemoryByteSource(try bytes(Self.goodLivp))) == nil)
    }

    @Test func zip64OffsetPastInt64IsRefusedNotTrapped() throws {
        let issue = try #require(ZipGuard.check(MemoryByteSource(try bytes(Self.trap))))
        #expect(issue.location == "zip/central-directory/entry[0]")
        #expect(issue.message.contains("local header offset"))
        // The whole-file path reports it as the archive's error instead of trapping.
        let file = MediaInspector.inspect(path: Self.trap.path, options: .lint)
        #expect(file.kind == .livp)
        #expect(file.error?.location == "zip/central-directory/entry[0]")
    }

    @Test("every truncation of a real archive is refused or read, never trapped")
    func truncations() throws {
        let good = try bytes(Self.goodLivp)
        for cut in stride(from: 0, to: good.count, by: max(1, good.count / 97)) {
            let issue = ZipGuard.check(MemoryByteSource(Array(good.prefix(cut))))
            #expect(issue != nil, "cut at \(cut) of \(good.count) passed the guard")
        }
    }

    @Test("directory values pointing outside the file are refused with a location")
    func corruptedDirectoryValues() throws {
        let good = try bytes(Self.goodLivp)
        // The end record is the last 22 bytes before the 56-byte 1000LIVP comment: its directory offset is at +16.
        let eocd = good.count - 22 - 56
        #expect(good[eocd] == 0x50 && good[eocd + 1] == 0x4B && good[eocd + 2] == 0x05 && good[eocd + 3] == 0x06)
        var farDirectory = good
        farDirectory[eocd + 16] = 0xFF; farDirectory[eocd + 17] = 0xFF; farDirectory[eocd + 18] = 0xFF; farDirectory[eocd + 19] = 0x7F
        #expect(ZipGuard.check(MemoryByteSource(farDirectory))?.location == "zip/eocd")

        var manyEntries = good
        manyEntries[eocd + 10] = 0xFE; manyEntries[eocd + 11] = 0xFF
        #expect(ZipGuard.check(MemoryByteSource(manyEntries))?.category == .limit)

        // The first directory entry's local-header offset (entry + 42) set past the end.
        let cdOffset = Int(good[eocd + 16]) | Int(good[eocd + 17]) << 8 | Int(good[eocd + 18]) << 16 | Int(good[eocd + 19]) << 24
        var farLocal = good
        farLocal[cdOffset + 42] = 0xFF; farLocal[cdOffset + 43] = 0xFF; farLocal[cdOffset + 44] = 0xFF; farLocal[cdOffset + 45] = 0x7F
        let issue = try #require(ZipGuard.check(MemoryByteSource(farLocal)))
        #expect(issue.location == "zip/central-directory/entry[0]")
        #expect(issue.offset == Int64(cdOffset))
    }

    @Test func notAZipAtAll() {
        #expect(ZipGuard.check(MemoryByteSource(Array(repeating: 0x41, count: 4096)))?.message.contains("end-of-central-directory") == true)
        #expect(ZipGuard.check(MemoryByteSource([0x50, 0x4B]))?.message.contains("too short") == true)
    }

    @Test("the layout of a good .livp: stored members, data offsets, the 1000LIVP comment")
    func layoutOfAGoodLivp() throws {
        let good = try bytes(Self.goodLivp)
        let found = ZipGuard.inspect(MemoryByteSource(good))
        let layout = try #require(found.layout, "\(String(describing: found.issue))")
        #expect(layout.entries.map(\.name) == ["IMG_0200.JPG.jpeg", "IMG_0200.JPG.mov"])
        #expect(layout.entries.allSatisfy { $0.isStored && $0.localExtraLength == 0 && $0.centralExtraLength == 0 })
        let comment = try #require(LivpComment(layout.comment))
        #expect(Int64(comment.stillOffset) == layout.entries[0].dataOffset && Int64(comment.movieOffset) == layout.entries[1].dataOffset)
        #expect(UInt64(comment.stillSize) == layout.entries[0].size && UInt64(comment.movieSize) == layout.entries[1].size)
        // Its data really is there: the still's bytes start with a JPEG SOI, the movie's with a box.
        #expect(Array(good[Int(comment.stillOffset)..<Int(comment.stillOffset) + 3]) == [0xFF, 0xD8, 0xFF])
        #expect(layout.livpProblems(members: [("IMG_0200.JPG.jpeg", .still, .jpeg), ("IMG_0200.JPG.mov", .movie, .quicktime)]).isEmpty)
        // The Baidu sample's comment parses to the fields the shared notes give; the binary form too.
        let baidu = try #require(LivpComment(Array("00050000002F002E84B00003002E850D000F415F313030304C495650".utf8)))
        #expect(baidu.stillType == 5 && baidu.stillOffset == 0x2F && baidu.stillSize == 0x2E84B0
                && baidu.movieType == 3 && baidu.movieOffset == 0x2E850D && baidu.movieSize == 0x0F415F)
        #expect(baidu.description == "00050000002F002E84B00003002E850D000F415F313030304C495650")
        let binary: [UInt8] = [0, 5, 0, 0, 0, 0x2F, 0, 0x2E, 0x84, 0xB0, 0, 3, 0, 0x2E, 0x85, 0x0D, 0, 0x0F, 0x41, 0x5F] + Array("1000LIVP".utf8)
        #expect(LivpComment(binary) == baidu)
        #expect(LivpComment(Array("not a livp comment".utf8)) == nil)
    }
}
