import ArgumentParser
import Foundation
import LiveModel
import LiveReaders
import LiveWriters

struct ConvertCommand: AsyncParsableCommand {
    enum Target: String, ExpressibleByArgument, CaseIterable {
        case motionPhoto = "motion-photo"
        case livePhoto = "live-photo"
    }

    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Turn a Live Photo into an Android motion photo, or a motion photo into a Live Photo.",
        discussion: """
            --to motion-photo STILL MOVIE --output FILE: writes one file. A JPEG still gets Google \
            Motion Photo 1.0 XMP (GCamera:MotionPhoto 1, MotionPhotoPresentationTimestampUs = the \
            movie's still-image-time, and a Container:Directory whose MotionPhoto item's Item:Length \
            is the video's size) and the movie appended after its image data; a HEIC gets the same XMP \
            in its XMP item(s) and the movie in a top-level 'mpvd' box after its other boxes. The movie is re-muxed as MP4 (ftyp 'mp42', \
            compatible 'isom'): every other box and every sample stays as it was.

            --to live-photo MOTIONPHOTO --output DIR: writes DIR/<stem>.JPG (or .HEIC) and \
            DIR/<stem>.MOV. The still loses its trailer and its motion-photo tags and gets an Apple \
            makernote carrying a new identifier (or --identifier); the embedded video is re-muxed as \
            QuickTime (ftyp 'qt  ') with the identifier key and a still-image-time track at the \
            presentation timestamp (the middle of the video when there is none, or when it lies \
            outside the video).

            Nothing is decoded or re-encoded: every sample's bytes are hashed before and after. Each \
            file goes to a temporary file, is synced, read back with livelint's readers and verified \
            before it is renamed into place; existing files are never overwritten and the inputs \
            never change.

            Examples:
              livelint convert IMG_0001.JPG IMG_0001.MOV --to motion-photo --output PXL_0001.MP.jpg
              livelint convert IMG_0001.HEIC IMG_0001.MOV --to motion-photo --output IMG_0001.MP.HEIC
              livelint convert PXL_0001.MP.jpg --to live-photo --output live/

            Exit codes: 0 written, 2 bad usage, unreadable or unsupported input, or a write that \
            failed (nothing is left behind).
            """
    )

    @Argument(help: ArgumentHelp("The still and the movie of a Live Photo (--to motion-photo), or one motion photo (--to live-photo).",
                                 valueName: "file"))
    var files: [String]

    @Option(name: .long, help: ArgumentHelp("What to make: motion-photo or live-photo.", valueName: "kind"))
    var to: Target

    @Option(name: [.short, .long], help: ArgumentHelp("The motion photo to write (--to motion-photo), or the folder for the pair (--to live-photo).",
                                                      valueName: "path"))
    var output: String

    @Option(name: .long, help: ArgumentHelp("Content identifier for the Live Photo (a UUID; default: a fresh upper-case one).", valueName: "uuid"))
    var identifier: String?

    func validate() throws {
        switch to {
        case .motionPhoto:
            guard files.count == 2 else { throw ValidationError("--to motion-photo takes a still and a movie, got \(files.count) file(s).") }
            if identifier != nil { throw ValidationError("--identifier applies to --to live-photo only.") }
        case .livePhoto:
            guard files.count == 1 else { throw ValidationError("--to live-photo takes one motion photo, got \(files.count) file(s).") }
        }
        if let identifier, !ContentIdentifier.isUUID(identifier) {
            throw ValidationError("--identifier must be a UUID (8-4-4-4-12 hex digits), got '\(identifier)'.")
        }
    }

    func run() async throws {
        try await reportingUserErrors {
            for path in files where !FileManager.default.fileExists(atPath: path) {
                throw UserError("no such file: \(path)")
            }
            do {
                switch to {
                case .motionPhoto:
                    let result = try MotionPhotoConverter.toMotionPhoto(still: files[0], movie: files[1], output: output)
                    var text = "made \(output)\n"
                    if let us = result.presentationTimestampUs { text += "  presentation timestamp \(us) µs\n" }
                    text += "  \(result.trackDigests.count) tracks verified unchanged (SHA-256 of every sample)\n"
                    text += result.notes.map { "  note: \($0)\n" }.joined()
                    Terminal.out(text)
                case .livePhoto:
                    var isDir: ObjCBool = false
                    if FileManager.default.fileExists(atPath: output, isDirectory: &isDir), !isDir.boolValue {
                        throw UserError("--output \(output) is a file, not a folder")
                    }
                    let result = try MotionPhotoConverter.toLivePhoto(motionPhoto: files[0], directory: output, identifier: identifier)
                    var text = "made " + result.written.joined(separator: " + ") + "\n"
                    if let id = result.identifier { text += "  identifier \(id)\n" }
                    if let t = result.stillImageTime { text += "  still-image-time at \(MetadataValue.format((t * 1000).rounded() / 1000)) s\n" }
                    text += "  \(result.trackDigests.count) tracks verified unchanged (SHA-256 of every sample)\n"
                    text += result.notes.map { "  note: \($0)\n" }.joined()
                    Terminal.out(text)
                }
            } catch let error as LivePhotoWriteError {
                throw UserError("cannot convert: \(error)")
            }
            return LiveLintExit.clean
        }
    }
}
