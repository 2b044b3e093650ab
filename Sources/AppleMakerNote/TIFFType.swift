/// TIFF field types as they appear in an IFD entry (TIFF 6.0 §2 plus BigTIFF's 64-bit types,
/// which Apple uses for makernote tag 0x0017 on newer iPhones).
public enum TIFFType: UInt16, Sendable, CaseIterable {
    case byte = 1, ascii = 2, short = 3, long = 4, rational = 5
    case sbyte = 6, undefined = 7, sshort = 8, slong = 9, srational = 10
    case float = 11, double = 12, ifd = 13
    case long8 = 16, slong8 = 17, ifd8 = 18

    /// Bytes per component.
    public var size: Int {
        switch self {
        case .byte, .ascii, .sbyte, .undefined: return 1
        case .short, .sshort: return 2
        case .long, .slong, .float, .ifd: return 4
        case .rational, .srational, .double, .long8, .slong8, .ifd8: return 8
        }
    }

    /// exiftool's format name (`int32s`, `string`, `undef`, `rational64s`, …), as `MakerAppleTag.type` shows it.
    public var name: String {
        switch self {
        case .byte: return "int8u"
        case .ascii: return "string"
        case .short: return "int16u"
        case .long: return "int32u"
        case .rational: return "rational64u"
        case .sbyte: return "int8s"
        case .undefined: return "undef"
        case .sshort: return "int16s"
        case .slong: return "int32s"
        case .srational: return "rational64s"
        case .float: return "float"
        case .double: return "double"
        case .ifd: return "ifd"
        case .long8: return "int64u"
        case .slong8: return "int64s"
        case .ifd8: return "ifd64"
        }
    }

    /// The type for an exiftool format name (the inverse of `name`).
    public init?(name: String) {
        guard let t = TIFFType.allCases.first(where: { $0.name == name }) else { return nil }
        self = t
    }
}

/// The byte order of a TIFF structure (`MM` or `II`).
public enum TIFFByteOrder: Sendable, Hashable {
    case bigEndian, littleEndian

    /// The two marker bytes (`MM` / `II`).
    public var marker: [UInt8] { self == .bigEndian ? [0x4D, 0x4D] : [0x49, 0x49] }
}
