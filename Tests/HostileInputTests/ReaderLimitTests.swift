import AppleMakerNote
import Foundation
import ISOBMFF
import LiveModel
import LiveReaders
import Testing

/// Builders for hand-made boxes.
enum Boxes {
    static func u32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)] }
    static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        u32(UInt32(8 + payload.count)) + Array(type.utf8) + payload
    }
    static func full(_ type: String, _ payload: [UInt8]) -> [UInt8] { box(type, [0, 0, 0, 0] + payload) }

    /// A `mebx` track whose one key is still-image-time and whose sample tables claim 2^32-1
    /// one-byte samples, all at file offset 0, in a dozen bytes of tables.
    static func greedyMebxTrack() -> [UInt8] {
        let keyd = box("keyd", Array("mdta".utf8) + Array("com.apple.quicktime.still-image-time".utf8))
        let dtyp = box("dtyp", u32(0) + u32(65))
        let keys = box("keys", box("\u{0}\u{0}\u{0}\u{1}", keyd + dtyp))
        let mebx = box("mebx", [0, 0, 0, 0, 0, 0, 0, 1] + keys)
        let stsd = full("stsd", u32(1) + mebx)
        let stsz = full("stsz", u32(1) + u32(0xFFFF_FFFF))
        let stts = full("stts", u32(1) + u32(0xFFFF_FFFF) + u32(1))
        let stsc = full("stsc", u32(1) + u32(1) + u32(0xFFFF_FFFF) + u32(1))
        let stco = full("stco", u32(1) + u32(0))
        let stbl = box("stbl", stsd + stsz + stts + stsc + stco)
        let mdhd = full("mdhd", [UInt8](repeating: 0, count: 8) + u32(600) + u32(600) + [0, 0, 0, 0])
        let hdlr = full("hdlr", u32(0) + Array("meta".utf8) + [UInt8](repeating: 0, count: 12))
        return box("trak", box("mdia", mdhd + hdlr + box("minf", stbl)))
    }
}

@Suite struct ReaderLimitTests {
    func read(_ bytes: [UInt8], _ options: MovieReadOptions = .init()) -> MovieReadResult {
        MovieReader.read(MemoryByteSource(bytes), options: options)
    }

    func allIssues(_ r: MovieReadResult) -> [ReadIssue] { (r.error.map { [$0] } ?? []) + r.warnings }

    @Test func nestingDeeperThanTheLimitIsALocatedLimitError() {
        var inner = Boxes.box("free", [])
        for _ in 0..<(BoxLimits.maxDepth + 8) { inner = Boxes.box("trak", inner) }
        let file = Boxes.box("ftyp", Array("qt  ".utf8) + [0, 0, 0, 0]) + Boxes.box("moov", inner)
        let r = read(file)
        let limit = allIssues(r).first { $0.category == .limit }
        #expect(limit != nil, "no limit issue in \(allIssues(r))")
        #expect(limit?.location?.hasPrefix("moov/trak") == true)
        #expect((limit?.offset ?? 0) > 16 + 8 * Int64(BoxLimits.maxDepth - 2), "offset \(limit?.offset ?? -1) is not the deep box")
    }

    @Test func moreBoxesThanTheLimitStopsWithALimitError() {
        let frees = (0..<(BoxLimits.maxBoxes + 10)).flatMap { _ in Boxes.box("free", []) }
        let r = read(Boxes.box("moov", frees))
        let limit = allIssues(r).first { $0.category == .limit }
        #expect(limit?.message.contains("\(BoxLimits.maxBoxes)") == true, "\(allIssues(r).prefix(3))")
        #expect(limit?.location == "moov")
        #expect((limit?.offset ?? 0) == 8 + 8 * Int64(BoxLimits.maxBoxes))
    }

    @Test(arguments: ["stsz", "stco", "stts", "stsc"])
    func tableCountsBeyondTheBytesAreMalformedNotAllocated(table: String) {
        var tables: [String: [UInt8]] = [
            "stsz": Boxes.full("stsz", Boxes.u32(0) + Boxes.u32(1) + Boxes.u32(4)),
            "stts": Boxes.full("stts", Boxes.u32(1) + Boxes.u32(1) + Boxes.u32(1)),
            "stsc": Boxes.full("stsc", Boxes.u32(1) + Boxes.u32(1) + Boxes.u32(1) + Boxes.u32(1)),
            "stco": Boxes.full("stco", Boxes.u32(1) + Boxes.u32(0)),
        ]
        // The table claims 0xFFFFFFF0 entries but holds one.
        switch table {
        case "stsz": tables["stsz"] = Boxes.full("stsz", Boxes.u32(0) + Boxes.u32(0xFFFF_FFF0) + Boxes.u32(4))
        default: tables[table] = Boxes.full(table, Boxes.u32(0xFFFF_FFF0) + Array(tables[table]!.dropFirst(16)))
        }
        let keyd = Boxes.box("keyd", Array("mdta".utf8) + Array("com.apple.quicktime.still-image-time".utf8))
        let keys = Boxes.box("keys", Boxes.box("\u{0}\u{0}\u{0}\u{1}", keyd + Boxes.box("dtyp", Boxes.u32(0) + Boxes.u32(65))))
        let stsd = Boxes.full("stsd", Boxes.u32(1) + Boxes.box("mebx", [0, 0, 0, 0, 0, 0, 0, 1] + keys))
        let stbl = Boxes.box("stbl", stsd + tables["stsz"]! + tables["stts"]! + tables["stsc"]! + tables["stco"]!)
        let trak = Boxes.box("trak", Boxes.box("mdia", Boxes.box("minf", stbl)))
        let r = read(Boxes.box("moov", trak))
        let issue = allIssues(r).first { $0.location?.hasSuffix("stbl/\(table)") == true }
        #expect(issue?.category == .malformed, "\(allIssues(r))")
        #expect(issue?.message.contains("count") == true)
        #expect((issue?.offset ?? 0) > 0)
    }

    @Test func timedMetadataSamplesAreBudgetedPerFileNotPerTrack() {
        let tracks = (0..<(BoxLimits.maxSamplesPerFile / 10_000 + 3)).flatMap { _ in Boxes.greedyMebxTrack() }
        // Samples i = 0, 1, 2, … sit at byte i: pad the file so they all lie inside it.
        let file = Boxes.box("ftyp", Array("qt  ".utf8) + [0, 0, 0, 0]) + Boxes.box("moov", tracks)
            + Boxes.box("free", [UInt8](repeating: 0, count: 10_100))
        let start = Date()
        let r = read(file)
        let seconds = Date().timeIntervalSince(start)
        let decoded = r.movie?.tracks.reduce(0) { $0 + ($1.metadata?.samples.count ?? 0) } ?? -1
        #expect(decoded == BoxLimits.maxSamplesPerFile)
        let limits = allIssues(r).filter { $0.category == .limit }
        #expect(limits.count == 1, "\(limits)")
        #expect(limits.first?.location?.contains("stbl") == true)
        #expect(r.movie?.tracks.allSatisfy { $0.metadata?.samplesTruncated == true } == true)
        #expect(seconds < 20, "took \(seconds) s")
        // Every sample is one byte, too short to decode: reported a few times per track, not 100 000 times.
        #expect(r.warnings.count < 200, "\(r.warnings.count) warnings")
    }

    @Test func aSampleSizeBeyondTheLimitIsNotRead() {
        var trak = Boxes.greedyMebxTrack()
        // stsz fixed size 0xFFFFFF00 instead of 1.
        let at = try! #require(Self.find(Array("stsz".utf8), in: trak))
        trak.replaceSubrange((at + 8)..<(at + 12), with: Boxes.u32(0xFFFF_FF00))
        let r = read(Boxes.box("moov", trak))
        let limit = allIssues(r).first { $0.category == .limit }
        #expect(limit?.message.contains("\(BoxLimits.maxSampleBytes)") == true, "\(allIssues(r))")
    }

    static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        return (0...(haystack.count - needle.count)).first { Array(haystack[$0..<($0 + needle.count)]) == needle }
    }

    // MARK: makernote

    /// `count` entries of type undefined, each `valueSize` bytes, all pointing at the same value bytes.
    static func makerNote(entries count: Int, valueSize: Int) -> [UInt8] {
        var b = AppleMakerNoteDecoder.signature + [0, 1, 0x4D, 0x4D]
        let valueOffset = UInt32(14 + 2 + 12 * count + 4)
        b += [UInt8(count >> 8), UInt8(count & 0xFF)]
        for i in 0..<count {
            b += [UInt8((i + 1) >> 8), UInt8((i + 1) & 0xFF), 0, 7] + Boxes.u32(UInt32(valueSize)) + Boxes.u32(valueOffset)
        }
        b += Boxes.u32(0)
        b += [UInt8](repeating: 0x5A, count: valueSize)
        return b
    }

    @Test func makerNoteValuesSharingBytesAreBudgeted() throws {
        let note = Self.makerNote(entries: 200, valueSize: 60_000)
        let info = try AppleMakerNoteDecoder.decode(note)
        let copied = info.tags.count * 60_000
        #expect(copied <= AppleMakerNoteDecoder.maxValueBytes)
        #expect(info.tags.count == AppleMakerNoteDecoder.maxValueBytes / 60_000)
        let limit = info.issues.first { $0.category == .limit }
        #expect(limit?.location?.hasPrefix("makernote/ifd0/entry[") == true, "\(info.issues)")
        // Decoding only some tags (lint) charges the budget for every entry all the same: the
        // same limit issue at the same entry, and a tag past it is not read.
        let some = try AppleMakerNoteDecoder.decode(note, only: [0x0011, 100])
        #expect(some.issues == info.issues)
        #expect(some.tags.map(\.tag) == [0x0011])
        // Under the budget, nothing is refused.
        let small = try AppleMakerNoteDecoder.decode(Self.makerNote(entries: 10, valueSize: 1_000))
        #expect(small.tags.count == 10 && small.issues.isEmpty)
    }

    /// A binary plist: one data object of `dataSize` bytes referenced `refs` times by an array.
    static func plist(refs: Int, dataSize: Int) -> [UInt8] {
        var b = BinaryPlist.magic
        let dataAt = b.count
        b += [0x4F, 0x12] + [UInt8(dataSize >> 24), UInt8((dataSize >> 16) & 0xFF), UInt8((dataSize >> 8) & 0xFF), UInt8(dataSize & 0xFF)]
        b += [UInt8](repeating: 0xAB, count: dataSize)
        let arrayAt = b.count
        b += [0xAF, 0x11, UInt8(refs >> 8), UInt8(refs & 0xFF)] + [UInt8](repeating: 1, count: refs)  // refs to object 1 (the data)
        let tableAt = b.count
        b += Boxes.u32(UInt32(arrayAt)) + Boxes.u32(UInt32(dataAt))  // object 0: array, object 1: data (offset size 4)
        b += [0, 0, 0, 0, 0, 0, 4, 1] + [0, 0, 0, 0] + Boxes.u32(2) + [0, 0, 0, 0] + Boxes.u32(0) + [0, 0, 0, 0] + Boxes.u32(UInt32(tableAt))
        return b
    }

    @Test func plistOutputIsBudgetedWhenOneObjectIsReferencedOverAndOver() {
        let ok = BinaryPlist.decode(Self.plist(refs: 10, dataSize: 30_000))
        guard case .array(let items)? = ok else {
            Issue.record("a plist under the budget did not decode: \(String(describing: ok))")
            return
        }
        #expect(items.count == 10)
        // 300 references × 30 000 bytes = 9 MB of copies out of a 30 KB plist: refused.
        #expect(BinaryPlist.decode(Self.plist(refs: 300, dataSize: 30_000)) == nil)
    }

    // MARK: regressions found by fuzzing

    /// H.264 SPS scaling list whose delta_scale is +2^31-1: `last + delta + 256` overflowed Int32 and trapped.
    @Test func avcScalingListDeltaNearInt32MaxDoesNotTrap() throws {
        let url = Paths.malformed.appendingPathComponent("avcc-sps-scaling-delta-overflow.mov")
        let r = MovieReader.read(path: url.path)
        #expect(r.error == nil)
        #expect(r.movie?.video?.codec == "avc1")
        #expect(r.movie?.video?.profile == "High")
        // The SPS is unusable past the scaling list, so no chroma/bit depth came from it: the avcC defaults remain.
        #expect(r.movie?.video?.chroma == "4:2:0")
        #expect(r.movie?.video?.width == 96)
    }
}
