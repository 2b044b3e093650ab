import ArgumentParser
import Foundation
import LiveLintEngine
import LiveModel
import LiveReaders
import LiveWriters
import Rules

struct FixCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fix",
        abstract: "Repair Live Photo pairs: identifiers, the still-image-time track, the hev1 tag.",
        discussion: """
            Pairs the files under PATH as `lint` does and repairs each pair that is broken in a way \
            livelint can mend without re-encoding anything:
              - a missing or mismatched content identifier (still makernote 0x0011, movie key);
              - a missing or unusable still-image-time track (one is added at the middle of the movie);
              - HEVC video tagged 'hev1', retagged 'hvc1' (the samples are not touched).

            Which identifier wins on a mismatch is printed with the reason: an upper-case UUID beats a \
            lower-case one, which beats anything that is not a UUID; on a tie the still's wins (photo \
            libraries key the pair on the still, and the movie is the half rewritten byte-exactly).

            Where the repair goes:
              default      beside the originals, as a complete new pair: IMG_0001.JPG + IMG_0001.MOV \
            become IMG_0001-fixed.JPG + IMG_0001-fixed.MOV (the half that needed nothing is copied);
              --output DIR the repaired pair under DIR, same names and sub-folders as under PATH;
              --in-place   the halves that change are replaced, keeping their permissions and \
            modification time.
            Nothing is ever overwritten except with --in-place. Every file is written to a temporary \
            file, synced, read back and verified (identifiers equal, still-image-time inside the movie, \
            every track's sample bytes unchanged by SHA-256) before it is renamed into place.

            A HEIC's identifier is overwritten in place when it has one; otherwise its Exif item is \
            re-encoded with the makernote and appended in a new 'mdat', and only that item's 'iloc' \
            entry changes. A HEIC with no Exif item at all is reported and left alone.

            Examples:
              livelint fix --dry-run ~/Pictures/export     Show what would be repaired.
              livelint fix IMG_0001.JPG IMG_0001.MOV       Write IMG_0001-fixed.JPG and IMG_0001-fixed.MOV.
              livelint fix --output repaired/ Photos/      Write the repaired pairs under repaired/.
              livelint fix --in-place Photos/              Repair the files themselves.

            Exit codes: 0 every broken pair was repaired (or would be, with --dry-run), 1 some pair \
            could not be repaired, 2 bad usage or a path that does not exist.
            """
    )

    @Argument(help: ArgumentHelp("Folders or files holding the pairs to repair.", valueName: "path"))
    var paths: [String]

    @Flag(name: .long, help: "Print the plan; write nothing.")
    var dryRun = false

    @Flag(name: .long, help: "Replace the original files (keeping permissions and modification time).")
    var inPlace = false

    @Option(name: [.short, .long], help: ArgumentHelp("Write the repaired pairs under this folder instead of beside the originals.", valueName: "dir"))
    var output: String?

    @Flag(name: .long, help: "Also read files and folders whose names start with a dot.")
    var includeHidden = false

    @Flag(name: [.short, .long], help: "Print only problems and the summary.")
    var quiet = false

    func validate() throws {
        if paths.isEmpty { throw ValidationError("Name at least one folder or file to repair.") }
        if inPlace && output != nil { throw ValidationError("--in-place and --output cannot be used together.") }
    }

    func run() async throws {
        try await reportingUserErrors {
            for path in paths where !FileManager.default.fileExists(atPath: path) {
                throw UserError("no such file or folder: \(path)")
            }
            if let output {
                var isDir: ObjCBool = false
                if FileManager.default.fileExists(atPath: output, isDirectory: &isDir), !isDir.boolValue {
                    throw UserError("--output \(output) is a file, not a folder")
                }
            }
            let root = LibraryWalker.root(for: paths)
            let (entries, _) = LibraryWalker(includeHidden: includeHidden).files(in: paths)
            // Skip our own temporary files from an interrupted run.
            let wanted = entries.filter { !(($0.path as NSString).lastPathComponent.hasPrefix(".") && $0.path.contains(".livelint-")) }
            let realPath = Dictionary(wanted.map { ($0.displayPath, $0.path) }, uniquingKeysWith: { a, _ in a })
            let engine: LintEngine
            do { engine = try LintEngine(rules: builtinRules) } catch { throw UserError(String(describing: error)) }
            let files = await LibraryReader.read(wanted, options: .lint, jobs: LibraryReader.defaultJobs,
                                                 metadataKeys: engine.metadataKeys,
                                                 progress: Progress(total: wanted.count, enabled: false))
            let findings = engine.run(files: files, root: root).findings

            var fixed = 0, failed = 0, clean = 0, skipped = 0
            for pair in Pairing.pair(files) {
                guard let still = pair.still, let movie = pair.movie else { continue }
                let label = "\(still.path) + \(movie.path)"
                // The repairs the enabled rules attach to what they find on this pair: fix mends
                // exactly what lint reports as repairable, nothing it detects on its own.
                let plan = RepairPlanner.plan(still: still, movie: movie, repairs: engine.repairs(for: pair))
                if pair.archive != nil {
                    if !plan.isClean {
                        skipped += 1
                        Terminal.err("livelint: \(label): inside \(pair.archive ?? "an archive"); unpack it first (livelint unpack)\n")
                    }
                    continue
                }
                if plan.isClean {
                    clean += 1
                    continue
                }
                let ruleIDs = Set(findings.filter { $0.files.contains(still.path) || $0.files.contains(movie.path) }.map(\.ruleID)).sorted()
                let header = "\(label)" + (ruleIDs.isEmpty ? "" : " [\(ruleIDs.joined(separator: ", "))]")
                if !plan.blockers.isEmpty {
                    failed += 1
                    Terminal.err("livelint: cannot repair \(header):\n" + plan.blockers.map { "  - \($0)\n" }.joined())
                    continue
                }
                var text = (dryRun ? "would repair " : "repairing ") + header + "\n"
                if let reason = plan.reason { text += "  identifier: \(reason)\n" }
                text += plan.actions.map { "  \($0)\n" }.joined()
                guard let stillSource = realPath[still.path], let movieSource = realPath[movie.path] else { continue }
                let stillTarget = target(for: stillSource, display: still.path)
                let movieTarget = target(for: movieSource, display: movie.path)
                if !inPlace { text += "  → \(stillTarget)\n  → \(movieTarget)\n" }
                if !quiet { Terminal.out(text) }
                if dryRun {
                    fixed += 1
                    continue
                }
                do {
                    for folder in Set([stillTarget, movieTarget].map { ($0 as NSString).deletingLastPathComponent }) where !folder.isEmpty {
                        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                    }
                } catch {
                    failed += 1
                    Terminal.err("livelint: \(label): cannot create the output folder: \(error.localizedDescription)\n")
                    continue
                }
                let request = PairWriteRequest(
                    stillSource: stillSource, movieSource: movieSource, stillTarget: stillTarget, movieTarget: movieTarget,
                    identifier: plan.identifier, editStill: plan.editStill, movieEdit: plan.movieEdit,
                    copyUnchanged: !inPlace, preserveAttributes: inPlace, overwrite: inPlace)
                do {
                    let result = try LivePhotoPairWriter.write(request)
                    fixed += 1
                    if !quiet {
                        let how = result.stillMethod.map { " (still: \($0.rawValue))" } ?? ""
                        Terminal.out("  wrote \(result.written.joined(separator: ", "))\(how); \(result.trackDigests.count) tracks verified unchanged\n")
                    }
                } catch {
                    failed += 1
                    Terminal.err("livelint: cannot repair \(label): \(error)\n")
                }
            }
            let verb = dryRun ? "would repair" : "repaired"
            var summary = "livelint: \(verb) \(fixed) pair\(fixed == 1 ? "" : "s"), \(clean) already fine"
            if failed > 0 { summary += ", \(failed) could not be repaired" }
            if skipped > 0 { summary += ", \(skipped) inside archives skipped" }
            Terminal.err(summary + "\n")
            return failed > 0 || skipped > 0 ? LiveLintExit.findings : LiveLintExit.clean
        }
    }

    /// Where the repaired copy of `source` goes (see the help text).
    func target(for source: String, display: String) -> String {
        if inPlace { return source }
        let name = (source as NSString).lastPathComponent
        if let output {
            let relative = display.hasPrefix("/") || display.split(separator: "/").contains("..") ? name : display
            return (output as NSString).appendingPathComponent(relative)
        }
        let folder = (source as NSString).deletingLastPathComponent
        let ext = (name as NSString).pathExtension
        let stem = (name as NSString).deletingPathExtension
        let fixedName = ext.isEmpty ? stem + "-fixed" : stem + "-fixed." + ext
        return folder.isEmpty ? fixedName : (folder as NSString).appendingPathComponent(fixedName)
    }
}
