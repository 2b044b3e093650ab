import Foundation
import LiveModel
import LiveReaders
import LiveWriters
import Testing

@Suite(.enabled(if: CLI.binary != nil, "needs the built livelint"))
struct MakeTests {
    static let id = "6E1F7C2A-3B4D-4E5F-8A9B-0C1D2E3F4A5B"

    /// A plain ffmpeg-made video and a plain JPEG become a pair `lint` finds nothing wrong with;
    /// exiftool and ffmpeg agree.
    @Test(arguments: ["h264.mov", "h264.mp4", "hevc.mov", "hevc-hev1.mov"])
    func plainMediaMakeACleanLivePhoto(movieName: String) throws {
        let tmp = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: tmp) }
        let still = CLI.fixtures.appendingPathComponent("base/still.jpg"), movie = CLI.fixtures.appendingPathComponent("base/\(movieName)")
        let out = tmp.appendingPathComponent("live")
        let result = try CLI.run(["make", still.path, movie.path, "--output", out.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.path).sorted() == ["still.MOV", "still.jpg"])
        #expect(try Repair.lintFindings(out.path).isEmpty)

        let outStill = out.appendingPathComponent("still.jpg"), outMovie = out.appendingPathComponent("still.MOV")
        let identifier = StillReader.read(path: outStill.path).still?.contentIdentifier
        #expect(identifier.map(ContentIdentifier.isUUID) == true && identifier == identifier?.uppercased())
        #expect(result.stdout.contains(identifier ?? "?"))
        let info = MovieReader.read(path: outMovie.path).movie
        #expect(info?.contentIdentifier == identifier)
        #expect(abs((info?.stillImageTime?.presentationTime ?? 0) - 1.5) < 0.01)  // the middle of 3 s
        for track in try Repair.digests(movie) { #expect(try Repair.digests(outMovie).contains(track)) }

        let facts = try Repair.exiftoolFacts(still: outStill, movie: outMovie)
        if Repair.tool("exiftool") != nil {
            #expect(facts.still == identifier && facts.movie == identifier)
            #expect(facts.stillImageTime != nil)
        }
        if let errors = try Repair.ffmpegErrors(outMovie) { #expect(errors.isEmpty, "ffmpeg: \(errors)") }
        if let after = try Repair.decodedFrames(outMovie) {
            #expect(after == (try Repair.decodedFrames(movie)))
            #expect(after == 30)
        }
    }

    @Test func identifierAndStillTimeAreHonoured() throws {
        let tmp = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: tmp) }
        let result = try CLI.run(["make", CLI.fixtures.appendingPathComponent("base/still.jpg").path,
                                  CLI.fixtures.appendingPathComponent("base/h264.mov").path,
                                  "--output", tmp.path, "--identifier", Self.id, "--still-time", "0.25"])
        #expect(result.status == 0, "\(result.stderr)")
        let movie = MovieReader.read(path: tmp.appendingPathComponent("still.MOV").path).movie
        #expect(movie?.contentIdentifier == Self.id)
        #expect(abs((movie?.stillImageTime?.presentationTime ?? 0) - 0.25) < 0.01)
        #expect(StillReader.read(path: tmp.appendingPathComponent("still.jpg").path).still?.contentIdentifier == Self.id)
        // A second make into the same folder refuses to overwrite, exit 2, files unchanged.
        let before = try Data(contentsOf: tmp.appendingPathComponent("still.MOV"))
        let again = try CLI.run(["make", CLI.fixtures.appendingPathComponent("base/still.jpg").path,
                                 CLI.fixtures.appendingPathComponent("base/h264.mov").path, "--output", tmp.path])
        #expect(again.status == 2)
        #expect(again.stderr.contains("already exists"))
        #expect(try Data(contentsOf: tmp.appendingPathComponent("still.MOV")) == before)
    }

    @Test(arguments: [
        ["--still-time", "3"], ["--still-time", "-1"], ["--identifier", "not-a-uuid"],
    ])
    func badOptionsExit2AndWriteNothing(extra: [String]) throws {
        let tmp = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: tmp) }
        let out = tmp.appendingPathComponent("o")
        let result = try CLI.run(["make", CLI.fixtures.appendingPathComponent("base/still.jpg").path,
                                  CLI.fixtures.appendingPathComponent("base/h264.mov").path, "--output", out.path] + extra)
        #expect(result.status == 2)
        #expect(!result.stderr.isEmpty)
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: out.path)) ?? []).isEmpty)
    }

    @Test func swappedArgumentsAreAUsageError() throws {
        let tmp = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: tmp) }
        let result = try CLI.run(["make", CLI.fixtures.appendingPathComponent("base/h264.mov").path,
                                  CLI.fixtures.appendingPathComponent("base/still.jpg").path, "--output", tmp.path])
        #expect(result.status == 2)
        #expect(result.stderr.contains("not a JPEG or HEIC"))
    }
}
