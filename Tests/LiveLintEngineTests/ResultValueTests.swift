@testable import LiveLintEngine
import LiveModel
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
