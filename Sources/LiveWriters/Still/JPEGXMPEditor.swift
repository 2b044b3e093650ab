import Foundation
import LiveModel

/// Edits the motion-photo tags in a JPEG's XMP (`APP1` segments starting with
/// `http://ns.adobe.com/xap/1.0/\0`), leaving every other segment and the image data byte for
/// byte as they were: only the XMP segments between SOI and SOS change.
///
/// The tags are those of ``MotionPhotoXMP``: the camera namespace's `MotionPhoto*` and
/// `MicroVideo*` properties (attribute or element form, `GCamera:` or `Camera:` prefix) and the
/// container directory (`Container:` or `GContainer:`). exiv2 0.27 cannot write the directory's
/// nested structures into a JPEG without re-serialising the whole packet, so the text is edited.
public enum JPEGXMPEditor {
    public enum EditError: Error, Sendable, CustomStringConvertible {
        case notJPEG(String)
        case tooLarge(Int)
        public var description: String {
            switch self {
            case .notJPEG(let why): return "not a JPEG this editor handles: \(why)"
            case .tooLarge(let n): return "the XMP would need \(n) bytes, more than one APP1 segment holds (65,533)"
            }
        }
    }

    static let xmpHeader: [UInt8] = Array("http://ns.adobe.com/xap/1.0/".utf8) + [0]

    /// A segment of the header: its marker, where it starts and its total size (marker included).
    struct Segment {
        var marker: UInt8
        var offset: Int
        var size: Int
    }

    /// The header segments (SOI excluded) up to and including SOS.
    static func segments(_ jpeg: [UInt8]) throws(EditError) -> [Segment] {
        guard jpeg.count >= 4, jpeg[0] == 0xFF, jpeg[1] == 0xD8 else { throw .notJPEG("no SOI marker") }
        var out: [Segment] = []
        var offset = 2
        while out.count < 4096 {
            guard offset + 4 <= jpeg.count, jpeg[offset] == 0xFF else { throw .notJPEG("no marker at byte \(offset)") }
            let marker = jpeg[offset + 1]
            if marker == 0xFF { offset += 1; continue }
            let length = Int(jpeg[offset + 2]) << 8 | Int(jpeg[offset + 3])
            guard length >= 2, offset + 2 + length <= jpeg.count else { throw .notJPEG("segment at byte \(offset) runs past the end") }
            out.append(Segment(marker: marker, offset: offset, size: 2 + length))
            if marker == 0xDA { return out }
            offset += 2 + length
        }
        throw .notJPEG("more than 4096 header segments")
    }

    static func isXMP(_ jpeg: [UInt8], _ s: Segment) -> Bool {
        s.marker == 0xE1 && s.size >= 4 + xmpHeader.count && Array(jpeg[(s.offset + 4)..<(s.offset + 4 + xmpHeader.count)]) == xmpHeader
    }

    /// `jpeg` with every motion-photo tag removed from its XMP (the rest of the XMP kept).
    public static func removingMotionPhoto(_ jpeg: [UInt8]) throws(EditError) -> [UInt8] {
        try editingXMP(jpeg) { MotionPhotoXMP.removingMotionTags($0, keepingOtherItems: true) }
    }

    /// `jpeg` with its motion-photo tags replaced by `description` (an `rdf:Description`, see
    /// ``MotionPhotoXMP/description(presentationTimestampUs:items:)``): added to the first XMP
    /// packet, or in a new XMP segment after the leading APP0/APP1 segments when there is none.
    public static func settingMotionPhoto(_ jpeg: [UInt8], description: String) throws(EditError) -> [UInt8] {
        var added = false
        var out = try editingXMP(jpeg) { packet in
            var text = MotionPhotoXMP.removingMotionTags(packet)
            if !added, let end = text.range(of: "</rdf:RDF>") {
                text.insert(contentsOf: description, at: end.lowerBound)
                added = true
            }
            return text
        }
        if !added {
            let segs = try segments(out)
            let insertAt = segs.prefix { $0.marker == 0xE0 || ($0.marker == 0xE1 && !isXMP(out, $0)) }.last.map { $0.offset + $0.size } ?? 2
            out.insert(contentsOf: try segment(MotionPhotoXMP.packet(description)), at: insertAt)
        }
        return out
    }

    /// An XMP APP1 segment holding `packet`.
    static func segment(_ packet: String) throws(EditError) -> [UInt8] {
        let body = xmpHeader + Array(packet.utf8)
        let length = body.count + 2
        guard length <= 65_535 else { throw .tooLarge(length) }
        return [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + body
    }

    /// Applies `edit` to the text of every XMP segment; segments whose text does not change are
    /// kept byte for byte.
    static func editingXMP(_ jpeg: [UInt8], _ edit: (String) -> String) throws(EditError) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(jpeg.count + 2048)
        out += jpeg[0..<2]
        var copied = 2
        for s in try segments(jpeg) where isXMP(jpeg, s) {
            let start = s.offset + 4 + xmpHeader.count
            let text = String(decoding: jpeg[start..<(s.offset + s.size)], as: UTF8.self)
            let edited = edit(text)
            guard edited != text else { continue }
            out += jpeg[copied..<s.offset]
            out += try segment(edited)
            copied = s.offset + s.size
        }
        out += jpeg[copied...]
        return out
    }
}

/// The motion-photo XMP livelint writes and removes (developer.android.com/media/platform/motion-photo-format).
public enum MotionPhotoXMP {
    public static let cameraNamespace = "http://ns.google.com/photos/1.0/camera/"
    public static let containerNamespace = "http://ns.google.com/photos/1.0/container/"
    public static let itemNamespace = "http://ns.google.com/photos/1.0/container/item/"

    /// An `rdf:Description` with `GCamera:MotionPhoto` 1, version 1, the presentation timestamp
    /// and a `Container:Directory` of `items` (the primary first).
    public static func description(presentationTimestampUs: Int64, items: [DirectoryItem]) -> String {
        func attr(_ name: String, _ value: String?) -> String { value.map { " Item:\(name)=\"\(escape($0))\"" } ?? "" }
        let list = items.map { item in
            "<rdf:li rdf:parseType=\"Resource\"><Container:Item" + attr("Mime", item.mime) + attr("Semantic", item.semantic)
                + attr("Length", item.length.map(String.init)) + attr("Padding", item.padding.map(String.init)) + "/></rdf:li>"
        }.joined()
        return "<rdf:Description rdf:about=\"\" xmlns:GCamera=\"\(cameraNamespace)\" xmlns:Container=\"\(containerNamespace)\""
            + " xmlns:Item=\"\(itemNamespace)\" GCamera:MotionPhoto=\"1\" GCamera:MotionPhotoVersion=\"1\""
            + " GCamera:MotionPhotoPresentationTimestampUs=\"\(presentationTimestampUs)\">"
            + "<Container:Directory><rdf:Seq>\(list)</rdf:Seq></Container:Directory></rdf:Description>"
    }

    /// `packet` without its motion-photo tags and with `description` added to its `rdf:RDF`
    /// (a whole new packet when it has no `rdf:RDF`).
    public static func settingDescription(_ description: String, in packet: String) -> String {
        var text = removingMotionTags(packet)
        guard let end = text.range(of: "</rdf:RDF>") else { return self.packet(description) }
        text.insert(contentsOf: description, at: end.lowerBound)
        return text
    }

    /// A whole XMP packet around `description`.
    public static func packet(_ description: String) -> String {
        "<?xpacket begin=\"\u{FEFF}\" id=\"W5M0MpCehiHzreSzNTczkc9d\"?><x:xmpmeta xmlns:x=\"adobe:ns:meta/\">"
            + "<rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\">\(description)</rdf:RDF></x:xmpmeta>"
            + "<?xpacket end=\"w\"?>"
    }

    static let camera = "(?:GCamera|Camera)"
    static let properties = "(?:MotionPhoto|MotionPhotoVersion|MotionPhotoPresentationTimestampUs|MicroVideo|MicroVideoVersion|MicroVideoOffset|MicroVideoPresentationTimestampUs)"
    // Attribute form, element form, the directory (any prefix), and a description left empty.
    static func regex(_ pattern: String) -> NSRegularExpression {
        try! NSRegularExpression(pattern: pattern, options: [.dotMatchesLineSeparators])
    }
    /// The camera properties, attribute form and element form.
    static let cameraPatterns = [
        regex(#"\s\#(camera):\#(properties)\s*=\s*("[^"]*"|'[^']*')"#),
        regex(#"<\#(camera):\#(properties)>[^<]*</\#(camera):\#(properties)>"#),
    ]
    /// The whole directory (any prefix).
    static let directoryPattern = regex(#"<(G?Container):Directory\b.*?</\1:Directory>"#)
    /// One directory item whose semantic is MotionPhoto (attribute form, as writers use).
    static let motionItemPattern = regex(#"<rdf:li\b[^>]*>\s*<G?Container:Item\b[^>]*\bSemantic\s*=\s*"MotionPhoto"[^>]*/>\s*</rdf:li>"#)
    /// A directory item other than the primary.
    static let secondaryItemPattern = regex(#"\bSemantic\s*=\s*"(?!Primary")[^"]*""#)
    /// A description left empty.
    static let emptyDescriptionPatterns = [
        regex(#"<rdf:Description rdf:about=""(?:\s+xmlns:\w+="[^"]*")*\s*/>"#),
        regex(#"<rdf:Description rdf:about=""(?:\s+xmlns:\w+="[^"]*")*\s*>\s*</rdf:Description>"#),
    ]
    static var patterns: [NSRegularExpression] { cameraPatterns + [directoryPattern] + emptyDescriptionPatterns }

    static func replacing(_ pattern: NSRegularExpression, in text: String) -> String {
        pattern.stringByReplacingMatches(in: text, range: NSRange(text.startIndex..., in: text), withTemplate: "")
    }

    /// `packet` without the motion-photo properties and the directory's MotionPhoto item; the
    /// directory itself goes too, unless `keepingOtherItems` and it still lists an item other than
    /// the primary (an Ultra HDR gain map, which its readers find through the directory).
    public static func removingMotionTags(_ packet: String, keepingOtherItems: Bool = false) -> String {
        var text = packet
        for pattern in cameraPatterns { text = replacing(pattern, in: text) }
        if keepingOtherItems {
            text = replacing(motionItemPattern, in: text)
            let keep = directoryPattern.matches(in: text, range: NSRange(text.startIndex..., in: text)).contains { match in
                guard let r = Range(match.range, in: text) else { return false }
                let directory = String(text[r])
                return secondaryItemPattern.firstMatch(in: directory, range: NSRange(directory.startIndex..., in: directory)) != nil
            }
            if !keep { text = replacing(directoryPattern, in: text) }
        } else {
            text = replacing(directoryPattern, in: text)
        }
        for pattern in emptyDescriptionPatterns { text = replacing(pattern, in: text) }
        return text
    }

    /// `bytes` with the motion-photo tags of every XMP packet (`<x:xmpmeta` … `</x:xmpmeta>`)
    /// overwritten by spaces, byte for byte: the file keeps its size and every offset, so a HEIC's
    /// XMP item (which exiv2 0.27 cannot rewrite) is edited where it lies. Whitespace between
    /// attributes and between elements is valid XML, so the packet stays well-formed. Returns the
    /// ranges that changed.
    public static func blankingMotionTags(in bytes: inout [UInt8]) -> [Range<Int>] {
        let open = Array("<x:xmpmeta".utf8), close = Array("</x:xmpmeta>".utf8)
        var changed: [Range<Int>] = []
        var from = 0
        while let start = find(open, in: bytes, from: from) {
            guard let end = find(close, in: bytes, from: start).map({ $0 + close.count }) else { break }
            let text = String(decoding: bytes[start..<end], as: UTF8.self)
            guard text.utf8.count == end - start else { from = end; continue }  // not clean UTF-8: leave it
            var blanked = Array(text.utf8)
            for pattern in cameraPatterns + [directoryPattern] {
                for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                    guard let r = Range(match.range, in: text) else { continue }
                    let lower = text.utf8.distance(from: text.utf8.startIndex, to: r.lowerBound)
                    let upper = text.utf8.distance(from: text.utf8.startIndex, to: r.upperBound)
                    for i in lower..<upper { blanked[i] = UInt8(ascii: " ") }
                }
            }
            if blanked != Array(bytes[start..<end]) {
                bytes.replaceSubrange(start..<end, with: blanked)
                changed.append(start..<end)
            }
            from = end
        }
        return changed
    }

    static func find(_ needle: [UInt8], in bytes: [UInt8], from: Int) -> Int? {
        guard needle.count <= bytes.count, from <= bytes.count - needle.count else { return nil }
        return bytes.withUnsafeBufferPointer { buf -> Int? in
            var i = from
            while i <= buf.count - needle.count {
                if buf[i] == needle[0] {
                    var k = 1
                    while k < needle.count, buf[i + k] == needle[k] { k += 1 }
                    if k == needle.count { return i }
                }
                i += 1
            }
            return nil
        }
    }

    static func escape(_ s: String) -> String {
        s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "\"", with: "&quot;").replacingOccurrences(of: "<", with: "&lt;")
    }
}
