import LiveLintEngine
import LiveModel

/// The still's and the movie's capture dates are far apart.
public struct CreationDateSkewRule: PairRule {
    public init() {}

    var maxSeconds: Double = 2

    public mutating func apply(options: RuleOptions) {
        maxSeconds = options.double("max-seconds") ?? maxSeconds
    }

    public static let description = RuleDescription(
        identifier: "creation-date-skew",
        name: "Creation date skew",
        summary: "The still's DateTimeOriginal and the movie's com.apple.quicktime.creationdate are more than max-seconds apart.",
        rationale: """
            Flags a pair whose still `Exif.Photo.DateTimeOriginal` and movie \
            `com.apple.quicktime.creationdate` key differ by more than `max-seconds`. When both \
            carry a time-zone offset (the still's `OffsetTimeOriginal`, the movie's ISO 8601 \
            suffix), instants are compared; otherwise wall-clock times. Dates that are missing or \
            cannot be parsed are not flagged.

            One capture writes both: in the nine camera pairs of the corpus the two wall-clock times \
            are 0 or 1 s apart (the movie starts before the still), hence the 2 s default. A large \
            skew suggests halves from different captures, or a tool that re-stamped one half (a \
            time-zone shift applied to the still only), which puts the halves apart on a timeline. \
            Off by default: no consumer is known to reject a skew.
            """,
        defaultSeverity: .warning,
        enabledByDefault: false,
        options: [
            RuleOptionDescription(name: "max-seconds", kind: .double(min: 0, max: 31_622_400), defaultValue: .double(2),
                                  summary: "The largest difference, in seconds, that is not flagged."),
        ],
        readsMetadata: [.dateTimeOriginal, .offsetTimeOriginal, .creationDate],
        triggeringExamples: [
            RuleExample(.pair(still: .jpeg(date: "2021:04:10 11:44:00"), movie: .mov(creationDate: "2021-04-10T11:44:09+0200")),
                        .finding(on: "IMG_0001.JPG", "IMG_0001.MOV", saying: "9 s", "2021:04:10 11:44:00", "2021-04-10T11:44:09+0200")),
            RuleExample(.pair(still: .jpeg(date: "2021:04:10 11:44:00", offset: "+02:00"), movie: .mov(creationDate: "2021-04-10T11:44:00Z")),
                        .finding(on: "IMG_0001.JPG", "IMG_0001.MOV", saying: "7200 s"),
                        note: "Both carry offsets: the instants are two hours apart."),
        ],
        nonTriggeringExamples: [
            RuleExample(.pair(still: .jpeg(date: "2021:04:10 11:44:00"), movie: .mov(creationDate: "2021-04-10T11:44:01+0200"))),
            RuleExample(.pair(still: .jpeg(date: "2021:04:10 11:44:00"), movie: .mov(creationDate: "2021-04-10T11:44:09+0200")),
                        options: ["max-seconds": .double(10)]),
            RuleExample(.pair(still: .jpeg(date: "2021:04:10 11:44:00", offset: "+02:00"), movie: .mov(creationDate: "2021-04-10T09:44:00Z")),
                        note: "The same instant in two time zones."),
            RuleExample(.pair(still: .jpeg(date: nil), movie: .mov()), note: "No date on the still: nothing to compare."),
        ]
    )

    public func check(pair: LivePair) -> [Violation] {
        guard let still = pair.still, let movie = pair.movie, pair.isComplete,
              let stillText = still.still?.dateTimeOriginal,
              let movieText = movie.movie?.key("com.apple.quicktime.creationdate")?.value.stringValue,
              var s = CivilTime(exif: stillText),
              let m = CivilTime(iso8601: movieText) else { return [] }
        if let offsetText = still.still?.property("Exif.Photo.OffsetTimeOriginal")?.value.stringValue {
            s.offsetSeconds = CivilTime.parseOffset(Substring(offsetText))
        }
        let apart: Int64
        if let so = s.offsetSeconds, let mo = m.offsetSeconds {
            apart = abs((s.localSeconds - Int64(so)) - (m.localSeconds - Int64(mo)))
        } else {
            apart = abs(s.localSeconds - m.localSeconds)
        }
        guard Double(apart) > maxSeconds else { return [] }
        return [Violation(
            "the still was taken '\(stillText)' and the movie created '\(movieText)': \(apart) s apart (more than \(MetadataValue.format(maxSeconds)) s)",
            files: [still.path, movie.path],
            fixHint: "Check that the two halves come from one capture; if they do, correct the date of the half that was re-stamped.")]
    }
}

/// A calendar date and time with an optional UTC offset, parsed without Foundation so that
/// results do not depend on the machine's time zone.
struct CivilTime {
    var year: Int64, month: Int64, day: Int64, hour: Int64, minute: Int64, second: Int64
    var offsetSeconds: Int?

    /// Seconds since 1970-01-01 00:00:00 of the wall-clock time (offset not applied).
    var localSeconds: Int64 {
        // Howard Hinnant's days_from_civil.
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        let days = era * 146_097 + doe - 719_468
        return days * 86_400 + hour * 3_600 + minute * 60 + second
    }

    /// `YYYY:MM:DD HH:MM:SS` (Exif), trailing sub-seconds or offsets ignored.
    init?(exif text: String) {
        guard let parsed = Self.fields(text, dateSeparator: ":") else { return nil }
        self = parsed
    }

    /// `YYYY-MM-DDTHH:MM:SS` with an optional `Z`, `±HHMM` or `±HH:MM` suffix.
    init?(iso8601 text: String) {
        guard var parsed = Self.fields(text, dateSeparator: "-") else { return nil }
        let rest = text.dropFirst(19).drop { $0 == "." || $0.isASCIIDigitCharacter }
        parsed.offsetSeconds = Self.parseOffset(rest)
        self = parsed
    }

    private init(year: Int64, month: Int64, day: Int64, hour: Int64, minute: Int64, second: Int64) {
        (self.year, self.month, self.day, self.hour, self.minute, self.second) = (year, month, day, hour, minute, second)
    }

    private static func fields(_ text: String, dateSeparator: Character) -> CivilTime? {
        let chars = Array(text.prefix(19))
        guard chars.count == 19, chars[4] == dateSeparator, chars[7] == dateSeparator,
              chars[10] == " " || chars[10] == "T", chars[13] == ":", chars[16] == ":" else { return nil }
        func number(_ r: Range<Int>) -> Int64? {
            let s = String(chars[r])
            guard s.allSatisfy(\.isASCIIDigitCharacter) else { return nil }
            return Int64(s)
        }
        guard let y = number(0..<4), let mo = number(5..<7), let d = number(8..<10),
              let h = number(11..<13), let mi = number(14..<16), let s = number(17..<19),
              (1...12).contains(mo), (1...31).contains(d), h < 24, mi < 60, s < 61 else { return nil }
        return CivilTime(year: y, month: mo, day: d, hour: h, minute: mi, second: s)
    }

    /// `Z`, `+HHMM`, `+HH:MM`, `-HH` → seconds east of UTC; nil for anything else.
    static func parseOffset(_ text: Substring) -> Int? {
        let t = text.filter { $0 != " " }
        if t == "Z" { return 0 }
        guard let sign = t.first, sign == "+" || sign == "-" else { return nil }
        let digits = t.dropFirst().filter { $0 != ":" }
        guard digits.count == 2 || digits.count == 4, digits.allSatisfy(\.isASCIIDigitCharacter),
              let hh = Int(digits.prefix(2)), let mm = Int(digits.count == 4 ? String(digits.suffix(2)) : "0"),
              hh <= 18, mm < 60 else { return nil }
        let seconds = hh * 3_600 + mm * 60
        return sign == "-" ? -seconds : seconds
    }
}

extension Character {
    fileprivate var isASCIIDigitCharacter: Bool { isASCII && isNumber }
}
