import LiveModel
import LiveReaders

/// Puts an Apple makernote into a JPEG.
///
/// A JPEG without Exif gets a fresh APP1 `Exif\0\0` segment (big-endian TIFF: IFD0 with Make, Model
/// and the Exif IFD pointer; Exif IFD with ExifVersion, DateTimeOriginal and the MakerNote), inserted
/// after SOI and a leading APP0 (JFIF), written here in pure Swift. A JPEG that already has Exif is
/// edited through exiv2 (in memory) so every other value survives. The image data is never touched.
public enum JPEGExifWriter {
    /// Why a JPEG could not be written.
    public enum WriteError: Error, Sendable, Hashable, CustomStringConvertible {
        /// The input is not a JPEG (no SOI) or its segments are damaged before the image data.
        case notJPEG(String)
        /// The Exif segment would exceed JPEG's 64 KiB segment limit.
        case tooLarge(Int)
        /// A text value cannot be written as Exif ASCII.
        case invalidValue(String)
        /// exiv2 refused to edit the existing Exif.
        case exiv2(ReadIssue)

        public var description: String {
            switch self {
            case .notJPEG(let why): return "not a well-formed JPEG: \(why)"
            case .tooLarge(let n): return "the Exif segment would be \(n) bytes, more than a JPEG segment holds (65533)"
            case .invalidValue(let why): return why
            case .exiv2(let issue): return issue.description
            }
        }
    }

    /// Returns `jpeg` with `makerNote` as its Exif MakerNote, Make set to `make`, and Model and
    /// DateTimeOriginal (`YYYY:MM:DD HH:MM:SS`) set when given.
    public static func withAppleMakerNote(
        jpeg: [UInt8], makerNote: [UInt8], make: String = "Apple", model: String? = nil, dateTimeOriginal: String? = nil
    ) throws(WriteError) -> [UInt8] {
        try checkASCII(make, "Make")
        if let model { try checkASCII(model, "Model") }
        if let dateTimeOriginal {
            try checkASCII(dateTimeOriginal, "DateTimeOriginal")
            guard dateTimeOriginal.utf8.count == 19 else {
                throw .invalidValue("DateTimeOriginal \"\(dateTimeOriginal)\" is not YYYY:MM:DD HH:MM:SS")
            }
        }
        let layout = try JPEGLayout.scan(jpeg)
        if layout.hasExif {
            do {
                return try StillExifEditor.settingMakerNote(
                    inJPEG: jpeg, makerNote: makerNote, make: make, model: model, dateTimeOriginal: dateTimeOriginal)
            } catch {
                throw .exiv2(error)
            }
        }
        let segment = try exifSegment(makerNote: makerNote, make: make, model: model, dateTimeOriginal: dateTimeOriginal)
        var out: [UInt8] = []
        out.reserveCapacity(jpeg.count + segment.count)
        out += jpeg[0..<layout.insertionOffset]
        out += segment
        out += jpeg[layout.insertionOffset...]
        return out
    }

    private static func checkASCII(_ s: String, _ name: String) throws(WriteError) {
        guard s.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { throw .invalidValue("\(name) \"\(s)\" is not printable ASCII") }
    }

    /// The complete APP1 segment (marker, length, `Exif\0\0`, TIFF).
    static func exifSegment(makerNote: [UInt8], make: String, model: String?, dateTimeOriginal: String?) throws(WriteError) -> [UInt8] {
        let ascii: (String) -> [UInt8] = { Array($0.utf8) + [0] }
        var ifd0: [TIFFField] = [TIFFField(tag: 0x010F, type: 2, data: ascii(make))]
        if let model { ifd0.append(TIFFField(tag: 0x0110, type: 2, data: ascii(model))) }
        ifd0.append(TIFFField(tag: 0x8769, type: 4, data: [0, 0, 0, 0]))  // Exif IFD pointer, patched below
        var exif: [TIFFField] = [TIFFField(tag: 0x9000, type: 7, data: Array("0232".utf8))]
        if let dateTimeOriginal { exif.append(TIFFField(tag: 0x9003, type: 2, data: ascii(dateTimeOriginal))) }
        exif.append(TIFFField(tag: 0x927C, type: 7, data: makerNote))

        // TIFF header, then IFD0 and its values, then the Exif IFD and its values (offsets from the TIFF header).
        let ifd0Offset = 8
        let ifd0Size = TIFFField.ifdSize(ifd0)
        let exifOffset = ifd0Offset + ifd0Size
        if let i = ifd0.firstIndex(where: { $0.tag == 0x8769 }) { ifd0[i].data = be32(UInt32(exifOffset)) }
        var tiff: [UInt8] = [0x4D, 0x4D, 0x00, 0x2A] + be32(UInt32(ifd0Offset))
        tiff += TIFFField.ifd(ifd0, at: ifd0Offset)
        tiff += TIFFField.ifd(exif, at: exifOffset)

        let payload = Array("Exif".utf8) + [0, 0] + tiff
        let length = payload.count + 2
        guard length <= 0xFFFF else { throw .tooLarge(length) }
        return [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
    }

    static func be16(_ v: UInt16) -> [UInt8] { [UInt8(v >> 8), UInt8(v & 0xFF)] }
    static func be32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)] }
}

/// One TIFF IFD entry to write (big-endian); `data` is the value bytes.
struct TIFFField {
    var tag: UInt16
    var type: UInt16
    var data: [UInt8]

    var count: UInt32 { type == 4 ? UInt32(data.count / 4) : UInt32(data.count) }

    /// Bytes an IFD with `fields` takes, values included (each value word-aligned).
    static func ifdSize(_ fields: [TIFFField]) -> Int {
        2 + fields.count * 12 + 4 + fields.reduce(0) { $0 + ($1.data.count > 4 ? $1.data.count + $1.data.count % 2 : 0) }
    }

    /// The IFD (entries sorted by tag, next-IFD 0) followed by its out-of-line values, for an IFD at `offset`.
    static func ifd(_ fields: [TIFFField], at offset: Int) -> [UInt8] {
        let sorted = fields.sorted { $0.tag < $1.tag }
        var out = JPEGExifWriter.be16(UInt16(sorted.count))
        var valueOffset = offset + 2 + sorted.count * 12 + 4
        var values: [UInt8] = []
        for f in sorted {
            out += JPEGExifWriter.be16(f.tag) + JPEGExifWriter.be16(f.type) + JPEGExifWriter.be32(f.count)
            if f.data.count <= 4 {
                out += f.data + [UInt8](repeating: 0, count: 4 - f.data.count)
            } else {
                out += JPEGExifWriter.be32(UInt32(valueOffset))
                values += f.data
                valueOffset += f.data.count
                if f.data.count % 2 == 1 {
                    values.append(0)
                    valueOffset += 1
                }
            }
        }
        return out + [0, 0, 0, 0] + values
    }
}

/// The JPEG segment walk: from SOI to SOS, every length bounds-checked.
struct JPEGLayout {
    /// Where a new APP1 goes: after SOI, and after an APP0 (JFIF) that directly follows it.
    var insertionOffset: Int
    /// True when an APP1 segment starts with `Exif\0\0`.
    var hasExif: Bool

    static func scan(_ b: [UInt8]) throws(JPEGExifWriter.WriteError) -> JPEGLayout {
        guard b.count >= 4, b[0] == 0xFF, b[1] == 0xD8 else { throw .notJPEG("it does not start with SOI (FF D8)") }
        var pos = 2
        var insertion = 2
        var hasExif = false
        var first = true
        while true {
            guard pos < b.count else { throw .notJPEG("it ends at byte \(pos) before the image data (no SOS)") }
            guard b[pos] == 0xFF else { throw .notJPEG("expected a marker at byte \(pos), found \(MetadataValue.hex([b[pos]]))") }
            // Fill bytes: any number of 0xFF before the marker code.
            while pos < b.count && b[pos] == 0xFF { pos += 1 }
            guard pos < b.count else { throw .notJPEG("it ends inside a marker") }
            let marker = b[pos]
            pos += 1
            if marker == 0xD8 || marker == 0x00 { throw .notJPEG("unexpected marker FF \(MetadataValue.hex([marker])) at byte \(pos - 2)") }
            if marker == 0xD9 { throw .notJPEG("EOI before any image data") }
            if marker == 0x01 || (0xD0...0xD7).contains(marker) { continue }  // standalone markers carry no length
            guard pos + 2 <= b.count else { throw .notJPEG("segment FF \(MetadataValue.hex([marker])) length is cut off at byte \(pos)") }
            let length = Int(b[pos]) << 8 | Int(b[pos + 1])
            guard length >= 2 else { throw .notJPEG("segment FF \(MetadataValue.hex([marker])) at byte \(pos - 2) has length \(length)") }
            let (end, overflow) = pos.addingReportingOverflow(length)
            guard !overflow, end <= b.count else {
                throw .notJPEG("segment FF \(MetadataValue.hex([marker])) at byte \(pos - 2) runs past the end (\(length) bytes)")
            }
            if marker == 0xE1, length >= 8, Array(b[(pos + 2)..<(pos + 8)]) == Array("Exif".utf8) + [0, 0] { hasExif = true }
            if first && marker == 0xE0 { insertion = end }
            first = false
            if marker == 0xDA { return JPEGLayout(insertionOffset: insertion, hasExif: hasExif) }
            pos = end
        }
    }
}
