/// Escaping for each place an untrusted string (a file name, an identifier, a QuickTime key, a
/// makernote string) can land in the HTML report. The report puts untrusted strings in exactly
/// three contexts: HTML text, a double-quoted attribute value, and the JSON data block inside
/// `<script type="application/json">`; the page's script then places them with `textContent`
/// and `setAttribute`, never as markup. No untrusted string reaches CSS: the style sheet is a
/// constant and the script sets only numbers there.
enum HTMLEscape {
    /// `s` as HTML text: `&`, `<`, `>` become entities (quotes too, so the same text is also
    /// safe in an attribute).
    static func text(_ s: String) -> String {
        var out = ""
        out.reserveCapacity(s.utf8.count)
        for scalar in s.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            case "\0": out += "\u{FFFD}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// `s` as the value of a double-quoted attribute (`title="…"`): as ``text(_:)``, plus
    /// newlines and tabs as character references so the value reads back unchanged.
    static func attribute(_ s: String) -> String {
        var out = ""
        for scalar in text(s).unicodeScalars {
            switch scalar {
            case "\n": out += "&#10;"
            case "\r": out += "&#13;"
            case "\t": out += "&#9;"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// JSON text made safe inside `<script type="application/json">…</script>`: `<`, `>` and `&`
    /// become `\u003c`, `\u003e`, `\u0026` (so neither `</script>` nor `<!--` can occur), and
    /// U+2028 / U+2029 become `\u2028` / `\u2029` (line terminators to older JavaScript parsers).
    /// Outside strings JSON holds none of these characters, so the document's value is unchanged.
    static func scriptJSON(_ json: String) -> String {
        var out = ""
        out.reserveCapacity(json.utf8.count)
        for scalar in json.unicodeScalars {
            switch scalar {
            case "<": out += "\\u003c"
            case ">": out += "\\u003e"
            case "&": out += "\\u0026"
            case "\u{2028}": out += "\\u2028"
            case "\u{2029}": out += "\\u2029"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
