import Foundation
import ISOBMFF
import LiveModel
import LiveReaders

/// What a conversion wrote.
public struct MotionPhotoConversion: Sendable {
    /// The files now in place.
    public var written: [String]
    /// The movie's tracks, hashed before and proven equal after.
    public var trackDigests: [TrackDigest]
    /// The presentation timestamp written (µs, -1 = unspecified) into a motion photo, or the
    /// still-image-time (seconds) given to a Live Photo movie.
    public var presentationTimestampUs: Int64?
    public var stillImageTime: Double?
    /// The identifier both Live Photo halves carry.
    public var identifier: String?
    /// Things the user should know (a timestamp outside the video replaced by the middle, XMP left in a HEIC).
    public var notes: [String]
}

/// Live Photo ↔ Android motion photo, without decoding or re-encoding a frame.
///
/// - ``toMotionPhoto(still:movie:output:)``: a JPEG gets Motion Photo 1.0 XMP (`GCamera:MotionPhoto`,
///   the presentation timestamp = the movie's still-image-time, a `Container:Directory` whose video
///   item's `Item:Length` is the MP4's size) and the movie appended, re-muxed as MP4
///   (``MovieRemux``); a HEIC gets the MP4 in a top-level `mpvd` box after its other boxes.
/// - ``toLivePhoto(motionPhoto:directory:identifier:)``: the still without its trailer and motion
///   tags, with an Apple makernote carrying a new identifier; the embedded video re-muxed as a
///   QuickTime `.MOV` with the identifier key and a still-image-time track at the presentation
///   timestamp (or the middle of the video when there is none).
///
/// Every sample's bytes are unchanged: the movie's tracks are hashed before and after
/// (``MediaDigest``), the JPEG's image data too, and everything is written through
/// ``AtomicWriter`` (temporary file, sync, read back with livelint's readers, verify, rename).
public enum MotionPhotoConverter {
    // MARK: - Live Photo → motion photo

    public static func toMotionPhoto(still stillPath: String, movie moviePath: String, output: String) throws(LivePhotoWriteError) -> MotionPhotoConversion {
        guard !FileManager.default.fileExists(atPath: output) else { throw .io("\(output) already exists; not overwriting it") }
        let still = try LivePhotoPairWriter.readStill(stillPath)
        let format = Sniffer.sniff(Array(still.prefix(Sniffer.headerLength)))
        let source: FileByteSource
        do { source = try FileByteSource(path: moviePath) } catch { throw .io(error.message) }
        let read = MovieReader.read(source, options: MovieReadOptions(samples: .stillImageTimeOnly, maxSamplesPerTrack: 16))
        if let e = read.error { throw .malformed("the movie does not read cleanly: \(e)") }
        guard let movie = read.movie else { throw .malformed("\(moviePath) is not a movie") }
        let digests: [TrackDigest]
        let mp4: [UInt8]
        do {
            digests = try MediaDigest.tracks(of: source)
            mp4 = try MovieRemux.rebrand(source, as: .mp4)
        } catch { throw .malformed("cannot re-mux the movie: \(error)") }
        var notes: [String] = []
        let timestampUs: Int64
        if let sit = movie.stillImageTime, sit.isInsideMovie, let t = sit.presentationTime {
            timestampUs = Int64((t * 1_000_000).rounded())
        } else {
            timestampUs = -1
            notes.append("the movie has no still-image-time inside it: the presentation timestamp is -1 (unspecified)")
        }
        // A still that is a motion photo already loses its old trailer first.
        let existing = motionPhoto(in: still, format: format)
        var out: [UInt8]
        let videoOffset: Int
        var primaryEnd: Int?
        var heicXMP = false
        var keptStill = still
        switch format {
        case .jpeg:
            // Everything before an old video stays (an Ultra HDR gain map follows the primary image),
            // and so do the directory's other items.
            var primary = still
            let oldEnd = existing?.container == .sef ? existing?.primaryImageEnd : (existing?.videoOffset ?? existing?.primaryImageEnd)
            if let end = oldEnd, end < still.count { primary = Array(still[..<Int(end)]) }
            keptStill = primary
            let properties = StillReader.read(bytes: still, options: StillReadOptions(allProperties: false)).still?.properties ?? []
            var items = MotionPhotoReader.claims(in: properties)?.items.filter { $0.semantic != DirectoryItem.motionPhotoSemantic } ?? []
            if items.first?.semantic != DirectoryItem.primarySemantic || existing?.container == .sef {
                items = [DirectoryItem(mime: "image/jpeg", semantic: DirectoryItem.primarySemantic, length: 0, padding: 0)]
            }
            items.append(DirectoryItem(mime: "video/mp4", semantic: DirectoryItem.motionPhotoSemantic, length: Int64(mp4.count), padding: 0))
            let description = MotionPhotoXMP.description(presentationTimestampUs: timestampUs, items: items)
            do { primary = try JPEGXMPEditor.settingMotionPhoto(primary, description: description) } catch {
                throw .malformed(error.description)
            }
            out = primary + mp4
            videoOffset = primary.count
            primaryEnd = primary.count
        case .heic, .heif, .avif:
            var base = still
            if let existing, existing.container == .mpvd, let end = existing.primaryImageEnd { base = Array(still[..<Int(end)]) }
            guard mp4.count + 8 <= Int(UInt32.max) else { throw .unsupported("a video over 4 GiB") }
            // The XMP goes in an item of its own (exiv2 0.27 cannot write HEIC); the primary's
            // padding is the 'mpvd' header, as Samsung writes it.
            let description = MotionPhotoXMP.description(presentationTimestampUs: timestampUs, items: [
                DirectoryItem(mime: format == .avif ? "image/avif" : "image/heic", semantic: DirectoryItem.primarySemantic, length: 0, padding: 8),
                DirectoryItem(mime: "video/mp4", semantic: DirectoryItem.motionPhotoSemantic, length: Int64(mp4.count), padding: 0),
            ])
            do throws(BoxError) {
                let withXMP = try HEICXMPItem.settingXMP(in: base) { old in
                    old.map { MotionPhotoXMP.settingDescription(description, in: $0) } ?? MotionPhotoXMP.packet(description)
                }
                // Only when our own reader (exiv2) finds the claims there: else the file would
                // say less to livelint than to other readers.
                let read = StillReader.read(bytes: withXMP, options: StillReadOptions(allProperties: false))
                guard read.still?.property("Xmp.GCamera.MotionPhoto") != nil else {
                    throw BoxError(.unsupported, "exiv2 does not find the new XMP item")
                }
                base = withXMP
                heicXMP = true
            } catch {
                notes.append("no motion-photo XMP was added (\(error.message)): the video is in the 'mpvd' box, which Samsung Gallery and livelint read")
            }
            out = base + MovieRemux.be32(UInt32(mp4.count + 8)) + Array("mpvd".utf8) + mp4
            videoOffset = base.count + 8
        default:
            throw .unsupported("\(format.rawValue) stills: a motion photo's primary image is JPEG or HEIC")
        }

        let staged: StagedFile
        do { staged = try AtomicWriter.stage(out, for: output) } catch { throw .io(error.description) }
        do {
            try staged.verify { path in
                try verifyMotionPhoto(at: path, format: format, videoOffset: videoOffset, videoLength: mp4.count,
                                      timestampUs: format == .jpeg || heicXMP ? timestampUs : nil, digests: digests,
                                      originalStill: keptStill, writtenPrimaryEnd: primaryEnd)
            }
            try staged.commit()
        } catch {
            staged.discard()
            throw error.verificationFailed ? .verification(error.description) : .io(error.description)
        }
        return MotionPhotoConversion(written: [output], trackDigests: digests, presentationTimestampUs: timestampUs,
                                     stillImageTime: nil, identifier: nil, notes: notes)
    }

    /// Reads `path` back as a motion photo and checks it against what was meant.
    static func verifyMotionPhoto(at path: String, format: ContainerFormat, videoOffset: Int, videoLength: Int, timestampUs: Int64?,
                                  digests: [TrackDigest], originalStill: [UInt8], writtenPrimaryEnd: Int?) throws(LivePhotoWriteError) {
        let file = MediaInspector.inspect(path: path, options: InspectOptions(everything: false, streamProperties: false))
        if let e = file.error { throw .verification("the new motion photo does not read: \(e)") }
        guard let motion = file.still?.motionPhoto, motion.videoOffset == Int64(videoOffset),
              motion.videoLength == Int64(videoLength), motion.videoError == nil else {
            throw .verification("the embedded video does not read back at byte \(videoOffset) for \(videoLength) bytes")
        }
        if let timestampUs {
            guard motion.declaredVideoOffset == Int64(videoOffset), motion.declaredVideoLength == Int64(videoLength),
                  motion.declared.presentationTimestampUs == timestampUs, motion.declared.motionPhoto == 1 else {
                throw .verification("the motion-photo XMP does not describe the video where it is")
            }
        }
        let after: [TrackDigest]
        do {
            let whole = try FileByteSource(path: path)
            after = try MediaDigest.tracks(of: SliceByteSource(whole, offset: Int64(videoOffset), size: Int64(videoLength)))
        } catch { throw .verification("cannot hash the embedded video's samples: \(error)") }
        try sameTracks(digests, after)
        if format == .jpeg, let writtenPrimaryEnd {
            // From SOS to the end of what was kept (the primary image, and a gain map after it).
            guard let written = FileManager.default.contents(atPath: path).map({ [UInt8]($0) }), writtenPrimaryEnd <= written.count,
                  let before = MediaDigest.jpegImageData(originalStill),
                  let now = MediaDigest.jpegImageData(Array(written[..<writtenPrimaryEnd])),
                  before == now else { throw .verification("the JPEG image data changed") }
        }
    }

    static func sameTracks(_ before: [TrackDigest], _ after: [TrackDigest]) throws(LivePhotoWriteError) {
        for track in before {
            guard let now = after.first(where: { $0.trackID == track.trackID }) else { throw .verification("track \(track.trackID) is gone") }
            guard now.sha256 == track.sha256, now.sampleCount == track.sampleCount else {
                throw .verification("track \(track.trackID)'s sample bytes changed (\(track) → \(now))")
            }
        }
    }

    /// The motion photo an in-memory still carries, with its primary image located.
    static func motionPhoto(in still: [UInt8], format: ContainerFormat) -> MotionPhotoInfo? {
        let properties = StillReader.read(bytes: still, options: StillReadOptions(allProperties: false)).still?.properties ?? []
        return MotionPhotoReader.read(MemoryByteSource(still), format: format, properties: properties,
                                      movieOptions: MovieReadOptions(samples: .stillImageTimeOnly, maxSamplesPerTrack: 16),
                                      locatePrimaryEnd: true)
    }

    // MARK: - motion photo → Live Photo

    /// Writes `<stem>.<JPG|HEIC>` and `<stem>.MOV` into `directory` (created when missing).
    public static func toLivePhoto(motionPhoto path: String, directory: String, identifier: String? = nil) throws(LivePhotoWriteError) -> MotionPhotoConversion {
        let bytes = try LivePhotoPairWriter.readStill(path)
        let format = Sniffer.sniff(Array(bytes.prefix(Sniffer.headerLength)))
        guard format == .jpeg || format == .heic || format == .heif else {
            throw .unsupported("\(path) is \(format.rawValue), not a JPEG or HEIC motion photo")
        }
        guard let motion = motionPhoto(in: bytes, format: format) else { throw .malformed("\(path) is not a motion photo") }
        guard let offset = motion.videoOffset, let length = motion.videoLength, let video = motion.video else {
            throw .malformed("\(path) holds no embedded video" + (motion.issues.first.map { " (\($0))" } ?? ""))
        }
        if let e = motion.videoError { throw .malformed("the embedded video does not read cleanly: \(e)") }
        var notes: [String] = []
        var still: [UInt8]
        switch format {
        case .jpeg:
            guard let primaryEnd = motion.primaryImageEnd, primaryEnd <= offset else {
                throw .malformed("cannot tell where the primary image ends before the video at byte \(offset)")
            }
            // Up to the video: what lies between (an Ultra HDR gain map) stays, with its directory
            // item; a Samsung SEF record's header before the video goes with the trailer.
            let end = motion.container == .sef ? primaryEnd : offset
            do { still = try JPEGXMPEditor.removingMotionPhoto(Array(bytes[..<Int(end)])) } catch { throw .malformed(error.description) }
        default:
            guard motion.container == .mpvd, let end = motion.primaryImageEnd, end + 8 <= offset else {
                throw .unsupported("a HEIC motion photo whose video is not in a top-level 'mpvd' box")
            }
            still = Array(bytes[..<Int(end)])
            // exiv2 0.27 cannot write HEIC: the motion tags are blanked where they lie (same size).
            let changed = MotionPhotoXMP.blankingMotionTags(in: &still)
            let left = motionPhoto(in: still, format: format)
            guard left?.declared.promisesVideo != true else {
                throw .unsupported("the HEIC's motion-photo XMP could not be blanked in place")
            }
            if !changed.isEmpty { notes.append("the HEIC's motion-photo tags were overwritten with spaces inside its XMP (the file keeps its size and offsets)") }
        }
        let mp4 = Array(bytes[Int(offset)..<Int(offset + length)])
        let duration = video.duration
        var t = motion.presentationTime ?? duration / 2
        if motion.presentationTime == nil { notes.append("no presentation timestamp: the still-image-time is the middle of the video") }
        if t < 0 || t >= duration {
            notes.append("the presentation timestamp \(MetadataValue.format(t)) s lies outside the \(MetadataValue.format(duration)) s video: the still-image-time is the middle instead")
            t = duration / 2
        }
        let id = identifier ?? UUID().uuidString
        let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        let stem = name.hasSuffix(".MP") || name.hasSuffix(".mp") ? String(name.dropLast(3)) : name
        let ext = format == .jpeg ? "JPG" : "HEIC"

        // The halves go through the pair writer from a private staging folder: it re-brands the
        // MP4 as QuickTime, adds the identifier and the still-image-time track, and verifies both.
        let fm = FileManager.default
        do { try fm.createDirectory(atPath: directory, withIntermediateDirectories: true) } catch { throw .io("cannot create \(directory): \(error.localizedDescription)") }
        let staging = URL(fileURLWithPath: directory).appendingPathComponent(".livelint-convert-\(UUID().uuidString)").path
        do { try fm.createDirectory(atPath: staging, withIntermediateDirectories: false) } catch { throw .io("cannot create \(staging): \(error.localizedDescription)") }
        defer { try? fm.removeItem(atPath: staging) }
        let stagedStill = staging + "/\(stem).\(ext)", stagedMovie = staging + "/\(stem).MP4"
        do {
            for (data, target) in [(still, stagedStill), (mp4, stagedMovie)] {
                try AtomicWriter.write(data, to: target) { written in
                    guard FileManager.default.contents(atPath: written).map({ [UInt8]($0) }) == data else {
                        throw LivePhotoWriteError.verification("\(written) does not read back as written")
                    }
                }
            }
        } catch { throw .io(error.description) }
        let request = PairWriteRequest(
            stillSource: stagedStill, movieSource: stagedMovie,
            stillTarget: directory + "/\(stem).\(ext)", movieTarget: directory + "/\(stem).MOV",
            identifier: id, editStill: true,
            movieEdit: LivePhotoMovieEdit(contentIdentifier: id, stillImageTime: t), quickTime: true)
        let result = try LivePhotoPairWriter.write(request)
        return MotionPhotoConversion(written: result.written, trackDigests: result.trackDigests, presentationTimestampUs: nil,
                                     stillImageTime: t, identifier: id, notes: notes)
    }
}
