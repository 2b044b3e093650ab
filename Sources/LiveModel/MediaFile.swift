/// What a file is, from its bytes (never from its extension).
public enum FileKind: String, Sendable, Codable, CaseIterable {
    case still, movie, livp, unknown
}

/// The container format sniffed from content.
public enum ContainerFormat: String, Sendable, Codable, CaseIterable {
    case jpeg, heic, heif, avif, png, tiff, gif, webp
    case quicktime, mp4
    case zip
    case unknown

    public var kind: FileKind {
        switch self {
        case .jpeg, .heic, .heif, .avif, .png, .tiff, .gif, .webp: return .still
        case .quicktime, .mp4: return .movie
        case .zip: return .livp
        case .unknown: return .unknown
        }
    }

    /// File name extensions that honestly describe this content (lower case, without dot).
    public var extensions: Set<String> { Self.extensionSets[self] ?? [] }

    /// Built once: `extension-mismatch` asks for every file of a scan, and a set built at each
    /// call hashed its names every time (issue 13).
    private static let extensionSets = Dictionary(uniqueKeysWithValues: allCases.map { ($0, $0.listedExtensions) })

    private var listedExtensions: Set<String> {
        switch self {
        case .jpeg: return ["jpg", "jpeg", "jpe", "jfif"]
        case .heic: return ["heic", "heif", "hif"]
        case .heif: return ["heif", "heic", "hif"]
        case .avif: return ["avif"]
        case .png: return ["png"]
        case .tiff: return ["tif", "tiff", "dng"]
        case .gif: return ["gif"]
        case .webp: return ["webp"]
        case .quicktime: return ["mov", "qt"]
        case .mp4: return ["mp4", "m4v"]
        case .zip: return ["livp", "zip"]
        case .unknown: return []
        }
    }
}

/// Everything read from one file. Exactly one of `still`, `movie`, `members` is set for a file
/// that could be read; `error` is set when it could not be read (whatever was read before the
/// failure is kept).
///
/// A value type with copy-on-write storage: the fields live in one heap box that copies share,
/// so a copy (into a pair, a sorted list, a scan context) is one pointer and a reference count,
/// not ~600 bytes of inline `StillInfo` and `MovieInfo` (issue 4: flat memory at library scale).
/// Setting a field copies the box first when it is shared, so copies never see each other's changes.
public struct MediaFile: Sendable {
    /// The fields. `@unchecked Sendable`: a box is only mutated through ``MediaFile/unique()``,
    /// that is while exactly one value refers to it; a shared box is never written.
    private final class Storage: @unchecked Sendable {
        var path: String
        // Boxed again: a file is a still or a movie, so neither sits inline beside the other,
        // and the fields most files leave empty sit in one more box that is nil until set.
        var still: Box<StillInfo>?
        var movie: Box<MovieInfo>?
        var extras: Box<Extras>?
        var size: Int64?
        var kind: FileKind
        var format: ContainerFormat

        init(path: String, still: Box<StillInfo>?, movie: Box<MovieInfo>?, extras: Box<Extras>?,
             size: Int64?, kind: FileKind, format: ContainerFormat) {
            self.path = path
            self.still = still
            self.movie = movie
            self.extras = extras
            self.size = size
            self.kind = kind
            self.format = format
        }

        func copy() -> Storage {
            Storage(path: path, still: still, movie: movie, extras: extras, size: size, kind: kind, format: format)
        }
    }

    /// The fields a file that was read cleanly leaves empty (no members, no libmediainfo
    /// properties, no error, no warnings).
    private struct Extras: Sendable {
        var members: [MediaFile]?
        var streamProperties: StreamProperties?
        var error: ReadIssue?
        var warnings: [ReadIssue] = []
        var archiveLayout: ArchiveLayout?
        var sidecar: TakeoutSidecar?

        var isEmpty: Bool {
            members == nil && streamProperties == nil && error == nil && warnings.isEmpty && archiveLayout == nil && sidecar == nil
        }
        /// Boxed, or nil when empty.
        var boxed: Box<Extras>? { isEmpty ? nil : Box(self) }
    }

    /// Boxes are shared freely between copies of a ``Storage`` and replaced on a change.
    private typealias Box = Boxed

    private var storage: Storage

    /// The box, copied first if another value shares it.
    private mutating func unique() -> Storage {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
        return storage
    }

    /// The path as given or found (relative to the scanned root when scanning).
    public var path: String {
        get { storage.path }
        _modify { yield &unique().path }
    }
    public var kind: FileKind {
        get { storage.kind }
        _modify { yield &unique().kind }
    }
    public var format: ContainerFormat {
        get { storage.format }
        _modify { yield &unique().format }
    }
    /// Size in bytes, when known.
    public var size: Int64? {
        get { storage.size }
        _modify { yield &unique().size }
    }
    public var still: StillInfo? {
        get { storage.still?.value }
        _modify {
            // Taken out of its box (dropped first, so the value's arrays are not shared), changed
            // in place, boxed again.
            let box = unique()
            var value = box.still?.value
            box.still = nil
            defer { box.still = value.map(Box.init) }
            yield &value
        }
    }
    public var movie: MovieInfo? {
        get { storage.movie?.value }
        _modify {
            let box = unique()
            var value = box.movie?.value
            box.movie = nil
            defer { box.movie = value.map(Box.init) }
            yield &value
        }
    }
    /// For `.livp` archives: each member, read as a file of its own (paths are `archive.livp!member`).
    public var members: [MediaFile]? {
        get { storage.extras?.value.members }
        _modify {
            // As for `still`: out of the box, changed in place, boxed again (or nil when empty).
            let box = unique()
            var extras = box.extras?.value ?? Extras()
            box.extras = nil
            defer { box.extras = extras.boxed }
            yield &extras.members
        }
    }
    /// For `.livp` archives: how the ZIP lays out its members (methods, offsets, extra fields, the
    /// archive comment), when its directory could be walked.
    public var archiveLayout: ArchiveLayout? {
        get { storage.extras?.value.archiveLayout }
        _modify {
            let box = unique()
            var extras = box.extras?.value ?? Extras()
            box.extras = nil
            defer { box.extras = extras.boxed }
            yield &extras.archiveLayout
        }
    }
    /// The Google Takeout JSON sidecar that describes this file, when one sits beside it
    /// (attached by the scan after reading, never cached with the file: it changes on its own).
    public var sidecar: TakeoutSidecar? {
        get { storage.extras?.value.sidecar }
        _modify {
            let box = unique()
            var extras = box.extras?.value ?? Extras()
            box.extras = nil
            defer { box.extras = extras.boxed }
            yield &extras.sidecar
        }
    }
    /// Descriptive stream properties from libmediainfo (only filled when asked for, e.g. by `dump`).
    public var streamProperties: StreamProperties? {
        get { storage.extras?.value.streamProperties }
        _modify {
            let box = unique()
            var extras = box.extras?.value ?? Extras()
            box.extras = nil
            defer { box.extras = extras.boxed }
            yield &extras.streamProperties
        }
    }
    /// The failure that stopped reading, if any.
    public var error: ReadIssue? {
        get { storage.extras?.value.error }
        _modify {
            let box = unique()
            var extras = box.extras?.value ?? Extras()
            box.extras = nil
            defer { box.extras = extras.boxed }
            yield &extras.error
        }
    }
    /// Problems that did not stop reading (an unknown box version, a truncated optional table).
    public var warnings: [ReadIssue] {
        get { storage.extras?.value.warnings ?? [] }
        _modify {
            let box = unique()
            var extras = box.extras?.value ?? Extras()
            box.extras = nil
            defer { box.extras = extras.boxed }
            yield &extras.warnings
        }
    }

    public init(
        path: String, kind: FileKind, format: ContainerFormat, size: Int64? = nil,
        still: StillInfo? = nil, movie: MovieInfo? = nil, members: [MediaFile]? = nil,
        streamProperties: StreamProperties? = nil, error: ReadIssue? = nil, warnings: [ReadIssue] = []
    ) {
        let extras = Extras(members: members, streamProperties: streamProperties, error: error, warnings: warnings)
        storage = Storage(path: path, still: still.map(Box.init), movie: movie.map(Box.init), extras: extras.boxed,
                          size: size, kind: kind, format: format)
    }

    /// The Live Photo pairing key this file carries: the still's makernote 0x0011, or the
    /// movie's `com.apple.quicktime.content.identifier`.
    public var contentIdentifier: String? {
        // Read inside the boxes: `still?.contentIdentifier` copies the whole still out first (a
        // retain and a release of each of its arrays; every pair rule asks, issue 13).
        if let box = storage.still, let identifier = box.value.contentIdentifier { return identifier }
        return storage.movie?.value.contentIdentifier
    }

    /// Whether the still holds a motion photo whose video was found, read inside the boxes as
    /// ``contentIdentifier`` is (a summary is made of every file read).
    public var hasMotionVideo: Bool {
        storage.still?.value.motionPhoto?.hasVideo == true
    }

    /// The file name's extension, lower-cased, without the dot ("" when none).
    public var pathExtension: String {
        let ascii = PathText.withASCII(path) { b -> String in
            // The last component that is not empty, as `split(separator: "/").last` finds it.
            let end = (b.lastIndex { $0 != UInt8(ascii: "/") } ?? -1) + 1
            let start = b[..<end].lastIndex(of: UInt8(ascii: "/")).map { $0 + 1 } ?? 0
            guard let dot = b[start..<end].lastIndex(of: UInt8(ascii: ".")), dot > start else { return "" }
            return PathText.lowercasedASCII(b, dot + 1..<end)
        }
        return ascii ?? characterPathExtension
    }

    /// ``pathExtension`` worked out on `Character`s: for a path that is not all ASCII, and the
    /// tests' oracle for the byte arithmetic.
    var characterPathExtension: String {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
        return String(name[name.index(after: dot)...]).lowercased()
    }
}

/// A located problem found while reading. `location` says where: a box path
/// (`moov/trak[2]/mdia/minf/stbl/stsd`), `makernote/ifd0/entry[3]`, `exif`, or a ZIP member.
public struct ReadIssue: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Category: String, Sendable, Codable {
        /// The bytes contradict the format (a size past its parent, a count past the end).
        case malformed
        /// Valid, but something we do not read (a box version, an encrypted track).
        case unsupported
        /// The operating system refused (missing file, permission, I/O error).
        case io
        /// A safety limit tripped (nesting depth, entry count, allocation budget).
        case limit
        /// Not a format we read at all.
        case notMedia
    }

    public var category: Category
    public var message: String
    public var location: String?
    public var offset: Int64?

    public init(_ category: Category, _ message: String, location: String? = nil, offset: Int64? = nil) {
        self.category = category
        self.message = message
        self.location = location
        self.offset = offset
    }

    public var description: String {
        var s = message
        if let location { s += " at \(location)" }
        if let offset { s += " (byte offset \(offset))" }
        return s
    }
}

/// Descriptive properties from libmediainfo, stream by stream, in its own field names.
public struct StreamProperties: Sendable, Hashable {
    public struct Stream: Sendable, Hashable {
        /// "General", "Video", "Audio", "Other", "Image", …
        public var kind: String
        public var index: Int
        public var fields: [MetadataValue.KeyValue]
        public init(kind: String, index: Int, fields: [MetadataValue.KeyValue]) {
            self.kind = kind
            self.index = index
            self.fields = fields
        }
        public func field(_ name: String) -> String? {
            fields.first { $0.key == name }?.value.stringValue
        }
    }
    public var streams: [Stream]
    public init(streams: [Stream]) { self.streams = streams }
}
