import LiveModel

/// Reads a motion photo's claims from the XMP properties exiv2 returned.
///
/// The namespaces (developer.android.com/media/platform/motion-photo-format; androidx/media
/// `XmpMotionPhotoDescriptionParser` accepts both prefixes of each):
/// - camera `http://ns.google.com/photos/1.0/camera/` (`Camera:` or `GCamera:`): `MotionPhoto`,
///   `MotionPhotoVersion`, `MotionPhotoPresentationTimestampUs`, and the older `MicroVideo`,
///   `MicroVideoVersion`, `MicroVideoOffset`, `MicroVideoPresentationTimestampUs`;
/// - container `http://ns.google.com/photos/1.0/container/` (`Container:` or `GContainer:`):
///   `Directory`, an `rdf:Seq` of `Item`s with `Item:Mime`, `Item:Semantic`, `Item:Length`,
///   `Item:Padding`. exiv2 flattens it as `Xmp.Container.Directory[2]/Container:Item/Item:Length`.
enum MotionPhotoClaimsReader {
    /// Most directory items kept (a real directory has 2–4: primary, gain map, video); the count
    /// read is kept beside them, so a longer directory is reported, not trusted.
    static let maxDirectoryItems = 64

    /// The XMP namespace prefixes (as exiv2 keys spell them) of the camera and container tags.
    static let cameraPrefixes = ["Xmp.GCamera.", "Xmp.Camera."]
    static let containerPrefixes = ["Xmp.Container.", "Xmp.GContainer."]

    /// The claims in `properties`, nil when there are none; problems (a directory too long, a
    /// value that is not a number) go to `issues`, located by the XMP key.
    static func read(_ properties: [MetadataProperty], issues: inout [ReadIssue]) -> MotionPhotoClaims? {
        var claims = MotionPhotoClaims()
        var found = false
        var items: [Int: DirectoryItem] = [:]
        var highest = 0
        for p in properties where p.key.hasPrefix("Xmp.") {
            if let name = localName(p.key, prefixes: cameraPrefixes) {
                func int() -> Int64? {
                    let v = integer(p.value)
                    if v == nil { issues.append(ReadIssue(.malformed, "\(name) is '\(p.value.displayString)', not a whole number", location: "xmp/\(p.key)")) }
                    return v
                }
                switch name {
                case "MotionPhoto": claims.motionPhoto = int(); found = true
                case "MicroVideo": claims.microVideo = int(); found = true
                case "MotionPhotoVersion", "MicroVideoVersion": claims.version = int(); found = true
                case "MotionPhotoPresentationTimestampUs", "MicroVideoPresentationTimestampUs":
                    claims.presentationTimestampUs = int(); found = true
                case "MicroVideoOffset": claims.microVideoOffset = int(); found = true
                default: continue
                }
                continue
            }
            guard let (index, field) = directoryField(p.key) else { continue }
            found = true
            highest = max(highest, index)
            guard index <= maxDirectoryItems else { continue }
            var item = items[index] ?? DirectoryItem()
            switch field {
            case "Mime": item.mime = p.value.stringValue ?? p.value.displayString
            case "Semantic": item.semantic = p.value.stringValue ?? p.value.displayString
            case "Length": item.length = integer(p.value)
            case "Padding": item.padding = integer(p.value)
            default: break
            }
            items[index] = item
        }
        guard found else { return nil }
        claims.items = items.keys.sorted().map { items[$0]! }
        claims.itemCount = highest
        if highest > maxDirectoryItems {
            issues.append(ReadIssue(.limit, "the Container:Directory lists \(highest) items; only the first \(maxDirectoryItems) are read",
                                    location: "xmp/Container:Directory"))
        }
        return claims
    }

    /// `MotionPhoto` for `Xmp.GCamera.MotionPhoto`.
    static func localName(_ key: String, prefixes: [String]) -> String? {
        for prefix in prefixes where key.hasPrefix(prefix) { return String(key.dropFirst(prefix.count)) }
        return nil
    }

    /// (2, "Length") for `Xmp.Container.Directory[2]/Container:Item/Item:Length`.
    static func directoryField(_ key: String) -> (Int, String)? {
        guard let rest = localName(key, prefixes: containerPrefixes), rest.hasPrefix("Directory[") else { return nil }
        let afterBracket = rest.dropFirst("Directory[".count)
        guard let close = afterBracket.firstIndex(of: "]"), let index = Int(afterBracket[..<close]), index >= 1 else { return nil }
        let path = afterBracket[afterBracket.index(after: close)...]
        guard let last = path.split(separator: "/").last, let colon = last.lastIndex(of: ":") else { return nil }
        return (index, String(last[last.index(after: colon)...]))
    }

    /// An XMP value (text) as a whole number.
    static func integer(_ value: MetadataValue) -> Int64? {
        if let v = value.intValue { return v }
        guard let s = value.stringValue else { return nil }
        return Int64(s.trimmingCharacters(in: " \t\r\n"))
    }
}

private extension String {
    func trimmingCharacters(in set: String) -> String {
        var s = Substring(self)
        while let f = s.first, set.contains(f) { s = s.dropFirst() }
        while let l = s.last, set.contains(l) { s = s.dropLast() }
        return String(s)
    }
}
