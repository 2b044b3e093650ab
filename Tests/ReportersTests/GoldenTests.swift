import Foundation
import LiveLintEngine
import LiveModel
@testable import Reporters
import Testing

/// Every format, rendered from the fixtures, against `Golden/` (rewrite: `LIVELINT_UPDATE_GOLDEN=1`).
struct GoldenTests {
    @Test(arguments: LintReportFormat.allCases)
    func lintFormat(_ format: LintReportFormat) throws {
        let out = LintReporters.render(Fixtures.lintResult, format: format, rules: Fixtures.rules,
                                       toolVersion: Fixtures.toolVersion, failOn: .warning, options: Fixtures.options)
        try Support.expectGolden(out, "lint.\(format.rawValue)")
        #expect(out.hasSuffix("\n"))
        // Rendering is a pure function: same input, same bytes.
        #expect(out == LintReporters.render(Fixtures.lintResult, format: format, rules: Fixtures.rules,
                                            toolVersion: Fixtures.toolVersion, failOn: .warning, options: Fixtures.options))
    }

    @Test(arguments: DumpFormat.allCases)
    func dumpFormat(_ format: DumpFormat) throws {
        let out = DumpReporters.render(Fixtures.dumpFiles, format: format)
        try Support.expectGolden(out, "dump.\(format.rawValue)")
        #expect(out == DumpReporters.render(Fixtures.dumpFiles, format: format))
    }

    @Test func lintTextVerbose() throws {
        let out = LintReporters.render(Fixtures.lintResult, format: .text, toolVersion: Fixtures.toolVersion,
                                       options: LintReportOptions(verbose: true))
        try Support.expectGolden(out, "lint-verbose.text")
    }

    @Test func dumpTextAllSamples() throws {
        let out = DumpReporters.render([Fixtures.trainMovie], format: .text, options: DumpOptions(allSamples: true))
        try Support.expectGolden(out, "dump-all-samples.text")
    }
}
