import Foundation
import LiveModel

/// Google Takeout JSON sidecars: which `.json` file in a folder describes a given photo or video,
/// and what it says.
///
/// Takeout names a sidecar after its media file, but not simply (TheLastGimbus/
/// GooglePhotosTakeoutHelper `lib/extras.dart` and `lib/date_extractors/json_extractor.dart`, whose
/// matching methods this follows, and immich-go's `googlephotos` adapter):
///
/// | media | sidecar |
/// |---|---|
/// | `IMG_1234.HEIC` | `IMG_1234.HEIC.json`, since 2024 `IMG_1234.HEIC.supplemental-metadata.json` |
/// | a long name | the part before `.json` clipped to 46 characters: `…supplemental-metad.json`, `…_long_na.json` |
/// | `IMG_1234(1).HEIC` (a duplicate name) | `IMG_1234.HEIC(1).json`: the `(N)` moved before `.json` |
/// | `IMG_1234-edited.HEIC` | none: the original's, `IMG_1234.HEIC.json` |
/// | `IMG_1234.MP4`, the movie of a Live Photo | usually none: Takeout writes one for the still only |
///
/// Matching looks names up in the folder's set of `.json` names; nothing is listed or opened
/// here but the one sidecar read.
public enum TakeoutSidecars {
    /// Takeout clips a sidecar's name before `.json` to this many characters.
    public static let clippedLength = 46
    /// A sidecar is a few hundred bytes; anything past this is not read (a bad-input guard).
    public static let maxBytes = 1 << 20
    /// What Takeout appends to an edited copy's name, in the languages the helpers list
    /// (GooglePhotosTakeoutHelper `extras.dart`).
    public static let editedSuffixes = ["-edited", "-effects", "-smile", "-mix", "-bearbeitet", "-modifié",
                                        "-modificato", "-editado", "-bewerkt", "-編集済み", "-ha editado"]

    /// True for a name that can be a sidecar (`….json`, any case).
    public static func isSidecarName(_ name: String) -> Bool {
        name.utf8.count > 5 && name.lowercased().hasSuffix(".json")
    }

    /// The name of the sidecar in `sidecars` (the `.json` names of the media's folder) that
    /// describes the media file `name`, or nil. Tried in order: the exact names, the `(N)` moved
    /// and the name clipped to 46 characters, `supplemental-metadata` cut shorter, the name without
    /// its extension; then, for an edited copy, the original's.
    ///
    /// A clipped name can describe two files (`…long_name.JPG` and `…long_name.MOV` clip alike):
    /// both get the sidecar, as the importers give it to both.
    public static func match(media name: String, in sidecars: Set<String>) -> String? {
        guard !sidecars.isEmpty, !isSidecarName(name) else { return nil }
        if let found = candidates(for: name).first(where: sidecars.contains) { return found }
        // An edited copy has no sidecar of its own.
        let (stem, ext) = split(name)
        for suffix in editedSuffixes where stem.count > suffix.count && stem.lowercased().hasSuffix(suffix) {
            let original = String(stem.dropLast(suffix.count)) + ext
            if let found = candidates(for: original).first(where: sidecars.contains) { return found }
        }
        return nil
    }

    /// The sidecar names Takeout may have given `name`'s sidecar, most specific first.
    public static func candidates(for name: String) -> [String] {
        let (stem, ext) = split(name)
        // `IMG_1234(1).HEIC`: core `IMG_1234`, counter `(1)`.
        var core = stem
        var counter = ""
        if stem.hasSuffix(")"), let open = stem.lastIndex(of: "("), open > stem.startIndex {
            let digits = stem[stem.index(after: open)..<stem.index(before: stem.endIndex)]
            if !digits.isEmpty, digits.allSatisfy(\.isASCIIDigitLike) {
                core = String(stem[..<open])
                counter = String(stem[open...])
            }
        }
        let whole = core + ext
        let supplemental = "supplemental-metadata"
        var out: [String] = []
        func add(_ candidate: String) { if !out.contains(candidate) { out.append(candidate) } }
        // Exact: the media's own name, counter and all.
        add(name + "." + supplemental + ".json")
        add(name + ".json")
        // The counter moved before `.json`, unclipped and clipped.
        for base in [whole + "." + supplemental, whole] {
            add(base + counter + ".json")
            add(clip(base, clippedLength - counter.count) + counter + ".json")
            add(clip(base, clippedLength) + counter + ".json")
        }
        // `supplemental-metadata` cut anywhere (the clip length has varied between exports).
        for length in stride(from: supplemental.count - 1, through: 1, by: -1) {
            add(whole + "." + supplemental.prefix(length) + counter + ".json")
        }
        add(whole + "." + counter + ".json")
        // The name without its extension (older exports).
        add(core + counter + ".json")
        return out
    }

    /// The sidecar of the one media file at `path`, found by listing its folder (`dump`; a scan
    /// uses its own listing instead), read; nil when none matches or the folder cannot be listed.
    public static func find(forMediaAt path: String) -> TakeoutSidecar? {
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        guard let listed = try? FileManager.default.contentsOfDirectory(atPath: folder.isEmpty ? "." : folder) else { return nil }
        let names = Set(listed.filter(isSidecarName))
        guard let match = match(media: name, in: names) else { return nil }
        return read(path: folder + match, displayPath: folder + match)
    }

    /// Reads and parses the sidecar at `path` (shown as `displayPath`). Never throws: what cannot
    /// be read or used is the result's ``TakeoutSidecar/problem``, with whatever came before it.
    public static func read(path: String, displayPath: String) -> TakeoutSidecar {
        var sidecar = TakeoutSidecar(path: displayPath)
        guard let handle = FileHandle(forReadingAtPath: path) else {
            sidecar.problem = "cannot be opened: \(String(cString: strerror(errno)))"
            return sidecar
        }
        defer { try? handle.close() }
        let data: Data
        do {
            data = try handle.read(upToCount: maxBytes + 1) ?? Data()
        } catch {
            sidecar.problem = "cannot be read: \(error.localizedDescription)"
            return sidecar
        }
        return parse(data, path: displayPath)
    }

    /// Parses sidecar bytes (see ``read(path:displayPath:)``).
    public static func parse(_ data: Data, path: String) -> TakeoutSidecar {
        var sidecar = TakeoutSidecar(path: path)
        guard data.count <= maxBytes else {
            sidecar.problem = "is larger than \(maxBytes >> 20) MiB, far more than a Takeout sidecar holds: not read"
            return sidecar
        }
        guard let first = data.first(where: { !($0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D) }) else {
            sidecar.problem = "is empty"
            return sidecar
        }
        guard first == UInt8(ascii: "{") || first == UInt8(ascii: "[") else {
            sidecar.problem = "is not JSON (it starts with \(data.prefix(8).map { String(format: "%02x", $0) }.joined()))"
            return sidecar
        }
        let parsed: Any
        do {
            parsed = try JSONSerialization.jsonObject(with: data, options: [])
        } catch {
            let last = data.last(where: { !($0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D) })
            sidecar.problem = last == UInt8(ascii: "}")
                ? "is not valid JSON"
                : "is not valid JSON: it is cut short (\(data.count) bytes, no closing brace)"
            return sidecar
        }
        guard let object = parsed as? [String: Any] else {
            sidecar.problem = "is JSON but not an object"
            return sidecar
        }
        var problems: [String] = []
        if let title = object["title"] {
            if let text = title as? String { sidecar.title = text } else { problems.append("'title' is \(kind(of: title)), not a string") }
        }
        sidecar.photoTakenTime = timestamp(object, "photoTakenTime", &problems)
        sidecar.creationTime = timestamp(object, "creationTime", &problems)
        for key in ["geoData", "geoDataExif"] where sidecar.latitude == nil {
            guard let geo = object[key] else { continue }
            guard let fields = geo as? [String: Any] else {
                problems.append("'\(key)' is \(kind(of: geo)), not an object")
                continue
            }
            let lat = number(fields["latitude"])
            let lon = number(fields["longitude"])
            for (name, value, parsed) in [("latitude", fields["latitude"], lat), ("longitude", fields["longitude"], lon)]
            where value != nil && parsed == nil {
                problems.append("'\(key).\(name)' is \(kind(of: value!)), not a number")
            }
            // Takeout writes 0, 0 for "no location".
            if let lat, let lon, lat != 0 || lon != 0 {
                sidecar.latitude = lat
                sidecar.longitude = lon
            }
        }
        if !problems.isEmpty { sidecar.problem = "has fields of the wrong type: " + problems.joined(separator: "; ") }
        return sidecar
    }

    // MARK: - Helpers

    /// `name` split at its last dot: (`IMG_1234`, `.HEIC`); no dot: (name, "").
    static func split(_ name: String) -> (stem: String, ext: String) {
        guard let dot = name.lastIndex(of: "."), dot > name.startIndex else { return (name, "") }
        return (String(name[..<dot]), String(name[dot...]))
    }

    static func clip(_ text: String, _ length: Int) -> String {
        text.count > length ? String(text.prefix(max(0, length))) : text
    }

    /// `photoTakenTime.timestamp`: Takeout writes a string of digits; a number is accepted too.
    private static func timestamp(_ object: [String: Any], _ key: String, _ problems: inout [String]) -> Int64? {
        guard let field = object[key] else { return nil }
        guard let fields = field as? [String: Any] else {
            problems.append("'\(key)' is \(kind(of: field)), not an object")
            return nil
        }
        guard let value = fields["timestamp"] else { return nil }
        if let text = value as? String {
            if let seconds = Int64(text.trimmingCharacters(in: .whitespaces)) { return seconds }
            problems.append("'\(key).timestamp' is the string \"\(text.prefix(40))\", not a number of seconds")
            return nil
        }
        if let seconds = integer(value) { return seconds }
        problems.append("'\(key).timestamp' is \(kind(of: value)), not a number of seconds")
        return nil
    }

    private static func isBoolean(_ value: Any) -> Bool {
        // JSONSerialization hands booleans back as NSNumbers (which `is Bool` also matches for 0
        // and 1): a boolean's objCType is "c", a JSON number's never is.
        if let n = value as? NSNumber { return String(cString: n.objCType) == "c" }
        return false
    }

    private static func number(_ value: Any?) -> Double? {
        guard let value, !isBoolean(value), !(value is String) else { return nil }
        if let n = value as? NSNumber { return n.doubleValue }
        return value as? Double
    }

    private static func integer(_ value: Any) -> Int64? {
        guard !isBoolean(value), !(value is String), let n = value as? NSNumber else { return nil }
        let d = n.doubleValue
        guard d.rounded() == d, abs(d) < 1e15 else { return nil }
        return n.int64Value
    }

    private static func kind(of value: Any) -> String {
        if value is NSNull { return "null" }
        if isBoolean(value) { return "a boolean" }
        if value is String { return "a string" }
        if value is NSNumber { return "a number" }
        if value is [Any] { return "an array" }
        if value is [String: Any] { return "an object" }
        return "of another type"
    }
}

private extension Character {
    var isASCIIDigitLike: Bool { ("0"..."9").contains(self) }
}
