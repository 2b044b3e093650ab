import Foundation
import LiveModel
import LiveReaders
import Testing

/// The mutation sweep: damaged copies of every fixture (and of corpus files when present) are
/// linted and dumped by the built `livelint`; it must exit 0, 1 or 2 (never die of a signal),
/// print valid JSON naming every file, and finish in bounded time. Each variant is then read
/// in-process through `MediaInspector` and timed, and the slowest is reported.
///
/// `LIVELINT_SWEEP=full` sweeps every corpus file with a larger budget (minutes, not for CI).
@Suite(.serialized) struct MutationSweepTests {
    static let full = ProcessInfo.processInfo.environment["LIVELINT_SWEEP"] == "full"

    /// Sources of the default sweep: one of each kind the readers handle, all tiny.
    static let fixtureSources = [
        "pair/IMG_0001.JPG", "pair/IMG_0001.MOV", "base/h264.mp4", "base/hevc.mov", "base/hevc-422-10bit.mov",
        "library/2024/07/IMG_0200.livp", "library/broken/extension-mismatch/IMG_0114.HEIC",
        "library/broken/still-image-time-out-of-range/IMG_0105.MOV",
    ]
    /// Small corpus files of each kind (real makernotes, HEIC item boxes, Apple mebx tracks).
    static let corpusSources = [
        "exiftool/Apple.jpg", "LivePhotoBridge/IMG_0022.JPG", "metadata-extractor-images/IMG_2927.HEIC",
        "photoprism/quicktime-hvc1.mov", "nom-exif/meta.mov",
    ]

    static func sources() -> [URL] {
        var urls = fixtureSources.map { Paths.fixtures.appendingPathComponent($0) }
        if Paths.corpusPresent {
            if full {
                urls += Paths.files(under: Paths.corpus).filter { !["json", "md"].contains($0.pathExtension.lowercased()) }
            } else {
                urls += corpusSources.map { Paths.corpus.appendingPathComponent($0) }
            }
        }
        return urls.filter { FileManager.default.fileExists(atPath: $0.path) }
    }

    /// Writes every variant of every source into `dir`; returns the file names written.
    static func writeVariants(into dir: URL, budget: Mutator.Budget) throws -> [String] {
        var names: [String] = []
        let mutator = Mutator(budget: budget)
        for (index, source) in sources().enumerated() {
            let bytes = [UInt8](try Data(contentsOf: source))
            let stem = source.deletingPathExtension().lastPathComponent.filter { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
            let ext = source.pathExtension
            for variant in mutator.variants(of: bytes, seed: UInt64(index + 1)) {
                let name = "\(index)-\(stem)-\(variant.name).\(ext)"
                try Data(variant.bytes).write(to: dir.appendingPathComponent(name))
                names.append(name)
            }
        }
        // The regression fixtures too, as they are.
        if let malformed = try? FileManager.default.contentsOfDirectory(atPath: Paths.malformed.path) {
            for name in malformed.sorted() {
                try FileManager.default.copyItem(at: Paths.malformed.appendingPathComponent(name), to: dir.appendingPathComponent("malformed-" + name))
                names.append("malformed-" + name)
            }
        }
        return names
    }

    @Test func lintAndDumpSurviveEveryVariant() throws {
        let dir = try Paths.temporaryDirectory("sweep")
        defer { try? FileManager.default.removeItem(at: dir) }
        let names = try Self.writeVariants(into: dir, budget: Self.full ? .full : .quick)
        #expect(names.count > 200, "the sweep should be sizeable, got \(names.count) variants")

        // One lint over the whole folder.
        let lint = try LiveLint.run(["lint", "--format", "json", dir.path], timeout: Self.full ? 3600 : 120)
        #expect(!lint.signaled, "livelint lint died of signal \(lint.status): \(lint.stderr.suffix(2000))")
        #expect(!lint.timedOut, "livelint lint did not finish in time")
        #expect([0, 1, 2].contains(lint.status), "lint exit status \(lint.status): \(lint.stderr.suffix(2000))")
        let report = try #require(lint.json as? [String: Any], "lint printed no JSON object: \(lint.stderr.suffix(2000))")
        let files = try #require(report["files"] as? [[String: Any]])
        let reported = Set(files.compactMap { $0["path"] as? String })
        let missing = names.filter { !reported.contains($0) }
        #expect(missing.isEmpty, "\(missing.count) variants missing from the lint report, e.g. \(missing.prefix(5))")

        // dump over every variant, in batches (dump takes files), with libmediainfo on.
        var dumped = 0
        for batch in stride(from: 0, to: names.count, by: 200).map({ Array(names[$0..<min($0 + 200, names.count)]) }) {
            let dump = try LiveLint.run(["dump", "--format", "json"] + batch.map { dir.appendingPathComponent($0).path },
                                        timeout: Self.full ? 3600 : 120)
            #expect(!dump.signaled, "livelint dump died of signal \(dump.status) on one of \(batch.first ?? "")…: \(dump.stderr.suffix(2000))")
            #expect(!dump.timedOut, "livelint dump did not finish in time")
            #expect([0, 1, 2].contains(dump.status), "dump exit status \(dump.status): \(dump.stderr.suffix(1000))")
            let json = dump.json as? [String: Any]
            let dumpedFiles = json?["files"] as? [[String: Any]] ?? []
            #expect(dumpedFiles.count == batch.count, "dump reported \(dumpedFiles.count) of \(batch.count) files")
            dumped += dumpedFiles.count
        }

        // Each variant in-process, timed: the slowest single file bounds a scan's worst case.
        var slowest = (name: "", seconds: 0.0)
        var total = 0.0
        for name in names {
            let start = Date()
            let file = MediaInspector.inspect(path: dir.appendingPathComponent(name).path, displayPath: name, options: .dump)
            let seconds = Date().timeIntervalSince(start)
            total += seconds
            #expect(file.path == name)
            if seconds > slowest.seconds { slowest = (name, seconds) }
        }
        #expect(slowest.seconds < 5, "reading \(slowest.name) took \(slowest.seconds) s")
        print("mutation sweep: \(names.count) variants of \(Self.sources().count) sources; lint \(String(format: "%.2f", lint.seconds)) s (exit \(lint.status)); dump \(dumped) files; in-process dump total \(String(format: "%.2f", total)) s, slowest \(slowest.name) \(String(format: "%.1f", slowest.seconds * 1000)) ms")
    }

    /// The mutator itself makes what it claims (so a sweep that passes is a sweep that ran).
    @Test func mutatorMakesEveryKindOfDamage() throws {
        let movie = [UInt8](try Data(contentsOf: Paths.fixtures.appendingPathComponent("pair/IMG_0001.MOV")))
        let still = [UInt8](try Data(contentsOf: Paths.fixtures.appendingPathComponent("pair/IMG_0001.JPG")))
        let mutator = Mutator(budget: .quick)
        let movieNames = mutator.variants(of: movie, seed: 1).map(\.name)
        for prefix in ["trunc-", "size0-moov", "size7-moov.trak", "sizeFFFFFFFF-moov", "size64past-moov", "flip-moov-"] {
            #expect(movieNames.contains { $0.hasPrefix(prefix) }, "no \(prefix)* variant of the movie")
        }
        let stillNames = mutator.variants(of: still, seed: 1).map(\.name)
        for prefix in ["trunc-", "flip-makernote-", "makernote-entrycount-FFFF", "makernote-ifd-loop", "makernote-valueoffset-FFFFFFF0"] {
            #expect(stillNames.contains { $0.hasPrefix(prefix) }, "no \(prefix)* variant of the still")
        }
        // A size-7 variant really says 7 where the box was.
        let variant = try #require(mutator.variants(of: movie, seed: 1).first { $0.name.hasPrefix("size7-moov@") })
        let at = try #require(Int(variant.name.split(separator: "@").last ?? ""))
        #expect(Array(variant.bytes[at..<(at + 4)]) == [0, 0, 0, 7])
    }
}
