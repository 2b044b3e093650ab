import LiveLintEngine
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

    /// A file summary keeps a `.livp` member's index with its rare fields: 48 bytes a summary in
    /// an array and 112 a pair (56 and 128 with the index inline); each member still knows its
    /// index, and other files -1.
    @Test func fileSummaryKeepsAMembersIndexOutOfLine() {
        #expect(MemoryLayout<FileSummary>.stride == 48)
        #expect(MemoryLayout<PairSummary>.stride == 112)
        let livp = MediaFile(path: "a.livp", kind: .livp, format: .zip,
                             members: [.jpeg("a.livp!IMG_1.JPG"), .mov("a.livp!IMG_1.MOV")])
        let summary = FileSummary(livp, slot: 3)
        #expect(summary.member == -1 && summary.slot == 3)
        #expect(summary.members?.map { $0.member } == [0, 1])
        #expect(summary.members?.allSatisfy { $0.slot == 3 } == true)
        #expect(FileSummary(.jpeg("IMG_1.JPG"), slot: 0).member == -1)
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
