@testable import LiveLintEngine
import LiveModel
import Rules
import Testing

/// The result's per-file and per-pair values keep their rarely set fields out of line (issue 13):
/// each property still reads back what was set, alone or with the others, and equality and
/// hashing are by value, as when the fields were stored inline.
@Suite struct ResultValueTests {
    @Test func scannedFileKeepsWhatIsSet() {
        var file = ScannedFile(path: "a/IMG_1.JPG", kind: .still, format: .jpeg)
        #expect(file.error == nil && file.sidecar == nil)
        file.error = "truncated"
        file.sidecar = "a/IMG_1.JPG.json"
        #expect(file.error == "truncated" && file.sidecar == "a/IMG_1.JPG.json")
        let same = ScannedFile(path: "a/IMG_1.JPG", kind: .still, format: .jpeg, error: "truncated", sidecar: "a/IMG_1.JPG.json")
        #expect(file == same && file.hashValue == same.hashValue)
        file.error = nil
        #expect(file.error == nil && file.sidecar == "a/IMG_1.JPG.json")
        #expect(file != same)
        file.sidecar = nil
        #expect(file == ScannedFile(path: "a/IMG_1.JPG", kind: .still, format: .jpeg))
    }

    /// A file summary keeps a `.livp` member's index with its rare fields: 56 bytes a summary in
    /// an array (64 with the index inline), 136 a pair built from two (pairing keeps indices,
    /// ``PairList``); each member still knows its index, and other files -1.
    @Test func fileSummaryKeepsAMembersIndexOutOfLine() {
        #expect(MemoryLayout<FileSummary>.stride == 56)
        #expect(MemoryLayout<PairSummary>.stride == 136)
        let livp = MediaFile(path: "a.livp", kind: .livp, format: .zip,
                             members: [.jpeg("a.livp!IMG_1.JPG"), .mov("a.livp!IMG_1.MOV")])
        let summary = FileSummary(livp, slot: 3)
        #expect(summary.member == -1 && summary.slot == 3)
        #expect(summary.members?.map { $0.member } == [0, 1])
        #expect(summary.members?.allSatisfy { $0.slot == 3 } == true)
        #expect(FileSummary(.jpeg("IMG_1.JPG"), slot: 0).member == -1)
    }

    /// Paths a summary must give back byte for byte, and order as Swift orders strings: ASCII
    /// neighbours (`.` < `/` < `0`), one folder a prefix of another, bare names, empty parts,
    /// repeated slashes, archive members, non-ASCII text, and one name spelt NFC and NFD.
    static let trickyPaths = [
        "IMG_1.JPG", "a/IMG_1.JPG", "a/IMG_1.MOV", "a/b/IMG_1.JPG", "a/b.JPG", "a/b/c.JPG", "a-/x", "a0/x", "a/",
        "a//b", "/abs/x", "A/IMG_1.JPG", "a/IMG_10.JPG", "a/a_very_long_file_name_of_thirty.JPG",
        "x.livp!IMG_1.JPG", "x.livp!sub/IMG_1.JPG", "caf\u{E9}/IMG_1.JPG", "cafe\u{301}/IMG_1.JPG",
        "caf\u{E9}/\u{E9}t\u{E9}.JPG", "cafe\u{301}/e\u{301}te\u{301}.JPG", "caf/x", "cafz/x", "\u{1F600}/x", "",
    ]

    @Test func fileSummaryGivesItsPathBackByteForByte() {
        var folders = RecentFolders()
        for path in Self.trickyPaths {
            let alone = FileSummary(.jpeg(path), slot: 0)
            let shared = FileSummary(.jpeg(path), slot: 0, folders: &folders)
            #expect(Array(alone.path.utf8) == Array(path.utf8), "\(path)")
            #expect(Array(shared.path.utf8) == Array(path.utf8), "\(path)")
            var moved = alone
            moved.path = "elsewhere/" + path
            #expect(Array(moved.path.utf8) == Array(("elsewhere/" + path).utf8))
        }
    }

    /// Summaries made one after another share a folder byte for byte the same, and only such.
    @Test func summariesShareTheirFolders() {
        var folders = RecentFolders()
        let made = ["a/1.JPG", "a/1.MOV", "a/b/2.JPG", "a/3.JPG", "caf\u{E9}/x", "cafe\u{301}/x", "4.JPG"].map {
            FileSummary(.jpeg($0), slot: 0, folders: &folders)
        }
        #expect(made[0].folder === made[1].folder && made[0].folder === made[3].folder)
        #expect(made[0].folder !== made[2].folder && made[0].folder?.text == "a/" && made[2].folder?.text == "a/b/")
        // Equal as Swift compares strings, but spelt with other bytes: two folders.
        #expect(made[4].folder !== made[5].folder)
        #expect(made[6].folder == nil)
    }

    /// `comparePaths` agrees with `==` and `<` on the paths themselves, for paths in one folder
    /// object, in separate ones, and in none.
    @Test func comparePathsOrdersAsStringsDo() {
        var folders = RecentFolders()
        let shared = Self.trickyPaths.map { FileSummary(.jpeg($0), slot: 0, folders: &folders) }
        let alone = Self.trickyPaths.map { FileSummary(.jpeg($0), slot: 0) }
        for (i, a) in Self.trickyPaths.enumerated() {
            for (j, b) in Self.trickyPaths.enumerated() {
                let expected = a == b ? 0 : a < b ? -1 : 1
                for (x, y) in [(shared[i], shared[j]), (alone[i], alone[j]), (shared[i], alone[j])] {
                    #expect(FileSummary.comparePaths(x, y).signum() == expected, "\(a) vs \(b)")
                }
            }
        }
        // One folder object, names in NFC and NFD: equal, as the strings are.
        var one = RecentFolders()
        let nfc = FileSummary(.jpeg("d/\u{E9}.JPG"), slot: 0, folders: &one), nfd = FileSummary(.jpeg("d/e\u{301}.JPG"), slot: 0, folders: &one)
        #expect(nfc.folder === nfd.folder && FileSummary.comparePaths(nfc, nfd) == 0)
    }

    /// Paths whose names a folder can hold (``FileSummary/holdNames(in:from:)``): long ASCII names
    /// (Pixel's, Samsung's), names of 15 and 16 bytes, names that start with a NUL (an archive
    /// member's may; one not ASCII), long names that are not ASCII (kept as they are), a bare
    /// name, an archive member, and a folder met again after another one.
    static let longNamePaths = [
        "a/PXL_20231105_123456789.jpg", "a/PXL_20231105_123456789.MOV", "a/IMG_1.JPG", "a/123456789012345", "a/1234567890123456",
        "a/\u{0}x.JPG", "a/\u{0}", "a/\u{0}\u{E9}t\u{E9}_and_a_long_tail.JPG", "b/20231105_123456.jpg", "b/\u{424}\u{43E}\u{442}\u{43E}_2023_long.JPG",
        "PXL_bare_name_that_is_long.jpg", "x.livp!IMG_000000000001.JPG.jpeg", "a/IMG_1.MOV", "caf\u{E9}/PXL_20231105_123456789.jpg",
        "a/PXL_20231105_123456789(1).jpg", "a/PXL_20231105_123456789!x.jpg", "a/a_very_long_file_name_of_thirty.JPG",
        "/PXL_at_the_root_20231105.jpg", "a/.hidden_long_name_without_dot", "a/.PXL_20231105_123456789.jpg", "n/\u{301}PXL_long_name_x.jpg",
    ]

    /// Held from the start, from the middle of a folder's run, and twice: every accessor gives
    /// what it gave before, paths order as they did (against held and unheld summaries alike),
    /// and the summaries before the start keep their folders.
    @Test func heldNamesReadBackAsTheyWere() {
        var folders = RecentFolders()
        let plain = Self.longNamePaths.map { FileSummary(.jpeg($0), slot: 0, folders: &folders) }
        for start in [0, 1, 6, 12] {
            var held = plain
            FileSummary.holdNames(in: &held, from: start)
            #expect(held[start...].contains { $0.folder?.names.isEmpty == false }, "from \(start)")
            var again = held
            FileSummary.holdNames(in: &again, from: 0)
            for i in plain.indices {
                let path = Self.longNamePaths[i]
                for summary in [held[i], again[i]] {
                    #expect(Array(summary.path.utf8) == Array(path.utf8), "\(path)")
                    #expect(Array(summary.fileName.utf8) == Array(plain[i].fileName.utf8), "\(path)")
                    #expect(summary.withNameBytes { Array($0) } == Array(plain[i].fileName.utf8), "\(path)")
                    #expect(summary.splitsAsHeld == plain[i].splitsAsHeld && summary.splitName == plain[i].splitName, "\(path)")
                    #expect(summary.nameKey == Pairing.nameKey(plain[i].fileName), "\(path)")
                    // The folder and stem as `Pairing.split` gives them, held or not.
                    #expect(summary.splitFolderKey == Pairing.split(path).folder + "/", "\(path)")
                    #expect(Array(summary.splitStem.utf8) == Array(LibraryFacts.stem(Pairing.split(path).name).utf8), "\(path)")
                    #expect(summary.folder?.text == plain[i].folder?.text)
                }
                if i < start { #expect(held[i].folder === plain[i].folder) }
                // A copy made to hold names is the same folder to comparisons, no path built.
                if plain[i].folder != nil { #expect(PathFolder.sameText(held[i].folder, plain[i].folder) && PathFolder.sameText(again[i].folder, held[i].folder)) }
                for j in plain.indices {
                    let expected = FileSummary.comparePaths(plain[i], plain[j]).signum()
                    #expect(FileSummary.comparePaths(held[i], held[j]).signum() == expected, "\(path) vs \(Self.longNamePaths[j])")
                    #expect(FileSummary.comparePaths(held[i], plain[j]).signum() == expected, "\(path) vs \(Self.longNamePaths[j])")
                }
            }
        }
        #expect(!PathFolder.sameText(plain[0].folder, plain[8].folder) && !PathFolder.sameText(plain[0].folder, nil))
        // A long ASCII name and one that starts with a NUL are held; a short one, one not ASCII,
        // and a bare name are not.
        var held = plain
        FileSummary.holdNames(in: &held, from: 0)
        let names = held.first { $0.folder?.text == "a/" }?.folder?.names ?? []
        #expect(String(decoding: names, as: UTF8.self).contains("PXL_20231105_123456789.jpg"))
        #expect(names.first == 0x50 && names.contains(0))
        #expect(!String(decoding: names, as: UTF8.self).contains("IMG_1.JPG"))
        #expect(held.first { $0.folder?.text == "b/" }.map { String(decoding: $0.folder?.names ?? [], as: UTF8.self) } == "20231105_123456.jpg")
    }

    /// The engine lints summaries whose names their folders hold as it lints them unheld: pairs
    /// by identifier and by long names (ASCII and not), a conflict, a duplicate, an edit.
    static let uuidD = "0D1F8D2A-0B7E-4F4C-9A61-3D2E8C7B9F10", uuidE = "0E1F8D2A-0B7E-4F4C-9A61-3D2E8C7B9F10"

    @Test func heldNamesLintAsTheyWere() throws {
        let files: [MediaFile] = [
            .jpeg("a/PXL_20231105_123456789.jpg", id: Sample.uuidA), .movie("a/PXL_20231105_123456789.MOV", id: Sample.uuidA),
            .jpeg("a/PXL_20231105_000000001.jpg", id: nil), .movie("a/PXL_20231105_000000001.MOV", id: nil),
            .jpeg("a/PXL_20231105_000000002.jpg", id: Sample.uuidB), .movie("a/PXL_20231105_000000002.MOV", id: Sample.uuidC),
            .jpeg("a/PXL_20231105_123456789(1).jpg", id: Sample.uuidA), .jpeg("a/IMG_E0001_long_name_here.JPG", id: nil),
            .jpeg("a/IMG_0001_long_name_here.JPG", id: nil),
            .jpeg("b/\u{424}\u{43E}\u{442}\u{43E}_2023_long.JPG", id: nil), .movie("b/\u{424}\u{43E}\u{442}\u{43E}_2023_long.MOV", id: nil),
            .jpeg("b/20231105_123456.jpg", id: nil), .movie("b/20231105_123456.mp4", format: .mp4, id: nil),
            // Same name, each half tied by its identifier to a half elsewhere.
            .jpeg("a/PXL_20231105_000000003.jpg", id: Self.uuidD), .movie("c/PXL_20231105_000000004.MOV", id: Self.uuidD),
            .movie("a/PXL_20231105_000000003.MOV", id: Self.uuidE), .jpeg("c/PXL_20231105_000000005.jpg", id: Self.uuidE),
        ]
        let list = FileList(files)
        var held = list.summaries
        FileSummary.holdNames(in: &held, from: 0)
        #expect(held.contains { $0.folder?.names.isEmpty == false })
        let engine = try LintEngine(rules: builtinRules)
        let reference = engine.run(summaries: list.summaries, store: list, root: "scan")
        #expect(engine.run(summaries: held, store: list, root: "scan") == reference)
        #expect(Set(reference.findings.map(\.ruleID)).isSuperset(of: ["name-identifier-conflict", "duplicate-identifier", "edited-version", "identifier-mismatch"]))
        #expect(reference.summary.pairs >= 4)
    }

    /// Identifiers a summary holds as bits or as text, and must give back byte for byte.
    static let trickyIdentifiers = [
        "5C1F8D2A-0B7E-4F4C-9A61-3D2E8C7B9F10", "5c1f8d2a-0b7e-4f4c-9a61-3d2e8c7b9f10", "5c1F8D2A-0B7E-4F4C-9A61-3D2E8C7B9F10",
        "5C1F8D2A-0B7E-4F4C-9A61-3D2E8C7B9F11", "00000000-0000-0000-0000-000000000000", "12345678-1234-1234-1234-123456789012",
        "FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF", "ffffffff-ffff-ffff-ffff-ffffffffffff", "5C1F8D2A0B7E4F4C9A613D2E8C7B9F10",
        "{5C1F8D2A-0B7E-4F4C-9A61-3D2E8C7B9F10}", "5C1F8D2A-0B7E-4F4C-9A61-3D2E8C7B9F1", "5C1F8D2A-0B7E-4F4C-9A61-3D2E8C7B9F100",
        "5C1F8D2A-0B7E-4F4C-9A61-3D2E8C7B9F1G", "5C1F8D2A+0B7E-4F4C-9A61-3D2E8C7B9F10", "not-a-uuid", "", "CAF\u{C9}-0001",
        "CAFE\u{301}-0001", "caf\u{E9}-0001", "\u{3B1}\u{345}\u{301}", "\u{3B1}\u{301}\u{345}",
    ]

    @Test func identifierKeysGiveTheTextBackAndOrderConsistently() {
        for id in Self.trickyIdentifiers {
            let key = IdentifierKey(id)
            #expect(key.string.map { Array($0.utf8) } == Array(id.utf8), "\(id)")
            var summary = FileSummary(.jpeg("a/IMG_1.JPG", id: id), slot: 0)
            #expect(summary.contentIdentifier.map { Array($0.utf8) } == Array(id.utf8) && summary.hasContentIdentifier)
            summary.contentIdentifier = nil
            #expect(summary.contentIdentifier == nil && !summary.hasContentIdentifier)
            summary.contentIdentifier = id
            #expect(summary.contentIdentifier.map { Array($0.utf8) } == Array(id.utf8))
        }
        #expect(IdentifierKey(nil).string == nil)
        #expect(FileSummary(.jpeg("IMG_1.JPG", id: nil), slot: 0).contentIdentifier == nil)
        let keys = Self.trickyIdentifiers.map { IdentifierKey($0) }
        let summaries = Self.trickyIdentifiers.map { FileSummary(.jpeg("IMG_1.JPG", id: $0), slot: 0) }
        for (i, a) in Self.trickyIdentifiers.enumerated() {
            for (j, b) in Self.trickyIdentifiers.enumerated() {
                let order = IdentifierKey.compare(keys[i], keys[j])
                #expect((order == 0) == (a == b), "\(a) vs \(b)")
                #expect(order.signum() == -IdentifierKey.compare(keys[j], keys[i]).signum())
                #expect(FileSummary.compareIdentifiers(summaries[i], summaries[j]).signum() == order.signum())
                #expect(FileSummary.compareIdentifier(summaries[i], with: keys[j]).signum() == order.signum())
                #expect(IdentifierKey.differIgnoringCase(keys[i], keys[j]) == (a != b && a.uppercased() != b.uppercased()), "\(a) vs \(b)")
                if keys[i].form == .upperUUID, keys[j].form == .upperUUID {
                    #expect(order.signum() == (a == b ? 0 : a < b ? -1 : 1), "one case orders as its text: \(a) vs \(b)")
                }
            }
        }
        // A total order: sorting by it leaves every neighbour in order, and transitivity holds.
        let sorted = keys.sorted { IdentifierKey.compare($0, $1) < 0 }
        for (x, y) in zip(sorted, sorted.dropFirst()) { #expect(IdentifierKey.compare(x, y) <= 0) }
        for a in keys { for b in keys { for c in keys where IdentifierKey.compare(a, b) < 0 && IdentifierKey.compare(b, c) < 0 {
            #expect(IdentifierKey.compare(a, c) < 0)
        } } }
        #expect(keys.map(\.form) == [.upperUUID, .lowerUUID, .text, .upperUUID, .upperUUID, .upperUUID, .upperUUID, .lowerUUID]
            + Array(repeating: .text, count: 13))
        // Equal as strings, yet upper-cased to other scalars: no difference ignoring case.
        let (x, y) = ("\u{3B1}\u{345}\u{301}", "\u{3B1}\u{301}\u{345}")
        #expect(x == y && x.uppercased() != y.uppercased() && !IdentifierKey.differIgnoringCase(IdentifierKey(x), IdentifierKey(y)))
    }

    @Test func pairRecordKeepsWhatIsSet() {
        var record = PairRecord(still: "IMG_1.JPG", movie: "IMG_1.MOV", contentIdentifier: "X", pairedBy: .contentIdentifier)
        #expect(record.consumers.isEmpty && record.sidecar == nil && record.media == nil)
        let verdict = ConsumerVerdict(.live, "same identifier")
        record.consumers = ["immich": verdict]
        record.sidecar = "IMG_1.JPG.json"
        #expect(record.consumers == ["immich": verdict] && record.sidecar == "IMG_1.JPG.json")
        let same = PairRecord(still: "IMG_1.JPG", movie: "IMG_1.MOV", contentIdentifier: "X", pairedBy: .contentIdentifier,
                              consumers: ["immich": verdict], sidecar: "IMG_1.JPG.json")
        #expect(record == same && record.hashValue == same.hashValue)
        record.consumers = [:]
        #expect(record.consumers.isEmpty && record.sidecar == "IMG_1.JPG.json" && record != same)
        record.sidecar = nil
        #expect(record == PairRecord(still: "IMG_1.JPG", movie: "IMG_1.MOV", contentIdentifier: "X", pairedBy: .contentIdentifier))
    }
}
