import CExiv2
import LiveModel

/// The write paths through exiv2: setting the MakerNote of a JPEG that already has Exif, and of a
/// bare Exif TIFF structure (a HEIC's Exif item), in memory. They live here, next to the reader,
/// so that exiv2 stays behind `LiveReaders`; `LiveWriters.JPEGExifWriter` and
/// `LiveWriters.HEICExifRewriter` are the APIs to use.
public enum StillExifEditor {
    /// Returns `jpeg` with `Exif.Photo.MakerNote` set to `makerNote` (any makernote exiv2 had decoded
    /// is dropped) and Make / Model / DateTimeOriginal set when given; all other metadata is kept.
    /// Throws `.unsupported` for anything but JPEG (exiv2 0.27 cannot write HEIC).
    public static func settingMakerNote(
        inJPEG jpeg: [UInt8], makerNote: [UInt8], make: String?, model: String?, dateTimeOriginal: String?
    ) throws(ReadIssue) -> [UInt8] {
        try edited(failing: "exiv2 could not write the MakerNote") { out, outLength, message in
            jpeg.withUnsafeBufferPointer { j in
                makerNote.withUnsafeBufferPointer { m in
                    withOptionalCString(make) { makePointer in
                        withOptionalCString(model) { modelPointer in
                            withOptionalCString(dateTimeOriginal) { datePointer in
                                llx_jpeg_set_makernote(
                                    j.baseAddress, j.count, m.baseAddress, m.count, makePointer, modelPointer, datePointer, out, outLength, message)
                            }
                        }
                    }
                }
            }
        }
    }

    /// Returns a bare Exif TIFF structure (starting `MM\0*` or `II*\0`) re-encoded by exiv2 in its
    /// own byte order, with any makernote exiv2 decoded dropped, `Exif.Photo.MakerNote` set to
    /// `makerNote` (removed when nil), and `Exif.Image.Make` set to `makeIfAbsent` when given and
    /// the TIFF has no Make. Other tags are kept. Throws `.malformed` for bytes that are not a TIFF,
    /// `.unsupported` for what exiv2 cannot handle.
    public static func settingMakerNote(inTIFF tiff: [UInt8], makerNote: [UInt8]?, makeIfAbsent: String?) throws(ReadIssue) -> [UInt8] {
        try edited(failing: "exiv2 could not rewrite the Exif") { out, outLength, message in
            tiff.withUnsafeBufferPointer { t in
                withOptionalBytes(makerNote) { m, mCount in
                    withOptionalCString(makeIfAbsent) { make in
                        llx_tiff_set_makernote(t.baseAddress, t.count, m, mCount, make, out, outLength, message)
                    }
                }
            }
        }
    }

    /// Runs one exiv2 edit: its bytes, or its failure as a `ReadIssue` located at `exiv2`
    /// (`fallback` when exiv2 gave no message).
    private static func edited(
        failing fallback: String,
        _ call: (UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>, UnsafeMutablePointer<Int>,
                 UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> llx_status
    ) throws(ReadIssue) -> [UInt8] {
        var out: UnsafeMutablePointer<UInt8>?
        var outLength = 0
        var message: UnsafeMutablePointer<CChar>?
        let status = call(&out, &outLength, &message)
        defer {
            llx_free(out)
            llx_free(message)
        }
        guard status == LLX_OK, let out else {
            let text = message.map { String(cString: $0) } ?? fallback
            let category: ReadIssue.Category
            switch status {
            case LLX_ERR_IO: category = .io
            case LLX_ERR_NOT_IMAGE: category = .notMedia
            case LLX_ERR_UNSUPPORTED: category = .unsupported
            default: category = .malformed
            }
            throw ReadIssue(category, text, location: "exiv2")
        }
        return Array(UnsafeBufferPointer(start: out, count: outLength))
    }

    private static func withOptionalBytes<R>(_ bytes: [UInt8]?, _ body: (UnsafePointer<UInt8>?, Int) -> R) -> R {
        guard let bytes else { return body(nil, 0) }
        // A non-NULL pointer even for an empty makernote: NULL means "remove".
        if bytes.isEmpty { return withUnsafePointer(to: UInt8(0)) { body($0, 0) } }
        return bytes.withUnsafeBufferPointer { body($0.baseAddress, $0.count) }
    }

    private static func withOptionalCString<R>(_ s: String?, _ body: (UnsafePointer<CChar>?) -> R) -> R {
        guard let s else { return body(nil) }
        return s.withCString { body($0) }
    }
}
