import ArgumentParser
import LiveLintKit

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

            Each repair is printed with what it changes in the photo apps' verdicts (`lint \
            --consumers`), e.g. "verdicts: Immich: split → live; iPhone / iCloud: split → live".

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

            A file or folder that cannot be read (a folder that cannot be listed, a dangling link) is \
            reported on stderr: the pairs in it were not looked at.

            Exit codes: 0 every broken pair was repaired (or would be, with --dry-run), 1 some pair \
            could not be repaired or some path could not be read, 2 bad usage or a path that does not \
            exist.
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
            let destination: RepairOptions.Destination = inPlace ? .inPlace : output.map { .folder($0) } ?? .besideOriginals
            let repair = try PairRepair(RepairOptions(paths: paths, destination: destination, dryRun: dryRun,
                                                      includeHidden: includeHidden))
            // The scan's progress on a terminal, as lint draws it, wiped before the first pair's outcome.
            let progress = !quiet && Terminal.stderrIsTTY ? ProgressLine(showTotals: false) : nil
            let summary = try await repair.run(report: print, progress: progress.map { line in { line.handle($0) } })
            let verb = dryRun ? "would repair" : "repaired"
            var line = "livelint: \(verb) \(summary.repaired) pair\(summary.repaired == 1 ? "" : "s"), \(summary.alreadyFine) already fine"
            if summary.failed > 0 { line += ", \(summary.failed) could not be repaired" }
            if summary.skippedInArchives > 0 { line += ", \(summary.skippedInArchives) inside archives skipped" }
            if summary.unread > 0 { line += ", \(summary.unread) path\(summary.unread == 1 ? "" : "s") could not be read" }
            Terminal.err(line + "\n")
            return summary.allRepaired ? LiveLintExit.clean : LiveLintExit.findings
        }
    }

    /// One pair's outcome: the plan and what was written on stdout (unless `--quiet`), problems on stderr.
    func print(_ event: RepairEvent) {
        switch event {
        case let .unread(path, message):
            Terminal.err("livelint: \(path): \(message); any pairs in it were not repaired\n")
        case let .insideArchive(pair, archive):
            Terminal.err("livelint: \(pair.label): inside \(archive ?? "an archive"); unpack it first (livelint unpack)\n")
        case let .unrepairable(pair, blockers):
            Terminal.err("livelint: cannot repair \(pair.header):\n" + blockers.map { "  - \($0)\n" }.joined())
        case let .planned(pair, reason, actions, stillTarget, movieTarget):
            var text = (dryRun ? "would repair " : "repairing ") + pair.header + "\n"
            if let reason { text += "  identifier: \(reason)\n" }
            text += actions.map { "  \($0)\n" }.joined()
            if !inPlace { text += "  → \(stillTarget)\n  → \(movieTarget)\n" }
            if !quiet { Terminal.out(text) }
        case let .verdicts(_, changes):
            guard !quiet, !changes.isEmpty else { return }
            Terminal.out("  verdicts: " + changes.map(\.description).joined(separator: "; ") + "\n")
        case let .folderFailed(pair, message):
            Terminal.err("livelint: \(pair.label): cannot create the output folder: \(message)\n")
        case let .written(_, files, stillMethod, verifiedTracks):
            if !quiet {
                let how = stillMethod.map { " (still: \($0))" } ?? ""
                Terminal.out("  wrote \(files.joined(separator: ", "))\(how); \(verifiedTracks) tracks verified unchanged\n")
            }
        case let .failed(pair, message):
            Terminal.err("livelint: cannot repair \(pair.label): \(message)\n")
        }
    }
}
