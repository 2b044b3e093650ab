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
