/// One piece of metadata that livelint reads by name: an exiv2 key of a still, a QuickTime `mdta`
/// key of a movie, or an Apple makernote tag. Every such name lives once, in ``table``, with what
/// it is and where that is documented (the way exiftool's tag tables cite their sources).
///
/// The table is what the lint path reads: the still reader's fast path asks exiv2 for exactly its
/// exiv2 entries and decodes exactly its makernote tags (`StillReadOptions`), rules declare the
/// entries they read beyond the identifiers (`RuleDescription.readsMetadata`), and slimming keeps
/// what the enabled rules declared (`MediaFile.slimmedForLint(keeping:)`). Entries are made only
/// here, so a rule cannot declare a key the fast path never asks for.
public struct MetadataKey: Sendable, Hashable, CustomStringConvertible {
    /// Which reader produces the value, and so what ``key`` names.
    public enum Reader: String, Sendable, Hashable {
        /// A still's property, through exiv2 (`StillInfo.properties`): ``key`` is exiv2's key, or
        /// a key prefix ending in `.` that stands for a whole group.
        case exiv2
        /// A movie's `moov/meta` key, through our box reader (`MovieInfo.keys`): ``key`` is the
        /// `mdta` key.
        case quickTime
        /// An Apple makernote tag, through `AppleMakerNote` (`AppleMakerNoteInfo.tags`): ``key`` is
        /// the tag number in hex (`0x0011`).
        case appleMakerNote
        /// What the motion photo reader found in a still (`StillInfo.motionPhoto`: the claims, where
        /// the embedded video is, its video stream and duration): ``key`` names the whole record.
        case motionPhoto
    }

    /// A short name (exiftool's where it has one).
    public let name: String
    /// The key as its reader spells it.
    public let key: String
    public let reader: Reader
    /// Where the meaning comes from: the specification, exiftool's table, devices observed.
    public let source: String

    init(_ name: String, _ key: String, _ reader: Reader, source: String) {
        self.name = name
        self.key = key
        self.reader = reader
        self.source = source
    }

    /// An Apple makernote entry: its key is the tag number in hex (`0x0011`).
    init(_ name: String, makerNoteTag tag: UInt16, source: String) {
        let hex = String(tag, radix: 16)
        self.init(name, "0x" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex, .appleMakerNote, source: source)
    }

    public var description: String { key }

    /// For a makernote entry, the tag number (`0x0011` → 17); nil for the others.
    public var makerNoteTag: UInt16? {
        guard reader == .appleMakerNote, key.hasPrefix("0x") else { return nil }
        return UInt16(key.dropFirst(2), radix: 16)
    }

    /// True for an exiv2 entry that names a group (a prefix ending in `.`) rather than one key.
    public var isGroup: Bool { reader == .exiv2 && key.hasSuffix(".") }
}

extension MetadataKey {
    // MARK: - Stills, through exiv2 (keys as exiv2 0.27 names them)

    public static let makerNote = MetadataKey(
        "MakerNote", "Exif.Photo.MakerNote", .exiv2,
        source: "Exif 2.32 tag 0x927C. exiv2 0.27 has no Apple makernote decoder and hands it over raw; AppleMakerNote decodes it.")
    public static let makerNoteGroup = MetadataKey(
        "MakerNote (decoded)", "Exif.MakerNote.", .exiv2,
        source: "exiv2's group for a makernote it decoded itself (Offset, ByteOrder): present for another maker's makernote, never for Apple's.")
    public static let make = MetadataKey(
        "Make", "Exif.Image.Make", .exiv2, source: "TIFF 6.0 / Exif 2.32 tag 0x010F.")
    public static let model = MetadataKey(
        "Model", "Exif.Image.Model", .exiv2, source: "TIFF 6.0 / Exif 2.32 tag 0x0110.")
    public static let software = MetadataKey(
        "Software", "Exif.Image.Software", .exiv2, source: "TIFF 6.0 / Exif 2.32 tag 0x0131 (the iOS version on an iPhone).")
    public static let orientation = MetadataKey(
        "Orientation", "Exif.Image.Orientation", .exiv2, source: "TIFF 6.0 / Exif 2.32 tag 0x0112 (1-8; 5-8 swap width and height).")
    public static let dateTimeOriginal = MetadataKey(
        "DateTimeOriginal", "Exif.Photo.DateTimeOriginal", .exiv2,
        source: "Exif 2.32 tag 0x9003, local time as YYYY:MM:DD HH:MM:SS.")
    public static let offsetTimeOriginal = MetadataKey(
        "OffsetTimeOriginal", "Exif.Photo.OffsetTimeOriginal", .exiv2,
        source: "Exif 2.31 tag 0x9011, the UTC offset of DateTimeOriginal (+HH:MM).")
    public static let pixelXDimension = MetadataKey(
        "ExifImageWidth", "Exif.Photo.PixelXDimension", .exiv2, source: "Exif 2.32 tag 0xA002.")
    public static let pixelYDimension = MetadataKey(
        "ExifImageHeight", "Exif.Photo.PixelYDimension", .exiv2, source: "Exif 2.32 tag 0xA003.")
    public static let googleCamera = MetadataKey(
        "GCamera", "Xmp.GCamera.", .exiv2,
        source: "Google Camera XMP namespace http://ns.google.com/photos/1.0/camera/ (MotionPhoto, MicroVideo…): Android motion photos.")
    public static let container = MetadataKey(
        "Container", "Xmp.Container.", .exiv2,
        source: "Google motion photo container directory, http://ns.google.com/photos/1.0/container/.")
    public static let camera = MetadataKey(
        "Camera", "Xmp.Camera.", .exiv2,
        source: "The camera namespace under the Camera prefix the Motion Photo 1.0 specification uses (developer.android.com/media/platform/motion-photo-format); exiv2 keys a namespace by the prefix it first met, so both are asked for.")
    public static let googleContainer = MetadataKey(
        "GContainer", "Xmp.GContainer.", .exiv2,
        source: "The motion photo container directory under the GContainer prefix that some writers declare (read since the first fast path).")

    public static let xmpContentIdentifier = MetadataKey(
        "XMP ContentIdentifier", "Xmp.apple-fi.ContentIdentifier", .exiv2,
        source: "A content identifier written into XMP (namespace http://ns.apple.com/faceinfo/1.0/, as exiftool writes `XMP-apple-fi:ContentIdentifier` with a user-defined table, e.g. vivo/Xiaomi Live Photo converters): Apple Photos and Immich do not read it (immich#25810; RaylenZed/vivo-live-photo-converter README). exiv2 names the namespace by the prefix the packet declares.")

    // MARK: - Motion photos, through MotionPhotoReader

    public static let motionPhoto = MetadataKey(
        "MotionPhoto", "motion-photo", .motionPhoto,
        source: "An Android motion photo's claims (GCamera/Container XMP, Samsung SEF trailer) and the MP4 found after the primary image or in an HEIC 'mpvd' box (developer.android.com/media/platform/motion-photo-format; exiftool Samsung.pm, QuickTime.pm).")

    /// The exiv2 entries ``motionPhoto`` is read from (its XMP claims): a scan whose rules read
    /// motion photos asks exiv2 for these too.
    public static let motionPhotoClaims: [MetadataKey] = [.googleCamera, .container, .googleContainer, .camera]

    // MARK: - Movies, through our box reader (`moov/meta` `mdta` keys)

    public static let contentIdentifier = MetadataKey(
        "ContentIdentifier", "com.apple.quicktime.content.identifier", .quickTime,
        source: "The movie's half of the Live Photo pairing key (exiftool QuickTime.pm Keys ContentIdentifier).")
    public static let stillImageTime = MetadataKey(
        "StillImageTime", "com.apple.quicktime.still-image-time", .quickTime,
        source: "The key of the timed-metadata (mebx) track whose sample marks the still (exiftool QuickTime.pm Keys StillImageTime).")
    public static let creationDate = MetadataKey(
        "CreationDate", "com.apple.quicktime.creationdate", .quickTime,
        source: "ISO 8601 date with UTC offset (exiftool QuickTime.pm Keys CreationDate).")

    // MARK: - Apple makernote tags (exiftool lib/Image/ExifTool/Apple.pm)

    public static let makerNoteContentIdentifier = MetadataKey(
        "ContentIdentifier", makerNoteTag: AppleMakerNoteInfo.contentIdentifierTag,
        source: "exiftool Apple.pm 0x0011 ContentIdentifier (formerly MediaGroupUUID): the still's half of the pairing key.")

    /// Every entry, in the order the still reader asks exiv2 for them.
    public static let table: [MetadataKey] = [
        .makerNote, .makerNoteGroup, .make, .model, .software, .orientation, .dateTimeOriginal, .offsetTimeOriginal,
        .pixelXDimension, .pixelYDimension, .googleCamera, .container, .googleContainer, .camera,
        .xmpContentIdentifier, .motionPhoto,
        .contentIdentifier, .stillImageTime, .creationDate,
        .makerNoteContentIdentifier,
    ]

    /// Whether `key`, as its reader spells it, is this entry (or, for a group, falls under it).
    public func covers(_ key: String) -> Bool {
        isGroup ? key.hasPrefix(self.key) : key == self.key
    }
}

extension StillInfo {
    /// The property an exiv2 entry of ``MetadataKey/table`` names.
    public func property(_ key: MetadataKey) -> MetadataProperty? { property(key.key) }
}

extension MovieInfo {
    /// The `moov/meta` key a QuickTime entry of ``MetadataKey/table`` names.
    public func key(_ key: MetadataKey) -> QuickTimeKey? { self.key(key.key) }
}
