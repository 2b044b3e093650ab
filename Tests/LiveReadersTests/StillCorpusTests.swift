import AppleMakerNote
import Foundation
import LiveModel
import LiveReaders
import Testing

/// Every still in the real-device corpus, read through exiv2 and the makernote decoder, must agree
/// with the facts `manifest.json` records (read with exiftool).
@Suite("Still reader against the corpus", .enabled(if: StillCorpus.isPresent, "needs ../shared/corpus"))
struct StillCorpusTests {
    @Test(arguments: StillCorpus.stillIDs)
    func agreesWithTheManifest(id: String) throws {
        let path = try #require(StillCorpus.path(id))
        let facts = try #require(StillCorpus.facts(id))
        let result = StillReader.read(path: path)
        #expect(result.error == nil, "\(id): \(String(describing: result.error))")
        let still = try #require(result.still)

        // The pairing key and the tag list.
        let expectedID = facts["content_identifier_0x0011"] as? String
        #expect(still.contentIdentifier == expectedID, "\(id)")
        // The manifest lists the ids exiftool 12.57 prints, which is not quite the IFD: it shows 0x0003
        // RunTime only as id-less sub-tags (RunTimeFlags/Value/Scale/Epoch), and it runs 0x0002,
        // 0x0041 and 0x0042 through its binary-plist conversion, dropping them when the value is not a
        // plist (newer iPhones store a raw 512-byte matrix and plain int32s there). Those are the only
        // tags we may list on top of the manifest.
        let expectedTags = (facts["makernote_tag_ids"] as? [NSNumber])?.map { UInt16($0.intValue) } ?? []
        let ours = still.makerNote?.tags ?? []
        #expect(ours.map(\.tag).filter { expectedTags.contains($0) } == expectedTags, "\(id)")
        for extra in ours where !expectedTags.contains(extra.tag) {
            let explained = extra.tag == 0x0003 || ([0x0002, 0x0041, 0x0042].contains(extra.tag) && !Self.isDecodedPlist(extra))
            #expect(explained, "\(id): tag \(extra.hexID) \(extra.name) is not in the manifest")
        }
        if still.makerNote != nil { #expect(ours.contains { $0.tag == 0x0003 }, "\(id): RunTime") }
        if let version = StillCorpus.int(facts["makernote_version"]) {
            #expect(still.makerNote?.tag(0x0001)?.value.intValue == version, "\(id): MakerNoteVersion")
        }
        #expect(still.makerNote?.tag(0x0017)?.value.intValue == StillCorpus.int(facts["live_photo_video_index_0x0017"]), "\(id): 0x0017")

        // The other UUIDs: keys look like "0x0020(ImageCaptureReqestID)".
        let others = facts["other_makernote_uuids"] as? [String: String] ?? [:]
        for (key, uuid) in others {
            let hex = key.prefix { $0 != "(" }.dropFirst(2)
            let tagID = try #require(UInt16(hex, radix: 16))
            #expect(still.makerNote?.tag(tagID)?.value == .string(uuid), "\(id) \(key)")
        }

        // Exif basics.
        #expect(still.make == StillCorpus.string(facts["make"]), "\(id): Make")
        #expect(still.model == StillCorpus.string(facts["model"]), "\(id): Model")
        #expect(still.dateTimeOriginal == StillCorpus.string(facts["datetime"]), "\(id): DateTimeOriginal")

        // Motion-photo XMP (exiftool gives numbers, exiv2 keeps XMP text).
        let gcamera = facts["gcamera_xmp"] as? [String: Any] ?? [:]
        for (name, value) in gcamera {
            #expect(still.property("Xmp.GCamera.\(name)")?.value == .string(StillCorpus.string(value) ?? "?"), "\(id) GCamera:\(name)")
        }

        // Only the Apple makernotes decode; none of the corpus ones is damaged.
        #expect(still.makerNote?.issues.filter { !$0.message.contains("unknown TIFF type 0") }.isEmpty ?? true, "\(id): \(still.makerNote?.issues ?? [])")
        #expect(still.makerNoteIssue == nil, "\(id): \(String(describing: still.makerNoteIssue))")
    }

    /// True for an undefined-type tag whose binary plist decoded (into a dictionary, array or scalar).
    static func isDecodedPlist(_ tag: MakerAppleTag) -> Bool {
        guard tag.type == "undef" else { return false }
        if case .bytes = tag.value { return false }
        return true
    }

    /// Dimensions as exiv2 reports them. JPEGs match exiftool exactly; for HEIC, exiv2 0.27's BMFF reader
    /// takes the first `ispe` it sees while exiftool applies the primary item's (and `irot`), so a
    /// portrait HEIC can come back with width and height swapped: accept either order there.
    @Test(arguments: StillCorpus.stillIDs)
    func dimensions(id: String) throws {
        let path = try #require(StillCorpus.path(id))
        let facts = try #require(StillCorpus.facts(id))
        let size = try #require(facts["size"] as? String)
        let parts = size.split(separator: "x").compactMap { Int($0) }
        try #require(parts.count == 2)
        let still = try #require(StillReader.read(path: path).still)
        let got = [still.width ?? -1, still.height ?? -1]
        if facts["filetype"] as? String == "JPEG" {
            #expect(got == parts, "\(id)")
        } else {
            #expect(got == parts || got == parts.reversed(), "\(id): \(got) vs \(size)")
        }
    }

    /// The lint fast path reads the same identifier and basics, with far fewer properties.
    @Test(arguments: StillCorpus.stillIDs)
    func fastPathAgrees(id: String) throws {
        let path = try #require(StillCorpus.path(id))
        let full = try #require(StillReader.read(path: path).still)
        let fast = try #require(StillReader.read(path: path, options: .init(allProperties: false)).still)
        #expect(fast.contentIdentifier == full.contentIdentifier)
        #expect(fast.makerNote == full.makerNote)
        #expect(fast.make == full.make && fast.model == full.model && fast.dateTimeOriginal == full.dateTimeOriginal)
        #expect(fast.width == full.width && fast.height == full.height)
        #expect(fast.properties.allSatisfy { p in StillReadOptions.lintKeyPrefixes.contains { p.key.hasPrefix($0) } })
        #expect(fast.properties.count <= full.properties.count)
        #expect(fast.properties.filter { $0.key.hasPrefix("Xmp.GCamera.") } == full.properties.filter { $0.key.hasPrefix("Xmp.GCamera.") })
    }

    /// Every Exif key the fast path promises survives it (exiv2 filters by prefix, so a key left off
    /// the list would silently vanish from lint only).
    @Test(arguments: StillCorpus.stillIDs)
    func fastPathKeepsEveryPromisedKey(id: String) throws {
        let path = try #require(StillCorpus.path(id))
        let full = try #require(StillReader.read(path: path).still)
        let fast = try #require(StillReader.read(path: path, options: .init(allProperties: false)).still)
        for key in ["Exif.Photo.DateTimeOriginal", "Exif.Photo.OffsetTimeOriginal", "Exif.Image.Orientation"] {
            #expect(fast.property(key) == full.property(key), "\(id): \(key)")
        }
    }

    /// Lint decodes the content identifier alone; what it gets is exactly the full read's tag, and
    /// the entry problems found are the same (every entry is still checked).
    @Test(arguments: StillCorpus.stillIDs)
    func lintMakerNoteTagsAgree(id: String) throws {
        let path = try #require(StillCorpus.path(id))
        let full = try #require(StillReader.read(path: path).still)
        let lint = StillReadOptions(allProperties: false, makerNoteTags: StillReadOptions.lintMakerNoteTags)
        let fast = try #require(StillReader.read(path: path, options: lint).still)
        #expect(fast.contentIdentifier == full.contentIdentifier, "\(id)")
        #expect(fast.makerNote?.tags == full.makerNote?.tags.filter { $0.tag == AppleMakerNoteInfo.contentIdentifierTag }, "\(id)")
        #expect(fast.makerNote?.version == full.makerNote?.version, "\(id)")
        #expect(fast.makerNote?.issues == full.makerNote?.issues, "\(id)")
        #expect(fast.makerNoteIssue == full.makerNoteIssue, "\(id)")
    }

    /// Reading from memory gives what reading from the path gives.
    @Test(arguments: StillCorpus.stillIDs)
    func memoryReadMatchesPathRead(id: String) throws {
        let path = try #require(StillCorpus.path(id))
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let fromPath = try #require(StillReader.read(path: path).still)
        let fromMemory = try #require(StillReader.read(bytes: bytes).still)
        #expect(fromMemory.makerNote == fromPath.makerNote)
        #expect(fromMemory.properties == fromPath.properties)
        #expect(fromMemory.width == fromPath.width && fromMemory.height == fromPath.height)
    }

    @Test func typedPropertiesAndTheMakerNoteSummary() throws {
        let path = try #require(StillCorpus.path("P1s"))
        let still = try #require(StillReader.read(path: path).still)
        #expect(still.property("Exif.Image.Make")?.type == "Ascii")
        #expect(still.property("Exif.Photo.PixelXDimension")?.value == .uint(4032))
        #expect(still.property("Exif.Photo.FNumber")?.value.doubleValue == 2.2)
        #expect(still.property("Exif.Photo.ExifVersion")?.value == .string("0232"))
        let makerNote = try #require(still.property("Exif.Photo.MakerNote"))
        #expect(makerNote.type == "Undefined")
        #expect(makerNote.value.stringValue?.hasSuffix("bytes (Apple iOS makernote)") == true)
        #expect(still.makerNote?.tag(0x0011)?.name == "ContentIdentifier")
        // 0x0003 RunTime is a binary plist CMTime: decoded into a dictionary.
        guard case .dictionary(let runTime) = still.makerNote?.tag(0x0003)?.value else {
            Issue.record("RunTime did not decode: \(String(describing: still.makerNote?.tag(0x0003)))")
            return
        }
        #expect(Set(runTime.map(\.key)) == ["flags", "value", "timescale", "epoch"])
    }

    /// The two lint threads read independent images at the same time.
    @Test func concurrentReadsAgree() async throws {
        let ids = StillCorpus.stillIDs
        let expected = ids.map { StillReader.read(path: StillCorpus.path($0) ?? "").still?.contentIdentifier }
        let results = await withTaskGroup(of: (Int, String?).self) { group in
            for round in 0..<4 {
                for (i, id) in ids.enumerated() {
                    let path = StillCorpus.path(id) ?? ""
                    group.addTask { (i, StillReader.read(path: path, options: .init(allProperties: round % 2 == 0)).still?.contentIdentifier) }
                }
            }
            var out: [(Int, String?)] = []
            for await r in group { out.append(r) }
            return out
        }
        #expect(results.count == ids.count * 4)
        for (i, identifier) in results { #expect(identifier == expected[i], "\(ids[i])") }
    }
}
