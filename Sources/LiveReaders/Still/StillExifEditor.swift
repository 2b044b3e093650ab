import CExiv2Shim
import LiveModel

/// The one write path through exiv2: setting the MakerNote of a JPEG that already has Exif, in
/// memory. It lives here, next to the reader, so that exiv2 stays behind `LiveReaders`;
/// `LiveWriters.JPEGExifWriter` is the API to use.
public enum StillExifEditor {
    /// Returns `jpeg` with `Exif.Photo.MakerNote` set to `makerNote` (any makernote exiv2 had decoded
    /// is dropped) and Make / Model / DateTimeOriginal set when given; all other metadata is kept.
    /// Throws `.unsupported` for anything but JPEG (exiv2 0.27 cannot write HEIC).
    public static func settingMakerNote(
        inJPEG jpeg: [UInt8], makerNote: [UInt8], make: String?, model: String?, dateTimeOriginal: String?
    ) throws(ReadIssue) -> [UInt8] {
        var out: UnsafeMutablePointer<UInt8>?
        var outLength = 0
        var message: UnsafeMutablePointer<CChar>?
        let status = jpeg.withUnsafeBufferPointer { j in
            makerNote.withUnsafeBufferPointer { m in
                withOptionalCString(make) { makePointer in
                    withOptionalCString(model) { modelPointer in
                        withOptionalCString(dateTimeOriginal) { datePointer in
                            llx_jpeg_set_makernote(
                                j.baseAddress, j.count, m.baseAddress, m.count, makePointer, modelPointer, datePointer, &out, &outLength, &message)
                        }
                    }
                }
            }
        }
        defer {
            llx_free(out)
            llx_free(message)
        }
        guard status == LLX_OK, let out else {
            let text = message.map { String(cString: $0) } ?? "exiv2 could not write the MakerNote"
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

    private static func withOptionalCString<R>(_ s: String?, _ body: (UnsafePointer<CChar>?) -> R) -> R {
        guard let s else { return body(nil) }
        return s.withCString { body($0) }
    }
}
