import AppleMakerNote
import Foundation
import ISOBMFF
import LiveModel
import LiveReaders

/// Why a Live Photo half could not be written. Every case leaves the files on disk untouched.
public enum LivePhotoWriteError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A valid input we do not write (a HEIC without a makernote, a fragmented movie, a PNG).
    case unsupported(String)
    /// The input is damaged where the edit needs to read it.
    case malformed(String)
    /// The new file was written but did not verify; it was deleted.
    case verification(String)
    /// The operating system refused (a missing file, a permission, a full disk).
    case io(String)

    public var description: String {
        switch self {
        case .unsupported(let s): return "not supported: \(s)"
        case .malformed(let s): return "cannot edit: \(s)"
        case .verification(let s): return "verification failed, nothing written: \(s)"
        case .io(let s): return s
        }
    }
}

/// The pure edits: bytes in, bytes out. Nothing here touches the disk.
public enum LivePhotoEdits {
    /// How a still was (or would be) given its identifier.
    public enum StillMethod: String, Sendable {
        /// A new Apple makernote (the still had none, or another maker's): fresh APP1 or exiv2.
        case createdMakerNote = "created an Apple makernote"
        /// The existing Apple makernote got tag 0x0011 added or replaced (exiv2 rewrites the Exif).
        case rekeyedMakerNote = "set tag 0x0011 in the existing Apple makernote"
        /// HEIC: the existing 0x0011 overwritten in place, same length.
        case heicInPlace = "overwrote tag 0x0011 in place (HEIC)"
        /// HEIC: the Exif item re-encoded with the new makernote and appended in a new `mdat`;
        /// only its `iloc` extent fields changed in place (see ``HEICExifRewriter``).
        case heicRewritten = "rewrote the Exif item with tag 0x0011 (HEIC)"
    }

    /// A still with its new identifier.
    public struct StillResult: Sendable {
        public var bytes: [UInt8]
        public var method: StillMethod
        /// HEIC edits: the only bytes of the original length allowed to differ (the Exif item
        /// in place, or the `iloc` fields of a rewrite).
        public var changedRange: Range<Int>?
        /// HEIC rewrites: bytes appended after the original file (0 otherwise).
        public var appendedBytes: Int = 0
    }

    /// Sets the Apple makernote ContentIdentifier (0x0011) of a JPEG or HEIC still.
    ///
    /// JPEG: an existing Apple makernote keeps every other tag (0x0011 replaced in place when it
    /// fits, else the makernote is re-laid-out); without one a minimal makernote is created (and
    /// Make set to `Apple`, which readers use to pick the makernote format). HEIC: in place only
    /// (see ``HEICMakerNoteEditor``) when 0x0011 exists and is long enough, else the Exif item is
    /// rewritten (see ``HEICExifRewriter``). Other formats are unsupported.
    public static func settingStillIdentifier(_ identifier: String, in bytes: [UInt8], format: ContainerFormat) throws(LivePhotoWriteError) -> StillResult {
        switch format {
        case .jpeg:
            var method = StillMethod.createdMakerNote
            var makerNote: [UInt8]
            do {
                if let existing = StillReader.makerNoteBytes(bytes: bytes), AppleMakerNoteDecoder.isAppleMakerNote(existing) {
                    makerNote = try AppleMakerNoteEncoder.replacingContentIdentifier(in: existing, with: identifier)
                    method = .rekeyedMakerNote
                } else {
                    makerNote = try AppleMakerNoteEncoder.makerNote(contentIdentifier: identifier)
                }
            } catch {
                throw .malformed("the still's makernote: \(error)")
            }
            do {
                let out = try JPEGExifWriter.withAppleMakerNote(jpeg: bytes, makerNote: makerNote)
                return StillResult(bytes: out, method: method, changedRange: nil)
            } catch {
                switch error {
                case .notJPEG, .tooLarge: throw .malformed(error.description)
                case .invalidValue: throw .unsupported(error.description)
                case .exiv2(let issue): throw issue.category == .unsupported ? .unsupported(issue.description) : .malformed(issue.description)
                }
            }
        case .heic, .heif:
            do {
                let edit = try HEICMakerNoteEditor.replacingContentIdentifier(in: bytes, with: identifier)
                return StillResult(bytes: edit.bytes, method: .heicInPlace, changedRange: edit.exifRange)
            } catch {
                guard case .unsupported = error else { throw error }
            }
            let rewrite = try HEICExifRewriter.settingContentIdentifier(identifier, in: bytes)
            return StillResult(bytes: rewrite.bytes, method: .heicRewritten, changedRange: rewrite.ilocFields,
                               appendedBytes: rewrite.appendedBytes)
        default:
            throw .unsupported("stills in \(format.rawValue.uppercased()) are not written (JPEG and HEIC are)")
        }
    }

    /// Applies `edit` to the movie in `source` (see `QuickTimeWriter.apply`) and, with
    /// `quickTime`, rebrands an ISO MP4 `ftyp` as QuickTime (`qt  `) without moving a byte after it.
    public static func editingMovie(_ edit: LivePhotoMovieEdit, source: some ByteSource, quickTime: Bool) throws(LivePhotoWriteError) -> [UInt8] {
        var out: [UInt8]
        do { out = try QuickTimeWriter.apply(edit, to: source) } catch {
            throw error.category == .unsupported ? .unsupported(error.description) : .malformed(error.description)
        }
        if quickTime { try rebrandAsQuickTime(&out) }
        return out
    }

    /// Rewrites a leading `ftyp` whose major brand is not `qt  ` as `ftyp qt  ` (minor 0x20050300,
    /// compatible `qt  `), padded to its old size with more `qt  ` brands or a `free` box, so every
    /// later byte and every chunk offset stays where it was.
    static func rebrandAsQuickTime(_ bytes: inout [UInt8]) throws(LivePhotoWriteError) {
        guard bytes.count >= 16, Array(bytes[4..<8]) == Array("ftyp".utf8) else { return }  // no ftyp: QuickTime already
        guard Array(bytes[8..<12]) != Array("qt  ".utf8) else { return }
        let size = Int(UInt32(bytes[0]) << 24 | UInt32(bytes[1]) << 16 | UInt32(bytes[2]) << 8 | UInt32(bytes[3]))
        guard size >= 16, size <= bytes.count, size <= 4096 else { throw .malformed("'ftyp' size \(size)") }
        let qt = Array("qt  ".utf8)
        // 16 bytes of header + major + minor, then k compatible brands, then a free box (≥ 8) or nothing.
        var brands = 0
        var gap = size - 16
        if gap >= 4 { brands = 1; gap -= 4 }
        while gap > 0 && gap < 8 {
            guard gap >= 4 else { throw .unsupported("an 'ftyp' of \(size) bytes cannot be rebranded in place") }
            brands += 1
            gap -= 4
        }
        var ftyp: [UInt8] = [UInt8(size >> 24), UInt8((size >> 16) & 0xFF), UInt8((size >> 8) & 0xFF), UInt8(size & 0xFF)]
        ftyp += Array("ftyp".utf8) + qt + [0x20, 0x05, 0x03, 0x00]
        for _ in 0..<brands { ftyp += qt }
        if gap > 0 {
            ftyp += [UInt8(gap >> 24), UInt8((gap >> 16) & 0xFF), UInt8((gap >> 8) & 0xFF), UInt8(gap & 0xFF)] + Array("free".utf8)
            ftyp += [UInt8](repeating: 0, count: gap - 8)
        }
        bytes.replaceSubrange(0..<size, with: ftyp)
    }
}

/// Checks a freshly written half against what it must be, using livelint's own readers.
public enum LivePhotoVerifier {
    /// The still at `path` must carry `identifier` in makernote tag 0x0011; a JPEG's image data
    /// (SOS onwards) must hash as `original`'s; a HEIC must be `original` plus `appendedBytes`
    /// (a rewrite's new `mdat`) and differ from `original` only inside `changedRange`.
    public static func verifyStill(at path: String, identifier: String, original: [UInt8], format: ContainerFormat,
                                   changedRange: Range<Int>?, appendedBytes: Int = 0) throws(LivePhotoWriteError) {
        guard let written = FileManager.default.contents(atPath: path).map({ [UInt8]($0) }) else {
            throw .verification("cannot read back \(path)")
        }
        let read = StillReader.read(bytes: written, options: StillReadOptions(allProperties: false))
        if let e = read.error { throw .verification("the new still does not read: \(e)") }
        let found = read.still?.contentIdentifier
        guard found == identifier else {
            throw .verification("the new still carries identifier \(found.map { "'\($0)'" } ?? "none"), not '\(identifier)'")
        }
        switch format {
        case .jpeg:
            guard let before = MediaDigest.jpegImageData(original), let after = MediaDigest.jpegImageData(written), before == after else {
                throw .verification("the JPEG image data changed")
            }
        default:
            guard written.count == original.count + appendedBytes else { throw .verification("the HEIC changed size") }
            let allowed = changedRange ?? 0..<0
            guard allowed.upperBound <= original.count else { throw .verification("the HEIC's changed range lies past its end") }
            let outside = [0..<allowed.lowerBound, allowed.upperBound..<original.count]
            for range in outside where !range.isEmpty && !sameBytes(written, original, range) {
                throw .verification("the HEIC changed outside its Exif item (bytes \(range))")
            }
        }
    }

    static func sameBytes(_ a: [UInt8], _ b: [UInt8], _ range: Range<Int>) -> Bool {
        a.withUnsafeBytes { pa in b.withUnsafeBytes { pb in
            memcmp(pa.baseAddress! + range.lowerBound, pb.baseAddress! + range.lowerBound, range.count) == 0
        } }
    }

    /// The movie at `path` must read cleanly, carry `identifier`, have a still-image-time inside
    /// the movie when `expectStillImageTime`, use `videoFormat` when given, and hold every track of
    /// `original` (except `replacedTrackIDs`, old still-image-time tracks) with the same sample bytes.
    public static func verifyMovie(at path: String, identifier: String, original: [TrackDigest], replacedTrackIDs: Set<UInt32>,
                                   expectStillImageTime: Bool, videoFormat: String?) throws(LivePhotoWriteError) {
        let read = MovieReader.read(path: path, options: MovieReadOptions(samples: .stillImageTimeOnly, maxSamplesPerTrack: 16))
        if let e = read.error { throw .verification("the new movie does not read: \(e)") }
        guard let movie = read.movie else { throw .verification("the new movie does not read") }
        guard movie.contentIdentifier == identifier else {
            throw .verification("the new movie carries identifier \(movie.contentIdentifier.map { "'\($0)'" } ?? "none"), not '\(identifier)'")
        }
        if expectStillImageTime {
            guard let sit = movie.stillImageTime, sit.isInsideMovie, sit.dataType == WellKnownDataType.int8, sit.payloadSize == 1 else {
                throw .verification("the new movie's still-image-time is missing or outside the movie")
            }
        }
        if let videoFormat, movie.video?.codec != videoFormat {
            throw .verification("the new movie's video sample entry is '\(movie.video?.codec ?? "none")', not '\(videoFormat)'")
        }
        let after: [TrackDigest]
        do { after = try MediaDigest.tracks(of: FileByteSource(path: path)) } catch {
            throw .verification("cannot hash the new movie's samples: \(error)")
        }
        for track in original where !replacedTrackIDs.contains(track.trackID) {
            guard let now = after.first(where: { $0.trackID == track.trackID }) else {
                throw .verification("track \(track.trackID) is gone")
            }
            guard now.sha256 == track.sha256, now.sampleCount == track.sampleCount else {
                throw .verification("track \(track.trackID)'s sample bytes changed (\(track) → \(now))")
            }
        }
    }
}
