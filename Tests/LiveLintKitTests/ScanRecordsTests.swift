import Foundation
@testable import LiveLintEngine
@testable import LiveLintKit
import LiveModel
@testable import LiveReaders
import Reporters
import Rules
import TestSupport
import Testing

/// Full records waiting in a temporary file (``ScanRecords``) while pairing and the scan rules
/// work on summaries (issue 13): the result must be the result with every record in memory,
/// byte for byte, in every report, with and without the cache, consumers and the HTML media.
@Suite struct ScanRecordsTests {
    /// The sample library, a Takeout album (sidecars stay in memory) and the corpus when present.
    static func roots() throws -> (roots: [String], remove: () -> Void) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("livelint-spill-\(UUID().uuidString)")
        let album = dir.appendingPathComponent("Takeout/Photos from 2021")
        try FileManager.default.createDirectory(at: album, withIntermediateDirectories: true)
        for name in ["IMG_0001.JPG", "IMG_0001.MOV"] {
            try FileManager.default.copyItem(at: TestPaths.fixtures.appendingPathComponent("pair/\(name)"),
                                             to: album.appendingPathComponent(name))
        }
        try Data(#"{"title": "IMG_0001.JPG", "photoTakenTime": {"timestamp": "1618047840"}}"#.utf8)
            .write(to: album.appendingPathComponent("IMG_0001.JPG.json"))
        try Data(#"{"title": "IMG_0001.MOV", "photoTakenTime": {"timesta"#.utf8)
            .write(to: album.appendingPathComponent("IMG_0001.MOV.json"))
        var roots = [TestPaths.fixtures.appendingPathComponent("library").path, dir.path]
        if TestPaths.corpusPresent { roots.append(TestPaths.corpus.path) }
        return (roots, { try? FileManager.default.removeItem(at: dir) })
    }

    static func scan(_ root: String, spillAbove: Int, cache: CacheSetting = .off, shard: Shard? = nil,
                     threads: Int? = nil) async throws -> (LintResult, LibraryScan) {
        var options = LintOptions(paths: [root], configuration: .defaults, shard: shard)
        options.spillAbove = spillAbove
        // The pair rules on `threads` threads, however few the pairs.
        if let threads {
            options.jobs = threads
            options.pairsPerWorker = 1
        }
        options.cache = cache
        options.pairMedia = true
        options.consumers = ["all"]
        let scan = try LibraryScan(options)
        return (try await scan.run(), scan)
    }

    static func reports(_ result: LintResult, _ scan: LibraryScan) -> [String] {
        LintReportFormat.allCases.map { format in
            var text = ""
            LintReport(format: format, failOn: scan.failOn(nil), rules: scan.ruleSummaries).write(result) { text += $0 }
            return text
        }
    }

    @Test func spilledScanReportsWhatAHeldScanReports() async throws {
        let (roots, remove) = try Self.roots()
        defer { remove() }
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("livelint-spill-cache-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: cache) }
        for root in roots {
            let (held, heldScan) = try await Self.scan(root, spillAbove: .max)
            let (spilled, spilledScan) = try await Self.scan(root, spillAbove: 0)
            #expect(!held.pairs.isEmpty && !held.findings.isEmpty, "\(root)")
            // The spilled run did keep its records out of memory: all but those of files with a
            // sidecar and the few the codec does not carry (not cached either).
            let library = await spilledScan.read(progress: nil)
            #expect(library.records.spilledCount > 0, "\(root)")
            for file in library.summaries where library.records.isHeld(file) {
                #expect(file.sidecarPath != nil || RecordCodec.encode(library.records.file(file)) == nil, "\(file.path)")
            }
            #expect(spilled == held, "\(root)")
            #expect(Self.reports(spilled, spilledScan) == Self.reports(held, heldScan), "\(root)")
            // The pair rules on three threads, each reading the records on disk or held.
            for spillAbove in [0, Int.max] {
                let (threaded, threadedScan) = try await Self.scan(root, spillAbove: spillAbove, threads: 3)
                #expect(threaded == held, "\(root), three threads, spilling past \(spillAbove)")
                #expect(Self.reports(threaded, threadedScan) == Self.reports(held, heldScan), "\(root), three threads")
            }
            // Twice on a cache: the first run spills what it reads, the second what the cache answers.
            for _ in 0..<2 {
                #expect(try await Self.scan(root, spillAbove: 0, cache: .directory(cache)).0 == held, "\(root), cached")
            }
            let shard = try #require(Shard("1/2"))
            #expect(try await Self.scan(root, spillAbove: 0, shard: shard).0 == (try await Self.scan(root, spillAbove: .max, shard: shard).0))
        }
    }

    /// A library read hands over summaries whose long names their folders hold (the first 4,096
    /// as they come, the rest at the end), with every path as listed, and the engine lints them
    /// as it lints the same files' records with nothing held.
    @Test func aReadHoldsLongNamesInTheirFolders() async throws {
        let pair = TestPaths.fixtures.appendingPathComponent("pair")
        var entries: [LibraryWalker.Entry] = []
        for i in 0..<2_100 {
            let folder = i < 2_050 ? "2024/11" : "2024/12"
            let stem = i % 10 == 0 ? "IMG_\(i)" : "PXL_20231105_\(100_000_000 + i)"
            entries.append(LibraryWalker.Entry(path: pair.appendingPathComponent("IMG_0001.JPG").path, displayPath: "\(folder)/\(stem).jpg"))
            entries.append(LibraryWalker.Entry(path: pair.appendingPathComponent("IMG_0001.MOV").path, displayPath: "\(folder)/\(stem).MOV"))
        }
        let engine = try LintEngine(rules: builtinRules)
        let read = await LibraryReader.read(entries, options: .lint, jobs: 2, engine: engine)
        #expect(read.summaries.map(\.path) == entries.map(\.displayPath))
        let long = read.summaries.filter { $0.fileName.utf8.count > 15 }
        #expect(long.count == 3_780 && long.allSatisfy { $0.folder?.names.isEmpty == false })
        #expect(long.last?.path == "2024/12/PXL_20231105_100002099.MOV")
        let result = engine.run(summaries: read.summaries, store: read.records, root: ".")
        #expect(result == engine.run(files: read.files, root: "."))
        #expect(result.findings.contains { $0.ruleID == "duplicate-identifier" })
    }

    /// Read back through the map, and with `pread` as when the file cannot be mapped.
    @Test(arguments: [(true, false), (false, false), (true, true), (false, true)])
    func recordsReadBackAsTheyWereKept(mapped: Bool, slotsOnDisk: Bool) throws {
        let engine = try LintEngine(rules: builtinRules)
        let entries = LibraryWalker().files(in: [TestPaths.fixtures.appendingPathComponent("library").path]).entries
        let files = entries.map {
            MediaInspector.inspect(path: $0.path, displayPath: $0.displayPath, options: .lint).slimmedForLint(keeping: engine.metadataKeys)
        }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("livelint-spill-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let records = ScanRecords(spill: true, metadataKeys: engine.metadataKeys, directory: dir.path, mapsRecords: mapped,
                                  slotsOnDisk: slotsOnDisk)
        #expect(records.isSpilling)
        var withSidecar = files[0]
        withSidecar.sidecar = TakeoutSidecar(path: "IMG.JPG.json")
        let slots = files.map { records.append($0, encoded: RecordCodec.encode($0)) }
        let sidecarSlot = records.append(withSidecar, encoded: nil)
        #expect(files.indices.allSatisfy { RecordCodecTests.dumped(records.file(atSlot: slots[$0])) == RecordCodecTests.dumped(files[$0]) })
        #expect(records.file(atSlot: sidecarSlot).sidecar?.path == "IMG.JPG.json")
        #expect(records.spilledCount == files.count)
        #expect(records.slotsWrittenOut == slotsOnDisk)
        // The temporary file was unlinked as soon as it was made: nothing is left in the folder.
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
        // A .livp member is taken from its archive's record.
        let summaries = slots.map { FileSummary(files[$0], slot: $0) }
        for archive in summaries where archive.kind == .livp {
            for member in archive.members ?? [] {
                #expect(records.file(member).path == member.path)
                #expect(records.file(member).contentIdentifier == member.contentIdentifier)
            }
        }
    }

    /// Every record written decodes: one the decoder's limits would refuse (an edit list of more
    /// than 65,536 entries, values nested 8 deep) is not encoded, so a spilled scan keeps it in
    /// memory instead of losing it (and the cache does not keep it).
    @Test func recordsTheDecoderWouldRefuseAreNotWritten() throws {
        let edits = (0..<70_000).map { EditListEntry(segmentDuration: 1, mediaTime: Int64($0), rate: 1) }
        // As slimming leaves them (a slim movie keeps its video track's edit list, no matrix).
        var long = MediaFile.mov("a/IMG_1.MOV").slimmedForLint(keeping: [])
        long.movie?.tracks = [TrackInfo(id: 1, handler: "vide", mediaTimescale: 600, mediaDurationTicks: 70_000, matrix: [], editList: edits)]
        var deep = MediaFile.jpeg("a/IMG_1.JPG").slimmedForLint(keeping: [])
        var value = MetadataValue.string("x")
        for _ in 0..<9 { value = .array([value]) }
        deep.still?.properties = [MetadataProperty(key: "Exif.Photo.UserComment", type: "Undefined", value: value)]
        var fine = MediaFile.mov("a/IMG_2.MOV").slimmedForLint(keeping: [])
        fine.movie?.tracks = [TrackInfo(id: 1, handler: "vide", mediaTimescale: 600, mediaDurationTicks: 10, matrix: [], editList: Array(edits.prefix(3)))]
        var shallow = deep
        shallow.still?.properties = [MetadataProperty(key: "Exif.Photo.UserComment", type: "Undefined", value: .array([.array([.string("x")])]))]
        #expect(RecordCodec.encode(shallow) != nil)
        #expect(RecordCodec.encode(long) == nil)
        #expect(RecordCodec.encode(deep) == nil)
        let bytes = try #require(RecordCodec.encode(fine))
        #expect(bytes.withUnsafeBytes { RecordCodec.decode($0, path: fine.path, names: RecordCodec.Names()) }.map(RecordCodecTests.dumped)
                == RecordCodecTests.dumped(fine))
        let records = ScanRecords(spill: true)
        let slot = records.append(long, encoded: RecordCodec.encode(long))
        #expect(records.file(atSlot: slot).movie?.tracks.first?.editList.count == 70_000)
    }

    /// Records are written 64 KiB at a time; when a write fails (a full disk, here a limit on the
    /// spill file's size), the records it carried are held in memory and read back all the same,
    /// those written before stay on disk, and nothing more is written.
    @Test(arguments: [(Int64(1_000), false), (100_000, false), (1_000, true), (100_000, true)])
    func aFailedWriteHoldsItsRecordsInMemory(limit: Int64, slotsOnDisk: Bool) throws {
        let engine = try LintEngine(rules: builtinRules)
        let entries = LibraryWalker().files(in: [TestPaths.fixtures.appendingPathComponent("library").path]).entries
        let files = entries.map {
            MediaInspector.inspect(path: $0.path, displayPath: $0.displayPath, options: .lint).slimmedForLint(keeping: engine.metadataKeys)
        }
        let many = Array(repeating: files, count: 30).flatMap { $0 }
        let encoded = many.map { RecordCodec.encode($0) }
        #expect(encoded.reduce(0) { $0 + ($1?.count ?? 0) } > 2 * ScanRecords.bufferSize)
        let records = ScanRecords(spill: true, metadataKeys: engine.metadataKeys, writeLimit: limit, slotsOnDisk: slotsOnDisk)
        let slots = many.indices.map { records.append(many[$0], encoded: encoded[$0]) }
        #expect(many.indices.allSatisfy { RecordCodecTests.dumped(records.file(atSlot: slots[$0])) == RecordCodecTests.dumped(many[$0]) })
        #expect(!records.isSpilling)
        let summaries = many.indices.map { FileSummary(many[$0], slot: slots[$0]) }
        let held = summaries.filter { records.isHeld($0) }.count
        if limit < ScanRecords.bufferSize {
            #expect(records.spilledCount == 0 && held == many.count)
        } else {
            // The first 64 KiB went to disk; the write that crossed the limit came back.
            #expect(records.spilledCount > 0 && held > 0 && records.spilledCount + held == many.count)
        }
    }

    /// A slot packs a spilled record's offset, length, kind and format into 8 bytes, and gives
    /// each back as it was, at the edges of its fields; what does not fit is refused (and held).
    @Test func slotsPackAndUnpack() {
        typealias Slot = ScanRecords.Slot
        for kind in FileKind.allCases {
            for format in ContainerFormat.allCases {
                for (offset, count) in [(Int64(0), 0), (Slot.maxOffset - 1, Slot.maxCount - 1), (12_345, 300), (Slot.maxOffset / 2 + 7, 1)] {
                    let slot = Slot.spilled(offset: offset, count: count, kind: kind, format: format)
                    #expect(slot?.offset == offset && slot?.count == count && slot?.kind == kind && slot?.format == format,
                            "\(offset) \(count) \(kind) \(format)")
                    #expect(slot?.heldIndex == nil)
                }
            }
        }
        #expect(Slot.spilled(offset: Slot.maxOffset, count: 1, kind: .still, format: .jpeg) == nil)
        #expect(Slot.spilled(offset: 0, count: Slot.maxCount, kind: .still, format: .jpeg) == nil)
        #expect(Slot.spilled(offset: -1, count: 1, kind: .still, format: .jpeg) == nil)
        #expect(Slot.held(0).heldIndex == 0 && Slot.held(1 << 40).heldIndex == 1 << 40)
    }

    /// A record too long for a slot's length field is held in memory while the records around
    /// it are spilled, and each comes back as it went in.
    @Test func aRecordTooLongForASlotIsHeld() {
        let records = ScanRecords(spill: true)
        #expect(records.isSpilling)
        let files = (0..<3).map { MediaFile.jpeg("a/IMG_\($0).JPG") }
        let long = [UInt8](repeating: 7, count: ScanRecords.Slot.maxCount)
        let slots = [records.append(files[0], encoded: RecordCodec.encode(files[0])),
                     records.append(files[1], encoded: long),
                     records.append(files[2], encoded: RecordCodec.encode(files[2]))]
        #expect(records.spilledCount == 2)
        #expect(files.indices.map { records.isHeld(FileSummary(files[$0], slot: slots[$0])) } == [false, true, false])
        #expect(files.indices.allSatisfy { RecordCodecTests.dumped(records.file(atSlot: slots[$0])) == RecordCodecTests.dumped(files[$0]) })
    }

    /// A spilled record carries its path in the temporary file, so a slot holds no string: 8
    /// bytes a file of the library. A record that cannot be read back at all, path included,
    /// still names its file: the summary puts the path in.
    @Test func slotsHoldNoPath() {
        #expect(ScanRecords.slotStride == 8)
        struct Lost: FileStore {
            var count: Int { 1 }
            func file(atSlot slot: Int) -> MediaFile {
                MediaFile(path: "", kind: .still, format: .jpeg, error: ReadIssue(.io, "could not read back"))
            }
        }
        let summary = FileSummary(MediaFile.jpeg("a/IMG_1.JPG"), slot: 0)
        #expect(Lost().file(summary).path == "a/IMG_1.JPG")
        #expect(Lost().file(summary).error?.category == .io)
    }

    @Test func withoutATemporaryFolderRecordsStayInMemory() throws {
        let records = ScanRecords(spill: true, directory: "/nonexistent-livelint-\(UUID().uuidString)")
        #expect(!records.isSpilling)
        let file = MediaFile.jpeg("a/IMG_1.JPG")
        let slot = records.append(file, encoded: RecordCodec.encode(file))
        #expect(records.file(atSlot: slot).path == "a/IMG_1.JPG")
        #expect(records.spilledCount == 0)
    }
}
