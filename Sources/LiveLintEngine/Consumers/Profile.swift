/// Severities tuned to one consumer (`lint --profile immich`): what breaks pairing in that app is
/// an error there. The built-in profiles are data in `Rules/Profiles.swift`, one per consumer id.
public struct Profile: Sendable, Hashable {
    /// A consumer id (``Consumers``).
    public var id: String
    /// Why these severities, for people.
    public var summary: String
    /// Rule id → the severity under this profile.
    public var severities: [String: Severity]
    /// Where each choice comes from (the consumer's sources).
    public var sources: [String]

    public init(id: String, summary: String, severities: [String: Severity], sources: [String]) {
        self.id = id
        self.summary = summary
        self.severities = severities
        self.sources = sources
    }
}

extension Configuration {
    /// This configuration with `profile`'s severities under it: a rule the configuration sets a
    /// severity for keeps it, and a rule it switches off stays off; the others take the profile's
    /// severity (which switches them on). The profile's consumer is added to ``consumers``.
    public func applying(_ profile: Profile) -> Configuration {
        var out = self
        for (id, severity) in profile.severities {
            var setting = out.rules[id] ?? RuleSetting()
            if setting.enabled == false || setting.severity != nil { continue }
            setting.severity = severity
            out.rules[id] = setting
        }
        if !out.consumers.contains(profile.id) { out.consumers.append(profile.id) }
        return out
    }
}

extension Profile {
    /// The Markdown page of `profiles` (`docs/profiles.md`): each profile's severities and sources.
    public static func documentation(_ profiles: [Profile]) -> String {
        var out = """
            # Profiles (`lint --profile NAME`)

            A profile tunes severities to one photo app, so that what breaks pairing there fails the run
            (`--fail-on` is still `error` by default). Settings in `.livelint.yml` win over the profile;
            `profile: NAME` there does the same as the option. A profile also asks for that app's verdict on
            every pair (as `--consumers NAME`). How each app pairs: [consumers.md](consumers.md).
            Generated from `Rules/Profiles.swift` (`LIVELINT_UPDATE_DOCS=1 swift test --filter ProfileTests`).

            """
        for p in profiles {
            out += "\n## `\(p.id)`\n\n\(p.summary)\n\n| rule | severity |\n|---|---|\n"
            for id in p.severities.keys.sorted() {
                out += "| [`\(id)`](rules/\(id).md) | \(p.severities[id]!.rawValue) |\n"
            }
            out += "\nSources: " + p.sources.joined(separator: "; ") + ".\n"
        }
        return out
    }
}
