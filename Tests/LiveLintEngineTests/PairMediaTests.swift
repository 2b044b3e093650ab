import LiveLintEngine
import LiveModel
import Testing

/// The per-pair summary the HTML report draws, taken from the files the scan keeps.
struct PairMediaTests {
    /// A movie whose video track starts with a 0.5 s empty edit, then shows the media from 0.1 s.
    static func editedMovie() -> MediaFile {
        var file = MediaFile.mov(stillImageTime: 1.5, duration: 3)
        var movie = file.movie!
        movie.tracks[0].editList = [EditListEntry(segmentDuration: 300, mediaTime: -1, rate: 1),
                                    EditListEntry(segmentDuration: 1500, mediaTime: 60, rate: 1)]
        file.movie = movie
        return file
    }

    @Test func editsArePlacedOnTheMovieTimeline() throws {
        let video = try #require(Self.editedMovie().movie?.tracks.first)
        let edits = PairMedia.edits(of: video, movieTimescale: 600)
        #expect(edits == [.init(start: 0, duration: 0.5, mediaTime: nil, rate: 1),
                          .init(start: 0.5, duration: 2.5, mediaTime: 0.1, rate: 1)])
        #expect(PairMedia.edits(of: video, movieTimescale: 0).isEmpty)
        #expect(!PairMedia.isTrivialEditList(video, movieDurationTicks: 1800))
        var whole = video
        whole.editList = [EditListEntry(segmentDuration: 1800, mediaTime: 0, rate: 1)]
        #expect(PairMedia.isTrivialEditList(whole, movieDurationTicks: 1800))
        whole.editList = []
        #expect(PairMedia.isTrivialEditList(whole, movieDurationTicks: 1800))
    }

    /// The slim movie keeps a non-trivial video edit list (and nothing else of its tracks), so
    /// the pair's media is the same from the slim files as from the full ones.
    @Test func slimFilesGiveTheSameMedia() throws {
        let still = MediaFile.jpeg(orientation: 1)
        let full = LivePair(still: still, movie: Self.editedMovie(), pairedBy: .contentIdentifier)
        let slim = LivePair(still: still.slimmedForLint(keeping: []), movie: Self.editedMovie().slimmedForLint(keeping: []),
                            pairedBy: .contentIdentifier)
        #expect(slim.movie?.movie?.tracks.count == 1)
        #expect(slim.movie?.movie?.tracks.first?.matrix.isEmpty == true)
        #expect(full.media == slim.media)
        let m = slim.media
        #expect(m.stillIdentifier == Sample.uuidA && m.movieIdentifier == Sample.uuidA)
        #expect(m.movieDuration == 3 && m.stillImageTime == 1.5 && m.videoCodec == "hvc1")
        #expect(m.edits.count == 2)
        // A movie with a trivial edit list keeps no track at all (issue 4's memory).
        #expect(MediaFile.mov().slimmedForLint(keeping: []).movie?.tracks.isEmpty == true)
        // A lone still: identifiers of one side only, no timeline.
        let lone = LivePair(still: still, movie: nil, pairedBy: .unpaired).media
        #expect(lone.movieIdentifier == nil && lone.movieDuration == nil && lone.edits.isEmpty && lone.stillWidth == 4032)
    }
}
