import ArgumentParser
public struct LiveLint: ParsableCommand { public init() {} }
