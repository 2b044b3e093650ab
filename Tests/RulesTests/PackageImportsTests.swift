import Foundation
import Testing

/// Every module a target imports is declared in `Package.swift` (a target, or a product named
/// after its module), so the module graph `Package.swift` describes is the real one: SwiftPM on
/// Linux lets an undeclared import of a sibling module build when the build order happens to
/// provide it, and a later change then breaks on another machine.
@Suite struct PackageImportsTests {
    static let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Modules of the toolchain and the system, never declared.
    static let toolchain: Set<String> = [
        "Foundation", "FoundationEssentials", "Glibc", "Musl", "Darwin", "Dispatch", "Testing", "XCTest",
        "Synchronization", "_Concurrency", "os",
    ]

    struct Target {
        var name: String
        var path: String
        var dependencies: Set<String>
    }

    /// The targets of `Package.swift`, read as text: each `.target(`, `.executableTarget(`,
    /// `.testTarget(` or `.systemLibrary(` call, its `name:`, `path:` and the names of its
    /// dependencies (quoted target names and `.product(name:)`).
    static func targets() throws -> [Target] {
        let manifest = try String(contentsOf: repo.appendingPathComponent("Package.swift"), encoding: .utf8)
        let starts = try NSRegularExpression(pattern: #"\.(target|executableTarget|testTarget|systemLibrary)\("#)
        let ns = manifest as NSString
        let matches = starts.matches(in: manifest, range: NSRange(location: 0, length: ns.length))
        var out: [Target] = []
        for (i, m) in matches.enumerated() {
            let end = i + 1 < matches.count ? matches[i + 1].range.location : ns.length
            let body = ns.substring(with: NSRange(location: m.range.location, length: end - m.range.location))
            let kind = ns.substring(with: m.range(at: 1))
            guard let name = first(#"name:\s*"([^"]+)""#, in: body) else { continue }
            let folder = kind == "testTarget" ? "Tests" : "Sources"
            let path = first(#"path:\s*"([^"]+)""#, in: body) ?? "\(folder)/\(name)"
            var deps = Set<String>()
            if let list = bracketed(after: "dependencies:", in: body) {
                deps.formUnion(all(#"\.product\(name:\s*"([^"]+)""#, in: list))
                let withoutProducts = list.replacingOccurrences(of: #"\.product\([^)]*\)"#, with: "", options: .regularExpression)
                deps.formUnion(all(#""([^"]+)""#, in: withoutProducts))
            }
            out.append(Target(name: name, path: path, dependencies: deps))
        }
        return out
    }

    /// The text between the `[` that follows `label` and its matching `]`.
    static func bracketed(after label: String, in text: String) -> String? {
        guard let at = text.range(of: label), let open = text[at.upperBound...].firstIndex(of: "[") else { return nil }
        var depth = 0
        var i = open
        while i < text.endIndex {
            switch text[i] {
            case "[": depth += 1
            case "]":
                depth -= 1
                if depth == 0 { return String(text[text.index(after: open)..<i]) }
            default: break
            }
            i = text.index(after: i)
        }
        return nil
    }

    /// The modules a Swift file imports: the `import` lines of its header (everything before the
    /// first line that is not blank, a comment, an import, an attribute or a `#if` line), so an
    /// `import` inside a string further down (a Python oracle script) is not taken for one.
    static func imports(of text: String) -> [String] {
        var modules: [String] = []
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("//") || line.hasPrefix("/*") || line.hasPrefix("*") || line.hasPrefix("#") { continue }
            let words = line.split(separator: " ").filter { !$0.hasPrefix("@") && !["public", "internal", "package", "private"].contains($0) }
            guard words.first == "import", words.count >= 2 else {
                if line.hasPrefix("@") { continue }
                break
            }
            let module = words.count >= 3 && ["struct", "enum", "class", "func", "protocol", "typealias", "var", "let"].contains(String(words[1])) ? words[2] : words[1]
            modules.append(String(module.split(separator: ".").first ?? module))
        }
        return modules
    }

    static func first(_ pattern: String, in text: String) -> String? {
        all(pattern, in: text).first
    }

    static func all(_ pattern: String, in text: String) -> [String] {
        guard let re = try? NSRegularExpression(pattern: pattern, options: [.dotMatchesLineSeparators]) else { return [] }
        let ns = text as NSString
        return re.matches(in: text, range: NSRange(location: 0, length: ns.length)).map { ns.substring(with: $0.range(at: 1)) }
    }

    @Test func everyImportIsDeclared() throws {
        let targets = try Self.targets()
        #expect(targets.count >= 20, "read only \(targets.count) targets from Package.swift: is the parser stale?")
        #expect(targets.contains { $0.name == "LiveLintCLI" && $0.dependencies.contains("ArgumentParser") }, "products are not read")
        let fm = FileManager.default
        var checkedFiles = 0
        for target in targets {
            let dir = Self.repo.appendingPathComponent(target.path)
            guard let walker = fm.enumerator(atPath: dir.path) else { continue }
            for case let file as String in walker where file.hasSuffix(".swift") && !file.hasPrefix("Golden/") {
                let text = try String(contentsOf: dir.appendingPathComponent(file), encoding: .utf8)
                checkedFiles += 1
                for module in Self.imports(of: text) {
                    guard !Self.toolchain.contains(module), module != target.name else { continue }
                    #expect(target.dependencies.contains(module), "\(target.path)/\(file) imports \(module), which \(target.name) does not declare in Package.swift")
                }
            }
        }
        #expect(checkedFiles > 100, "only \(checkedFiles) Swift files were checked")
    }
}
