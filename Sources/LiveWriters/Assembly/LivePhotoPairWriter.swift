import Foundation
import ISOBMFF
import LiveModel
import LiveReaders

/// One pair to write: where the halves come from, where they go, and what changes.
public struct PairWriteRequest: Sendable {
    public var stillSource: String
    public var movieSource: String
    public var stillTarget: String
    public var movieTarget: String
    /// The identifier both halves must carry afterwards.
    public var identifier: String
    /// Set `identifier` in the still (otherwise the still is left as it is).
    public var editStill: Bool
    /// What to change in the movie; nil leaves it as it is.
    public var movieEdit: LivePhotoMovieEdit?
    /// Rebrand an MP4 `ftyp` as QuickTime (used by `make`).
    public var quickTime: Bool
    /// Also write a half that does not change to its target, as a verified byte copy (used when the
    /// targets are new files, so that the new pair is complete). Ignored when source == target.
    public var copyUnchanged: Bool
    /// Give each written file the permission bits and modification time of its source (`--in-place`).
    public var preserveAttributes: Bool
    /// Allow replacing an existing target (only `--in-place` does).
    public var overwrite: Bool

    public init(stillSource: String, movieSource: String, stillTarget: String, movieTarget: String, identifier: String,
                editStill: Bool, movieEdit: LivePhotoMovieEdit?, quickTime: Bool = false, copyUnchanged: Bool = false,
                preserveAttributes: Bool = false, overwrite: Bool = false) {
        self.stillSource = stillSource
        self.movieSource = movieSource
        self.stillTarget = stillTarget
        self.movieTarget = movieTarget
        self.identifier = identifier
        self.editStill = editStill
        self.movieEdit = movieEdit
        self.quickTime = quickTime
        self.copyUnchanged = copyUnchanged
        self.preserveAttributes = preserveAttributes
        self.overwrite = overwrite
    }
}

/// What a pair write did.
public struct PairWriteResult: Sendable {
    /// The files now in place, in the order they were renamed.
    public var written: [String]
    /// How the still got its identifier, when it was edited.
    public var stillMethod: LivePhotoEdits.StillMethod?
    /// The movie's tracks, hashed before the write and proven equal after it.
    public var trackDigests: [TrackDigest]
}

/// Writes a Live Photo pair safely: both new halves are built in memory, staged beside their
/// targets, verified with livelint's readers (identifiers equal, still-image-time inside the movie,
/// every original track's sample bytes unchanged by SHA-256, a JPEG's image data unchanged), and
/// only then renamed into place, still first. If anything fails before the renames, no target
/// changes and the temporary files are deleted.
public enum LivePhotoPairWriter {
    /// Largest still read into memory.
    public static let maxStillBytes = 512 << 20

    public static func write(_ request: PairWriteRequest) throws(LivePhotoWriteError) -> PairWriteResult {
        let r = request
        let fm = FileManager.default
        for target in [r.stillTarget, r.movieTarget] where !r.overwrite && fm.fileExists(atPath: target) {
            let isSource = target == r.stillSource || target == r.movieSource
            if !isSource || r.copyUnchanged {
                throw .io("\(target) already exists; not overwriting it")
            }
        }

        // The still.
        let stillBytes = try readStill(r.stillSource)
        let stillFormat = Sniffer.sniff(Array(stillBytes.prefix(Sniffer.headerLength)))
        var newStill: LivePhotoEdits.StillResult?
        if r.editStill {
            newStill = try LivePhotoEdits.settingStillIdentifier(r.identifier, in: stillBytes, format: stillFormat)
        }

        // The movie.
        let source: FileByteSource
        do { source = try FileByteSource(path: r.movieSource) } catch { throw .io(error.message) }
        let originalRead = MovieReader.read(source, options: MovieReadOptions(samples: .stillImageTimeOnly, maxSamplesPerTrack: 16))
        if let e = originalRead.error { throw .malformed("the movie does not read cleanly: \(e)") }
        guard let originalMovie = originalRead.movie else { throw .malformed("not a movie") }
        let digests: [TrackDigest]
        do { digests = try MediaDigest.tracks(of: source) } catch { throw .malformed("cannot hash the movie's samples: \(error)") }
        var newMovie: [UInt8]?
        var replaced: Set<UInt32> = []
        if let edit = r.movieEdit {
            newMovie = try LivePhotoEdits.editingMovie(edit, source: source, quickTime: r.quickTime)
            if edit.stillImageTime != nil {
                replaced = Set(originalMovie.tracks.filter { $0.metadata?.key(named: MovieInfo.stillImageTimeKey) != nil }.map(\.id))
            }
        }
        let expectStillImageTime = r.movieEdit?.stillImageTime != nil || originalMovie.stillImageTime?.isInsideMovie == true
        let videoFormat = r.movieEdit?.videoSampleEntryFormat

        // Stage.
        var staged: [(StagedFile, () throws(LivePhotoWriteError) -> Void)] = []
        func discardAll() { for (file, _) in staged { file.discard() } }
        do throws(LivePhotoWriteError) {
            let stillOut = newStill?.bytes ?? ((r.copyUnchanged && r.stillTarget != r.stillSource) ? stillBytes : nil)
            if let stillOut {
                let file = try stage(stillOut, for: r.stillTarget)
                let changed = newStill?.changedRange
                let appended = newStill?.appendedBytes ?? 0
                staged.append((file, { () throws(LivePhotoWriteError) in
                    try LivePhotoVerifier.verifyStill(at: file.temporaryPath, identifier: r.identifier, original: stillBytes,
                                                      format: stillFormat, changedRange: changed, appendedBytes: appended)
                }))
            }
            var movieOut = newMovie
            if movieOut == nil, r.copyUnchanged, r.movieTarget != r.movieSource {
                do { movieOut = try source.read(at: 0, count: Int(source.size)) } catch { throw .io(error.message) }
            }
            if let movieOut {
                let file = try stage(movieOut, for: r.movieTarget)
                staged.append((file, { () throws(LivePhotoWriteError) in
                    try LivePhotoVerifier.verifyMovie(at: file.temporaryPath, identifier: r.identifier, original: digests,
                                                      replacedTrackIDs: replaced, expectStillImageTime: expectStillImageTime,
                                                      videoFormat: videoFormat)
                }))
            }
            // Verify everything before anything moves.
            for (file, check) in staged {
                do { try check() } catch {
                    if case .verification(let why) = error { throw LivePhotoWriteError.verification("\(file.target): \(why)") }
                    throw error
                }
                FaultInjection.checkpoint()
            }
        } catch {
            discardAll()
            throw error
        }

        var written: [String] = []
        for (index, (file, _)) in staged.enumerated() {
            let original = file.target == r.stillTarget ? r.stillSource : r.movieSource
            do { try file.commit(preservingAttributesOf: r.preserveAttributes ? original : nil) } catch {
                for (later, _) in staged[(index + 1)...] { later.discard() }
                throw .io(error.description)
            }
            written.append(file.target)
        }
        return PairWriteResult(written: written, stillMethod: newStill?.method, trackDigests: digests)
    }

    static func readStill(_ path: String) throws(LivePhotoWriteError) -> [UInt8] {
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        if let size = attributes?[.size] as? Int, size > maxStillBytes {
            throw .unsupported("\(path) is larger than \(maxStillBytes >> 20) MiB")
        }
        guard let data = FileManager.default.contents(atPath: path) else { throw .io("cannot read \(path)") }
        return [UInt8](data)
    }

    static func stage(_ bytes: [UInt8], for target: String) throws(LivePhotoWriteError) -> StagedFile {
        do { return try AtomicWriter.stage(bytes, for: target) } catch { throw .io(error.description) }
    }
}
