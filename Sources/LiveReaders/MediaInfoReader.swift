import CMediaInfo
import LiveModel

/// Descriptive stream properties from libmediainfo (format names, colour description, bit rates,
/// encoder) for `dump`.
///
/// One open costs about 6 ms per movie, ~70× the bytes a lint needs, so this stays out of the
/// lint path: only `dump` (and whatever asks explicitly) calls it.
public enum MediaInfoReader {
    /// The fields shown per stream kind, in display order (mediainfo's own field names).
    static let fields: [(LLMediaInfoStream, String, [String])] = [
        (LLMediaInfoStreamGeneral, "General", [
            "Format", "Format_Profile", "CodecID", "CodecID_Compatible", "FileSize", "Duration",
            "OverallBitRate", "FrameRate", "Encoded_Date", "Tagged_Date", "Encoded_Application",
            "Encoded_Library", "Make", "Model",
        ]),
        (LLMediaInfoStreamVideo, "Video", [
            "ID", "Format", "Format_Profile", "Format_Level", "Format_Tier", "CodecID", "Width", "Height",
            "DisplayAspectRatio", "Rotation", "FrameRate_Mode", "FrameRate", "FrameCount", "Duration", "BitRate",
            "ColorSpace", "ChromaSubsampling", "BitDepth", "colour_range", "colour_primaries",
            "transfer_characteristics", "matrix_coefficients", "Encoded_Library_Name", "HDR_Format",
        ]),
        (LLMediaInfoStreamAudio, "Audio", [
            "ID", "Format", "Format_Profile", "CodecID", "Channels", "ChannelLayout", "SamplingRate",
            "BitDepth", "BitRate", "Duration",
        ]),
        (LLMediaInfoStreamOther, "Other", ["ID", "Type", "Format", "CodecID", "Duration", "FrameCount"]),
        (LLMediaInfoStreamImage, "Image", ["Format", "Width", "Height", "ColorSpace", "ChromaSubsampling", "BitDepth"]),
    ]

    /// Reads `path` with libmediainfo. Returns nil when mediainfo recognises nothing.
    public static func read(path: String) -> StreamProperties? {
        guard let handle = MediaInfoA_New() else { return nil }
        defer { MediaInfoA_Delete(handle) }
        _ = MediaInfoA_Option(handle, "Internet", "No")
        _ = MediaInfoA_Option(handle, "ParseSpeed", "0.3")
        guard MediaInfoA_Open(handle, path) != 0 else { return nil }
        defer { MediaInfoA_Close(handle) }

        var streams: [StreamProperties.Stream] = []
        for (kind, name, names) in fields {
            // Stream number (size_t)-1 asks for the number of streams of this kind (size_t is Int in Swift).
            let count = min(MediaInfoA_Count_Get(handle, kind, -1), 64)
            for index in 0..<count {
                var values: [MetadataValue.KeyValue] = []
                for field in names {
                    guard let raw = MediaInfoA_Get(handle, kind, index, field, LLMediaInfoInfoText, LLMediaInfoInfoName)
                    else { continue }
                    let text = String(cString: raw)
                    if !text.isEmpty { values.append(.init(field, .string(text))) }
                }
                if !values.isEmpty { streams.append(.init(kind: name, index: index, fields: values)) }
            }
        }
        return streams.isEmpty ? nil : StreamProperties(streams: streams)
    }
}
