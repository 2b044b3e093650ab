import LiveLintCLI
LiveLint.main()
