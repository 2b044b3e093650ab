import ArgumentParser
import Foundation
import LiveModel
import LiveReaders
import LiveWriters

struct MakeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "make",
        abstract: "Assemble a Live Photo from any JPEG or HEIC still and any QuickTime or MP4 movie.",
        discussion: """
            Writes a new pair into DIR, named after the still: DIR/<still name> and DIR/<still stem>.MOV. \
            Both halves get one content identifier (a fresh upper-case UUID, or --identifier): in the \
            still's Apple makernote (tag 0x0011; the makernote is created when the JPEG has none) and in \
            the movie's moov/meta key com.apple.quicktime.content.identifier. The movie gets a \
            still-image-time track (int8 -1) placed by an edit list at --still-time (default: the middle \
            of the movie) and linked to the video with tref 'cdsc'; it is written as QuickTime (ftyp \
            'qt  '), HEVC tagged 'hev1' is retagged 'hvc1', and its media samples are copied unchanged.

            Nothing is re-encoded and the inputs are never modified. Each file is written to a \
            temporary file, synced, read back and verified before it is renamed into place; existing \
            files in DIR are never overwritten. A HEIC's identifier is overwritten in place when it \
            has one; otherwise its Exif item is re-encoded with the makernote and appended in a new \
            'mdat', and only that item's 'iloc' entry changes (the image items are untouched).

            Examples:
              livelint make photo.jpg clip.mp4 --output live/
              livelint make IMG_0001.JPG IMG_0001.MOV --output out/ --still-time 1.5
              livelint make still.jpg movie.mov --output out/ --identifier 6E1F7C2A-3B4D-4E5F-8A9B-0C1D2E3F4A5B

            Exit codes: 0 the pair was written, 2 bad usage, unreadable or unsupported input, or a \
            write that failed (nothing is left behind).
            """
    )

    @Argument(help: ArgumentHelp("The still (JPEG or HEIC).", valueName: "still"))
    var still: String

    @Argument(help: ArgumentHelp("The movie (QuickTime or MP4).", valueName: "movie"))
    var movie: String

    @Option(name: [.short, .long], help: ArgumentHelp("Folder to write the pair into (created when missing).", valueName: "dir"))
    var output: String

    @Option(name: .long, help: ArgumentHelp("Content identifier to use (a UUID; default: a fresh upper-case one).", valueName: "uuid"))
    var identifier: String?

    @Option(name: .long, help: ArgumentHelp("Where the still sits in the movie, in seconds (default: the middle).", valueName: "seconds"))
    var stillTime: Double?

    func validate() throws {
        if let identifier, !ContentIdentifier.isUUID(identifier) {
            throw ValidationError("--identifier must be a UUID (8-4-4-4-12 hex digits), got '\(identifier)'.")
        }
        if let stillTime, !stillTime.isFinite || stillTime < 0 {
            throw ValidationError("--still-time must be a number of seconds, 0 or more.")
        }
    }

    func run() async throws {
        try await reportingUserErrors {
            for path in [still, movie] where !FileManager.default.fileExists(atPath: path) {
                throw UserError("no such file: \(path)")
            }
            let stillFile = MediaInspector.inspect(path: still, options: .lint)
            let movieFile = MediaInspector.inspect(path: movie, options: .lint)
            guard stillFile.kind == .still, [.jpeg, .heic, .heif].contains(stillFile.format) else {
                throw UserError("\(still) is not a JPEG or HEIC still (it reads as \(stillFile.format.rawValue))")
            }
            guard movieFile.kind == .movie, let info = movieFile.movie else {
                throw UserError("\(movie) is not a movie" + (movieFile.error.map { ": \($0)" } ?? ""))
            }
            if let e = stillFile.error { throw UserError("\(still) does not read: \(e)") }
            if let e = movieFile.error { throw UserError("\(movie) does not read: \(e)") }
            let duration = info.duration
            guard duration > 0 else { throw UserError("\(movie) has no duration to place the still in") }
            let at = stillTime ?? duration / 2
            guard at < duration else {
                throw UserError("--still-time \(MetadataValue.format(at)) s is past the end of the movie (\(MetadataValue.format(duration)) s)")
            }
            let id = identifier ?? UUID().uuidString

            var isDir: ObjCBool = false
            if FileManager.default.fileExists(atPath: output, isDirectory: &isDir), !isDir.boolValue {
                throw UserError("--output \(output) is a file, not a folder")
            }
            do { try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true) } catch {
                throw UserError("cannot create \(output): \(error.localizedDescription)")
            }
            let stillName = (still as NSString).lastPathComponent
            var stem = (stillName as NSString).deletingPathExtension
            if stem.isEmpty { stem = stillName }
            let ext = (stillName as NSString).pathExtension
            let stillExt = stillFile.format.extensions.contains(ext.lowercased()) ? ext : (stillFile.format == .jpeg ? "JPG" : "HEIC")
            let stillTarget = (output as NSString).appendingPathComponent(stem + "." + stillExt)
            let movieTarget = (output as NSString).appendingPathComponent(stem + ".MOV")

            let edit = LivePhotoMovieEdit(contentIdentifier: id, stillImageTime: at,
                                          videoSampleEntryFormat: info.video?.codec == "hev1" ? "hvc1" : nil)
            let request = PairWriteRequest(stillSource: still, movieSource: movie, stillTarget: stillTarget, movieTarget: movieTarget,
                                           identifier: id, editStill: stillFile.still?.contentIdentifier != id, movieEdit: edit,
                                           quickTime: true, copyUnchanged: true)
            do {
                let result = try LivePhotoPairWriter.write(request)
                var text = "made \(stillTarget) + \(movieTarget)\n"
                text += "  identifier \(id)\n"
                text += "  still-image-time at \(MetadataValue.format((at * 1000).rounded() / 1000)) s of \(MetadataValue.format((duration * 1000).rounded() / 1000)) s\n"
                if let method = result.stillMethod { text += "  still: \(method.rawValue)\n" }
                if edit.videoSampleEntryFormat != nil { text += "  movie: retagged 'hev1' as 'hvc1'\n" }
                text += "  \(result.trackDigests.count) tracks verified unchanged (SHA-256 of every sample)\n"
                Terminal.out(text)
            } catch {
                throw UserError("cannot make the pair: \(error)")
            }
            return LiveLintExit.clean
        }
    }
}
