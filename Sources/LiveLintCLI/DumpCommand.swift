import ArgumentParser
import Foundation
import LiveLintKit
import LiveModel
import LiveReaders
import Reporters

struct DumpCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dump",
        abstract: "Show everything a still, a movie or a .livp carries.",
        discussion: """
            Pairing facts come first (content identifier, still-image-time), then the Apple makernote \
            tags, Exif/XMP/IPTC values, QuickTime keys, tracks with their edit lists, timed metadata \
            samples, and the video and audio streams. Files are recognised by their bytes, not their \
            names. Nothing is ever written to the files read.

            Examples:
              livelint dump IMG_0001.HEIC IMG_0001.MOV
              livelint dump --format json IMG_0001.MOV | jq '.files[0].stillImageTime'
              livelint dump --all-samples IMG_0001.MOV   Every timed-metadata sample, not a summary.

            Exit codes: 0 when every file was read, 2 when any could not be (its error is in the report).
            """
    )

    @Option(name: .long, help: "Output format: text (for people) or json (one document, schemaVersion 1).")
    var format: DumpFormat = .text

    @Flag(name: .long, help: "List every timed-metadata sample instead of a summary of long runs.")
    var allSamples = false

    @Flag(name: .long, help: "Skip libmediainfo's descriptive stream properties (faster).")
    var noStreamProperties = false

    @Option(name: .long, help: "Colour in text output: auto (on a terminal), always or never.")
    var color: ColorChoice = .auto

    @Option(name: [.short, .long], help: ArgumentHelp("Write the report to this file instead of standard output.", valueName: "file"))
    var output: String?

    @Argument(help: ArgumentHelp("Files to read (JPEG, HEIC, MOV, MP4, .livp, …).", valueName: "file"))
    var files: [String]

    func validate() throws {
        if files.isEmpty { throw ValidationError("Name at least one file to dump.") }
    }

    func run() async throws {
        try await reportingUserErrors {
            var options = InspectOptions.dump
            options.streamProperties = !noStreamProperties
            let results = files.map { path in
                var file = MediaInspector.inspect(path: path, options: options)
                if file.kind != .unknown { file.sidecar = TakeoutSidecars.find(forMediaAt: path) }
                return file
            }
            let colored = format == .text && output == nil && Terminal.useColor(color, fd: STDOUT_FILENO)
            let text = DumpReporters.render(results, format: format,
                                            options: DumpOptions(allSamples: allSamples, color: colored))
            if let output {
                do { try ReportWriter.write(text, to: output) } catch {
                    throw UserError("cannot write the report to \(output): \(error.localizedDescription)")
                }
            } else {
                Terminal.out(text.hasSuffix("\n") ? text : text + "\n")
            }
            let unreadable = results.contains { $0.error != nil || ($0.members ?? []).contains { $0.error != nil } }
            return unreadable ? LiveLintExit.failure : LiveLintExit.clean
        }
    }
}
