@testable import LiveLintEngine
import LiveModel
import Rules
import TestSupport
import Testing

private func lint(_ files: [MediaFile], configuration: Configuration = .default) throws -> LintResult {
    try LintEngine(rules: builtinRules, configuration: configuration).run(files: files, root: "scan")
}

@Test func cleanCameraPairHasNoFindings() throws {
    let result = try lint([.jpeg(), .mov()])
    #expect(result.findings == [])
    #expect(result.pairs == [PairRecord(still: "IMG_0001.JPG", movie: "IMG_0001.MOV", contentIdentifier: Sample.uuidA, pairedBy: .contentIdentifier)])
    #expect(result.summary == LintSummary(files: 2, pairs: 1, errors: 0, warnings: 0, infos: 0))
}

@Test func pairsByIdentifierAcrossFolders() throws {
    let files: [MediaFile] = [
        .jpeg("2021/stills/IMG_0001.JPG", id: Sample.uuidA), .mov("exports/movies/clip-17.mov", id: Sample.uuidA),
        .heic("2021/stills/IMG_0002.HEIC", id: Sample.uuidB), .mov("2021/stills/IMG_0002.MOV", id: Sample.uuidB),
    ]
    let pairs = Pairing.pair(files)
    #expect(pairs.map(\.record) == [
        PairRecord(still: "2021/stills/IMG_0001.JPG", movie: "exports/movies/clip-17.mov", contentIdentifier: Sample.uuidA, pairedBy: .contentIdentifier),
        PairRecord(still: "2021/stills/IMG_0002.HEIC", movie: "2021/stills/IMG_0002.MOV", contentIdentifier: Sample.uuidB, pairedBy: .contentIdentifier),
    ])
    #expect(try lint(files).findings.isEmpty)
}

@Test func identifierBeatsName() {
    // IMG_0001.MOV shares the still's name but carries another capture's identifier.
    let files: [MediaFile] = [.jpeg("IMG_0001.JPG", id: Sample.uuidA), .mov("IMG_0001.MOV", id: Sample.uuidB),
                              .mov("other/IMG_9999.MOV", id: Sample.uuidA)]
    let records = Pairing.pair(files).map(\.record)
    #expect(records.contains(PairRecord(still: "IMG_0001.JPG", movie: "other/IMG_9999.MOV", contentIdentifier: Sample.uuidA, pairedBy: .contentIdentifier)))
    #expect(records.contains(PairRecord(still: nil, movie: "IMG_0001.MOV", contentIdentifier: Sample.uuidB, pairedBy: .unpaired)))
}

@Test func oneIdentifierManyCandidatesPairsNameMatesFirstThenPathOrder() {
    // Three stills and two movies carry one identifier; a lower-case copy and an unrelated pair
    // sit beside them. Name mates in one folder pair first, the rest in path order, and the
    // case-folded pass only sees what the exact pass left.
    let files: [MediaFile] = [
        .jpeg("c/IMG_9.JPG", id: Sample.uuidA), .jpeg("b/IMG_1.JPG", id: Sample.uuidA), .jpeg("a/IMG_1.JPG", id: Sample.uuidA),
        .mov("z/other.MOV", id: Sample.uuidA), .mov("b/IMG_1.MOV", id: Sample.uuidA),
        .mov("y/lower.MOV", id: Sample.uuidA.lowercased()),
        .jpeg("d/IMG_2.JPG", id: Sample.uuidB), .mov("d/IMG_2.MOV", id: Sample.uuidB),
    ]
    let records = Pairing.pair(files).map(\.record)
    #expect(records == [
        PairRecord(still: "a/IMG_1.JPG", movie: "z/other.MOV", contentIdentifier: Sample.uuidA, pairedBy: .contentIdentifier),
        PairRecord(still: "b/IMG_1.JPG", movie: "b/IMG_1.MOV", contentIdentifier: Sample.uuidA, pairedBy: .contentIdentifier),
        PairRecord(still: "c/IMG_9.JPG", movie: "y/lower.MOV", contentIdentifier: Sample.uuidA, pairedBy: .contentIdentifier),
        PairRecord(still: "d/IMG_2.JPG", movie: "d/IMG_2.MOV", contentIdentifier: Sample.uuidB, pairedBy: .contentIdentifier),
    ])
    // Reversing the input changes nothing.
    #expect(Pairing.pair(files.reversed()).map(\.record) == records)
}

struct StemCase: Sendable, CustomTestStringConvertible {
    let still: String, movie: String
    var testDescription: String { "\(still) + \(movie)" }
}

/// The export naming patterns of live-photo-format.md, "The pair".
@Test(arguments: [
    StemCase(still: "IMG_0001.JPG", movie: "IMG_0001.MOV"),
    StemCase(still: "IMG_0084.JPG", movie: "IMG_0084_HEVC.MOV"),          // icloudpd
    StemCase(still: "IMG_0084.HEIC", movie: "IMG_0084_HEVC.MOV"),
    StemCase(still: "X.JPG.jpeg", movie: "X.JPG.mov"),                    // inside a .livp, extracted
    StemCase(still: "IMG_0084.JPG", movie: "IMG_0084.JPG.mov"),
    StemCase(still: "IMG_0769(1).HEIC", movie: "IMG_0769(1).mp4"),        // Takeout
    StemCase(still: "IMG_0769.HEIC", movie: "IMG_0769(1).mp4"),
    StemCase(still: "E905E6C6-C747-4805-942F-9904A0281F02.heic", movie: "E905E6C6-C747-4805-942F-9904A0281F02_3.mov"), // Photos library
    StemCase(still: "album/img_0001.jpg", movie: "album/IMG_0001.MOV"),
])
func pairsByExportName(_ c: StemCase) {
    let still: MediaFile = c.still.hasSuffix("heic") || c.still.hasSuffix("HEIC") ? .heic(c.still, id: nil) : .jpeg(c.still, id: nil)
    let movie: MediaFile = c.movie.lowercased().hasSuffix("mp4") ? .mp4(c.movie, id: nil) : .mov(c.movie, id: nil)
    for files in [[still, movie], [movie, still]] {
        #expect(Pairing.pair(files).map(\.record) == [PairRecord(still: c.still, movie: c.movie, contentIdentifier: nil, pairedBy: .name)])
    }
}

@Test(arguments: [
    StemCase(still: "a/IMG_0001.JPG", movie: "b/IMG_0001.MOV"),       // name pairing stays in one folder
    StemCase(still: "IMG_0084.JPG", movie: "IMG_0085.MOV"),
    StemCase(still: "IMG_0084.JPG", movie: "IMG_0084_2.MOV"),          // `_N` is stripped after a UUID only
    StemCase(still: "IMG_0769(1).HEIC", movie: "IMG_0769(2).mp4"),
])
func doesNotPairUnrelatedNames(_ c: StemCase) {
    let pairs = Pairing.pair([.jpeg(c.still, id: nil), .mov(c.movie, id: nil)])
    #expect(pairs.allSatisfy { $0.pairedBy == .unpaired })
    #expect(pairs.count == 2)
}

@Test func exactNameBeatsTakeoutFallback() {
    let pairs = Pairing.pair([.heic("IMG_0769.HEIC", id: nil), .heic("IMG_0769(1).HEIC", id: nil),
                              .mp4("IMG_0769(1).mp4", id: nil), .mov("IMG_0769.MOV", id: nil)]).map(\.record)
    #expect(pairs.contains(PairRecord(still: "IMG_0769(1).HEIC", movie: "IMG_0769(1).mp4", contentIdentifier: nil, pairedBy: .name)))
    #expect(pairs.contains(PairRecord(still: "IMG_0769.HEIC", movie: "IMG_0769.MOV", contentIdentifier: nil, pairedBy: .name)))
}

/// What the identifier pass leaves goes on to the name passes in path order: two stills of one
/// name, neither paired by identifier, give the movie of that name to the first in path order,
/// whichever identifier sorts first.
@Test(arguments: [false, true])
func halvesLeftByTheIdentifierPassAreInPathOrder(swapped: Bool) {
    let low = "00000000-0000-4000-8000-000000000001", high = "FFFFFFFF-0000-4000-8000-000000000001"
    let files: [MediaFile] = [.jpeg("a/IMG_1.JPEG", id: swapped ? low : high), .jpeg("a/IMG_1.JPG", id: swapped ? high : low),
                              .mov("a/IMG_1.MOV", id: Sample.uuidC)]
    let records = Pairing.pair(files).map(\.record)
    #expect(records.contains { $0.still == "a/IMG_1.JPEG" && $0.movie == "a/IMG_1.MOV" && $0.pairedBy == .name })
    #expect(records.contains { $0.still == "a/IMG_1.JPG" && $0.movie == nil })
}

@Test func namePairWithDifferentIdentifiersIsAMismatch() throws {
    let result = try lint([.jpeg("DCIM/IMG_0084.JPG", id: Sample.uuidA), .mov("DCIM/IMG_0084_HEVC.MOV", id: Sample.uuidB)])
    #expect(result.pairs == [PairRecord(still: "DCIM/IMG_0084.JPG", movie: "DCIM/IMG_0084_HEVC.MOV", contentIdentifier: Sample.uuidA, pairedBy: .name)])
    let mismatch = try #require(result.findings.first { $0.ruleID == "identifier-mismatch" })
    #expect(mismatch.files == ["DCIM/IMG_0084.JPG", "DCIM/IMG_0084_HEVC.MOV"])
    #expect(mismatch.message.contains(Sample.uuidA) && mismatch.message.contains(Sample.uuidB))
    #expect(mismatch.severity == .error)
    // Paired, so neither half is an orphan.
    #expect(!result.findings.contains { $0.ruleID.hasPrefix("orphan-") })
}

@Test func caseOnlyDifferencePairsByIdentifier() throws {
    let result = try lint([.jpeg("a/one.jpg", id: Sample.uuidA.lowercased()), .mov("b/two.mov", id: Sample.uuidA)])
    #expect(result.pairs.map(\.pairedBy) == [.contentIdentifier])
    #expect(result.findings.map(\.ruleID) == ["identifier-case-mismatch"])
}

@Test func duplicateIdentifiersListEveryFile() throws {
    let files: [MediaFile] = [
        .jpeg("2021/IMG_0001.JPG"), .mov("2021/IMG_0001.MOV"),
        .jpeg("backup/IMG_0001.JPG"), .mov("backup/IMG_0001.MOV"),
        .heic("elsewhere/copy.HEIC"),
    ]
    let result = try lint(files)
    let dups = result.findings.filter { $0.ruleID == "duplicate-identifier" }
    #expect(dups.count == 1)
    #expect(dups.first?.files == files.map(\.path).sorted())
    #expect(dups.first?.message.contains("3 stills and 2 movies") == true)
    // Halves in one folder pair with each other first.
    #expect(result.pairs.contains(PairRecord(still: "backup/IMG_0001.JPG", movie: "backup/IMG_0001.MOV", contentIdentifier: Sample.uuidA, pairedBy: .contentIdentifier)))
    #expect(result.pairs.contains(PairRecord(still: "2021/IMG_0001.JPG", movie: "2021/IMG_0001.MOV", contentIdentifier: Sample.uuidA, pairedBy: .contentIdentifier)))
    // The left-over still has a movie carrying its identifier: no orphan finding.
    #expect(!result.findings.contains { $0.ruleID == "orphan-still" })
}

@Test func livpMembersPairWithEachOther() throws {
    let archive = MediaFile.livp("cloud/IMG_0001.livp", members: [.jpeg("IMG_0001.JPG.jpeg"), .mov("IMG_0001.JPG.mov")])
    // A loose movie with the same identifier must not steal the archive's still.
    let result = try lint([archive, .mov("cloud/IMG_0001.MOV")])
    #expect(result.pairs.contains(PairRecord(still: "cloud/IMG_0001.livp!IMG_0001.JPG.jpeg", movie: "cloud/IMG_0001.livp!IMG_0001.JPG.mov",
                                             contentIdentifier: Sample.uuidA, pairedBy: .archive)))
    #expect(result.pairs.contains(PairRecord(still: nil, movie: "cloud/IMG_0001.MOV", contentIdentifier: Sample.uuidA, pairedBy: .unpaired)))
    #expect(result.files.map(\.path) == ["cloud/IMG_0001.MOV", "cloud/IMG_0001.livp", "cloud/IMG_0001.livp!IMG_0001.JPG.jpeg", "cloud/IMG_0001.livp!IMG_0001.JPG.mov"])
    #expect(result.findings.map(\.ruleID) == ["duplicate-identifier"])
    #expect(result.summary.pairs == 1)
}

@Test func livpMemberWithoutIdentifiersPairsByName() {
    let archive = MediaFile.livp("IMG_7.livp", members: [.jpeg("IMG_7.JPG.jpeg", id: nil), .mov("IMG_7.JPG.mov", id: nil)])
    #expect(Pairing.pair([archive]).map(\.record) == [PairRecord(still: "IMG_7.livp!IMG_7.JPG.jpeg", movie: "IMG_7.livp!IMG_7.JPG.mov",
                                                                 contentIdentifier: nil, pairedBy: .archive)])
}

/// A scan with a bit of everything, for the determinism test.
private let mixedScan: [MediaFile] = [
    .jpeg("a/IMG_0001.JPG", id: Sample.uuidA), .mov("b/IMG_0001.MOV", id: Sample.uuidA),
    .jpeg("a/IMG_0002.JPG", id: Sample.uuidB), .mov("a/IMG_0002.MOV", id: Sample.uuidC),
    .heic("a/IMG_0003.HEIC", id: nil), .mov("a/IMG_0003_HEVC.MOV", id: nil, codec: "hev1"),
    .jpeg("c/IMG_0004.JPG", id: Sample.uuidC), .jpeg("c/IMG_0004 copy.JPG", id: Sample.uuidC),
    .mp4("c/IMG_0769(1).mp4", id: nil), .heic("c/IMG_0769(1).HEIC", id: nil),
    .livp("d/IMG_0005.livp", members: [.jpeg("IMG_0005.JPG.jpeg", id: Sample.uuidB), .mov("IMG_0005.JPG.mov", id: nil)]),
    .unreadable("d/IMG_0006.JPG", format: .jpeg, error: "truncated", location: "APP1", offset: 2),
    .notMedia("d/notes.txt"), .mov("e/orphan.mov", id: "not-a-uuid"), .still("e/IMG_0008.HEIC", format: .jpeg),
]

@Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
func outputIsTheSameInAnyOrder(seed: UInt64) throws {
    let config = Configuration(rules: ["creation-date-skew": RuleSetting(enabled: true), "geometry-mismatch": RuleSetting(enabled: true)])
    let reference = try lint(mixedScan, configuration: config)
    var rng = SplitMix(seed: seed)
    let shuffled = try lint(mixedScan.shuffled(using: &rng), configuration: config)
    #expect(shuffled == reference)
    #expect(Array(reference.findings) == reference.findings.sorted(by: LintEngine.findingOrder))
    #expect(reference.files.map(\.path) == reference.files.map(\.path).sorted())
    #expect(reference.findings.count > 8)
}

/// Files in path order (a library scan's walk order) pair by path ranks, files in any other
/// order by comparing paths: both give the same pairs in the same order, non-ASCII folders,
/// one folder spelt NFC and NFD, and one path a prefix of another's folder included.
@Test(arguments: [1, 2, 3] as [UInt64])
func pairingInPathOrderMatchesAnyOrder(seed: UInt64) {
    let files = mixedScan + [
        .jpeg("caf\u{E9}/IMG_1.JPG", id: Sample.uuidA), .mov("cafe\u{301}/IMG_1.MOV", id: Sample.uuidA),
        .jpeg("caf\u{E9}/IMG_2.JPG", id: nil), .mov("caf\u{E9}/IMG_2.MOV", id: nil), .mov("cafe\u{301}/IMG_2.MOV", id: nil),
        .jpeg("a/b/IMG_0001.JPG", id: Sample.uuidA), .mov("a/b.MOV", id: Sample.uuidB), .jpeg("a-/IMG_9.JPG", id: Sample.uuidC),
    ]
    let inOrder = files.sorted { $0.path != $1.path ? $0.path < $1.path : $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }
    var rng = SplitMix(seed: seed)
    let shuffled = files.shuffled(using: &rng)
    #expect(PathRanks(FileList(inOrder).summaries) != nil && PathRanks(FileList(shuffled).summaries) == nil)
    // Ranks order as paths do: with two paths Swift holds equal (NFC and NFD: in the middle, first
    // or last), stored; without, none stored.
    let nfc = MediaFile.mov("caf\u{E9}/IMG_2.MOV", id: nil), nfd = MediaFile.mov("cafe\u{301}/IMG_2.MOV", id: nil)
    let lists = [inOrder, [nfc, nfd, .mov("d/IMG_3.MOV", id: nil)], [.mov("b/IMG_3.MOV", id: nil), nfc, nfd], [nfc, nfd],
                 inOrder.filter { $0.path != "cafe\u{301}/IMG_2.MOV" }]
    for (n, list) in lists.enumerated() {
        let summaries = FileList(list).summaries
        guard let ranks = PathRanks(summaries) else { Issue.record("no ranks for files in path order"); continue }
        #expect(ranks.storesRanks == (n < lists.count - 1))
        var wrong = 0
        for a in summaries.indices {
            for b in summaries.indices where ranks.compare(Int32(a), Int32(b)).signum() != FileSummary.comparePaths(summaries[a], summaries[b]).signum() {
                wrong += 1
            }
        }
        #expect(wrong == 0)
    }
    let reference = Pairing.pair(shuffled).map(\.record)
    #expect(Pairing.pair(inOrder).map(\.record) == reference)
    #expect(reference.count > 12)
}

@Test func scanContextIndexesFindEveryHalfByIdentifier() {
    let files: [MediaFile] = [
        .jpeg("b/IMG_1.JPG", id: Sample.uuidA), .jpeg("a/IMG_1.JPG", id: Sample.uuidA), .mov("a/IMG_1.MOV", id: Sample.uuidA),
        .mov("x/lone.MOV", id: Sample.uuidC.lowercased()), .jpeg("n/none.JPG", id: nil), .heic("h/IMG_3.HEIC", id: Sample.uuidB),
    ]
    let scan = ScanContext(pairs: Pairing.pair(FileList(files).summaries))
    #expect(scan.stills(withIdentifier: Sample.uuidA) == ["a/IMG_1.JPG", "b/IMG_1.JPG"])
    #expect(scan.movies(withIdentifier: Sample.uuidA) == ["a/IMG_1.MOV"])
    #expect(scan.stills(withIdentifier: Sample.uuidC).isEmpty)
    #expect(scan.movies(withIdentifier: Sample.uuidC.lowercased()) == ["x/lone.MOV"])
    #expect(scan.anyMovie(withIdentifierIgnoringCase: Sample.uuidC))
    #expect(scan.anyMovie(withIdentifierIgnoringCase: Sample.uuidC.lowercased()))
    #expect(!scan.anyStill(withIdentifierIgnoringCase: Sample.uuidC))
    #expect(scan.anyStill(withIdentifierIgnoringCase: Sample.uuidB.lowercased()))
    #expect(scan.identifiers == [Sample.uuidA, Sample.uuidB, Sample.uuidC.lowercased()].sorted())
    #expect(scan.halves.map(\.path) == ["a/IMG_1.JPG", "a/IMG_1.MOV", "b/IMG_1.JPG", "h/IMG_3.HEIC", "n/none.JPG", "x/lone.MOV"])
    #expect(scan.pairedPaths == ["a/IMG_1.JPG", "a/IMG_1.MOV"])
}

/// `repeatedIdentifiers` lists what more than one still or more than one movie carries, as
/// `identifiers` filtered by the counts would, in string order, text identifiers included.
@Test func scanContextListsRepeatedIdentifiers() {
    let files: [MediaFile] = [
        .jpeg("a/IMG_1.JPG", id: Sample.uuidA), .jpeg("b/IMG_1.JPG", id: Sample.uuidA), .mov("a/IMG_1.MOV", id: Sample.uuidA),
        .mov("a/IMG_2.MOV", id: Sample.uuidB), .mov("b/IMG_2.MOV", id: Sample.uuidB), .jpeg("a/IMG_2.JPG", id: Sample.uuidB.lowercased()),
        .jpeg("c/x.JPG", id: "not-a-uuid"), .jpeg("d/x.JPG", id: "not-a-uuid"), .mov("c/y.MOV", id: "other"),
        .jpeg("e/one.JPG", id: Sample.uuidC), .mov("e/one.MOV", id: Sample.uuidC),
    ]
    let scan = ScanContext(pairs: Pairing.pair(FileList(files).summaries))
    let expected = scan.identifiers.filter {
        scan.stills(withIdentifier: $0).count > 1 || scan.movies(withIdentifier: $0).count > 1
    }
    #expect(expected == ["not-a-uuid", Sample.uuidA, Sample.uuidB].sorted())
    #expect(scan.repeatedIdentifiers == expected)
    #expect(scan.identifiers == ["not-a-uuid", "other", Sample.uuidA, Sample.uuidB, Sample.uuidB.lowercased(), Sample.uuidC].sorted())
    #expect(scan.stills(withIdentifier: "not-a-uuid") == ["c/x.JPG", "d/x.JPG"])
}

/// Of identifiers `==` to one another but spelt apart (NFC, NFD), the one shown is the first
/// still's in path order, else the first movie's, whichever list has the repeat.
@Test func repeatedIdentifiersShowTheFirstStillsSpelling() {
    let nfc = "CAF\u{C9}-0001", nfd = "CAFE\u{301}-0001"
    for (stills, movies, shown) in [([nfc], [nfd, nfd], nfc), ([nfd, nfc], [nfc], nfd), ([], [nfd, nfc], nfd)] {
        var files: [MediaFile] = []
        for (i, id) in stills.enumerated() { files.append(.jpeg("s/IMG_\(i).JPG", id: id)) }
        for (i, id) in movies.enumerated() { files.append(.mov("m/IMG_\(i + 5).MOV", id: id)) }
        let scan = ScanContext(pairs: Pairing.pair(FileList(files).summaries))
        #expect(scan.repeatedIdentifiers.map { Array($0.utf8) } == [Array(shown.utf8)], "\(stills) \(movies)")
        #expect(scan.identifiers.map { Array($0.utf8) } == [Array(shown.utf8)])
    }
}

/// An archive's pair and a loose file whose name holds a "!" can sort alike: the archive's pair
/// comes first, as it always did (pairs of archives, then the others, in one stable sort).
@Test func anArchivePairComesFirstOnATieWithALooseFile() {
    let archive = MediaFile(path: "x.livp", kind: .livp, format: .zip, members: [.heic("x.livp!IMG_1.HEIC", id: Sample.uuidA)])
    let loose = MediaFile.heic("x.livp!IMG_1.HEIC", id: Sample.uuidB)
    for files in [[archive, loose], [loose, archive]] {
        let pairs = Pairing.pair(files)
        #expect(pairs.map(\.archive) == ["x.livp", nil])
        #expect(pairs.map { $0.still?.contentIdentifier } == [Sample.uuidA, Sample.uuidB])
    }
}

/// Halves paired by one identifier each keep their own bytes: an identifier in another Unicode
/// normalization (equal to Swift's `==`) pairs, and keeps its spelling in what the scan rules see.
@Test func halvesShareAnIdentifierOnlyByteForByte() {
    let nfc = "CAF\u{00C9}-0001", nfd = "CAFE\u{0301}-0001"
    #expect(nfc == nfd && !nfc.utf8.elementsEqual(nfd.utf8))
    let pairs = Pairing.pair(FileList([.jpeg("a/IMG_1.JPG", id: nfc), .mov("a/IMG_1.MOV", id: nfd)]).summaries)
    #expect(pairs.count == 1 && pairs[0].isComplete)
    #expect(pairs[0].movie?.contentIdentifier.map { Array($0.utf8) } == Array(nfd.utf8))
    #expect(pairs[0].still?.contentIdentifier.map { Array($0.utf8) } == Array(nfc.utf8))
}

/// How a scan path splits into folder and name (an archive member's folder is the archive), and
/// its extension.
@Test func pathsSplitIntoFolderNameAndExtension() {
    let cases: [(path: String, folder: String, name: String, ext: String)] = [
        ("IMG_1.JPG", "", "IMG_1.JPG", "jpg"),
        ("2024/05/IMG_1.HEIC", "2024/05", "IMG_1.HEIC", "heic"),
        ("a/b.livp!IMG_1.JPG.jpeg", "a/b.livp!", "IMG_1.JPG.jpeg", "jpeg"),
        ("a/b.livp!sub/IMG_1.MOV", "a/b.livp!sub", "IMG_1.MOV", "mov"),
        ("a.d/.hidden", "a.d", ".hidden", ""),
        ("a.d/noext", "a.d", "noext", ""),
        ("x/archive.TAR.GZ", "x", "archive.TAR.GZ", "gz"),
    ]
    for c in cases {
        #expect(Pairing.split(c.path) == (c.folder, c.name), "\(c.path)")
        #expect(MediaFile(path: c.path, kind: .still, format: .jpeg).pathExtension == c.ext, "\(c.path)")
    }
}

/// Paths Swift holds equal but spelt in other bytes (an NFD and an NFC `Café.JPG`) are listed in
/// byte order, the walk's, whichever is paired and whatever order they come in.
@Test func canonicallyEqualPathsAreListedInByteOrder() throws {
    let nfd = "Cafe\u{301}.JPG", nfc = "Caf\u{E9}.JPG"
    #expect(nfd == nfc && !nfd.utf8.elementsEqual(nfc.utf8))
    let files: [MediaFile] = [.jpeg(nfd, id: Sample.uuidA), .mov("Cafe\u{301}.MOV", id: Sample.uuidA), .jpeg(nfc, id: nil)]
    let engine = try LintEngine(rules: builtinRules)
    for order in [files, files.reversed(), [files[2], files[0], files[1]]] {
        let listed = engine.run(files: order, root: ".").files.map(\.path).filter { $0.hasSuffix(".JPG") }
        #expect(listed.map { Array($0.utf8) } == [Array(nfd.utf8), Array(nfc.utf8)])
    }
}

/// `name-identifier-conflict` groups halves by their folder's text and export name key, read from
/// the summaries as held: one folder spelt by two folder objects (the second made after eight
/// others pushed the first out of `RecentFolders`), in NFC and NFD (`==` as strings), or as a
/// bare name beside `/` (both split to the empty folder) is one group; two folders are two.
@Test func nameIdentifierConflictGroupsByFolderText() {
    let others = (0..<9).map { MediaFile.jpeg("filler\($0)/x\($0).JPG", id: nil) }
    for (stillFolder, movieFolder, conflict) in [("f/", "f/", true), ("caf\u{E9}/", "cafe\u{301}/", true), ("", "/", true),
                                                 ("f/", "g/", false), ("x.livp!", "x.livp!/", true),
                                                 // `Pairing.split` reads `/\u{301}` and `\u{600}/` as single
                                                 // characters, no slash: the whole path is the name,
                                                 // whose key is lower case.
                                                 ("A/\u{301}", "a/\u{301}", true), ("X\u{600}/", "x\u{600}/", true)] {
        let still = stillFolder + "IMG_1.JPG", movie = movieFolder + "IMG_1.MOV"
        let files = [MediaFile.jpeg(still, id: Sample.uuidA)] + others
            + [.mov(movie, id: Sample.uuidB), .mov("other/clip.MOV", id: Sample.uuidA)]
        let found = NameIdentifierConflictRule().check(scan: ScanContext(pairs: Pairing.pair(FileList(files).summaries)))
        #expect(found.count == (conflict ? 1 : 0), "\(still) and \(movie)")
        #expect(found.allSatisfy { $0.files.sorted() == [still, movie].sorted() }, "\(still) and \(movie)")
    }
}

/// `edited-version` reads each half's stem from its summary's name as held, and a `.livp` member's
/// from its path (`x.livp!IMG_E0001.JPG` splits after the `!`): an edit beside its original is
/// found in a folder, as bare names, and as an archive's members.
@Test func editedVersionFindsEditsByTheirNames() {
    // `Pairing.split` reads `\u{600}/` as one character, no slash: the name is the whole path,
    // whose stem names no edit.
    for (folder, isEdit) in [("a/", true), ("", true), ("x.livp!", true), ("caf\u{E9}/", true), ("\u{600}/", false)] {
        let edit = folder + "IMG_E0001.JPG", original = folder + "IMG_0001.JPG"
        let files: [MediaFile] = [.jpeg(edit, id: Sample.uuidA), .jpeg(original, id: Sample.uuidB), .jpeg(folder + "IMG_0002.JPG", id: Sample.uuidC)]
        let found = EditedVersionRule().check(scan: ScanContext(pairs: Pairing.pair(FileList(files).summaries)))
        #expect(found.map(\.files) == (isEdit ? [[edit, original]] : []), "\(folder)")
    }
    // Two derivatives whose `/` joins the combining mark after it: to `Pairing.split` each is a
    // bare name of its own, so each is a finding of its own.
    let derivatives: [MediaFile] = [.heic("a/\u{301}X_1_201_a.heic", id: Sample.uuidA), .mov("b/\u{301}X_1_201_a.mov", id: Sample.uuidB)]
    let found = EditedVersionRule().check(scan: ScanContext(pairs: Pairing.pair(FileList(derivatives).summaries)))
    #expect(found.map(\.files) == [["a/\u{301}X_1_201_a.heic"], ["b/\u{301}X_1_201_a.mov"]])
}

/// A `.livp` whose still and movie carry different identifiers: its members pair (by name,
/// recorded as `.archive`) and share a name key, so the rule's one record for both halves is
/// looked at, and the conflict is found as when each half had a record of its own.
@Test func nameIdentifierConflictInsideOneArchive() {
    let archive = MediaFile.livp("x.livp", members: [.jpeg("IMG_1.JPG", id: Sample.uuidA), .mov("IMG_1.MOV", id: Sample.uuidB)])
    let scan = ScanContext(pairs: Pairing.pair(FileList([archive]).summaries))
    #expect(scan.pairs.map(\.pairedBy) == [.archive])
    let found = NameIdentifierConflictRule().check(scan: scan)
    #expect(found.map(\.files) == [["x.livp!IMG_1.JPG", "x.livp!IMG_1.MOV"]])
}
