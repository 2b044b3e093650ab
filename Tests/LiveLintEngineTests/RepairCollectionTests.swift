import LiveLintEngine
import LiveModel
import Rules
import Testing

/// `LintEngine.repairs(for:)`: what `livelint fix` applies is what the enabled rules attach.
struct RepairCollectionTests {
    static func pair(_ still: MediaFile, _ movie: MediaFile) -> LivePair {
        LivePair(still: still, movie: movie, pairedBy: .name)
    }

    @Test func aCleanPairAsksForNothing() throws {
        let engine = try LintEngine(rules: builtinRules)
        #expect(engine.repairs(for: Self.pair(.jpeg(), .mov())).isEmpty)
    }

    @Test func everyBrokenThingAsksForItsRepairOnce() throws {
        let engine = try LintEngine(rules: builtinRules)
        // Neither half has an identifier: two rules attach the same repair, collected once.
        let repairs = engine.repairs(for: Self.pair(.jpeg(id: nil), .mov(id: nil, stillImageTime: nil, codec: "hev1")))
        #expect(repairs.count == 3)
        #expect(Set(repairs) == [.setIdentifier(still: nil, movie: nil), .addStillImageTime(at: 1.5),
                                 .retagVideoSampleEntry(from: "hev1", to: "hvc1")])
    }

    @Test func aRuleSwitchedOffGetsNothingRepaired() throws {
        let off = Configuration(rules: ["identifier-mismatch": RuleSetting(enabled: false),
                                        "video-codec": RuleSetting(enabled: false)])
        let engine = try LintEngine(rules: builtinRules, configuration: off)
        let broken = Self.pair(.jpeg(id: Sample.uuidA), .mov(id: Sample.uuidB, codec: "hev1"))
        #expect(engine.repairs(for: broken).isEmpty)
        #expect(try LintEngine(rules: builtinRules).repairs(for: broken).count == 2)
    }
}
