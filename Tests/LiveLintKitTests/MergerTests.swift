import LiveLintEngine
import LiveLintKit
import Testing

/// Folding the JSON Lines of several lint jobs, as a library.
@Suite struct MergerTests {
    @Test func addsUpSummariesAndFindsIdentifiersRepeatedAcrossJobs() throws {
        var merger = Merger()
        let id = "11111111-2222-4333-8444-555555555555"
        try merger.add("""
            {"files":3,"pairs":1,"type":"summary"}
            {"id":"\(id)","kind":"still","path":"a/IMG_1.JPG","shard":"1/1","type":"identifier"}
            """, source: "a.jsonl")
        try merger.add("""
            {"files":2,"pairs":1,"type":"summary"}
            {"id":"\(id)","kind":"still","path":"b/IMG_1.JPG","shard":"1/1","type":"identifier"}
            """, source: "b.jsonl")
        let result = merger.result()
        #expect(result.summary.files == 5 && result.summary.pairs == 2)
        #expect(result.findings.map(\.ruleID) == ["duplicate-identifier"])
        #expect(result.findings.first?.files == ["a/IMG_1.JPG", "b/IMG_1.JPG"])
    }

    @Test func refusesWhatIsNotLivelintJSONLines() {
        var merger = Merger()
        #expect(throws: MergeError.self) { try merger.add("not json\n", source: "x.txt") }
    }
}
