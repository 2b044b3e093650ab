import Foundation
import ISOBMFF
import LiveModel
import LiveReaders
import Testing
@testable import LiveWriters

/// `HEICExifRewriter` on real device HEICs: a makernote without 0x0011 (iPhone 15 Pro), and a
/// makernote stripped by the rewriter itself (what a converter leaves), then hostile layouts.
@Suite struct HEICExifRewriteTests {
    static let noTag11 = W.corpus.appendingPathComponent("photoprism/iphone_15_pro.heic").path
    static let withTag11 = W.corpus.appendingPathComponent("pyheic_struct/apple.HEIC").path
    static let identifier = "0B1C2D3E-4F50-4617-8293-A4B5C6D7E8F9"

    static func present(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

    // MARK: - Helpers

    /// Every item's extents (id → bytes) from `meta/iloc` (construction method 0 only), parsed
    /// independently of the code under test.
    static func itemData(_ bytes: [UInt8]) throws -> [UInt32: [UInt8]] {
        func be(_ at: Int, _ n: Int) throws -> UInt64 {
            guard at >= 0, n >= 0, at + n <= bytes.count else { throw Failure("read past the end at \(at)") }
            return bytes[at..<(at + n)].reduce(0) { $0 << 8 | UInt64($1) }
        }
        // Top level → meta → iloc.
        var at = 0
        var meta: Range<Int>?
        while at + 8 <= bytes.count {
            var size = Int(try be(at, 4))
            if size == 1 { size = Int(try be(at + 8, 8)) }  // 64-bit size (Apple's mdat)
            guard size >= 8 else { throw Failure("box size \(size)") }
            if String(decoding: bytes[(at + 4)..<(at + 8)], as: UTF8.self) == "meta" { meta = (at + 12)..<(at + size) }
            at += size
        }
        let metaRange = try #require(meta)
        at = metaRange.lowerBound
        var iloc: Int?
        while at + 8 <= metaRange.upperBound {
            let size = Int(try be(at, 4))
            guard size >= 8 else { throw Failure("box size \(size)") }
            if String(decoding: bytes[(at + 4)..<(at + 8)], as: UTF8.self) == "iloc" { iloc = at + 8 }
            at += size
        }
        var p = try #require(iloc)
        let version = Int(try be(p, 1)); p += 4
        let s1 = Int(try be(p, 1)), s2 = Int(try be(p + 1, 1)); p += 2
        let (offsetSize, lengthSize, baseSize, indexSize) = (s1 >> 4, s1 & 15, s2 >> 4, version >= 1 ? s2 & 15 : 0)
        let idSize = version < 2 ? 2 : 4
        let count = Int(try be(p, idSize)); p += idSize
        var out: [UInt32: [UInt8]] = [:]
        for _ in 0..<count {
            let id = UInt32(try be(p, idSize)); p += idSize
            var method = 0
            if version >= 1 { method = Int(try be(p, 2) & 15); p += 2 }
            p += 2
            let base = Int(try be(p, baseSize)); p += baseSize
            let extents = Int(try be(p, 2)); p += 2
            var data: [UInt8] = []
            for _ in 0..<extents {
                p += indexSize
                let offset = Int(try be(p, offsetSize)); p += offsetSize
                let length = Int(try be(p, lengthSize)); p += lengthSize
                if method == 0 {
                    let start = base + offset
                    guard start + length <= bytes.count else { throw Failure("item \(id) runs past the end") }
                    data += bytes[start..<(start + length)]
                }
            }
            out[id] = data
        }
        return out
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
        init(_ d: String) { description = d }
    }

    /// exiv2's view of every Exif value, minus the makernote and the IFD pointers (which move).
    static func exifValues(_ bytes: [UInt8]) -> [String: MetadataValue] {
        let still = StillReader.read(bytes: bytes).still
        let moving: Set<String> = ["Exif.Photo.MakerNote", "Exif.Image.ExifTag", "Exif.Image.GPSTag", "Exif.Photo.InteroperabilityTag"]
        var out: [String: MetadataValue] = [:]
        for p in still?.properties ?? [] where p.family == "Exif" && !moving.contains(p.key) && !p.key.hasPrefix("Exif.MakerNote.") {
            out[p.key] = p.value
        }
        return out
    }

    /// Checks a rewrite: identifier read back, other Exif values and every other item unchanged,
    /// and the original bytes untouched outside the `iloc` fields.
    static func checkRewrite(_ rewrite: HEICExifRewriter.Rewrite, original: [UInt8], identifier: String?) throws {
        let out = rewrite.bytes
        #expect(out.count == original.count + rewrite.appendedBytes)
        #expect(out[..<rewrite.ilocFields.lowerBound] == original[..<rewrite.ilocFields.lowerBound])
        #expect(out[rewrite.ilocFields.upperBound..<original.count] == original[rewrite.ilocFields.upperBound...])
        #expect(rewrite.ilocFields.count <= 16)
        #expect(Array(out[(original.count + 4)..<(original.count + 8)]) == Array("mdat".utf8))
        #expect(StillReader.read(bytes: out).error == nil)
        #expect(StillReader.read(bytes: out).still?.contentIdentifier == identifier)

        let before = try itemData(original), after = try itemData(out)
        #expect(before.keys.sorted() == after.keys.sorted())
        let exifID = try #require(after.first { $0.value == Array(out[rewrite.exifRange]) }?.key)
        for (id, data) in before where id != exifID {
            #expect(after[id] == data, "item \(id) changed")
        }
        #expect(before.count > 10)  // the grid tiles are really compared

        let valuesBefore = exifValues(original), valuesAfter = exifValues(out)
        #expect(valuesBefore.count > 20)
        for (key, value) in valuesBefore {
            #expect(valuesAfter[key] == value, "\(key)")
        }
    }

    // MARK: - Real files

    @Test(.enabled(if: present(noTag11)))
    func aMakerNoteWithoutTag0x0011GetsIt() throws {
        let original = try W.bytes(Self.noTag11)
        let makerBefore = try #require(StillReader.read(bytes: original).still?.makerNote)
        #expect(makerBefore.contentIdentifier == nil)
        // In place cannot do it; the dispatcher falls back to the rewrite.
        #expect(throws: LivePhotoWriteError.self) { try HEICMakerNoteEditor.replacingContentIdentifier(in: original, with: Self.identifier) }
        let result = try LivePhotoEdits.settingStillIdentifier(Self.identifier, in: original, format: .heic)
        #expect(result.method == .heicRewritten)

        let rewrite = try HEICExifRewriter.settingContentIdentifier(Self.identifier, in: original)
        #expect(rewrite.bytes == result.bytes)
        try Self.checkRewrite(rewrite, original: original, identifier: Self.identifier)
        // Every other makernote tag keeps its value (the encoder drops only entries its decoder rejects).
        let makerAfter = try #require(StillReader.read(bytes: rewrite.bytes).still?.makerNote)
        for tag in makerBefore.tags {
            if let now = makerAfter.tags.first(where: { $0.tag == tag.tag }) { #expect(now.value == tag.value, "\(tag.hexID)") }
        }
        #expect(makerAfter.tags.count >= makerBefore.tags.count - 1)
        #expect(makerAfter.tags.contains { $0.tag == 0x0011 })

        // Now it has a 0x0011: the next change is in place, same size.
        let again = try LivePhotoEdits.settingStillIdentifier("11111111-2222-4333-8444-555555555555", in: rewrite.bytes, format: .heic)
        #expect(again.method == .heicInPlace)
        #expect(again.bytes.count == rewrite.bytes.count)
        #expect(StillReader.read(bytes: again.bytes).still?.contentIdentifier == "11111111-2222-4333-8444-555555555555")
    }

    @Test(.enabled(if: present(withTag11)))
    func aStrippedMakerNoteIsCreated() throws {
        let original = try W.bytes(Self.withTag11)
        #expect(StillReader.read(bytes: original).still?.contentIdentifier == "F08C4D29-CD6A-47D9-9200-02BD19D9F3F2")
        // Simulate a converter: the makernote removed.
        let stripped = try HEICExifRewriter.replacingMakerNote(in: original, with: nil, makeIfAbsent: nil)
        let strippedStill = try #require(StillReader.read(bytes: stripped.bytes).still)
        #expect(strippedStill.makerNote == nil)
        #expect(strippedStill.contentIdentifier == nil)
        #expect(StillReader.makerNoteBytes(bytes: stripped.bytes) == nil)
        #expect(strippedStill.make == "Apple")
        try Self.checkRewrite(stripped, original: original, identifier: nil)

        // Through the dispatcher, as make / fix use it.
        let result = try LivePhotoEdits.settingStillIdentifier(Self.identifier, in: stripped.bytes, format: .heic)
        #expect(result.method == .heicRewritten)
        let rewrite = try HEICExifRewriter.settingContentIdentifier(Self.identifier, in: stripped.bytes)
        #expect(rewrite.bytes == result.bytes)
        try Self.checkRewrite(rewrite, original: stripped.bytes, identifier: Self.identifier)
        // And against the device original: all Exif but the makernote as it was.
        let values = Self.exifValues(rewrite.bytes)
        for (key, value) in Self.exifValues(original) { #expect(values[key] == value, "\(key)") }
        #expect(try Self.itemData(original).filter { $0.value.count > 10_000 }.allSatisfy { id, data in try Self.itemData(rewrite.bytes)[id] == data })
    }

    @Test(.enabled(if: present(noTag11) && exiftool != nil))
    func exiftoolReadsTheNewIdentifier() throws {
        let dir = try W.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let rewrite = try HEICExifRewriter.settingContentIdentifier(Self.identifier, in: try W.bytes(Self.noTag11))
        let path = dir + "/IMG.HEIC"
        try W.write(rewrite.bytes, path)
        let out = try Self.run(try #require(Self.exiftool), ["-s", "-s", "-s", "-MediaGroupUUID", "-ContentIdentifier", "-Make", "-Model", "-Warning", path])
        #expect(out.status == 0)
        #expect(out.stdout.split(separator: "\n").map(String.init) == [Self.identifier, "Apple", "iPhone 15 Pro"])
    }

    /// `livelint make` on the HEIC and a fixture movie, then `livelint lint`: a clean pair.
    @Test(.enabled(if: present(noTag11) && livelint != nil))
    func makeThenLintIsClean() throws {
        let dir = try W.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let binary = try #require(Self.livelint)
        let made = try Self.run(binary, ["make", Self.noTag11, W.base("h264.mov"), "--output", dir + "/out", "--identifier", Self.identifier])
        #expect(made.status == 0, "\(made.stdout)\(made.stderr)")
        #expect(made.stdout.contains("rewrote the Exif item"))
        let still = dir + "/out/iphone_15_pro.heic"
        #expect(StillReader.read(path: still).still?.contentIdentifier == Self.identifier)
        #expect(W.movie(dir + "/out/iphone_15_pro.MOV")?.contentIdentifier == Self.identifier)
        let lint = try Self.run(binary, ["lint", "--format", "json", "--no-config", "--no-cache", dir + "/out"])
        #expect(lint.status == 0, "\(lint.stdout)\(lint.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(lint.stdout.utf8)) as? [String: Any])
        let findings = try #require(json["findings"] as? [Any])
        #expect(findings.isEmpty, "\(lint.stdout)")
        let pairs = try #require(json["pairs"] as? [[String: Any]])
        #expect(pairs.count == 1)
        #expect(pairs.first?["contentIdentifier"] as? String == Self.identifier)
        #expect(pairs.first?["still"] as? String == "iphone_15_pro.heic")
    }

    // MARK: - Hostile layouts

    /// The file offset of the first `type` box header inside `meta`.
    static func metaChild(_ bytes: [UInt8], _ type: String) throws -> Int {
        let needle = Array(type.utf8)
        for i in 4..<(bytes.count - 4) where Array(bytes[i..<(i + 4)]) == needle { return i - 4 }
        throw Failure("no \(type)")
    }

    static func expectError(_ bytes: [UInt8], contains text: String, unsupported: Bool = false) {
        do {
            _ = try HEICExifRewriter.settingContentIdentifier(Self.identifier, in: bytes)
            Issue.record("no error")
        } catch {
            switch error {
            case .unsupported(let s): #expect(unsupported, "\(s)"); #expect(s.contains(text), "\(s)")
            case .malformed(let s): #expect(!unsupported, "\(s)"); #expect(s.contains(text), "\(s)")
            default: Issue.record("unexpected \(error)")
            }
        }
    }

    /// The Exif item's extent fields in iloc (v1, 4-byte offset and length, no base, no index).
    static func exifExtentFields(_ bytes: [UInt8]) throws -> Int {
        let rewrite = try HEICExifRewriter.replacingMakerNote(in: bytes, with: nil, makeIfAbsent: nil)
        return rewrite.ilocFields.lowerBound
    }

    @Test(.enabled(if: present(noTag11)))
    func hostileLayoutsGiveClearErrors() throws {
        let original = try W.bytes(Self.noTag11)
        let fields = try Self.exifExtentFields(original)

        var pastEnd = original
        pastEnd[fields + 4..<fields + 8] = [0x7F, 0xFF, 0xFF, 0xF0]  // length
        Self.expectError(pastEnd, contains: "outside")
        var offsetPastEnd = original
        offsetPastEnd[fields..<fields + 4] = [0xFF, 0xFF, 0xFF, 0x00]  // offset
        Self.expectError(offsetPastEnd, contains: "outside")

        var noIinf = original
        let iinf = try Self.metaChild(original, "iinf")
        noIinf[iinf + 4..<iinf + 8] = ArraySlice("xinf".utf8)
        Self.expectError(noIinf, contains: "iinf")

        var noIloc = original
        let iloc = try Self.metaChild(original, "iloc")
        noIloc[iloc + 4..<iloc + 8] = ArraySlice("xloc".utf8)
        Self.expectError(noIloc, contains: "iloc")

        // construction method 1 (idat): the two bytes before data_reference_index, before the
        // extent count, before the fields.
        var inIdat = original
        inIdat[fields - 5] = 1
        Self.expectError(inIdat, contains: "idat", unsupported: true)

        // An item type that is not Exif: no Exif item.
        var noExif = original
        let exifType = try Self.metaChild(original, "Exif") + 4
        noExif[exifType..<exifType + 4] = ArraySlice("Exig".utf8)
        Self.expectError(noExif, contains: "no Exif item", unsupported: true)

        // The Exif payload's TIFF header offset past the item.
        let item = try #require(try HEICExifRewriter.exifItem(original))
        var badSkip = original
        badSkip[item.range.lowerBound..<item.range.lowerBound + 4] = [0x00, 0xFF, 0xFF, 0xFF]
        Self.expectError(badSkip, contains: "TIFF header offset")
        // Not a TIFF where the TIFF should be.
        var notTIFF = original
        notTIFF[item.range.lowerBound + 10..<item.range.lowerBound + 14] = [0x12, 0x34, 0x56, 0x78]
        Self.expectError(notTIFF, contains: "TIFF")

        // Truncations at every interesting point and garbage: an error, never a crash.
        for cut in [0, 7, 40, 100, iinf + 20, iloc + 30, fields + 2, item.range.lowerBound + 20] {
            #expect(throws: LivePhotoWriteError.self) { try HEICExifRewriter.settingContentIdentifier(Self.identifier, in: Array(original[..<cut])) }
        }
        #expect(throws: LivePhotoWriteError.self) { try HEICExifRewriter.settingContentIdentifier(Self.identifier, in: [UInt8](repeating: 0xAB, count: 4096)) }
    }

    /// Deterministic mutations of `meta` (and the Exif item's first bytes): each rewrite either
    /// throws a `LivePhotoWriteError` or returns the input plus an appended `mdat`, never crashes.
    @Test(.enabled(if: present(noTag11)))
    func mutatedMetaNeverCrashes() throws {
        let original = try W.bytes(Self.noTag11)
        let meta = try #require(TopLevel.scan(MemoryByteSource(original)).first("meta"))
        let item = try #require(try HEICExifRewriter.exifItem(original))
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> Int {
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            return Int(truncatingIfNeeded: state & 0x7FFF_FFFF)
        }
        let regions = [Int(meta.offset)..<Int(meta.endOffset), item.range.lowerBound..<(item.range.lowerBound + 64)]
        var failures = 0, successes = 0
        for i in 0..<300 {
            var bytes = original
            let region = regions[i % regions.count]
            let at = region.lowerBound + next() % region.count
            switch i % 4 {
            case 0: bytes[at] ^= UInt8(1 << (next() % 8))
            case 1: bytes[at] = 0xFF
            case 2: for k in 0..<min(4, bytes.count - at) { bytes[at + k] = 0 }
            default: for k in 0..<min(4, bytes.count - at) { bytes[at + k] = 0xFF }
            }
            do {
                let rewrite = try HEICExifRewriter.settingContentIdentifier(Self.identifier, in: bytes)
                #expect(rewrite.bytes.count == bytes.count + rewrite.appendedBytes)
                #expect(rewrite.bytes[..<rewrite.ilocFields.lowerBound] == bytes[..<rewrite.ilocFields.lowerBound])
                successes += 1
            } catch {
                #expect(!error.description.isEmpty)
                failures += 1
            }
        }
        #expect(successes + failures == 300)
        #expect(failures > 0)
        #expect(successes > 0)
    }

    @Test(.enabled(if: present(noTag11)))
    func aLastBoxRunningToTheEndIsRefused() throws {
        var bytes = try W.bytes(Self.noTag11)
        // The last top-level box (the mdat) declared as size 0.
        let last = try #require(TopLevel.scan(MemoryByteSource(bytes)).boxes.last)
        #expect(last.type == "mdat")
        let mdat = Int(last.offset)
        bytes[mdat..<(mdat + 4)] = [0, 0, 0, 0]
        Self.expectError(bytes, contains: "size 0", unsupported: true)
    }

    // MARK: - Processes

    static let exiftool: String? = ["/usr/bin/exiftool", "/usr/local/bin/exiftool"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// The `livelint` executable SwiftPM built beside this test bundle (absent: the CLI test skips).
    static let livelint: String? = {
        var dir = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = dir.appendingPathComponent("livelint").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            dir = dir.deletingLastPathComponent()
        }
        return nil
    }()

    static func run(_ executable: String, _ args: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = args
        var env = ProcessInfo.processInfo.environment
        env["NO_COLOR"] = "1"
        process.environment = env
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let o = out.fileHandleForReading.readDataToEndOfFile(), e = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: o, as: UTF8.self), String(decoding: e, as: UTF8.self))
    }
}
