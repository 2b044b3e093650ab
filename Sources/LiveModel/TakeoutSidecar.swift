/// A Google Takeout JSON sidecar as livelint reads it: the file beside a photo or video
/// (`IMG_1234.HEIC.json`, `IMG_1234.HEIC.supplemental-metadata.json`, names clipped to 46
/// characters, `(N)` moved before `.json`) holding what Google Photos knew of it. Importers that
/// work from Takeout (immich-go, Google Photos Takeout Helper) date and place files by it; Takeout
/// writes one for the still of a Live Photo only (simulot/immich-go PR #1432;
/// TheLastGimbus/GooglePhotosTakeoutHelper#460).
public struct TakeoutSidecar: Sendable, Hashable {
    /// The sidecar's display path.
    public var path: String
    /// `title`: the media's original name, unclipped.
    public var title: String?
    /// `photoTakenTime.timestamp`: when the photo or video was taken, in Unix seconds (UTC).
    public var photoTakenTime: Int64?
    /// `creationTime.timestamp`: when it was uploaded, in Unix seconds.
    public var creationTime: Int64?
    /// `geoData` latitude and longitude, when not both zero (Takeout writes 0, 0 for "none").
    public var latitude: Double?
    public var longitude: Double?
    /// Why the sidecar could not be used (not JSON, cut short, too large, a field of the wrong
    /// type); nil when it read cleanly. What could be read before the problem is kept.
    public var problem: String?

    public init(path: String, title: String? = nil, photoTakenTime: Int64? = nil, creationTime: Int64? = nil,
                latitude: Double? = nil, longitude: Double? = nil, problem: String? = nil) {
        self.path = path
        self.title = title
        self.photoTakenTime = photoTakenTime
        self.creationTime = creationTime
        self.latitude = latitude
        self.longitude = longitude
        self.problem = problem
    }
}

extension TakeoutSidecar {
    /// `photoTakenTime` as `2021-04-10 09:44:00 UTC`, or nil.
    public var photoTakenText: String? { photoTakenTime.map(Self.utcText) }

    /// Unix seconds as a UTC date and time, computed without the C library or a locale
    /// (Howard Hinnant's days-to-civil algorithm).
    public static func utcText(_ seconds: Int64) -> String {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
        func two(_ v: Int64) -> String { v < 10 ? "0\(v)" : "\(v)" }
        let y = year >= 0 && year < 10_000 ? String(repeating: "0", count: 4 - String(year).count) + String(year) : String(year)
        return "\(y)-\(two(month))-\(two(day)) \(two(secondOfDay / 3600)):\(two(secondOfDay / 60 % 60)):\(two(secondOfDay % 60)) UTC"
    }
}
