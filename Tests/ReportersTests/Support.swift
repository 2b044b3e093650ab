import Foundation
import Testing

/// Paths and helpers shared by the reporter tests.
enum Support {
    /// `<repo>/Tests/ReportersTests` (symlinks resolved, so a scaffold package still finds the repo).
    static let testsDirectory: URL = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath().deletingLastPathComponent()
    static let repoRoot = testsDirectory.deletingLastPathComponent().deletingLastPathComponent()
    static let goldenDirectory = testsDirectory.appendingPathComponent("Golden")
    static let sarifSchema = repoRoot.deletingLastPathComponent().appendingPathComponent("shared/schemas/sarif-schema-2.1.0.json")
    static let dumpSchema = repoRoot.appendingPathComponent("Schemas/dump.schema.json")
    static let lintSchema = repoRoot.appendingPathComponent("Schemas/lint.schema.json")

    static var updatingGolden: Bool { ProcessInfo.processInfo.environment["LIVELINT_UPDATE_GOLDEN"] == "1" }

    /// Compares `actual` with `Golden/<name>`; with `LIVELINT_UPDATE_GOLDEN=1` rewrites the file instead.
    static func expectGolden(_ actual: String, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let url = goldenDirectory.appendingPathComponent(name)
        if updatingGolden {
            try FileManager.default.createDirectory(at: goldenDirectory, withIntermediateDirectories: true)
            try Data(actual.utf8).write(to: url)
            return
        }
        guard let data = FileManager.default.contents(atPath: url.path) else {
            Issue.record(Comment(rawValue: "missing golden file \(name); run with LIVELINT_UPDATE_GOLDEN=1 to create it"),
                         sourceLocation: sourceLocation)
            return
        }
        let expected = String(decoding: data, as: UTF8.self)
        if actual != expected {
            let a = actual.split(separator: "\n", omittingEmptySubsequences: false)
            let e = expected.split(separator: "\n", omittingEmptySubsequences: false)
            let line = (0..<min(a.count, e.count)).first { a[$0] != e[$0] } ?? min(a.count, e.count)
            let got = line < a.count ? String(a[line]) : "<end>"
            let want = line < e.count ? String(e[line]) : "<end>"
            let comment = "\(name) differs at line \(line + 1):\n  expected: \(want)\n  actual:   \(got)\n"
                + "(LIVELINT_UPDATE_GOLDEN=1 rewrites golden files)"
            Issue.record(Comment(rawValue: comment), sourceLocation: sourceLocation)
        }
    }

    /// Python with `jsonschema`, or nil when either is missing (tests that need it skip).
    static let python: URL? = {
        for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let url = URL(fileURLWithPath: String(dir)).appendingPathComponent("python3")
            guard FileManager.default.isExecutableFile(atPath: url.path) else { continue }
            return (try? run(url, ["-c", "import jsonschema"], input: "").status) == 0 ? url : nil
        }
        return nil
    }()

    static var canValidate: Bool { python != nil }

    /// Validates each document against the JSON Schema at `schema` with Python's `jsonschema`
    /// (the validator class the schema's `$schema` names). `pointer` selects a sub-schema
    /// (`#/$defs/finding`). Returns the validator's complaints, empty when valid.
    static func validate(_ documents: [String], schema: URL, pointer: String? = nil) throws -> String {
        guard let python else { return "python3 with jsonschema is not available" }
        let script = """
        import json, sys, jsonschema
        schema = json.load(open(sys.argv[1], encoding="utf-8"))
        cls = jsonschema.validators.validator_for(schema)
        cls.check_schema(schema)
        target = schema
        if len(sys.argv) > 2:
            target = {"$ref": sys.argv[2]}
            target.update({k: v for k, v in schema.items() if k in ("$schema", "$defs", "definitions", "$id")})
        validator = cls(target)
        problems = []
        for i, line in enumerate(sys.stdin.read().split("\\x1e")):
            doc = json.loads(line)
            for e in validator.iter_errors(doc):
                problems.append("doc %d: %s at %s" % (i, e.message, "/".join(str(p) for p in e.absolute_path)))
        print("\\n".join(problems[:20]))
        """
        var args = ["-c", script, schema.path]
        if let pointer { args.append(pointer) }
        let result = try run(python, args, input: documents.joined(separator: "\u{1E}"))
        if result.status != 0 { return "validator failed (\(result.status)): \(result.stderr)" }
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Runs `python3 -c script` with `input` on stdin; returns stdout, or the failure.
    static func python(_ script: String, input: String) throws -> (status: Int32, stdout: String, stderr: String) {
        guard let python else { return (127, "", "python3 with jsonschema is not available") }
        return try run(python, ["-c", script], input: input)
    }

    private static func run(_ executable: URL, _ arguments: [String], input: String) throws -> (status: Int32, stdout: String, stderr: String) {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        // Write on another thread so a large input cannot dead-lock against a full stdout pipe.
        let writer = Thread {
            stdin.fileHandleForWriting.write(Data(input.utf8))
            try? stdin.fileHandleForWriting.close()
        }
        writer.start()
        let err = stderr.fileHandleForReading
        let outData = stdout.fileHandleForReading.readDataToEndOfFile()
        let errData = err.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: outData, as: UTF8.self), String(decoding: errData, as: UTF8.self))
    }
}
