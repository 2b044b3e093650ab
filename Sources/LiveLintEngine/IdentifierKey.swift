import LiveModel

/// A content identifier as a ``FileSummary`` holds it: a UUID in its canonical text (8-4-4-4-12
/// hex digits, the letters all of one case, as cameras write it) as its 128 bits and that case,
/// any other text as it is. A summary then holds its identifier without an allocation of its own
/// (issue 13: a 36-character identifier string took 68 bytes requested, 80 with malloc's
/// overhead, one per pair), and pairing and the scan context compare identifiers without building
/// their text.
public struct IdentifierKey: Sendable {
    /// How the identifier is held.
    enum Form: UInt8, Sendable {
        case none
        /// A canonical UUID, its letters (if any) upper case: ``high`` and ``low``.
        case upperUUID
        /// A canonical UUID with lower-case letters.
        case lowerUUID
        /// Any other text: ``text``.
        case text
    }

    var form: Form
    var high: UInt64
    var low: UInt64
    var text: String?

    /// A key without its text: all that orders two keys but two texts.
    struct Bits {
        var form: Form
        var high: UInt64
        var low: UInt64

        /// ``IdentifierKey/compare(_:_:)`` worked out on the bits; nil when both are text.
        @inline(__always)
        static func compare(_ a: Bits, _ b: Bits) -> Int? {
            if a.form != b.form { return a.form.rawValue < b.form.rawValue ? -1 : 1 }
            if a.form == .text { return nil }
            if a.high != b.high { return a.high < b.high ? -1 : 1 }
            return threeWay(a.low, b.low)
        }
    }

    var bits: Bits { Bits(form: form, high: high, low: low) }

    init(form: Form, high: UInt64, low: UInt64, text: String?) {
        self.form = form
        self.high = high
        self.low = low
        self.text = text
    }

    /// The key of `identifier` (form `.none` for nil).
    public init(_ identifier: String?) {
        self.init(form: .none, high: 0, low: 0, text: nil)
        guard let identifier else { return }
        if let uuid = Self.parse(identifier) {
            (form, high, low) = uuid
        } else {
            form = .text
            text = identifier
        }
    }

    /// The key as a cache keeps it: its form's code, a UUID's bits and any other text
    /// (``init(code:high:low:text:)`` reads it back without parsing text again).
    public var packed: (code: UInt8, high: UInt64, low: UInt64, text: String?) { (form.rawValue, high, low, text) }

    /// A key as ``packed`` gave it; nil for anything ``init(_:)`` never makes: a code no key has,
    /// text where none belongs, bits beside no identifier or text, text that is a UUID.
    public init?(code: UInt8, high: UInt64, low: UInt64, text: String?) {
        guard let form = Form(rawValue: code), (form == .text) == (text != nil) else { return nil }
        switch form {
        case .none, .text:
            guard high == 0, low == 0, text.map({ Self.parse($0) == nil }) ?? true else { return nil }
        case .upperUUID:
            break
        case .lowerUUID:
            // A UUID of digits alone is held as upper case: a lower-case one has a letter.
            let hasLetter = (0..<16).contains { i in (high >> (4 * UInt64(i))) & 0xF >= 0xA || (low >> (4 * UInt64(i))) & 0xF >= 0xA }
            guard hasLetter else { return nil }
        }
        self.init(form: form, high: high, low: low, text: text)
    }

    /// The identifier's text, exactly as it was given.
    public var string: String? {
        switch form {
        case .none: return nil
        case .text: return text
        case .upperUUID, .lowerUUID:
            let digits = Array((form == .upperUUID ? "0123456789ABCDEF" : "0123456789abcdef").utf8)
            return String(unsafeUninitializedCapacity: 36) { out in
                var at = 0
                for nibble in 0..<32 {
                    if nibble == 8 || nibble == 12 || nibble == 16 || nibble == 20 {
                        out[at] = UInt8(ascii: "-")
                        at += 1
                    }
                    let word = nibble < 16 ? high : low
                    out[at] = digits[Int(truncatingIfNeeded: word >> (60 - 4 * UInt64(nibble % 16))) & 0xF]
                    at += 1
                }
                return 36
            }
        }
    }

    /// The bits and case of a canonical UUID of one case; nil for any other text.
    static func parse(_ identifier: String) -> (Form, UInt64, UInt64)? {
        guard let uuid = ContentIdentifier.uuid(identifier), !(uuid.hasUpper && uuid.hasLower) else { return nil }
        return (uuid.hasLower ? .lowerUUID : .upperUUID, uuid.high, uuid.low)
    }

    /// A total order of identifiers in which `compare(a, b) == 0` exactly when their texts are
    /// `==`: by form, then a UUID by its bits (the order of its text within one case) and other
    /// text as Swift orders strings. No text of another form is `==` to a UUID's: nothing outside
    /// ASCII is canonically equivalent to a hex digit or `-`. Pairing and the scan context sort
    /// and search with it; no report shows this order.
    public static func compare(_ a: IdentifierKey, _ b: IdentifierKey) -> Int {
        if let order = Bits.compare(a.bits, b.bits) { return order }
        return threeWay(a.text.unsafelyUnwrapped, b.text.unsafelyUnwrapped)
    }

    /// True when the two identifiers differ, and differ even ignoring case (`a != b &&
    /// a.uppercased() != b.uppercased()`: text `==` to another can upper-case to other
    /// scalars), worked out on the bits when both are UUIDs.
    public static func differIgnoringCase(_ a: IdentifierKey, _ b: IdentifierKey) -> Bool {
        if a.form != .text, a.form != .none, b.form != .text, b.form != .none {
            return a.high != b.high || a.low != b.low
        }
        return compare(a, b) != 0 && a.string?.uppercased() != b.string?.uppercased()
    }
}
