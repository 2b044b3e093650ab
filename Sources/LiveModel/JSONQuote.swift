/// A string as a JSON string literal: `"` and `\` behind a backslash, control characters as
/// `\b \t \n \f \r` or `\u00xx` (lower-case hex), everything else as it is; DEL (U+007F) as
/// `\u007f` when asked. The reports escape DEL (a terminal or a log viewer shows it raw); the
/// baseline leaves it, as JSONEncoder does, so that `lint --write-baseline` writes JSONEncoder's
/// bytes. One quoting for both (the reports' `JSON.quote`, `Baseline.writeJSON`).
public enum JSONQuote {
    /// True for a byte that the quoting escapes.
    @inlinable public static func needsEscape(_ byte: UInt8, escapingDelete: Bool) -> Bool {
        byte < 0x20 || byte == 0x22 || byte == 0x5C || (escapingDelete && byte == 0x7F)
    }

    /// Appends `s`, quoted, to `out`.
    @inlinable public static func append(_ s: String, to out: inout String, escapingDelete: Bool) {
        out += "\""
        // Nearly every string (paths, identifiers, messages) needs no escape: appended whole. Its
        // bytes are checked in place (an iterator over the UTF-8 view cost 1.5 % of a cached run).
        let plain = s.utf8.withContiguousStorageIfAvailable { !$0.contains { needsEscape($0, escapingDelete: escapingDelete) } }
            ?? !s.utf8.contains { needsEscape($0, escapingDelete: escapingDelete) }
        if plain {
            out += s
            out += "\""
            return
        }
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            default:
                if scalar.value < 0x20 || (escapingDelete && scalar.value == 0x7F) {
                    let h = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - h.count) + h
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
    }
}
