// livelint-fixtures: builds Fixtures/pair and Fixtures/library from the ffmpeg-made media in
// Fixtures/base, writing every piece of Live Photo metadata with the project's own writers.
//
//   swift run livelint-fixtures            rewrite Fixtures/pair and Fixtures/library
//   swift run livelint-fixtures --check    exit 1 when the committed fixtures differ from a fresh build
//
// The output is deterministic (fixed identifiers, fixed archive dates), so --check is exact.
import Foundation

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.contains("--help") || arguments.contains("-h") {
    print("""
        usage: livelint-fixtures [--check] [--fixtures DIR]

        Builds Fixtures/pair and Fixtures/library from Fixtures/base with livelint's own writers.
          --check          build into a temporary folder and compare; exit 1 when anything differs
          --fixtures DIR   the Fixtures folder (default: ./Fixtures)
        """)
    exit(0)
}
var fixturesPath = "Fixtures"
if let i = arguments.firstIndex(of: "--fixtures"), i + 1 < arguments.count { fixturesPath = arguments[i + 1] }
let fixtures = URL(fileURLWithPath: fixturesPath)
let check = arguments.contains("--check")

do {
    let builder = try FixtureBuilder(base: fixtures.appendingPathComponent("base"))
    if check {
        // exit() runs no `defer`, so the folder is removed before any exit is reached.
        let tmp = FileManager.default.temporaryDirectory.appendingPathComponent("livelint-fixtures-\(UUID().uuidString)")
        let stale = try { () throws -> [String] in
            defer { try? FileManager.default.removeItem(at: tmp) }
            try builder.build(into: tmp)
            var stale: [String] = []
            for sub in FixtureBuilder.outputFolders {
                stale += try FixtureBuilder.compare(tmp.appendingPathComponent(sub), fixtures.appendingPathComponent(sub), prefix: sub)
            }
            return stale
        }()
        if stale.isEmpty {
            print("fixtures are up to date")
            exit(0)
        }
        FileHandle.standardError.write(Data(("stale fixtures (run `swift run livelint-fixtures`):\n" + stale.map { "  \($0)\n" }.joined()).utf8))
        exit(1)
    } else {
        for sub in FixtureBuilder.outputFolders {
            try? FileManager.default.removeItem(at: fixtures.appendingPathComponent(sub))
        }
        try builder.build(into: fixtures)
        print("wrote \(FixtureBuilder.outputFolders.joined(separator: ", ")) under \(fixtures.path)")
    }
} catch {
    FileHandle.standardError.write(Data("livelint-fixtures: \(error)\n".utf8))
    exit(2)
}
