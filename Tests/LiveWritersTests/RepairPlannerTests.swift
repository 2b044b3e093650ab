import Foundation
import LiveLintEngine
import LiveModel
import Rules
import Testing
@testable import LiveWriters

/// What `livelint fix` does for one pair: the repairs the built-in rules (default configuration)
/// attach to it, then the plan made from them.
enum Planning {
    static let engine: LintEngine = {
        do { return try LintEngine(rules: builtinRules) } catch { fatalError("the built-in rules do not configure: \(error)") }
    }()

    static func repairs(still: MediaFile, movie: MediaFile) -> [Repair] {
        engine.repairs(for: LivePair(still: still, movie: movie, pairedBy: .name))
    }

    static func plan(still: MediaFile, movie: MediaFile, freshIdentifier: () -> String = { UUID().uuidString }) -> RepairPlan {
        RepairPlanner.plan(still: still, movie: movie, repairs: repairs(still: still, movie: movie), freshIdentifier: freshIdentifier)
    }
}

struct RepairPlannerTests {
    static let upper = "6E1F7C2A-3B4D-4E5F-8A9B-0C1D2E3F4A5B"
    static let other = "11111111-2222-4333-8444-555555555555"

    static func pair(still: String?, movie: String?, stillImageTime: Double? = 1.5, codec: String = "avc1",
                     stillFormat: ContainerFormat = .jpeg) -> (MediaFile, MediaFile) {
        let makerNote = still.map { AppleMakerNoteInfo(version: 1, tags: [MakerAppleTag(tag: 0x11, name: "ContentIdentifier", type: "string", count: 37, value: .string($0))]) }
        let s = MediaFile(path: "IMG.JPG", kind: .still, format: stillFormat, still: StillInfo(makerNote: makerNote))
        var info = MovieInfo(timescale: 600, durationTicks: 1800,
                             keys: movie.map { [QuickTimeKey(key: MovieInfo.contentIdentifierKey, dataType: 1, value: .string($0))] } ?? [])
        info.video = VideoStream(trackID: 1, codec: codec, width: 96, height: 72, frameCount: 30, duration: 3)
        if let t = stillImageTime {
            info.stillImageTime = StillImageTime(trackID: 2, value: -1, dataType: 65, payloadSize: 1, sampleCount: 1,
                                                 mediaTime: 0, presentationTime: t, movieDuration: 3)
        }
        return (s, MediaFile(path: "IMG.MOV", kind: .movie, format: .quicktime, movie: info))
    }

    /// identifier-only-in-xmp: the still's XMP value goes into its makernote (and into the movie
    /// when it has none); with a movie identifier, the movie's goes into the makernote.
    @Test func anXMPOnlyIdentifierIsWrittenWhereAppleReadsIt() {
        for movieID in [nil, Self.other] as [String?] {
            var (still, movie) = Self.pair(still: nil, movie: movieID)
            still.still?.properties = [MetadataProperty(key: "Xmp.apple-fi.ContentIdentifier", type: "XmpText", value: .string(Self.upper))]
            let repairs = Planning.repairs(still: still, movie: movie)
            let plan = RepairPlanner.plan(still: still, movie: movie, repairs: repairs, freshIdentifier: { "FRESH" })
            #expect(plan.identifier == (movieID ?? Self.upper), "\(repairs)")
            #expect(plan.editStill)
            #expect((plan.movieEdit?.contentIdentifier != nil) == (movieID == nil))
            #expect(plan.isRepairable, "\(plan.blockers)")
            if movieID == nil { #expect(plan.reason?.contains("only in XMP") == true, "\(plan.reason ?? "")") }
        }
    }

    @Test func aGoodPairNeedsNothing() {
        let (s, m) = Self.pair(still: Self.upper, movie: Self.upper)
        let plan = Planning.plan(still: s, movie: m)
        #expect(plan.isClean)
        #expect(!plan.isRepairable)
        #expect(plan.actions.isEmpty)
    }

    @Test(arguments: [
        // still, movie, winner, which half is edited
        (upper, other, RepairPlan.Source.still, false, true),
        (upper.lowercased(), upper, .movie, true, false),
        (upper, upper.lowercased(), .still, false, true),
        ("not-a-uuid", upper, .movie, true, false),
        (upper, "garbage", .still, false, true),
        (upper, nil, .still, false, true),
        (nil, upper, .movie, true, false),
    ] as [(String?, String?, RepairPlan.Source, Bool, Bool)])
    func theRightIdentifierWins(still: String?, movie: String?, source: RepairPlan.Source, editStill: Bool, editMovie: Bool) {
        let (s, m) = Self.pair(still: still, movie: movie)
        let plan = Planning.plan(still: s, movie: m)
        #expect(plan.identifierSource == source)
        #expect(plan.identifier == (source == .still ? still : movie))
        #expect(plan.editStill == editStill)
        #expect((plan.movieEdit?.contentIdentifier != nil) == editMovie)
        #expect(plan.reason?.isEmpty == false)
        #expect(plan.isRepairable)
    }

    @Test func neitherIdentifierGivesBothAFreshOne() {
        let (s, m) = Self.pair(still: nil, movie: nil)
        let plan = Planning.plan(still: s, movie: m, freshIdentifier: { Self.upper })
        #expect(plan.identifierSource == .fresh)
        #expect(plan.identifier == Self.upper)
        #expect(plan.editStill)
        #expect(plan.movieEdit?.contentIdentifier == Self.upper)
    }

    @Test func stillImageTimeIsAddedAtTheMiddleOrReplaced() {
        let (s, m) = Self.pair(still: Self.upper, movie: Self.upper, stillImageTime: nil)
        #expect(Planning.plan(still: s, movie: m).movieEdit?.stillImageTime == 1.5)
        let (s2, m2) = Self.pair(still: Self.upper, movie: Self.upper, stillImageTime: 7)
        #expect(Planning.plan(still: s2, movie: m2).movieEdit?.stillImageTime == 1.5)
        let (s3, m3) = Self.pair(still: Self.upper, movie: Self.upper, stillImageTime: 0.5)
        #expect(Planning.plan(still: s3, movie: m3).movieEdit == nil)
    }

    @Test func hev1IsRetagged() {
        let (s, m) = Self.pair(still: Self.upper, movie: Self.upper, codec: "hev1")
        let plan = Planning.plan(still: s, movie: m)
        #expect(plan.movieEdit?.videoSampleEntryFormat == "hvc1")
        #expect(plan.movieEdit?.contentIdentifier == nil)
    }

    @Test func aHEICWithoutIdentifierIsRepairable() {
        // Its Exif item is rewritten (HEICExifRewriter) with the movie's identifier.
        let (s, m) = Self.pair(still: nil, movie: Self.upper, stillFormat: .heic)
        let plan = Planning.plan(still: s, movie: m)
        #expect(plan.isRepairable)
        #expect(plan.editStill)
        #expect(plan.identifier == Self.upper)
        #expect(plan.blockers.isEmpty)
    }

    static let uuidShapes: [(String, Bool)] = {
        let u = upper
        var cases: [(String, Bool)] = [(u, true), (u.lowercased(), true), ("6E1F7C2A3B4D4E5F8A9B0C1D2E3F4A5B", false)]
        cases.append(("G" + u.dropFirst(), false))
        cases.append(("", false))
        cases.append((u + "0", false))
        cases.append((String(u.dropLast()), false))
        cases.append(("{" + u.dropFirst(), false))
        cases.append((u.replacingOccurrences(of: "-", with: "_"), false))
        // A hyphen one place early, and a digit outside ASCII (U+0661 ARABIC-INDIC ONE) in a hex place.
        cases.append((String(u.prefix(7)) + "-" + String(u.dropFirst(7).prefix(1)) + String(u.dropFirst(9)), false))
        cases.append(("\u{661}" + u.dropFirst(), false))
        return cases
    }()

    @Test(arguments: uuidShapes)
    func uuidShape(text: String, isUUID: Bool) {
        #expect(ContentIdentifier.isUUID(text) == isUUID)
    }
}
