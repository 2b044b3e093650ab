import Foundation
import Testing

/// `lint` and `dump` never write: the scanned tree (malformed variants, `.livp` archives, the
/// regression fixtures, a copy of the sample library) hashes the same before and after, down to
/// modification times, and gains no files.
@Suite struct ReadOnlyTests {
    @Test func lintAndDumpLeaveTheTreeUntouched() throws {
        let root = try Paths.temporaryDirectory("readonly")
        defer { try? FileManager.default.removeItem(at: root) }
        let variants = root.appendingPathComponent("variants")
        try FileManager.default.createDirectory(at: variants, withIntermediateDirectories: true)
        let mutator = Mutator(budget: .init(truncations: 3, flips: 3, boxes: 4))
        for (index, source) in ["pair/IMG_0001.JPG", "pair/IMG_0001.MOV", "library/2024/07/IMG_0200.livp", "base/hevc.mov"].enumerated() {
            let url = Paths.fixtures.appendingPathComponent(source)
            let bytes = [UInt8](try Data(contentsOf: url))
            for v in mutator.variants(of: bytes, seed: UInt64(index + 100)) {
                try Data(v.bytes).write(to: variants.appendingPathComponent("\(index)-\(v.name).\(url.pathExtension)"))
            }
        }
        try FileManager.default.copyItem(at: Paths.fixtures.appendingPathComponent("library"), to: root.appendingPathComponent("library"))
        if FileManager.default.fileExists(atPath: Paths.malformed.path) {
            try FileManager.default.copyItem(at: Paths.malformed, to: root.appendingPathComponent("malformed"))
        }
        // Stamp an old modification time on everything, so a rewrite with identical bytes still shows.
        let old = Date(timeIntervalSince1970: 1_500_000_000)
        for url in Paths.files(under: root) {
            try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: url.path)
        }

        let before = try TreeHash.snapshot(root)
        #expect(before.count > 50)
        let lint = try LiveLint.run(["lint", "--format", "json", root.path])
        #expect([0, 1, 2].contains(lint.status) && !lint.signaled, "lint: \(lint.status) \(lint.stderr.suffix(500))")
        let everyFile = Paths.files(under: root).map(\.path)
        let dump = try LiveLint.run(["dump", "--format", "json"] + everyFile)
        #expect([0, 1, 2].contains(dump.status) && !dump.signaled, "dump: \(dump.status) \(dump.stderr.suffix(500))")
        let text = try LiveLint.run(["dump"] + everyFile.prefix(40))
        #expect([0, 1, 2].contains(text.status) && !text.signaled)
        let after = try TreeHash.snapshot(root)

        #expect(after.count == before.count, "files appeared or vanished: \(Set(after.map(\.path)).symmetricDifference(before.map(\.path)))")
        let changed = zip(before, after).filter { $0 != $1 }.map { $0.0.path }
        #expect(changed.isEmpty, "changed by lint/dump: \(changed.prefix(10))")
    }
}
