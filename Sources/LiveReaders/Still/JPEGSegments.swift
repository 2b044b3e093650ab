import LiveModel

/// Walks a JPEG's marker segments (SOI up to SOS) to say where a damaged file breaks.
///
/// Used only when exiv2 refuses a JPEG: exiv2's messages ("Failed to read image data") say
/// what failed, not where; this says which segment, at which byte, and how much was missing.
/// Bounded: at most `maxSegments` segments, never reads past `bytes`.
enum JPEGSegments {
    static let maxSegments = 4_096

    /// A located problem in the segment structure, or nil when the header segments are whole.
    static func diagnose(_ bytes: [UInt8], fileSize: Int64) -> ReadIssue? {
        guard bytes.count >= 2, bytes[0] == 0xFF, bytes[1] == 0xD8 else {
            return ReadIssue(.malformed, "not a JPEG: it does not start with the SOI marker FF D8", location: "jpeg", offset: 0)
        }
        var offset = 2
        for _ in 0..<maxSegments {
            guard offset + 4 <= bytes.count else {
                return offset + 4 > Int(clamping: fileSize)
                    ? ReadIssue(.malformed, "the file ends after \(fileSize) bytes, before the image data (no SOS marker)",
                                location: "jpeg", offset: Int64(offset))
                    : nil
            }
            guard bytes[offset] == 0xFF else {
                return ReadIssue(.malformed, String(format0x: bytes[offset], "expected a marker (FF), found"), location: "jpeg", offset: Int64(offset))
            }
            let marker = bytes[offset + 1]
            if marker == 0xFF { offset += 1; continue }  // fill byte
            if marker == 0xD9 {
                return ReadIssue(.malformed, "end-of-image marker before any image data", location: "jpeg/EOI", offset: Int64(offset))
            }
            let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            let name = markerName(marker)
            guard length >= 2 else {
                return ReadIssue(.malformed, "segment \(name) declares a length of \(length), below its own 2-byte length field",
                                 location: "jpeg/\(name)", offset: Int64(offset))
            }
            let end = offset + 2 + length
            if Int64(end) > fileSize {
                let present = max(0, Int(clamping: fileSize) - offset - 2)
                return ReadIssue(.malformed, "the file ends inside segment \(name): it declares \(length) bytes, only \(present) are present (truncated download?)",
                                 location: "jpeg/\(name)", offset: Int64(offset))
            }
            if marker == 0xDA { return nil }  // SOS: the header segments are whole
            offset = end
        }
        return ReadIssue(.limit, "more than \(maxSegments) segments before the image data", location: "jpeg", offset: Int64(offset))
    }

    static func markerName(_ marker: UInt8) -> String {
        switch marker {
        case 0xE0...0xEF: return "APP\(marker - 0xE0)"
        case 0xC0...0xC3, 0xC5...0xC7, 0xC9...0xCB, 0xCD...0xCF: return "SOF\(marker - 0xC0)"
        case 0xC4: return "DHT"
        case 0xDB: return "DQT"
        case 0xDA: return "SOS"
        case 0xDD: return "DRI"
        case 0xFE: return "COM"
        default: return "FF" + MetadataValue.hex([marker]).uppercased()
        }
    }
}

private extension String {
    init(format0x byte: UInt8, _ prefix: String) {
        self = "\(prefix) 0x\(MetadataValue.hex([byte]))"
    }
}
