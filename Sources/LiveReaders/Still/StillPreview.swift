import CExiv2

/// An embedded preview of a still (the Exif thumbnail, a makernote or XMP preview), its bytes
/// exactly as stored: what the HTML report shows as a card's thumbnail without decoding a pixel.
public struct StillPreview: Sendable, Hashable {
    /// The preview's MIME type as exiv2 names it (`image/jpeg` for every Exif thumbnail).
    public var mimeType: String
    public var width: Int
    public var height: Int
    public var bytes: [UInt8]

    public init(mimeType: String, width: Int, height: Int, bytes: [UInt8]) {
        self.mimeType = mimeType
        self.width = width
        self.height = height
        self.bytes = bytes
    }

    /// Reads the preview of the still at `path` that best suits a thumbnail `minWidth` pixels
    /// wide (exiv2's `PreviewManager`, through the shim; read-only): nil when the file carries
    /// none within `maxBytes`, or cannot be read. Never throws, never prints.
    public static func read(path: String, maxBytes: Int = 48 * 1024, minWidth: Int = 160) -> StillPreview? {
        guard maxBytes > 0 else { return nil }
        var out: UnsafeMutablePointer<UInt8>?
        var length = 0
        var mime: UnsafeMutablePointer<CChar>?
        var width: Int32 = 0, height: Int32 = 0
        var error: UnsafeMutablePointer<CChar>?
        let status = llx_read_preview(path, maxBytes, Int32(clamping: minWidth), &out, &length, &mime, &width, &height, &error)
        defer {
            llx_free(out)
            llx_free(mime)
            llx_free(error)
        }
        guard status == LLX_OK, let out, let mime, length > 0, length <= maxBytes else { return nil }
        return StillPreview(mimeType: String(cString: mime), width: Int(width), height: Int(height),
                            bytes: Array(UnsafeBufferPointer(start: out, count: length)))
    }
}
