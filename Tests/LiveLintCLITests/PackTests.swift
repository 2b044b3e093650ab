import Foundation
import TestSupport
import Testing

@Suite(.enabled(if: CLI.binary != nil, "needs the built livelint"))
struct PackTests {
    @Test func packThenUnpackRoundTripsAndLintsClean() throws {
        let tmp = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: tmp) }
        let still = CLI.fixtures.appendingPathComponent("pair/IMG_0001.JPG"), movie = CLI.fixtures.appendingPathComponent("pair/IMG_0001.MOV")
        let livp = tmp.appendingPathComponent("IMG_0001.livp")
        let pack = try CLI.run(["pack", "--keep-names", still.path, movie.path, "--output", livp.path])
        #expect(pack.status == 0, "\(pack.stderr)")
        #expect(try Repair.lintFindings(livp.path).isEmpty)
        let lint = try CLI.run(["lint", "--format", "json", "--quiet", livp.path])
        let pairs = (lint.json as? [String: Any])?["pairs"] as? [[String: Any]]
        #expect(pairs?.count == 1 && pairs?.first?["pairedBy"] as? String == "archive")

        let out = tmp.appendingPathComponent("out")
        let unpack = try CLI.run(["unpack", livp.path, "--output", out.path])
        #expect(unpack.status == 0, "\(unpack.stderr)")
        #expect(try Data(contentsOf: out.appendingPathComponent("IMG_0001.JPG")) == Data(contentsOf: still))
        #expect(try Data(contentsOf: out.appendingPathComponent("IMG_0001.MOV")) == Data(contentsOf: movie))
        // Never overwrites: unpacking again, or packing onto an existing file, exits 2.
        #expect(try CLI.run(["unpack", livp.path, "--output", out.path]).status == 2)
        let size = try FileManager.default.attributesOfItem(atPath: livp.path)[.size] as? Int
        #expect(try CLI.run(["pack", still.path, movie.path, "--output", livp.path]).status == 2)
        #expect(try FileManager.default.attributesOfItem(atPath: livp.path)[.size] as? Int == size)
    }

    /// A one-letter name in the working folder: Foundation's `deletingLastPathComponent` traps
    /// on a one-character path on Linux, and the safe writer asked it for the folder (a crash).
    @Test func packsToAOneLetterNameInTheWorkingFolder() throws {
        let tmp = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: tmp) }
        let still = CLI.fixtures.appendingPathComponent("pair/IMG_0001.JPG"), movie = CLI.fixtures.appendingPathComponent("pair/IMG_0001.MOV")
        let pack = try CLI.run(["pack", still.path, movie.path, "--output", "p"], in: tmp)
        #expect(pack.status == 0, "\(pack.stderr)")
        // A ZIP (no `.livp` extension, so `lint` would not take it for one).
        #expect(try Data(contentsOf: tmp.appendingPathComponent("p")).prefix(4) == Data([0x50, 0x4B, 0x03, 0x04]))
    }

    @Test func unpacksAnArchiveMadeByAnotherZipWriter() throws {
        // Fixtures/library/broken/livp-layout/IMG_0202.livp was written (deflated) with ZIPFoundation.
        let tmp = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: tmp) }
        let source = CLI.fixtures.appendingPathComponent("library/broken/livp-layout/IMG_0202.livp")
        let result = try CLI.run(["unpack", source.path, "--output", tmp.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: tmp.path).sorted() == ["IMG_0202.JPG.jpeg", "IMG_0202.JPG.mov"])
        #expect(try Repair.lintFindings(tmp.path).isEmpty)
        // Packed again, it has the layout Baidu-style consumers take: livp-layout is quiet.
        #expect(try Repair.lintFindings(source.path).map { $0["rule"] as? String } == ["livp-layout"])
        let repacked = tmp.appendingPathComponent("IMG_0202.livp")
        let pack = try CLI.run(["pack", tmp.appendingPathComponent("IMG_0202.JPG.jpeg").path, tmp.appendingPathComponent("IMG_0202.JPG.mov").path,
                                "--keep-names", "--output", repacked.path])
        #expect(pack.status == 0, "\(pack.stderr)")
        #expect(try Repair.lintFindings(repacked.path).isEmpty)
    }

    /// The layout `pack` writes, byte by byte where Baidu's clients look: stored members, no extra
    /// fields, the still first, member names after the still, and the 1000LIVP comment whose
    /// offsets and sizes point at each member's bytes.
    @Test func packWritesTheBaiduLayout() throws {
        let tmp = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: tmp) }
        let still = CLI.fixtures.appendingPathComponent("pair/IMG_0001.JPG"), movie = CLI.fixtures.appendingPathComponent("pair/IMG_0001.MOV")
        let livp = tmp.appendingPathComponent("IMG_0001.livp")
        let pack = try CLI.run(["pack", still.path, movie.path, "--output", livp.path])
        #expect(pack.status == 0, "\(pack.stderr)")
        let bytes = try [UInt8](Data(contentsOf: livp))
        let stillBytes = try [UInt8](Data(contentsOf: still)), movieBytes = try [UInt8](Data(contentsOf: movie))
        // The comment is the last 56 bytes (the end record's comment length says so).
        let comment = String(decoding: bytes.suffix(56), as: UTF8.self)
        #expect(Int(bytes[bytes.count - 58]) | Int(bytes[bytes.count - 57]) << 8 == 56)
        #expect(comment.hasPrefix("0005") && comment.hasSuffix("313030304C495650"), "\(comment)")
        func field(_ from: Int, _ n: Int) -> Int { Int(comment.dropFirst(from).prefix(n), radix: 16) ?? -1 }
        let stillName = "IMG_0001.JPG.jpeg", movieName = "IMG_0001.JPG.mov"
        #expect(field(4, 8) == 30 + stillName.utf8.count && field(12, 8) == stillBytes.count)
        #expect(field(20, 4) == 3 && field(32, 8) == movieBytes.count)
        #expect(Array(bytes[field(4, 8)..<(field(4, 8) + field(12, 8))]) == stillBytes)
        #expect(Array(bytes[field(24, 8)..<(field(24, 8) + field(32, 8))]) == movieBytes)
        // Local headers: stored (method 0), no extra field, the still's name first.
        #expect(Array(bytes[0..<4]) == [0x50, 0x4B, 0x03, 0x04] && bytes[8] == 0 && bytes[9] == 0 && bytes[28] == 0 && bytes[29] == 0)
        #expect(String(decoding: bytes[30..<(30 + stillName.utf8.count)], as: UTF8.self) == stillName)
        let second = field(4, 8) + field(12, 8)
        #expect(String(decoding: bytes[(second + 30)..<(second + 30 + movieName.utf8.count)], as: UTF8.self) == movieName)
        // An independent reader (Python's zipfile, when present) lists the same members, stored.
        if let python = TestTools.which("python3") {
            let listed = try TestTools.run(python, ["-c", """
                import sys, zipfile
                z = zipfile.ZipFile(sys.argv[1]); z.testzip()
                print(z.comment.decode()); [print(i.filename, i.compress_type, len(i.extra)) for i in z.infolist()]
                """, livp.path])
            #expect(listed.out == "\(comment)\n\(stillName) 0 0\n\(movieName) 0 0\n", "\(listed.err)")
        }
    }

    @Test func notAnArchiveIsAClearError() throws {
        let tmp = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: tmp) }
        let result = try CLI.run(["unpack", CLI.fixtures.appendingPathComponent("base/still.jpg").path, "--output", tmp.path])
        #expect(result.status == 2)
        #expect(result.stderr.contains("ZIP"))
        let swapped = try CLI.run(["pack", CLI.fixtures.appendingPathComponent("base/h264.mov").path,
                                   CLI.fixtures.appendingPathComponent("base/still.jpg").path, "--output", tmp.appendingPathComponent("x.livp").path])
        #expect(swapped.status == 2)
    }
}
