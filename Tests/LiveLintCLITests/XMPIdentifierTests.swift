import Foundation
import Testing

/// identifier-only-in-xmp on real files (issue 12): a still whose identifier a converter wrote
/// into XMP (`XMP-apple-fi:ContentIdentifier`, as exiftool writes it with a user-defined table)
/// instead of the Apple makernote is flagged by lint, and `fix` writes it where Apple and Immich read it.
@Suite struct XMPIdentifierTests {
    static let id = "22222222-3333-4444-8555-666666666666"

    /// `jpeg` with an XMP APP1 segment holding `apple-fi:ContentIdentifier` right after SOI.
    static func addingXMPIdentifier(_ jpeg: [UInt8], _ id: String) -> [UInt8] {
        let packet = """
            <?xpacket begin="\u{FEFF}" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/">\
            <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">\
            <rdf:Description rdf:about="" xmlns:apple-fi="http://ns.apple.com/faceinfo/1.0/">\
            <apple-fi:ContentIdentifier>\(id)</apple-fi:ContentIdentifier></rdf:Description></rdf:RDF></x:xmpmeta>\
            <?xpacket end="w"?>
            """
        let payload = Array("http://ns.adobe.com/xap/1.0/\0".utf8) + Array(packet.utf8)
        let length = payload.count + 2
        return Array(jpeg[0..<2]) + [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload + Array(jpeg[2...])
    }

    @Test func lintFlagsItAndFixWritesTheMakernote() throws {
        let tmp = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: tmp) }
        let input = tmp.appendingPathComponent("in"), out = tmp.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
        let source = CLI.fixtures.appendingPathComponent("library/broken/still-missing-identifier")
        let jpeg = try [UInt8](Data(contentsOf: source.appendingPathComponent("IMG_0102.JPG")))
        try Data(Self.addingXMPIdentifier(jpeg, Self.id)).write(to: input.appendingPathComponent("IMG_0102.JPG"))
        try FileManager.default.copyItem(at: source.appendingPathComponent("IMG_0102.MOV"), to: input.appendingPathComponent("IMG_0102.MOV"))

        // dump shows the XMP key exiv2 reads; lint flags it next to still-missing-identifier.
        let dump = try CLI.run(["dump", input.appendingPathComponent("IMG_0102.JPG").path])
        #expect(dump.stdout.contains("Xmp.apple-fi.ContentIdentifier"), "\(dump.stdout)")
        let findings = try Repair.lintFindings(input.path)
        let xmp = try #require(findings.first { $0["rule"] as? String == "identifier-only-in-xmp" }, "\(findings)")
        #expect((xmp["message"] as? String)?.contains("only in XMP") == true)
        #expect((xmp["files"] as? [String])?.first?.hasSuffix("IMG_0102.JPG") == true)

        let fixed = try CLI.run(["fix", "--output", out.path, input.path])
        #expect(fixed.status == 0, "\(fixed.stderr)")
        let after = try Repair.lintFindings(out.path).compactMap { $0["rule"] as? String }
        #expect(!after.contains("identifier-only-in-xmp") && !after.contains("still-missing-identifier"), "\(after)")
        // The makernote now carries it (dump lists the makernote's 0x0011 apart from the XMP).
        let still = try CLI.run(["dump", out.appendingPathComponent("IMG_0102.JPG").path])
        let makerNote = still.stdout.components(separatedBy: "Xmp (").first ?? ""
        #expect(makerNote.contains("0x0011") && makerNote.contains(Self.id), "\(still.stdout)")
    }
}
