import Foundation
import TestSupport
import Testing

/// LIVELINT_SLOW_TESTS=1, with pre-commit and git on PATH.
enum PreCommitGate {
    static let enabled = ProcessInfo.processInfo.environment["LIVELINT_SLOW_TESTS"] == "1"
        && TestTools.which("pre-commit") != nil && TestTools.which("git") != nil
}

/// The pre-commit hook (`.pre-commit-hooks.yaml`, `scripts/pre-commit-livelint.sh`) under the
/// real `pre-commit` (PyPI), on a temporary repository of photos: a good pair commits, a broken
/// pair is refused. The hook repository is a temporary git repository holding this checkout's
/// two hook files, which pre-commit clones by path (no network).
@Suite(.serialized, .enabled(if: PreCommitGate.enabled))
struct PreCommitHookTests {
    static func sh(_ script: String, in dir: URL, env: [String: String] = [:]) throws -> ProcessRunner.Outcome {
        try ProcessRunner.run(URL(fileURLWithPath: "/bin/bash"), ["-euo", "pipefail", "-c", script], in: dir,
                              environment: env, timeout: 300)
    }

    @Test func aBrokenPairBlocksTheCommitAndAGoodOnePasses() throws {
        let binary = try #require(CLI.binary)
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let hooks = dir.appendingPathComponent("hooks"), photos = dir.appendingPathComponent("photos")
        let env = [
            "PATH": binary.deletingLastPathComponent().path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
            "PRE_COMMIT_HOME": dir.appendingPathComponent("cache").path,
            "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.invalid",
            "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.invalid",
            "GIT_CONFIG_GLOBAL": "/dev/null", "GIT_CONFIG_NOSYSTEM": "1",
        ]
        let repo = CLI.repoRoot.path
        // The hook repository: this checkout's hook files, committed.
        let made = try Self.sh("""
            mkdir -p "\(hooks.path)/scripts" "\(photos.path)"
            cp "\(repo)/.pre-commit-hooks.yaml" "\(hooks.path)/"
            cp "\(repo)/scripts/pre-commit-livelint.sh" "\(hooks.path)/scripts/"
            cd "\(hooks.path)" && git init -q && git add -A && git commit -qm hooks
            rev=$(git rev-parse HEAD)
            cd "\(photos.path)" && git init -q
            printf 'repos:\\n  - repo: %s\\n    rev: %s\\n    hooks:\\n      - id: livelint\\n' "\(hooks.path)" "$rev" > .pre-commit-config.yaml
            git add .pre-commit-config.yaml && git commit -qm config --no-verify
            pre-commit install
            """, in: dir, env: env)
        #expect(made.status == 0, "\(String(decoding: made.stderr, as: UTF8.self))")

        // A good pair commits.
        let good = try Self.sh("""
            mkdir -p 2024/05 && cp "\(repo)/Fixtures/library/2024/05/IMG_0001.JPG" "\(repo)/Fixtures/library/2024/05/IMG_0001.MOV" 2024/05/
            git add 2024 && git commit -qm good
            git log --oneline | wc -l
            """, in: photos, env: env)
        let goodOut = String(decoding: good.stdout + good.stderr, as: UTF8.self)
        #expect(good.status == 0, "\(goodOut)")
        #expect(goodOut.contains("livelint (Live Photo pairs)") && goodOut.contains("Passed"), "\(goodOut)")

        // A pair whose identifiers differ is refused; the commit does not happen.
        let broken = try Self.sh("""
            mkdir -p broken && cp "\(repo)/Fixtures/library/broken/identifier-mismatch/IMG_0101.JPG" "\(repo)/Fixtures/library/broken/identifier-mismatch/IMG_0101.MOV" broken/
            git add broken
            set +e; git commit -qm broken; status=$?; set -e
            echo "commit-status=$status"
            echo "commits=$(git log --oneline | wc -l)"
            """, in: photos, env: env)
        let brokenOut = String(decoding: broken.stdout + broken.stderr, as: UTF8.self)
        #expect(brokenOut.contains("commit-status=1"), "\(brokenOut)")
        #expect(brokenOut.contains("commits=2"), "\(brokenOut)")
        #expect(brokenOut.contains("Failed") && brokenOut.contains("identifier-mismatch"), "\(brokenOut)")

        // Only the staged photos' folders are linted: with the broken pair unstaged and a good
        // movie staged, the commit goes through although broken/ is still in the work tree.
        let other = try Self.sh("""
            git reset -q broken
            mkdir -p 2024/06 && cp "\(repo)/Fixtures/library/2024/06/"* 2024/06/
            git add 2024/06 && git commit -qm more
            git log --oneline | wc -l
            """, in: photos, env: env)
        let otherOut = String(decoding: other.stdout + other.stderr, as: UTF8.self)
        #expect(other.status == 0 && otherOut.contains("3"), "\(otherOut)")
    }
}
