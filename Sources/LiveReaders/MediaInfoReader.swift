import CMediaInfo
import LiveModel

/// Descriptive stream properties from libmediainfo (format names, colour description, bit rates,
/// encoder) for `dump`.
///
/// One open costs about 6 ms per movie, ~70× the bytes a lint needs, so this stays out of the
/// lint path: only `dump` (and whatever asks explicitly) calls it. libmediainfo is C++: every call
/// goes through `llmi_read` in `CMediaInfo`, which loads the library on first use and catches
/// whatever it throws.
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

    /// Streams of one kind read at most.
    static let maxStreamsPerKind = 64
    /// Longest field value kept, in UTF-8 bytes (longer ones are cut and say so).
    static let maxValueBytes = 4096

    /// Reads `path` with libmediainfo. Returns nil when mediainfo recognises nothing or fails
    /// (use `readReportingFailure` to learn why).
    public static func read(path: String) -> StreamProperties? {
        readReportingFailure(path: path).properties
    }

    /// Reads `path` with libmediainfo: the properties (nil when it recognises nothing), and an
    /// issue when libmediainfo failed (threw, ran out of memory). Not recognising a file is no issue.
    public static func readReportingFailure(path: String) -> (properties: StreamProperties?, failure: ReadIssue?) {
        var values: UnsafeMutablePointer<llmi_value>?
        var count = 0
        var message: UnsafeMutablePointer<CChar>?
        let status = withQueries { queries in
            llmi_read(path, queries.baseAddress, queries.count, maxStreamsPerKind, &values, &count, &message)
        }
        defer {
            llmi_values_free(values, count)
            llmi_free(message)
        }
        switch status {
        case LLMI_OK:
            break
        case LLMI_ERR_NOT_RECOGNISED:
            return (nil, nil)
        default:
            let text = message.map { String(cString: $0) } ?? "libmediainfo failed"
            return (nil, ReadIssue(status == LLMI_ERR_IO ? .io : .malformed, text, location: "mediainfo"))
        }
        guard let values, count > 0 else { return (nil, nil) }
        var streams: [StreamProperties.Stream] = []
        for v in UnsafeBufferPointer(start: values, count: count) {
            guard v.query_index < fields.count, let textPointer = v.text else { continue }
            let (_, kindName, names) = fields[v.query_index]
            guard v.field_index < names.count, v.stream_index < maxStreamsPerKind else { continue }
            var text = String(cString: textPointer)
            // libmediainfo echoes file data (a 770 KB `ftyp` becomes a 1.3 MB CodecID_Compatible): cap it.
            if text.utf8.count > maxValueBytes {
                text = String(decoding: text.utf8.prefix(maxValueBytes), as: UTF8.self) + "… (\(text.utf8.count) bytes)"
            }
            let value = MetadataValue.KeyValue(names[v.field_index], .string(text))
            let index = Int(v.stream_index)
            if let last = streams.last, last.kind == kindName, last.index == index {
                streams[streams.count - 1].fields.append(value)
            } else {
                streams.append(.init(kind: kindName, index: index, fields: [value]))
            }
        }
        return (streams.isEmpty ? nil : StreamProperties(streams: streams), nil)
    }

    /// The field lists as C strings, alive for the duration of `body`.
    private static func withQueries<R>(_ body: (UnsafeBufferPointer<llmi_query>) -> R) -> R {
        var allocations: [UnsafeMutablePointer<CChar>] = []
        var arrays: [UnsafeMutablePointer<UnsafePointer<CChar>?>] = []
        defer {
            allocations.forEach { $0.deallocate() }
            arrays.forEach { $0.deallocate() }
        }
        var queries: [llmi_query] = []
        for (kind, _, names) in fields {
            let array = UnsafeMutablePointer<UnsafePointer<CChar>?>.allocate(capacity: names.count)
            arrays.append(array)
            for (i, name) in names.enumerated() {
                let utf8 = Array(name.utf8CString)
                let p = UnsafeMutablePointer<CChar>.allocate(capacity: utf8.count)
                p.initialize(from: utf8, count: utf8.count)
                allocations.append(p)
                array[i] = UnsafePointer(p)
            }
            queries.append(llmi_query(stream_kind: Int32(kind.rawValue), fields: UnsafePointer(array), field_count: names.count))
        }
        return queries.withUnsafeBufferPointer(body)
    }
}
