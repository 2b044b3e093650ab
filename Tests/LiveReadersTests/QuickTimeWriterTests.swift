import Foundation
import ISOBMFF
import LiveModel
import Testing
@testable import LiveReaders
@testable import LiveWriters

@Suite(.enabled(if: MovieTools.ffmpeg != nil, "ffmpeg not installed"))
struct QuickTimeWriterRoundTripTests {
    static let identifier = "9E2A1C44-3B1D-4F0E-8C55-0D7A2B6E1F93"

    @Test(arguments: [false, true])
    func addsIdentifierAndStillImageTime(faststart: Bool) throws {
        let dir = try MovieTools.tempDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = try MovieTools.makeMovie(in: dir, extra: faststart ? ["-movflags", "+faststart"] : [])
        let original = try [UInt8](Data(contentsOf: input))
        let before = MovieReader.read(MemoryByteSource(original))
        let beforeMovie = try #require(before.movie)
        let moovIndex = try #require(beforeMovie.topLevelBoxes.firstIndex { $0.type == "moov" })
        let mdatIndex = try #require(beforeMovie.topLevelBoxes.firstIndex { $0.type == "mdat" })
        #expect((moovIndex < mdatIndex) == faststart)
        #expect(beforeMovie.stillImageTime == nil)
        // x264's SPS, parsed: High profile, 4:2:0 8-bit, full range from the VUI (yuvj420p).
        #expect(beforeMovie.video?.codec == "avc1")
        #expect(beforeMovie.video?.profile == "High")
        #expect(beforeMovie.video?.chroma == "4:2:0")
        #expect(beforeMovie.video?.bitDepth == 8)
        #expect(beforeMovie.video?.fullRange == true)
        #expect(beforeMovie.video?.width == 64)
        #expect(beforeMovie.audio.first?.codec == "mp4a")
        #expect(beforeMovie.audio.first?.sampleRate == 8000)
        #expect(beforeMovie.audio.first?.channels == 1)

        let edit = LivePhotoMovieEdit(contentIdentifier: Self.identifier, stillImageTime: 1.2)
        let output = try QuickTimeWriter.apply(edit, to: MemoryByteSource(original))
        let after = MovieReader.read(MemoryByteSource(output))
        #expect(after.error == nil, "\(String(describing: after.error))")
        #expect(after.warnings.isEmpty, "\(after.warnings)")
        let movie = try #require(after.movie)
        #expect(movie.contentIdentifier == Self.identifier)
        #expect(movie.key(MovieInfo.contentIdentifierKey)?.dataType == 1)
        let sit = try #require(movie.stillImageTime)
        #expect(sit.value == -1)
        #expect(sit.dataType == 65)
        #expect(sit.payloadSize == 1)
        #expect(sit.sampleCount == 1)
        #expect(sit.mediaTime == 0)
        let tick = 1 / Double(movie.timescale)
        #expect(abs((sit.presentationTime ?? -1) - 1.2) <= tick, "\(String(describing: sit.presentationTime))")
        #expect(sit.isInsideMovie)

        // The new track: unique id, refers to the video track, the old tracks as they were.
        #expect(Set(movie.tracks.map(\.id)).count == movie.tracks.count)
        #expect(movie.tracks.count == beforeMovie.tracks.count + 1)
        let newTrack = try #require(movie.tracks.first { $0.id == sit.trackID })
        #expect(newTrack.references["cdsc"] == [try #require(beforeMovie.video?.trackID)])
        #expect(newTrack.handler == "meta")
        #expect(newTrack.format == "mebx")
        #expect(newTrack.enabled)
        for (old, new) in zip(beforeMovie.tracks, movie.tracks) {
            #expect(old.id == new.id)
            #expect(old.sampleCount == new.sampleCount)
            #expect(old.format == new.format)
        }
        #expect(movie.duration == beforeMovie.duration)

        // Every original sample byte is where the new tables say it is.
        let oldHashes = try MovieSampleHashes.hashes(original)
        let newHashes = try MovieSampleHashes.hashes(output)
        for (id, h) in oldHashes { #expect(newHashes[id] == h, "track \(id) samples changed") }
        #expect(newHashes.count == oldHashes.count + 1)

        // moov first: it grew, so the media moved and offsets had to follow.
        let oldMoov = try #require(beforeMovie.topLevelBoxes.first { $0.type == "moov" })
        let newMoov = try #require(movie.topLevelBoxes.first { $0.type == "moov" })
        #expect(newMoov.size > oldMoov.size)
        #expect(Int64(output.count) == Int64(original.count) + (newMoov.size - oldMoov.size) + 17)
        #expect(movie.topLevelBoxes.last?.type == "mdat")
    }

    @Test func independentToolsReadTheResult() throws {
        let dir = try MovieTools.tempDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = try MovieTools.makeMovie(in: dir, extra: ["-movflags", "+faststart"])
        let output = try QuickTimeWriter.apply(LivePhotoMovieEdit(contentIdentifier: Self.identifier, stillImageTime: 0.7),
                                               to: FileByteSource(path: input.path))
        let out = dir.appendingPathComponent("out.mov")
        try Data(output).write(to: out)

        let ffmpeg = try #require(MovieTools.ffmpeg)
        let decode = try MovieTools.run(ffmpeg, ["-v", "error", "-i", out.path, "-map", "0:v", "-map", "0:a", "-f", "null", "-"])
        #expect(decode.status == 0)
        #expect(decode.err.isEmpty, "ffmpeg: \(decode.err)")

        if let exiftool = MovieTools.exiftool {
            let r = try MovieTools.run(exiftool, ["-ee", "-G3", "-n", "-s", "-StillImageTime", "-ContentIdentifier", out.path])
            #expect(r.status == 0)
            #expect(r.out.contains("StillImageTime") && r.out.contains(": -1"), "exiftool: \(r.out)")
            #expect(r.out.contains("ContentIdentifier") && r.out.contains(Self.identifier), "exiftool: \(r.out)")
            let warnings = try MovieTools.run(exiftool, ["-validate", "-warning", "-a", out.path])
            #expect(!warnings.out.contains("Truncated"), "exiftool: \(warnings.out)")
        }
    }

    @Test func applyingTwiceReplacesInsteadOfAdding() throws {
        let dir = try MovieTools.tempDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = try [UInt8](Data(contentsOf: MovieTools.makeMovie(in: dir)))
        let once = try QuickTimeWriter.apply(LivePhotoMovieEdit(contentIdentifier: "FIRST", stillImageTime: 0.5), to: MemoryByteSource(input))
        let twice = try QuickTimeWriter.apply(LivePhotoMovieEdit(contentIdentifier: Self.identifier, stillImageTime: 2.5, stillImageTimeValue: 0),
                                              to: MemoryByteSource(once))
        let movie = try #require(MovieReader.read(MemoryByteSource(twice)).movie)
        #expect(movie.contentIdentifier == Self.identifier)
        #expect(movie.keys.filter { $0.key == MovieInfo.contentIdentifierKey }.count == 1)
        #expect(movie.tracks.filter { $0.metadata?.key(named: MovieInfo.stillImageTimeKey) != nil }.count == 1)
        #expect(movie.stillImageTime?.value == 0)
        #expect(abs((movie.stillImageTime?.presentationTime ?? 0) - 2.5) <= 1 / Double(movie.timescale))
        let hashes = try MovieSampleHashes.hashes(input)
        let newHashes = try MovieSampleHashes.hashes(twice)
        for (id, h) in hashes { #expect(newHashes[id] == h) }
    }

    @Test func retagsTheVideoSampleEntry() throws {
        let dir = try MovieTools.tempDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = try MovieTools.makeMovie(in: dir, codec: ["-c:v", "libx265", "-tag:v", "hev1"], extra: ["-x265-params", "log-level=error"])
        let source = try FileByteSource(path: input.path)
        #expect(MovieReader.read(source).movie?.video?.codec == "hev1")
        let output = try QuickTimeWriter.apply(LivePhotoMovieEdit(videoSampleEntryFormat: "hvc1"), to: source)
        let movie = try #require(MovieReader.read(MemoryByteSource(output)).movie)
        #expect(movie.video?.codec == "hvc1")
        #expect(movie.video?.profile == "Main")
        #expect(output.count == Int(source.size))  // same size, nothing else touched
    }
}

@Suite(.enabled(if: MovieCorpus.isPresent, "shared corpus not present"))
struct QuickTimeWriterCorpusTests {
    @Test func movesTheStillInACameraMovie() throws {
        let path = try #require(MovieCorpus.path("P8m"))  // moov before mdat, audio as track 1
        let original = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let before = try #require(MovieReader.read(MemoryByteSource(original)).movie)
        let output = try QuickTimeWriter.apply(LivePhotoMovieEdit(stillImageTime: 0.25), to: MemoryByteSource(original))
        let result = MovieReader.read(MemoryByteSource(output))
        #expect(result.error == nil)
        let movie = try #require(result.movie)
        #expect(movie.contentIdentifier == before.contentIdentifier)
        let sit = try #require(movie.stillImageTime)
        #expect(abs((sit.presentationTime ?? -1) - 0.25) <= 1 / Double(movie.timescale))
        #expect(sit.trackID == 6)  // the old still-image-time track (5) is replaced, ids are not reused
        #expect(movie.tracks.map(\.id) == [1, 2, 3, 4, 6])
        #expect(movie.tracks.last?.references["cdsc"] == [2])
        let oldHashes = try MovieSampleHashes.hashes(original)
        let newHashes = try MovieSampleHashes.hashes(output)
        for id: UInt32 in [1, 2, 3, 4] { #expect(oldHashes[id] == newHashes[id], "track \(id)") }
        for (old, new) in zip(before.tracks.prefix(4), movie.tracks.prefix(4)) {
            #expect(old.metadata?.samples == new.metadata?.samples)
        }
    }
}

@Suite struct QuickTimeWriterRefusalTests {
    @Test func refusesWhatItCannotPlace() throws {
        let notAMovie = MemoryByteSource([0xFF, 0xD8, 0xFF, 0xE0, 0, 16, 0x4A, 0x46, 0x49, 0x46, 0, 1])
        #expect(throws: BoxError.self) { try QuickTimeWriter.apply(LivePhotoMovieEdit(contentIdentifier: "X"), to: notAMovie) }
        let movie = MovieFixtures.tinyMovie(stillAt: 0)
        for bad in [-1.0, .nan, .infinity] {
            #expect(throws: BoxError.self) { try QuickTimeWriter.apply(LivePhotoMovieEdit(stillImageTime: bad), to: MemoryByteSource(movie)) }
        }
        #expect(throws: BoxError.self) {
            try QuickTimeWriter.apply(LivePhotoMovieEdit(videoSampleEntryFormat: "toolong"), to: MemoryByteSource(movie))
        }
    }

    @Test func writesIntoATinyMovieWithoutFfmpeg() throws {
        let movie = MovieFixtures.tinyMovie(stillAt: 600)
        let output = try QuickTimeWriter.apply(LivePhotoMovieEdit(contentIdentifier: "ABC", stillImageTime: 0.5), to: MemoryByteSource(movie))
        let read = MovieReader.read(MemoryByteSource(output))
        #expect(read.error == nil)
        #expect(read.movie?.contentIdentifier == "ABC")
        #expect(read.movie?.stillImageTime?.presentationTime == 0.5)
        #expect(read.movie?.tracks.count == 1)
    }
}
