import Foundation

/// What a still image carries: its geometry, its Exif/XMP/IPTC values and its Apple makernote.
public struct StillInfo: Sendable {
    public var width: Int?
    public var height: Int?
    /// Exif, XMP and IPTC values as exiv2 names them (`Exif.Image.Make`, `Xmp.GCamera.MotionPhoto`).
    public var properties: [MetadataProperty]
    /// The decoded Apple makernote, when the file has one.
    public var makerNote: AppleMakerNoteInfo?
    /// Set when a MakerNote is present but is not an Apple one (another maker, or damaged).
    public var makerNoteIssue: ReadIssue?
    /// The Android motion photo this still carries (claims, embedded video), when it is one.
    /// Held in a box of its own: it is about 600 bytes inline and nil on nearly every still, and a
    /// library's slim records would otherwise carry that room each (issue 13, flat memory).
    public var motionPhoto: MotionPhotoInfo? {
        get { motionPhotoBox?.value }
        set { motionPhotoBox = newValue.map(Boxed.init) }
    }
    private var motionPhotoBox: Boxed<MotionPhotoInfo>?

    public init(width: Int? = nil, height: Int? = nil, properties: [MetadataProperty] = [],
                makerNote: AppleMakerNoteInfo? = nil, makerNoteIssue: ReadIssue? = nil,
                motionPhoto: MotionPhotoInfo? = nil) {
        self.width = width
        self.height = height
        self.properties = properties
        self.makerNote = makerNote
        self.makerNoteIssue = makerNoteIssue
        self.motionPhoto = motionPhoto
    }

    /// Apple makernote tag 0x0011 (ContentIdentifier, formerly MediaGroupUUID): the pairing key.
    public var contentIdentifier: String? {
        makerNote?.contentIdentifier
    }

    public func property(_ key: String) -> MetadataProperty? {
        properties.first { $0.key == key }
    }

    /// A content identifier the still carries in XMP (`Xmp.<prefix>.ContentIdentifier` or
    /// `…MediaGroupUUID`, whatever prefix the packet gave the namespace), where Apple Photos and
    /// Immich do not look: the key and the value, or nil.
    public var xmpContentIdentifier: (key: String, value: String)? {
        for p in properties where p.key.hasPrefix("Xmp.") {
            guard p.key.hasSuffix(".ContentIdentifier") || p.key.hasSuffix(".MediaGroupUUID"),
                  let value = p.value.stringValue?.trimmingCharacters(in: .whitespacesAndNewlines), !value.isEmpty
            else { continue }
            return (p.key, value)
        }
        return nil
    }

    public var make: String? { property(.make)?.value.stringValue }
    public var model: String? { property(.model)?.value.stringValue }
    /// `Exif.Photo.DateTimeOriginal` as written (`YYYY:MM:DD HH:MM:SS`).
    public var dateTimeOriginal: String? { property(.dateTimeOriginal)?.value.stringValue }
}

/// One Exif / XMP / IPTC value.
public struct MetadataProperty: Sendable, Hashable {
    /// exiv2's key, e.g. `Exif.Photo.DateTimeOriginal`.
    public var key: String
    /// exiv2's type name (`Ascii`, `Short`, `XmpText`, …).
    public var type: String
    public var value: MetadataValue
    public init(key: String, type: String, value: MetadataValue) {
        self.key = key
        self.type = type
        self.value = value
    }
    /// `Exif`, `Xmp` or `Iptc`.
    public var family: String { String(key.prefix { $0 != "." }) }
}

/// A decoded Apple makernote (`Apple iOS\0`, version, `MM`, IFD at offset 14).
public struct AppleMakerNoteInfo: Sendable, Hashable {
    /// The 2-byte version after the signature (1 on every device seen).
    public var version: UInt16
    public var tags: [MakerAppleTag]
    /// Problems in individual entries that did not stop the decode.
    public var issues: [ReadIssue]

    public init(version: UInt16, tags: [MakerAppleTag], issues: [ReadIssue] = []) {
        self.version = version
        self.tags = tags
        self.issues = issues
    }

    public func tag(_ id: UInt16) -> MakerAppleTag? { tags.first { $0.tag == id } }

    /// The makernote tag of the content identifier (exiftool `ContentIdentifier`, 0x0011).
    public static let contentIdentifierTag: UInt16 = 0x0011

    /// Tag 0x0011 as a string (trimmed of trailing NULs), the Live Photo pairing key.
    public var contentIdentifier: String? {
        guard let t = tag(Self.contentIdentifierTag) else { return nil }
        switch t.value {
        case .string(let s): return s
        case .bytes(let b):
            let trimmed = b.prefix { $0 != 0 }
            return String(decoding: trimmed, as: UTF8.self)
        default: return t.value.displayString
        }
    }
}

/// One Apple makernote entry.
public struct MakerAppleTag: Sendable, Hashable {
    public var tag: UInt16
    /// exiftool's name (`ContentIdentifier`), or `Apple_0xNNNN` when the table has none.
    public var name: String
    /// Other names the same tag is known by (`MediaGroupUUID` for 0x0011).
    public var aliases: [String]
    /// The TIFF type's name (`int32s`, `string`, `undef`, `rational64s`, …).
    public var type: String
    /// The TIFF count (number of values of `type`).
    public var count: UInt32
    public var value: MetadataValue

    public init(tag: UInt16, name: String, aliases: [String] = [], type: String, count: UInt32, value: MetadataValue) {
        self.tag = tag
        self.name = name
        self.aliases = aliases
        self.type = type
        self.count = count
        self.value = value
    }

    /// `0x0011` style.
    public var hexID: String {
        let h = String(tag, radix: 16)
        return "0x" + String(repeating: "0", count: max(0, 4 - h.count)) + h
    }
}
