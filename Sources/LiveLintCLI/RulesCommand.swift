import ArgumentParser
import LiveLintEngine
import Rules

struct RulesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rules",
        abstract: "List the rules, or explain one.",
        discussion: """
            Without an argument: every rule with its default severity, whether it is on by default, \
            and a one-line summary. With a rule id: what it flags, why it matters, its options, and \
            examples of what it does and does not flag (the same examples the test suite runs).

            Examples:
              livelint rules
              livelint rules identifier-mismatch
              livelint rules --config .livelint.yml    (severities and on/off as configured)
            """
    )

    @Argument(help: ArgumentHelp("A rule id, e.g. identifier-mismatch.", valueName: "id"))
    var id: String?

    @Option(name: .long, help: ArgumentHelp("Show severities and on/off as this configuration sets them.", valueName: "file"))
    var config: String?

    func run() async throws {
        try await reportingUserErrors {
            if let id {
                guard let text = RuleDocumentation.detail(id, in: builtinRegistry) else {
                    let known = builtinRegistry.rules.map { $0.description.identifier }
                    let close = known.filter { $0.contains(id) || id.contains($0) }
                    let hint = close.isEmpty ? "run `livelint rules` for the list" : "did you mean \(close.joined(separator: ", "))?"
                    throw UserError("no rule named '\(id)': \(hint)")
                }
                Terminal.out(text)
                return LiveLintExit.clean
            }
            var configuration: Configuration?
            if let config {
                do { configuration = try Configuration.load(from: config, rules: builtinRules) } catch {
                    throw UserError("bad configuration: \(error)")
                }
            }
            Terminal.out(RuleDocumentation.table(for: builtinRegistry, configuration: configuration))
            return LiveLintExit.clean
        }
    }
}
