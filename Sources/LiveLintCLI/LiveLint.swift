import ArgumentParser
import Foundation
import LiveLintKit
import LiveReaders

/// Exit codes, the contract CI jobs gate on.
public enum LiveLintExit {
    /// Nothing at or above the failing severity; every file was read.
    public static let clean: Int32 = 0
    /// Findings at or above the failing severity.
    public static let findings: Int32 = 1
    /// Bad usage, bad configuration, unreadable input, or an internal error.
    public static let failure: Int32 = 2
}

public struct LiveLint: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "livelint",
        abstract: "Inspect and lint Apple Live Photos (a still and a movie tied by one identifier).",
        discussion: """
            A Live Photo is a still (JPEG or HEIC) whose Apple makernote tag 0x0011 holds a UUID, and a \
            QuickTime movie whose metadata key com.apple.quicktime.content.identifier holds the same UUID, \
            with a timed metadata track marking where the still sits (still-image-time).

            Examples:
              livelint lint ~/Pictures/export          Lint an exported library.
              livelint lint --format sarif -o x.sarif .  Report for code scanning.
              livelint dump IMG_0001.HEIC IMG_0001.MOV Everything one pair carries.
              livelint rules identifier-mismatch       What a rule checks, and why.
              livelint fix --dry-run ~/Pictures/export What fix would repair.

            Exit codes: 0 clean, 1 findings at or above --fail-on, 2 bad usage, unreadable input or \
            internal error.
            """,
        version: livelintVersion,
        subcommands: [LintCommand.self, DumpCommand.self, RulesCommand.self, FixCommand.self, MakeCommand.self, PackCommand.self, UnpackCommand.self, MergeCommand.self, ConvertCommand.self, CacheCommand.self],
        defaultSubcommand: nil
    )

    public init() {}

    /// Parses `arguments`, runs the command and returns the process exit code. Usage errors exit 2
    /// (not argument-parser's default 64), as documented.
    public static func runMain(_ arguments: [String]) async -> Int32 {
        // Before anything is allocated that the setting could move (issue 13: peak memory).
        HeapTrim.fixMapThreshold()
        do {
            var command = try parseAsRoot(arguments)
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
            return LiveLintExit.clean
        } catch let exit as ExitCode {
            return exit.rawValue
        } catch {
            let code = exitCode(for: error)
            let message = fullMessage(for: error)
            if code == .success {
                // --help and --version land here: they print to stdout and succeed.
                if !message.isEmpty { Terminal.out(message + "\n") }
                return LiveLintExit.clean
            }
            if !message.isEmpty { Terminal.err(message + "\n") }
            return code == .validationFailure ? LiveLintExit.failure : (code.rawValue == 1 ? LiveLintExit.failure : code.rawValue)
        }
    }
}

/// A clear, user-facing failure (bad configuration, unreadable report path): message on stderr, exit 2.
struct UserError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

extension AsyncParsableCommand {
    /// Runs `body`, turning a `UserError` or the kit's `PipelineError` into its message on stderr and exit code 2.
    func reportingUserErrors(_ body: () async throws -> Int32) async throws {
        let code: Int32
        do {
            code = try await body()
        } catch let error as UserError {
            Terminal.err("livelint: \(error.description)\n")
            throw ExitCode(LiveLintExit.failure)
        } catch let error as PipelineError {
            Terminal.err("livelint: \(error.description)\n")
            throw ExitCode(LiveLintExit.failure)
        }
        if code != 0 { throw ExitCode(code) }
    }
}
