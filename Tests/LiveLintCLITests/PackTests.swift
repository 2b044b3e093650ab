import Foundation
import Testing

@Suite(.enabled(if: CLI.binary != nil, "needs the built livelint"))
struct PackTests {
    @Test func packThenUnpackRoundTripsAndLintsClean() throws {
        let tmp = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: tmp) }
        let still = CLI.fixtures.appendingPathComponent("pair/IMG_0001.JPG"), movie = CLI.fixtures.appendingPathComponent("pair/IMG_0001.MOV")
        let livp = tmp.appendingPathComponent("IMG_0001.livp")
        let pack = try CLI.run(["pack", still.path, movie.path, "--output", livp.path])
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

    @Test func unpacksAnArchiveMadeByAnotherZipWriter() throws {
        // Fixtures/library/2024/07/IMG_0200.livp was written with ZIPFoundation.
        let tmp = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: tmp) }
        let result = try CLI.run(["unpack", CLI.fixtures.appendingPathComponent("library/2024/07/IMG_0200.livp").path, "--output", tmp.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: tmp.path).sorted() == ["IMG_0200.JPG.jpeg", "IMG_0200.JPG.mov"])
        #expect(try Repair.lintFindings(tmp.path).isEmpty)
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
