import Foundation
import ISOBMFF
import LiveLintEngine
import LiveModel
import LiveReaders
import LiveWriters
import Rules
import Testing

/// Motion photos whose claims lie or whose trailers are cut, built in code from the fixture pair:
/// each gives a reading with located issues (and the findings that say so), never a crash.
@Suite struct MotionPhotoHostileTests {
    static let jpeg: [UInt8] = (try? [UInt8](Data(contentsOf: Paths.fixtures.appendingPathComponent("pair/IMG_0001.JPG")))) ?? []
    static let mp4: [UInt8] = {
        guard let source = try? FileByteSource(path: Paths.fixtures.appendingPathComponent("pair/IMG_0001.MOV").path) else { return [] }
        return (try? MovieRemux.rebrand(source, as: .mp4)) ?? []
    }()

    static let camera = "http://ns.google.com/photos/1.0/camera/"

    /// The fixture JPEG with `description` as its motion-photo XMP, then `trailer`.
    static func motionJPEG(_ description: String, trailer: [UInt8]) throws -> [UInt8] {
        try JPEGXMPEditor.settingMotionPhoto(jpeg, description: description) + trailer
    }

    static func directory(videoLength: Int64?, timestampUs: Int64 = 500_000) -> String {
        var items = [DirectoryItem(mime: "image/jpeg", semantic: "Primary", length: 0, padding: 0)]
        items.append(DirectoryItem(mime: "video/mp4", semantic: "MotionPhoto", length: videoLength))
        return MotionPhotoXMP.description(presentationTimestampUs: timestampUs, items: items)
    }

    static func microVideo(offset: String) -> String {
        "<rdf:Description rdf:about=\"\" xmlns:GCamera=\"\(camera)\" GCamera:MicroVideo=\"1\" GCamera:MicroVideoVersion=\"1\""
            + " GCamera:MicroVideoOffset=\"\(offset)\" GCamera:MicroVideoPresentationTimestampUs=\"-1\"/>"
    }

    static func read(_ bytes: [UInt8]) -> MediaFile {
        MediaInspector.inspect(bytes: bytes, displayPath: "hostile.jpg", options: .dump)
    }

    /// The findings of the motion-photo rules on `file`, by rule id.
    static func findings(_ file: MediaFile) throws -> [String] {
        let engine = try LintEngine(rules: builtinRules)
        return engine.run(files: [file.slimmedForLint(keeping: engine.metadataKeys)], root: ".").findings
            .map(\.ruleID).filter { $0.hasPrefix("motion-photo") }
    }

    @Test func wellFormedReadsAsDeclared() throws {
        let file = Self.read(try Self.motionJPEG(Self.directory(videoLength: Int64(Self.mp4.count)), trailer: Self.mp4))
        let m = try #require(file.still?.motionPhoto)
        #expect(m.videoLength == Int64(Self.mp4.count) && m.videoOffset == m.declaredVideoOffset && m.container == .appended)
        #expect(m.issues.isEmpty && m.videoError == nil)
        #expect(try Self.findings(file).isEmpty)
    }

    /// A length past the end of the file: the claim is refused with its location, the video is
    /// still found by its `ftyp`, and the mismatch is reported.
    @Test func lengthPastTheEnd() throws {
        for trailer in [Self.mp4, []] {
            let file = Self.read(try Self.motionJPEG(Self.directory(videoLength: 1 << 40), trailer: trailer))
            let m = try #require(file.still?.motionPhoto)
            let issue = try #require(m.issues.first)
            #expect(issue.location == "xmp/Container:Directory" && issue.message.contains("outside the file"))
            #expect(m.hasVideo == !trailer.isEmpty)
            #expect(try Self.findings(file) == (trailer.isEmpty ? ["motion-photo-missing-video"] : ["motion-photo-offset-mismatch"]))
        }
    }

    /// MicroVideoOffset 0 (a video of no bytes at the very end) and -1 (past the end).
    @Test(arguments: ["0", "-1", "99999999999", "1024", "x"])
    func microVideoOffsets(_ offset: String) throws {
        for trailer in [Self.mp4, []] {
            let file = Self.read(try Self.motionJPEG(Self.microVideo(offset: offset), trailer: trailer))
            let m = try #require(file.still?.motionPhoto, "MicroVideoOffset \(offset)")
            #expect(m.format == .microVideo)
            if offset == "x" {
                #expect(m.issues.contains { $0.location == "xmp/Xmp.GCamera.MicroVideoOffset" && $0.message.contains("not a whole number") })
            } else if offset != "1024" {
                #expect(m.issues.contains { $0.location == "xmp/GCamera:MicroVideoOffset" }, "\(offset): \(m.issues)")
            }
            #expect(m.hasVideo == !trailer.isEmpty, "MicroVideoOffset \(offset)")
            let ids = try Self.findings(file)
            #expect(ids.contains(trailer.isEmpty ? "motion-photo-missing-video" : "motion-photo-offset-mismatch") || (offset == "x" && !trailer.isEmpty),
                    "\(offset): \(ids)")
        }
    }

    /// Directory lengths of 0 and -1: the claims name an empty or negative video.
    @Test(arguments: [Int64(0), -1])
    func directoryLengths(_ length: Int64) throws {
        let file = Self.read(try Self.motionJPEG(Self.directory(videoLength: length), trailer: Self.mp4))
        let m = try #require(file.still?.motionPhoto)
        #expect(m.issues.contains { $0.location == "xmp/Container:Directory" })
        #expect(m.hasVideo && m.container == .scan)
        #expect(try Self.findings(file) == ["motion-photo-offset-mismatch"])
    }

    /// A directory of 10,000 items (more than an XMP segment holds, so given as exiv2 would flatten
    /// it): the first 64 are kept, the count is reported as a limit, nothing grows with it.
    @Test func tenThousandDirectoryItems() throws {
        var properties = [MetadataProperty(key: "Xmp.GCamera.MotionPhoto", type: "XmpText", value: .string("1"))]
        for i in 1...10_000 {
            let prefix = "Xmp.Container.Directory[\(i)]/Container:Item/Item:"
            properties.append(MetadataProperty(key: prefix + "Semantic", type: "XmpText", value: .string(i == 1 ? "Primary" : "GainMap")))
            properties.append(MetadataProperty(key: prefix + "Length", type: "XmpText", value: .string("1")))
        }
        let bytes = Self.jpeg + Self.mp4
        let m = try #require(MotionPhotoReader.read(MemoryByteSource(bytes), format: .jpeg, properties: properties,
                                                   movieOptions: MovieReadOptions(), locatePrimaryEnd: true))
        #expect(m.declared.items.count == 64 && m.declared.itemCount == 10_000)
        #expect(m.issues.contains { $0.category == .limit && $0.location == "xmp/Container:Directory" })
        #expect(m.hasVideo, "found by its ftyp")
    }

    /// The appended MP4 cut short at several points: a located error inside the embedded video,
    /// or no video at all when its first box is gone.
    @Test(arguments: [0.1, 0.5, 0.9, 0.99])
    func truncatedVideo(_ fraction: Double) throws {
        let cut = Array(Self.mp4.prefix(Int(Double(Self.mp4.count) * fraction)))
        let file = Self.read(try Self.motionJPEG(Self.directory(videoLength: Int64(Self.mp4.count)), trailer: cut))
        let m = try #require(file.still?.motionPhoto)
        #expect(!m.issues.isEmpty || m.videoError != nil || m.video?.topLevelBoxes.isEmpty == false, "\(fraction)")
        if let e = m.videoError { #expect(e.location?.hasPrefix("embedded-video") == true && e.offset != nil) }
        _ = try Self.findings(file)
    }

    /// Samsung SEF trailers that do not hold together: a directory length past the start, a count
    /// past the directory, records pointing outside the file.
    static let sefCases: [(String, [UInt8])] = {
        let seft: [UInt8] = Array("SEFT".utf8), sefh: [UInt8] = Array("SEFH".utf8)
        var cases: [(String, [UInt8])] = [("length past the start", le32(0x7FFF_FFFF) + seft)]
        var many: [UInt8] = sefh + le32(101)
        many += le32(1_000_000)
        many += le32(20) + seft
        cases.append(("count past the directory", many))
        var outside: [UInt8] = sefh + le32(101) + le32(1)
        outside += [0, 0, 0x30, 0x0A] + le32(0x7000_0000)
        outside += le32(64) + le32(24) + seft
        cases.append(("record outside", outside))
        cases.append(("just SEFT", seft))
        return cases
    }()

    @Test(arguments: sefCases)
    func truncatedSEFTrailer(_ label: String, _ trailer: [UInt8]) throws {
        let file = Self.read(Self.jpeg + Self.mp4 + trailer)
        let m = try #require(file.still?.motionPhoto, "\(label)")
        if label != "just SEFT" {
            #expect(m.issues.contains { $0.location?.hasPrefix("sef/") == true && $0.offset != nil }, "\(label): \(m.issues)")
        }
        #expect(m.hasVideo, "\(label): the MP4 before the trailer is still found")
    }

    /// A well-formed SEF trailer whose MotionPhoto_Data record holds the MP4.
    @Test func samsungSEFTrailer() throws {
        let name = Array("MotionPhoto_Data".utf8)
        let record = [0, 0, 0x30, 0x0A] + Self.le32(UInt32(name.count)) + name + Self.mp4
        let directory = Array("SEFH".utf8) + Self.le32(101) + Self.le32(1) + [0, 0, 0x30, 0x0A] + Self.le32(UInt32(record.count))
            + Self.le32(UInt32(record.count))
        let bytes = Self.jpeg + record + directory + Self.le32(UInt32(directory.count)) + Array("SEFT".utf8)
        let m = try #require(Self.read(bytes).still?.motionPhoto)
        #expect(m.format == .samsung && m.container == .sef)
        #expect(m.videoOffset == Int64(Self.jpeg.count + 8 + name.count) && m.videoLength == Int64(Self.mp4.count))
        #expect(m.declaredVideoOffset == m.videoOffset && m.issues.isEmpty)
    }

    /// The corpus Samsung HEIC cut at many points: every cut reads (or fails) with a located error.
    @Test(.enabled(if: Paths.corpusPresent, "needs ../shared/corpus"))
    func truncatedSamsungHEIC() throws {
        let bytes = try [UInt8](Data(contentsOf: Paths.corpus.appendingPathComponent("sm_motion_photo/photo-sg22-ultra.heic")))
        for fraction in stride(from: 0.05, to: 1.0, by: 0.05) {
            let file = MediaInspector.inspect(bytes: Array(bytes.prefix(Int(Double(bytes.count) * fraction))),
                                              displayPath: "cut.heic", options: .dump)
            if let e = file.error { #expect(e.location != nil || e.offset != nil || !e.message.isEmpty) }
            if let e = file.still?.motionPhoto?.videoError { #expect(e.location?.hasPrefix("embedded-video") == true, "\(fraction)") }
            _ = try Self.findings(file)
        }
    }

    /// No metadata at all (Huawei and others): the MP4 after the EOI is found and read; lint
    /// has no claims to hold against it. A JPEG ending with its EOI costs no search.
    @Test func plainEmbeddedMP4() throws {
        let file = Self.read(Self.jpeg + Self.mp4)
        let m = try #require(file.still?.motionPhoto)
        #expect(m.format == .embeddedMP4 && m.container == .scan)
        #expect(m.videoOffset == Int64(Self.jpeg.count) && m.videoLength == Int64(Self.mp4.count))
        #expect(m.primaryImageEnd == Int64(Self.jpeg.count))
        #expect(try Self.findings(file).isEmpty)
        #expect(Self.read(Self.jpeg).still?.motionPhoto == nil)
    }

    /// An `ftyp` in the JPEG's own bytes before its EOI is not taken for the video.
    @Test func ftypInsideTheImageIsIgnored() throws {
        var fake = Self.jpeg
        let sos = try #require((0..<(fake.count - 1)).first { fake[$0] == 0xFF && fake[$0 + 1] == 0xDA })
        // A COM segment holding an ftyp box, before SOS.
        let box: [UInt8] = [0, 0, 0, 16] + Array("ftypmp42".utf8) + [0, 0, 0, 0]
        fake.insert(contentsOf: [0xFF, 0xFE, 0, UInt8(box.count + 2)] + box, at: sos)
        let file = Self.read(fake + [0, 0, 0, 0])
        #expect(file.still?.motionPhoto?.hasVideo != true)
    }

    static func le32(_ v: UInt32) -> [UInt8] { [UInt8(v & 0xFF), UInt8((v >> 8) & 0xFF), UInt8((v >> 16) & 0xFF), UInt8(v >> 24)] }
}
