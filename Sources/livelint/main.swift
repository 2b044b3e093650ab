import Foundation
import LiveLintCLI

exit(await LiveLint.runMain(Array(CommandLine.arguments.dropFirst())))
