import Foundation
import LiveModel

/// Rule documentation, generated from ``RuleDescription``s only: the Markdown pages under
/// `docs/rules/` and the plain text of `livelint rules` / `livelint rules ID`.
public enum RuleDocumentation {
    // MARK: Markdown pages

    /// Every page to write under `docs/rules/`, keyed by file name (`<id>.md`, plus `README.md`).
    public static func pages(for registry: RuleRegistry) -> [String: String] {
        var pages = ["README.md": index(for: registry)]
        for rule in registry.rules { pages["\(rule.description.identifier).md"] = page(for: rule) }
        return pages
    }

    /// `docs/rules/README.md`: a table of every rule linking to its page.
    public static func index(for registry: RuleRegistry) -> String {
        var out = "# livelint rules\n\n"
        out += "Generated from the rule descriptions in `Rules/`; do not edit by hand "
        out += "(regenerate with `LIVELINT_UPDATE_DOCS=1 swift test --filter RulesTests`).\n\n"
        out += "Change a rule's severity, turn it on or off, or set its options in `.livelint.yml`:\n\n"
        out += "```yaml\nversion: 1\nrules:\n  orphan-still: off\n  identifier-case-mismatch: error\n"
        out += "  creation-date-skew: { enabled: true, max-seconds: 5 }\n```\n\n"
        out += "| Rule | Default severity | On by default | Scope | Summary |\n|---|---|---|---|---|\n"
        for rule in registry.rules {
            let d = rule.description
            out += "| [`\(d.identifier)`](\(d.identifier).md) | \(d.defaultSeverity.rawValue) | "
            out += "\(d.enabledByDefault ? "yes" : "no") | \(RuleScope.of(rule).rawValue) | \(cell(d.summary)) |\n"
        }
        return out
    }

    /// The repository's notes on the format (`docs/live-photo-format.md`), which rationales cite
    /// by file name and section (`live-photo-format.md, "The movie"`).
    public static let formatNotes = "live-photo-format.md"

    /// `docs/rules/<id>.md`.
    public static func page(for rule: any Rule.Type) -> String {
        let d = rule.description
        var out = "# `\(d.identifier)`\n\n"
        out += "**\(d.name)**: \(d.summary)\n\n"
        out += "| | |\n|---|---|\n"
        out += "| Default severity | \(d.defaultSeverity.rawValue) |\n"
        out += "| On by default | \(d.enabledByDefault ? "yes" : "no") |\n"
        out += "| Scope | \(RuleScope.of(rule).rawValue) (\(scopeText(RuleScope.of(rule)))) |\n"
        if !d.aliases.isEmpty {
            out += "| Former names | \(d.aliases.map { "`\($0)`" }.joined(separator: ", ")) |\n"
        }
        out += "\n## Why\n\n\(d.rationale.trimmingTrailingNewlines)\n\n"
        if d.rationale.contains(formatNotes) {
            out += "The format facts cited as `\(formatNotes)` are in [`docs/\(formatNotes)`](../\(formatNotes)), "
            out += "section by section, with their sources.\n\n"
        }
        out += "## Options\n\n"
        if d.options.isEmpty {
            out += "None besides `enabled` and `severity`.\n\n"
        } else {
            out += "| Option | Value | Default | Meaning |\n|---|---|---|---|\n"
            for o in d.options {
                out += "| `\(o.name)` | \(o.expected) | `\(o.defaultValue)` | \(cell(o.summary)) |\n"
            }
            out += "\n"
        }
        out += "## Configuration\n\n```yaml\nversion: 1\nrules:\n"
        out += "  \(d.identifier): \(configurationExample(d))\n```\n\n"
        out += "## Examples\n\n"
        out += "Each example is a scan given as model values; the lines after `→` are what the rule reports on it"
        if (d.triggeringExamples + d.nonTriggeringExamples).contains(where: { !$0.repairs.isEmpty }) {
            out += ", and `repair:` what `livelint fix` does about it (the repair the finding carries)"
        }
        out += ".\n\n"
        out += "### Flagged\n\n"
        for example in d.triggeringExamples { out += markdown(example, rule: rule) }
        out += "### Not flagged\n\n"
        for example in d.nonTriggeringExamples { out += markdown(example, rule: rule) }
        return out.trimmingTrailingNewlines + "\n"
    }

    private static func configurationExample(_ d: RuleDescription) -> String {
        if !d.options.isEmpty {
            let opts = d.options.map { "\($0.name): \($0.defaultValue)" }.joined(separator: ", ")
            return "{ enabled: true, severity: \(d.defaultSeverity.rawValue), \(opts) }"
        }
        return d.enabledByDefault ? "off" : d.defaultSeverity.rawValue
    }

    private static func markdown(_ example: RuleExample, rule: any Rule.Type) -> String {
        var out = ""
        if let note = example.note { out += "\(note)\n\n" }
        out += "```text\n" + exampleText(example, rule: rule) + "```\n\n"
        return out
    }

    // MARK: Plain text for `livelint rules`

    /// `livelint rules`: one line per rule (id, severity, on/off, summary). With a configuration,
    /// severities and on/off are the effective ones.
    public static func table(for registry: RuleRegistry, configuration: Configuration? = nil) -> String {
        var rows: [[String]] = [["ID", "SEVERITY", "ENABLED", "SUMMARY"]]
        for rule in registry.rules {
            let d = rule.description
            let setting = configuration?.rules[d.identifier]
            let enabled = setting.map { $0.enabled ?? true } ?? d.enabledByDefault
            let severity = setting?.severity ?? d.defaultSeverity
            rows.append([d.identifier, severity.rawValue, enabled ? "on" : "off", d.summary])
        }
        var widths = [0, 0, 0]
        for row in rows { for i in 0..<3 { widths[i] = max(widths[i], row[i].count) } }
        return rows.map { row in
            (0..<3).map { row[$0].padding(to: widths[$0]) }.joined(separator: "  ") + "  " + row[3]
        }.joined(separator: "\n") + "\n"
    }

    /// `livelint rules ID`: the full description with examples, or nil for an unknown id.
    public static func detail(_ id: String, in registry: RuleRegistry) -> String? {
        guard let rule = registry.rule(id) else { return nil }
        let d = rule.description
        var out = "\(d.identifier): \(d.name)\n\n\(d.summary)\n\n"
        out += "Default severity: \(d.defaultSeverity.rawValue)\n"
        out += "On by default:    \(d.enabledByDefault ? "yes" : "no")\n"
        out += "Scope:            \(RuleScope.of(rule).rawValue) (\(scopeText(RuleScope.of(rule))))\n"
        if !d.aliases.isEmpty { out += "Former names:     \(d.aliases.joined(separator: ", "))\n" }
        out += "Documentation:    \(d.documentation)\n\n"
        out += "Why:\n\(indent(d.rationale.trimmingTrailingNewlines, by: 2))\n\n"
        if !d.options.isEmpty {
            out += "Options:\n"
            for o in d.options {
                out += "  \(o.name) (\(o.expected); default \(o.defaultValue)): \(o.summary)\n"
            }
            out += "\n"
        }
        out += "Flagged:\n"
        for example in d.triggeringExamples { out += textExample(example, rule: rule) }
        out += "Not flagged:\n"
        for example in d.nonTriggeringExamples { out += textExample(example, rule: rule) }
        return out.trimmingTrailingNewlines + "\n"
    }

    private static func textExample(_ example: RuleExample, rule: any Rule.Type) -> String {
        var out = ""
        if let note = example.note { out += "  # \(note)\n" }
        out += indent(exampleText(example, rule: rule).trimmingTrailingNewlines, by: 2) + "\n\n"
        return out
    }

    // MARK: Shared rendering

    /// An example as text: its options, one line per file, then `→` and each finding the rule
    /// reports on it (or `→ nothing`), then `repair:` and each repair the findings carry. The
    /// findings and repairs come from running the example.
    public static func exampleText(_ example: RuleExample, rule: any Rule.Type) -> String {
        var out = ""
        if !example.options.isEmpty {
            out += "options: " + example.options.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }
                .joined(separator: ", ") + "\n"
        }
        for file in example.files { out += describe(file).map { $0 + "\n" }.joined() }
        let findings: [Finding]
        do {
            findings = try example.run(rule)
        } catch {
            return out + "→ (example cannot run: \(error))\n"
        }
        if findings.isEmpty { return out + "→ nothing\n" }
        for f in findings {
            out += "→ \(f.severity.rawValue) \(f.ruleID): \(f.message)\n"
            if let hint = f.fixHint { out += "  fix: \(hint)\n" }
        }
        // The repairs the findings carry, as `livelint fix` applies them.
        for repair in (try? example.runRepairs(rule)) ?? [] { out += "  repair: \(repair)\n" }
        return out
    }

    /// One line (plus one per `.livp` member) saying what a model file holds, as rules see it.
    /// `motion photo (google-motion-photo): claims a 1000000-byte video at byte 3000000, holds …`.
    static func describe(_ m: MotionPhotoInfo) -> String {
        var text = "motion photo (\(m.format.rawValue))"
        if let o = m.declaredVideoOffset, let l = m.declaredVideoLength {
            text += ": claims a \(l)-byte video at byte \(o)"
        } else if m.declared.promisesVideo {
            text += ": claims a video, names no place"
        }
        if let o = m.videoOffset, let l = m.videoLength {
            text += "; holds a \(l)-byte video at byte \(o)"
            if let d = m.duration { text += ", \(MetadataValue.format(d)) s" }
            if let v = m.video?.video {
                text += ", \(v.codec)"
                if let c = v.chroma { text += " \(c)" }
                if let b = v.bitDepth { text += " \(b)-bit" }
            }
        } else {
            text += "; holds no video"
        }
        if let t = m.presentationTime { text += "; presentation time \(MetadataValue.format(t)) s" }
        return text
    }

    public static func describe(_ file: MediaFile, indent: String = "") -> [String] {
        var facts: [String] = [file.kind.rawValue, file.format.rawValue]
        if let e = file.error {
            facts.append("unreadable (\(e.category.rawValue)): \(e.description)")
        }
        if let s = file.still {
            if let w = s.width, let h = s.height { facts.append("\(w)×\(h)") }
            if let o = s.property("Exif.Image.Orientation")?.value.intValue { facts.append("orientation \(o)") }
            if s.makerNote == nil {
                facts.append("no Apple makernote")
            } else if let id = s.contentIdentifier {
                facts.append("identifier \(id)")
            } else {
                facts.append("makernote without 0x0011")
            }
            if let d = s.dateTimeOriginal {
                let offset = s.property("Exif.Photo.OffsetTimeOriginal")?.value.stringValue
                facts.append("taken \(d)" + (offset.map { " \($0)" } ?? ""))
            }
            if let m = s.motionPhoto { facts.append(describe(m)) }
        }
        if let m = file.movie {
            facts.append("\(MetadataValue.format(m.duration)) s")
            if let v = m.video {
                var video = "\(v.codec) \(v.width)×\(v.height)"
                if let c = v.chroma { video += " \(c)" }
                if let b = v.bitDepth { video += " \(b)-bit" }
                if v.rotation != 0 { video += " rotated \(MetadataValue.format(v.rotation))°" }
                facts.append(video)
            } else {
                facts.append("no video")
            }
            facts.append(m.contentIdentifier.map { "identifier \($0)" } ?? "no identifier")
            if let sit = m.stillImageTime {
                var text = "still-image-time "
                text += sit.presentationTime.map { "at \(MetadataValue.format($0)) s" } ?? "never presented"
                text += " (\(sit.dataType.map(WellKnownDataType.name) ?? "no type")"
                if let size = sit.payloadSize { text += ", \(size) byte\(size == 1 ? "" : "s")" }
                text += ", \(sit.sampleCount) sample\(sit.sampleCount == 1 ? "" : "s"))"
                facts.append(text)
            } else {
                facts.append("no still-image-time track")
            }
            if let c = m.key("com.apple.quicktime.creationdate")?.value.displayString { facts.append("created \(c)") }
        }
        var lines = ["\(indent)\(file.path): " + facts.joined(separator: ", ")]
        for member in file.members ?? [] { lines += describe(member, indent: indent + "  ") }
        return lines
    }

    private static func scopeText(_ scope: RuleScope) -> String {
        switch scope {
        case .file: return "looks at each file"
        case .pair: return "looks at each pair or lone half"
        case .scan: return "looks at the whole scan"
        }
    }

    private static func cell(_ s: String) -> String {
        s.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ")
    }

    private static func indent(_ s: String, by n: Int) -> String {
        let pad = String(repeating: " ", count: n)
        return s.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.isEmpty ? "" : pad + $0 }.joined(separator: "\n")
    }
}

extension String {
    fileprivate var trimmingTrailingNewlines: String {
        var s = self
        while s.last == "\n" { s.removeLast() }
        return s
    }

    fileprivate func padding(to width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
