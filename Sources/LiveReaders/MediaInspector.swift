import Foundation
import ISOBMFF
import LiveModel
import ZIPFoundation

/// How deep to read. `dump` wants everything; `lint` wants only what rules need.
public struct InspectOptions: Sendable {
    /// Every Exif/XMP/IPTC value and every metadata sample (dump) versus the lint fast path.
    public var everything: Bool
    /// Ask libmediainfo for descriptive stream properties (slow: keep off for library scans).
    public var streamProperties: Bool
    /// Most samples decoded per timed-metadata track.
    public var maxSamplesPerTrack: Int
    /// Largest `.livp` member read into memory, and the most all members together may expand to.
    public var maxArchiveMemberBytes: UInt64
    public var maxArchiveTotalBytes: UInt64
    /// Most entries an archive may list before it is refused.
    public var maxArchiveEntries: Int
    /// For the lint path: the exiv2 key prefixes a still is read for (``StillReadOptions/keyPrefixes``);
    /// nil for every exiv2 entry of `MetadataKey.table`.
    public var stillKeyPrefixes: [String]?

    public init(everything: Bool, streamProperties: Bool, maxSamplesPerTrack: Int = 10_000,
                maxArchiveMemberBytes: UInt64 = 1 << 30, maxArchiveTotalBytes: UInt64 = 2 << 30,
                maxArchiveEntries: Int = 1_000) {
        self.everything = everything
        self.streamProperties = streamProperties
        self.maxSamplesPerTrack = maxSamplesPerTrack
        self.maxArchiveMemberBytes = maxArchiveMemberBytes
        self.maxArchiveTotalBytes = maxArchiveTotalBytes
        self.maxArchiveEntries = maxArchiveEntries
    }

    /// Everything, including libmediainfo's stream properties.
    public static let dump = InspectOptions(everything: true, streamProperties: true)
    /// Only what the rules read; no libmediainfo.
    public static let lint = InspectOptions(everything: false, streamProperties: false)
}

/// Reads one file (or one in-memory archive member) into a `MediaFile`, whatever it holds.
/// Never throws and never traps: anything that goes wrong becomes the file's `error`.
/// Never writes: files are opened read-only.
public enum MediaInspector {
    /// - Parameters:
    ///   - path: where to read the file.
    ///   - displayPath: the path to record in the report (e.g. relative to the scanned root).
    public static func inspect(path: String, displayPath: String? = nil, options: InspectOptions) -> MediaFile {
        let shown = displayPath ?? path
        let source: FileByteSource
        do {
            source = try FileByteSource(path: path)
        } catch {
            // The operating system's refusal (missing, permission, a folder): no byte offset applies.
            var issue = ReadIssue(error)
            issue.offset = nil
            return MediaFile(path: shown, kind: .unknown, format: .unknown, error: issue)
        }
        let size = source.size
        guard size > 0 else {
            return MediaFile(path: shown, kind: .unknown, format: .unknown, size: 0,
                             error: ReadIssue(.notMedia, "empty file (0 bytes)"))
        }
        let header: [UInt8]
        do {
            header = try source.read(at: 0, count: Int(min(Int64(Sniffer.headerLength), size)))
        } catch {
            return MediaFile(path: shown, kind: .unknown, format: .unknown, size: size, error: ReadIssue(error))
        }
        let format = Sniffer.sniff(header)
        var file = dispatch(format, header: header, shown: shown, options: options,
                            still: { StillReader.read(source: source, options: $0) },
                            source: source,
                            archive: { readArchive(path: path, source: source, shown: shown, options: options) })
        file.size = size
        if options.streamProperties, file.kind != .livp {
            let mediaInfo = MediaInfoReader.readReportingFailure(path: path)
            file.streamProperties = mediaInfo.properties
            if let failure = mediaInfo.failure { file.warnings.append(failure) }
        }
        return file
    }

    /// Reads an in-memory file, such as a `.livp` member.
    public static func inspect(bytes: [UInt8], displayPath: String, options: InspectOptions) -> MediaFile {
        guard !bytes.isEmpty else {
            return MediaFile(path: displayPath, kind: .unknown, format: .unknown, size: 0,
                             error: ReadIssue(.notMedia, "empty file (0 bytes)"))
        }
        let header = Array(bytes.prefix(Sniffer.headerLength))
        var file = dispatch(Sniffer.sniff(header), header: header, shown: displayPath, options: options,
                            still: { StillReader.read(bytes: bytes, options: $0) },
                            source: MemoryByteSource(bytes),
                            archive: {
                                MediaFile(path: displayPath, kind: .livp, format: .zip,
                                          error: ReadIssue(.unsupported, "archive nested inside an archive is not read"))
                            })
        file.size = Int64(bytes.count)
        return file
    }

    // MARK: - Per kind

    /// Reads a file whose format is known, the same way whether it is on disk or in memory.
    static func dispatch(_ format: ContainerFormat, header: [UInt8], shown: String, options: InspectOptions,
                         still: (StillReadOptions) -> StillReadResult, source: some ByteSource,
                         archive: () -> MediaFile) -> MediaFile {
        switch format.kind {
        case .still:
            let stillOptions = StillReadOptions(allProperties: options.everything,
                                                makerNoteTags: options.everything ? nil : StillReadOptions.lintMakerNoteTags,
                                                keyPrefixes: options.stillKeyPrefixes)
            var file = readStill(still(stillOptions), path: shown, format: format)
            if var info = file.still {
                info.motionPhoto = MotionPhotoReader.read(
                    source, format: format, properties: info.properties,
                    movieOptions: MovieReadOptions(samples: options.everything ? .all : .stillImageTimeOnly,
                                                   maxSamplesPerTrack: options.maxSamplesPerTrack),
                    locatePrimaryEnd: options.everything)
                file.still = info
            }
            return file
        case .movie:
            return readMovie(source: source, path: shown, format: format, options: options)
        case .livp:
            return archive()
        case .unknown:
            // A Takeout sidecar is not media; what it says is reported with the file it describes.
            if TakeoutSidecars.isSidecarName(shown), header.first == UInt8(ascii: "{") {
                return MediaFile(path: shown, kind: .unknown, format: .unknown,
                                 error: ReadIssue(.notMedia, "a JSON file, not a still, movie or .livp archive (a Google Takeout sidecar is reported with the photo or video it describes)"))
            }
            return MediaFile(path: shown, kind: .unknown, format: .unknown,
                             error: ReadIssue(.notMedia, "not a recognised still, movie or .livp archive (starts with \(MetadataValue.hex(Array(header.prefix(8)))))"))
        }
    }

    static func readStill(_ result: StillReadResult, path: String, format: ContainerFormat) -> MediaFile {
        MediaFile(path: path, kind: .still, format: format, still: result.still,
                  error: result.error, warnings: result.warnings)
    }

    static func readMovie(source: some ByteSource, path: String, format: ContainerFormat, options: InspectOptions) -> MediaFile {
        let result = MovieReader.read(source, options: MovieReadOptions(
            samples: options.everything ? .all : .stillImageTimeOnly,
            maxSamplesPerTrack: options.maxSamplesPerTrack))
        return MediaFile(path: path, kind: .movie, format: format, movie: result.movie,
                         error: result.error, warnings: result.warnings)
    }

    /// A `.livp` is a ZIP holding the still and the movie (usually stored, not deflated).
    /// Members are read from memory, never extracted to disk; sizes are capped before reading.
    static func readArchive(path: String, source: some ByteSource, shown: String, options: InspectOptions) -> MediaFile {
        var file = MediaFile(path: shown, kind: .livp, format: .zip, members: [])
        // ZIPFoundation traps on some hostile directory values: check them before it reads.
        let guarded = ZipGuard.inspect(source, maxEntries: options.maxArchiveEntries)
        if let problem = guarded.issue {
            file.error = problem
            return file
        }
        file.archiveLayout = guarded.layout
        let archive: Archive
        do {
            archive = try Archive(url: URL(fileURLWithPath: path), accessMode: .read)
        } catch {
            file.error = ReadIssue(.malformed, "not a readable ZIP archive: \(describe(error))")
            return file
        }
        var members: [MediaFile] = []
        var total: UInt64 = 0
        var count = 0
        for entry in archive {
            count += 1
            if count > options.maxArchiveEntries {
                file.error = ReadIssue(.limit, "archive lists more than \(options.maxArchiveEntries) entries")
                break
            }
            guard entry.type == .file else { continue }
            let name = entry.path
            let memberPath = "\(shown)!\(name)"
            let base = name.split(separator: "/").last.map(String.init) ?? name
            if base.hasPrefix(".") || name.hasPrefix("__MACOSX/") { continue }
            if name.split(separator: "/").contains("..") || name.hasPrefix("/") {
                file.warnings.append(ReadIssue(.malformed, "member name escapes the archive: \(name)", location: memberPath))
            }
            let declared = entry.uncompressedSize
            if declared > options.maxArchiveMemberBytes || total &+ declared > options.maxArchiveTotalBytes {
                members.append(MediaFile(path: memberPath, kind: .unknown, format: .unknown,
                                         error: ReadIssue(.limit, "member declares \(declared) bytes, over the limit of \(options.maxArchiveMemberBytes)", location: memberPath)))
                continue
            }
            var bytes: [UInt8] = []
            // The declared size is only a claim: reserve at most 16 MiB up front, grow as bytes arrive.
            bytes.reserveCapacity(Int(min(declared, 16 << 20)))
            let cap = declared
            do {
                _ = try archive.extract(entry, skipCRC32: false) { chunk in
                    // A member that inflates past its declared size is a ZIP bomb or damaged: stop.
                    guard UInt64(bytes.count) + UInt64(chunk.count) <= cap else {
                        throw ReadIssue(.limit, "member inflates past its declared size of \(cap) bytes", location: memberPath)
                    }
                    bytes.append(contentsOf: chunk)
                }
            } catch {
                members.append(MediaFile(path: memberPath, kind: .unknown, format: .unknown,
                                         error: (error as? ReadIssue) ?? ReadIssue(.malformed, "cannot extract: \(describe(error))", location: memberPath)))
                continue
            }
            total &+= UInt64(bytes.count)
            members.append(inspect(bytes: bytes, displayPath: memberPath, options: options))
        }
        file.members = members
        if file.error == nil, members.isEmpty {
            file.error = ReadIssue(.malformed, "archive holds no files")
        }
        return file
    }

    static func describe(_ error: any Error) -> String {
        if let issue = error as? ReadIssue { return issue.description }
        return String(describing: error)
    }
}
