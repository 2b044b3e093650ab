import Foundation
import LiveLintEngine
import LiveModel
import LiveReaders
import Rules
import Testing

/// `lint` on the corpus motion photos, each alone, as a library scan reads them: the findings
/// follow from what `manifest.json` says of each file.
@Suite(.enabled(if: CLI.corpusPresent, "needs ../shared/corpus"))
struct MotionPhotoLintTests {
    static func findings(_ id: String) throws -> [String] {
        let entry = try #require(CorpusEntry.load().first { $0.id == id })
        let engine = try LintEngine(rules: builtinRules)
        let file = MediaInspector.inspect(path: entry.url.path, displayPath: entry.file, options: .lint)
        return engine.run(files: [file.slimmedForLint(keeping: engine.metadataKeys)], root: ".").findings.map(\.ruleID).sorted()
    }

    /// MP1: "XMP lengths ... not the real video size" while mpvd holds it; its timestamp (2,990,844 µs)
    /// lies past the 2.9867 s video. A complete unit: no orphan-still.
    @Test func samsungHEIC() throws {
        #expect(try Self.findings("MP1") == ["motion-photo-offset-mismatch", "motion-photo-time-out-of-range"])
    }

    /// MP2: "MicroVideoOffset=1024 does not point at a video".
    @Test func brokenMicroVideo() throws {
        #expect(try Self.findings("MP2") == ["motion-photo-missing-video"])
    }

    /// N6: an iPhone still (0x0011, no movie beside it) with motion XMP and no video: both findings.
    @Test func iPhoneStillWithMotionTags() throws {
        #expect(try Self.findings("N6") == ["motion-photo-missing-video", "orphan-still"])
    }
}
