import Foundation
import Testing

/// `--help` is written for people and is part of the interface: golden files catch accidental
/// changes. Rewrite them with `LIVELINT_UPDATE_GOLDEN=1 swift test --filter HelpGoldenTests`.
@Suite(.enabled(if: CLI.binary != nil, "needs the built livelint"))
struct HelpGoldenTests {
    static let golden = CLI.repoRoot.appendingPathComponent("Tests/LiveLintCLITests/Golden")

    @Test(arguments: [
        (["--help"], "help.txt"),
        (["lint", "--help"], "help-lint.txt"),
        (["dump", "--help"], "help-dump.txt"),
        (["rules", "--help"], "help-rules.txt"),
        (["convert", "--help"], "help-convert.txt"),
    ])
    func help(_ args: [String], _ name: String) throws {
        let result = try CLI.run(args)
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        let url = Self.golden.appendingPathComponent(name)
        if ProcessInfo.processInfo.environment["LIVELINT_UPDATE_GOLDEN"] != nil {
            try result.stdout.write(to: url, atomically: true, encoding: .utf8)
            return
        }
        let expected = try String(contentsOf: url, encoding: .utf8)
        #expect(result.stdout == expected, "help for \(args) changed; rerun with LIVELINT_UPDATE_GOLDEN=1 if intended")
    }

    @Test func versionPrints() throws {
        let result = try CLI.run(["--version"])
        #expect(result.status == 0)
        #expect(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ".").count == 3)
    }

    @Test func rulesListsEveryContractRule() throws {
        let result = try CLI.run(["rules"])
        #expect(result.status == 0)
        for id in ["still-missing-identifier", "movie-missing-identifier", "identifier-mismatch",
                   "identifier-case-mismatch", "identifier-not-uuid", "duplicate-identifier", "orphan-still",
                   "orphan-movie", "missing-still-image-time", "still-image-time-out-of-range",
                   "still-image-time-type", "video-codec", "video-pixel-format", "extension-mismatch",
                   "movie-not-quicktime", "unreadable-file",
                   "motion-photo-missing-video", "motion-photo-offset-mismatch", "motion-photo-time-out-of-range"] {
            #expect(result.stdout.contains(id), "\(id) missing from `livelint rules`")
        }
        let one = try CLI.run(["rules", "identifier-mismatch"])
        #expect(one.status == 0)
        #expect(one.stdout.contains("Flagged:"))
        #expect(one.stdout.contains("Not flagged:"))
    }
}
