import Foundation
@testable import LiveLintEngine
import LiveModel
import Testing

/// What a pair's record holds beyond its pair, on disk beside the pairs (issue 13: the consumers'
/// verdicts and the HTML media of every pair were held, 505 MiB on a million files).
struct PairExtrasTests {
    /// Entries with every field filled and empty, values at their edges, text that is not ASCII.
    static let samples: [Boxed<PairRecord.Rare>?] = [
        nil,
        PairRecord.Rare.boxed(media: nil, consumers: [:], sidecar: "a/IMG_0001.JPG.json"),
        PairRecord.Rare.boxed(media: nil, consumers: [
            "immich": ConsumerVerdict(.live, "same identifier ‘A’"),
            "photoprism": ConsumerVerdict(.split, "", fix: "run livelint fix"),
            "nextcloud": ConsumerVerdict(.unsupported, "no", fix: ""),
            "google-photos": ConsumerVerdict(.ambiguous, String(repeating: "long ", count: 60)),
        ], sidecar: nil),
        PairRecord.Rare.boxed(media: PairMedia(), consumers: [:], sidecar: nil),
        PairRecord.Rare.boxed(media: PairMedia(
            stillIdentifier: "ÄB-1", movieIdentifier: "", stillWidth: 4032, stillHeight: -1, movieDuration: 2.969,
            edits: [PairMedia.EditSegment(start: 0, duration: 0.5, mediaTime: nil, rate: 1),
                    PairMedia.EditSegment(start: 0.5, duration: .greatestFiniteMagnitude, mediaTime: -0.0, rate: 0.5)],
            stillImageTime: 1.5, stillImageTimeValue: Int64.min, videoCodec: "hvc1"),
            consumers: ["immich": ConsumerVerdict(.live, "ok")], sidecar: "x.json"),
        PairRecord.Rare.boxed(media: PairMedia(stillIdentifier: nil, movieIdentifier: "B", stillImageTimeValue: -1),
                              consumers: [:], sidecar: nil),
    ]

    private static func bytes(_ extra: Boxed<PairRecord.Rare>?) -> [UInt8] {
        var bytes: [UInt8] = []
        PairExtras.Entry(extra: extra).encode(into: &bytes)
        return bytes
    }

    /// Each entry comes back from its bytes whole; a byte short, or one too many, or a flag out of
    /// range gives nil, never a crash.
    @Test func entriesComeBackFromTheirBytes() {
        for (i, extra) in Self.samples.enumerated() {
            let bytes = Self.bytes(extra)
            let back = bytes.withUnsafeBytes { PairExtras.Entry(decoding: $0) }
            #expect(back != nil && back?.extra == extra, "sample \(i)")
            for n in 0..<bytes.count {
                #expect(bytes[..<n].withUnsafeBytes { PairExtras.Entry(decoding: $0) } == nil, "sample \(i) cut at \(n)")
            }
            #expect((bytes + [0]).withUnsafeBytes { PairExtras.Entry(decoding: $0) } == nil, "sample \(i)")
        }
        // The zero's sign and a NaN's bits are kept exactly (`==` would not equate NaNs).
        let media = Self.samples[4]?.value.media
        let back = Self.bytes(Self.samples[4]).withUnsafeBytes { PairExtras.Entry(decoding: $0) }?.extra?.value.media
        #expect(back?.edits[1].mediaTime?.sign == .minus && back == media)
        let nan = Double(bitPattern: 0x7FF8_0000_0000_0ABC)
        let odd = PairRecord.Rare.boxed(media: PairMedia(movieDuration: nan, stillImageTime: -.nan), consumers: [:], sidecar: nil)
        let oddBack = Self.bytes(odd).withUnsafeBytes { PairExtras.Entry(decoding: $0) }?.extra?.value.media
        #expect(oddBack?.movieDuration?.bitPattern == nan.bitPattern
                && oddBack?.stillImageTime?.bitPattern == (-Double.nan).bitPattern)
        for flag: UInt8 in [2, 0xFF] {
            var bad = Self.bytes(Self.samples[3])
            bad[0] = flag
            #expect(bad.withUnsafeBytes { PairExtras.Entry(decoding: $0) } == nil, "flag \(flag)")
        }
        var badOutcome = Self.bytes(Self.samples[2])
        // The first verdict's outcome sits after the flag, the sidecar's flag, the count and its id.
        let id = "google-photos"
        badOutcome[3 + 1 + id.utf8.count] = UInt8(ConsumerOutcome.allCases.count)
        #expect(badOutcome.withUnsafeBytes { PairExtras.Entry(decoding: $0) } == nil)
    }

    /// Written to a file, the entries read back by index, in order and out of it, as held ones;
    /// a pair changed by hand turns the list into held entries with that one replaced.
    @Test func entriesOnDiskReadAsHeld() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("livelint-extras-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let held = (0..<500).map { Self.samples[($0 * 7) % Self.samples.count] }
        let onDisk = PairExtras(writingIn: dir.path)
        held.forEach(onDisk.append)
        for i in held.indices { #expect(onDisk[i] == held[i], "pair \(i)") }
        for i in held.indices.reversed() where i % 37 == 0 { #expect(onDisk[i] == held[i], "pair \(i), backwards") }
        var changed = onDisk
        changed.replace(3, with: Self.samples[1], count: held.count)
        changed.replace(4, with: nil, count: held.count)
        #expect(changed[3] == Self.samples[1] && changed[4] == nil && changed[5] == held[5] && onDisk[3] == held[3])
        var none = PairExtras.none
        none.replace(1, with: Self.samples[2], count: 3)
        #expect(none[1] == Self.samples[2] && none[0] == nil && none[2] == nil)
        // A copy taken before a change keeps its entries (the array is shared until then).
        var before = changed
        changed.replace(3, with: nil, count: held.count)
        #expect(before[3] == Self.samples[1] && changed[3] == nil)
        before.replace(5, with: nil, count: held.count)
        #expect(changed[5] == held[5])
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty, "nothing left in the folder")
    }
}
