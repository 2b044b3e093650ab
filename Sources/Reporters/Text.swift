import LiveModel

/// ANSI styling that is a no-op unless colour was asked for.
struct Style {
    var enabled: Bool

    func bold(_ s: String) -> String { wrap(s, "1") }
    func dim(_ s: String) -> String { wrap(s, "2") }
    func red(_ s: String) -> String { wrap(s, "31") }
    func yellow(_ s: String) -> String { wrap(s, "33") }
    func cyan(_ s: String) -> String { wrap(s, "36") }
    func green(_ s: String) -> String { wrap(s, "32") }

    private func wrap(_ s: String, _ code: String) -> String {
        enabled && !s.isEmpty ? "\u{1B}[\(code)m\(s)\u{1B}[0m" : s
    }
}

enum Text {
    /// Makes a file-derived string safe for a terminal and one line long: control characters
    /// (newlines, ESC, DEL, C1) become visible `\n`, `\u{1b}` escapes, so metadata cannot move
    /// the cursor or inject colour.
    static func clean(_ s: String) -> String {
        var out = ""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) {
                    out += "\\u{" + String(scalar.value, radix: 16) + "}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }

    /// A multi-line message as cleaned lines (CR, LF and CRLF all break a line).
    static func lines(_ s: String) -> [String] {
        s.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map { clean(String($0)) }
    }

    /// `clean(s)` cut to `limit` characters, ending in `…` and the full length when cut.
    static func truncate(_ s: String, _ limit: Int) -> String {
        let c = clean(s)
        guard limit > 0, c.count > limit else { return c }
        return String(c.prefix(max(1, limit - 1))) + "… (\(c.count) chars)"
    }

    /// A value for one text cell: its display string, cleaned and truncated. Bytes are cut
    /// as hex with their byte count (`62706c69… (134 bytes)`), so the size is never lost.
    static func value(_ v: MetadataValue, _ limit: Int) -> String {
        if case .bytes(let b) = v {
            return MetadataValue.hex(b, limit: max(4, (limit - 14) / 2))
        }
        return truncate(v.displayString, limit)
    }

    /// Name/value rows whose names line up across every section of a dump.
    static func facts(_ rows: [[String]], indent: String) -> [String] {
        table(rows, indent: indent, minFirstWidth: 18)
    }

    /// Seconds, readable: `0.48 s`, `1.233 s` (three decimals at most, trailing zeros dropped).
    static func seconds(_ d: Double?) -> String {
        guard let d else { return "—" }
        return number(d, decimals: 3) + " s"
    }

    static func number(_ d: Double, decimals: Int) -> String {
        guard d.isFinite else { return "\(d)" }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let r = (d * scale).rounded() / scale
        if r == 0 { return "0" }
        return MetadataValue.format(r)
    }

    /// Left-aligned columns separated by two spaces; the last column is not padded.
    /// Widths count characters (grapheme clusters), which is right for the ASCII-heavy
    /// tables here and close enough for CJK paths.
    /// `minFirstWidth` lines up name/value lists across sections.
    static func table(_ rows: [[String]], indent: String, minFirstWidth: Int = 0) -> [String] {
        guard let columns = rows.map(\.count).max(), columns > 0 else { return [] }
        var widths = Array(repeating: 0, count: columns)
        widths[0] = minFirstWidth
        for row in rows {
            for (i, cell) in row.enumerated() where i < row.count - 1 { widths[i] = max(widths[i], cell.count) }
        }
        return rows.map { tableLine($0, widths: widths, indent: indent) }
    }

    /// One row of ``table(_:indent:minFirstWidth:)``, its columns padded to `widths` (the last
    /// one not), trailing blanks trimmed.
    static func tableLine(_ row: [String], widths: [Int], indent: String) -> String {
        var line = indent
        for (i, cell) in row.enumerated() {
            if i < row.count - 1 {
                line += cell + String(repeating: " ", count: widths[i] - cell.count) + "  "
            } else {
                line += cell
            }
        }
        while line.last == " " { line.removeLast() }
        return line
    }

    /// English plural for counts in summaries: `1 error`, `2 errors`.
    static func count(_ n: Int, _ noun: String) -> String {
        "\(n) \(noun)\(n == 1 ? "" : "s")"
    }

    /// `1204` → `1,204`.
    static func thousands(_ n: Int) -> String {
        let digits = String(n.magnitude)
        var out = ""
        for (i, c) in digits.enumerated() {
            if i > 0, (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return (n < 0 ? "-" : "") + out
    }
}

/// Text handed to a sink in pieces of about `size` bytes, in order, as it is made: a
/// library-sized report is never held whole (issue 13).
public enum Pieces {
    /// Calls `body` with a function adding text; `sink` gets each piece once it reaches `size`
    /// bytes, and what is left at the end.
    public static func write(size: Int = 1 << 16, to sink: (String) -> Void, _ body: (_ add: (String) -> Void) -> Void) {
        var out = ""
        withoutActuallyEscaping(sink) { sink in
            body { text in
                out += text
                if out.utf8.count >= size {
                    sink(out)
                    out = ""
                }
            }
        }
        if !out.isEmpty { sink(out) }
    }
}
