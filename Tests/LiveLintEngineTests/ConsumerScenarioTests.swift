import LiveLintEngine
import LiveModel
import Testing

/// Issue 12: one library per scenario, each with the outcome every consumer is expected to give
/// the pair under test, and where that expectation comes from (docs/consumers.md cites the same).
@Suite struct ConsumerScenarioTests {
    typealias Outcomes = [String: ConsumerOutcome]

    struct Scenario: Sendable, CustomTestStringConvertible {
        var name: String
        var files: [MediaFile]
        /// The pair whose verdicts are checked: its still's path (or the lone movie's).
        var subject: String
        var expected: Outcomes
        /// Why each expectation holds.
        var source: String
        var testDescription: String { name }
    }

    static func all(_ o: ConsumerOutcome) -> Outcomes { Dictionary(uniqueKeysWithValues: Consumers.ids.map { ($0, o) }) }
    static func with(_ base: Outcomes, _ changes: Outcomes) -> Outcomes { base.merging(changes) { $1 } }

    static let scenarios: [Scenario] = [
        Scenario(name: "good pair", files: [.jpeg("a/IMG_0001.JPG"), .mov("a/IMG_0001.MOV")], subject: "a/IMG_0001.JPG",
                 expected: all(.live), source: "identifier in both halves, same name, still-image-time track: every consumer's rule holds"),
        Scenario(name: "movie without identifier", files: [.jpeg("a/IMG_0002.JPG"), .mov("a/IMG_0002.MOV", id: nil)],
                 subject: "a/IMG_0002.JPG",
                 expected: with(all(.split), ["photoprism": .live, "synology": .live]),
                 source: "Immich/Apple/Memories pair by identifier only (asset.repository.ts; LivePhotoRepair); PhotoPrism and Synology by name (discussion #5136; synoindexwatcher#50)"),
        Scenario(name: "lower-case movie identifier",
                 files: [.jpeg("a/IMG_0003.JPG"), .mov("a/IMG_0003.MOV", id: Sample.uuidA.lowercased())], subject: "a/IMG_0003.JPG",
                 expected: with(all(.split), ["photoprism": .live, "synology": .live]),
                 source: "Immich compares exactly (asset.repository.ts); Apple and Memories compare the strings; name-based apps do not look"),
        Scenario(name: "same identifier, different stems",
                 files: [.jpeg("a/IMG_0004.JPG"), .mov("a/clip.MOV")], subject: "a/IMG_0004.JPG",
                 expected: with(all(.live), ["synology": .split]),
                 source: "names are irrelevant to identifier pairing; PhotoPrism also stacks by a 36-character UUID (discussion #5136); Synology by name only"),
        Scenario(name: "no still-image-time track",
                 files: [.jpeg("a/IMG_0005.JPG"), .mov("a/IMG_0005.MOV", stillImageTime: nil)], subject: "a/IMG_0005.JPG",
                 expected: with(all(.live), ["iphone": .split]),
                 source: "Live on the Mac only without the track (RhetTbull/makelive#26)"),
        Scenario(name: "a copy of the pair in another folder",
                 files: [.jpeg("a/IMG_0006.JPG"), .mov("a/IMG_0006.MOV"), .jpeg("b/IMG_0006.JPG"), .mov("b/IMG_0006.MOV")],
                 subject: "a/IMG_0006.JPG",
                 expected: with(all(.ambiguous), ["photoprism": .live, "synology": .live]),
                 source: "Immich links the first movie with the identifier, copies cross-link (immich#11947, #24008); name-based apps stay in the folder"),
        Scenario(name: "Photos-library _3.mov original",
                 files: [.heic("a/\(Sample.uuidB).heic", id: Sample.uuidB), .mov("a/\(Sample.uuidB)_3.mov", id: Sample.uuidB)],
                 subject: "a/\(Sample.uuidB).heic",
                 expected: with(all(.live), ["photoprism": .split, "synology": .split]),
                 source: "identifier apps ignore names; PhotoPrism does not match _3.mov originals (photoprism#1885); Synology compares names"),
        Scenario(name: "different identifiers under one name (rollover)",
                 files: [.jpeg("a/IMG_0007.JPG", id: Sample.uuidA), .mov("a/IMG_0007.MOV", id: Sample.uuidB)],
                 subject: "a/IMG_0007.JPG",
                 expected: with(all(.split), ["photoprism": .live, "synology": .live]),
                 source: "identifier apps see two different captures; name apps stack them anyway (photoprism#5799, immich-go#498)"),
        Scenario(name: "a third file with the same stem",
                 files: [.jpeg("a/IMG_0008.JPG"), .mov("a/IMG_0008.MOV"), .heic("a/IMG_0008.HEIC", id: Sample.uuidC)],
                 subject: "a/IMG_0008.JPG",
                 expected: with(all(.live), ["photoprism": .ambiguous, "synology": .ambiguous]),
                 source: "PhotoPrism stacks every file with the base name (discussion #5136)"),
        Scenario(name: "an MP4 movie, not QuickTime",
                 files: [.jpeg("a/IMG_0009.JPG"), .mp4("a/IMG_0009.MP4")], subject: "a/IMG_0009.JPG",
                 expected: with(all(.live), ["nextcloud-memories": .split, "apple-photos": .split, "iphone": .split]),
                 source: "Memories requires video/quicktime by content (pulsejet/memories, shared notes); Photos pairs QuickTime movies"),
        Scenario(name: ".livp archive",
                 files: [.livp("a/IMG_0010.livp", members: [.jpeg("IMG_0010.JPG"), .mov("IMG_0010.MOV")])],
                 subject: "a/IMG_0010.livp!IMG_0010.JPG",
                 expected: all(.unsupported), source: "no consumer here reads .livp (photoprism#2312; shared notes)"),
        Scenario(name: "IMG_E edit beside the original",
                 files: [.jpeg("a/IMG_E0011.JPG", id: Sample.uuidC), .mov("a/IMG_E0011.MOV", id: Sample.uuidC),
                         .jpeg("a/IMG_0011.JPG", id: Sample.uuidB), .mov("a/IMG_0011.MOV", id: Sample.uuidB)],
                 subject: "a/IMG_E0011.JPG", expected: all(.live),
                 source: "the edit is a pair of its own (immich#17218): each consumer links it like any pair"),
        Scenario(name: "identifier only in the still's XMP",
                 files: [.jpeg("a/IMG_0012.JPG", makerNote: false, xmpID: Sample.uuidA), .mov("a/IMG_0012.MOV")],
                 subject: "a/IMG_0012.JPG",
                 expected: with(all(.live), ["apple-photos": .split, "iphone": .split]),
                 source: "Photos reads makernote 0x0011 only (vivo-live-photo-converter README); Immich and Memories take exiftool's ContentIdentifier, which exiftool also reports from embedded XMP (checked with exiftool 12.57); name apps do not look"),
        Scenario(name: "Synology download: a ZIP named .HEIF",
                 files: [.livp("a/1234.HEIF", members: [.heic("1234.HEIF"), .mov("1234.MOV")])],
                 subject: "a/1234.HEIF!1234.HEIF",
                 expected: all(.unsupported),
                 source: "a ZIP is no image to any app here; Immich logs 'unsupported format' (jaimetur/PhotoMigrator#912, #1028)"),
        Scenario(name: "Baidu-layout .livp",
                 files: [.livp("a/IMG_0013.livp", members: [.jpeg("IMG_0013.JPG.jpeg"), .mov("IMG_0013.JPG.mov")], layout: .baidu)],
                 subject: "a/IMG_0013.livp!IMG_0013.JPG.jpeg",
                 expected: all(.unsupported),
                 source: "the layout is for Baidu and Aliyun clients; none of these apps reads .livp (photoprism#2312)"),
        Scenario(name: "Takeout names and sidecars",
                 files: [.jpeg("t/IMG_0769(1).JPG").withSidecar("IMG_0769.JPG.supplemental-metadata(1).json"),
                         .mov("t/IMG_0769(1).MP4")],
                 subject: "t/IMG_0769(1).JPG",
                 expected: all(.live),
                 source: "Takeout keeps both identifiers and the QuickTime bytes under .MP4 (immich-go PR #1432): identifier apps pair it, Memories sniffs QuickTime content, PhotoPrism and Synology see one base name 'IMG_0769(1)'; the sidecar is for Takeout importers (movie-date-only-in-sidecar)"),
    ]

    @Test(arguments: scenarios)
    func everyConsumerGivesTheExpectedOutcome(_ scenario: Scenario) throws {
        let engine = try LintEngine(rules: [], configuration: Configuration(consumers: Consumers.ids))
        let result = engine.run(files: scenario.files, root: ".")
        let pair = try #require(result.pairs.first { ($0.still ?? $0.movie) == scenario.subject },
                                "no pair for \(scenario.subject) in \(result.pairs)")
        #expect(Set(pair.consumers.keys) == Set(Consumers.ids))
        for (id, expected) in scenario.expected {
            let verdict = try #require(pair.consumers[id])
            #expect(verdict.outcome == expected, "\(id): \(verdict.reason) — expected \(expected) (\(scenario.source))")
            #expect(!verdict.reason.isEmpty)
            if verdict.outcome == .live { #expect(verdict.fix == nil) } else { #expect(verdict.fix != nil) }
        }
    }

    /// Facts that count only what the subject pair's verdicts ask about (its identifiers and its
    /// halves: what `fix` counts for the pairs it plans, issue 13) give every consumer the verdict
    /// that facts of every half give, in every scenario; about another pair's identifier they know
    /// of no carrier.
    @Test(arguments: scenarios)
    func factsAnsweringOnePairGiveItsVerdicts(_ scenario: Scenario) throws {
        var pairs: [LivePair] = []
        _ = try LintEngine(rules: []).run(files: scenario.files, root: ".", onPair: { pair, _ in pairs.append(pair) })
        let pair = try #require(pairs.first { ($0.still ?? $0.movie)?.path == scenario.subject })
        let full = LibraryFacts(pairs: pairs)
        var asked = LibraryFacts(answering: Set(LibraryFacts.identifiersAsked(about: pair)), stemsOf: pair.paths)
        for other in pairs { LibraryFacts.forEachHalf(of: other) { asked.add(path: $0, identifier: $1, still: $2) } }
        for consumer in Consumers.all {
            #expect(consumer.verdict(on: pair, in: asked) == consumer.verdict(on: pair, in: full), "\(consumer.id)")
        }
        for other in pairs where other.movie?.contentIdentifier.map({ !LibraryFacts.identifiersAsked(about: pair).contains($0) }) == true {
            #expect(asked.otherMovies(withIdentifier: other.movie?.contentIdentifier ?? "", than: nil).count == 0)
        }
    }

    @Test func aTakeoutPairCarriesItsStillsSidecar() throws {
        let result = try LintEngine(rules: []).run(
            files: [.jpeg("t/IMG_0769(1).JPG").withSidecar("IMG_0769.JPG.supplemental-metadata(1).json"), .mov("t/IMG_0769(1).MP4"),
                    .jpeg("t/IMG_0770.JPG", id: Sample.uuidB)],
            root: ".")
        let pair = try #require(result.pairs.first { $0.still == "t/IMG_0769(1).JPG" })
        #expect(pair.movie == "t/IMG_0769(1).MP4" && pair.sidecar == "t/IMG_0769.JPG.supplemental-metadata(1).json")
        #expect(result.pairs.first { $0.still == "t/IMG_0770.JPG" }?.sidecar == nil)
        #expect(result.files.first { $0.path == "t/IMG_0769(1).JPG" }?.sidecar == "t/IMG_0769.JPG.supplemental-metadata(1).json")
        #expect(result.files.first { $0.path == "t/IMG_0769(1).MP4" }?.sidecar == nil)
    }

    @Test func ambiguousNamesTheOtherCandidate() throws {
        let engine = try LintEngine(rules: [], configuration: Configuration(consumers: ["immich"]))
        let result = engine.run(files: [.jpeg("a/IMG_1.JPG"), .mov("a/IMG_1.MOV"), .jpeg("b/IMG_1.JPG"), .mov("b/IMG_1.MOV")], root: ".")
        let verdict = try #require(result.pairs.first { $0.still == "a/IMG_1.JPG" }?.consumers["immich"])
        #expect(verdict.outcome == .ambiguous)
        #expect(verdict.reason.contains("b/IMG_1.MOV"))
    }

    @Test func summaryCountsOutcomesPerConsumer() throws {
        let engine = try LintEngine(rules: [], configuration: Configuration(consumers: ["immich", "iphone"]))
        let files: [MediaFile] = [.jpeg("IMG_1.JPG"), .mov("IMG_1.MOV"),
                                  .jpeg("IMG_2.JPG", id: Sample.uuidB), .mov("IMG_2.MOV", id: Sample.uuidB, stillImageTime: nil),
                                  .jpeg("IMG_3.JPG", id: Sample.uuidC)]
        let result = engine.run(files: files, root: ".")
        #expect(result.summary.consumers["immich"] == [.live: 2, .split: 1])
        #expect(result.summary.consumers["iphone"] == [.live: 1, .split: 2])
        #expect(result.summary.consumers["photoprism"] == nil)
    }

    @Test func withoutConsumersNothingIsAdded() throws {
        let result = try LintEngine(rules: []).run(files: [.jpeg(), .mov()], root: ".")
        #expect(result.pairs.allSatisfy { $0.consumers.isEmpty })
        #expect(result.summary.consumers.isEmpty)
    }

    @Test func namesAreChecked() throws {
        #expect(try Consumers.named(["all"]).count == Consumers.all.count)
        #expect(try Consumers.named([" immich", "iphone "]).map(\.id) == ["iphone", "immich"])
        #expect(throws: ConfigurationError.self) { try Consumers.named(["imich"]) }
        let config = try Configuration.parse("version: 1\nconsumers: [immich, photoprism]\n", source: nil, rules: [])
        #expect(config.consumers == ["immich", "photoprism"])
        let one = try Configuration.parse("version: 1\nconsumers: all\n", source: nil, rules: [])
        #expect(one.consumers == Consumers.ids)
        #expect(throws: ConfigurationError.self) { try Configuration.parse("version: 1\nconsumers: [picasa]\n", source: nil, rules: []) }
    }
}
