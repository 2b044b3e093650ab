import LiveModel
import Testing
@testable import LiveReaders

/// The XMP keys exiv2 flattens a motion photo's `Container:Directory` into, read back as the item
/// index and field they name (every XMP property of a still passes through here).
@Suite struct MotionPhotoClaimsTests {
    @Test(arguments: [
        ("Xmp.Container.Directory[2]/Container:Item/Item:Length", 2, "Length"),
        ("Xmp.GContainer.Directory[10]/GContainer:Item/Item:Mime", 10, "Mime"),
        ("Xmp.Container.Directory[2]/Container:Item", 2, "Item"),
        ("Xmp.Container.Directory[2]/Container:Item/Item:Padding//", 2, "Padding"),
        ("Xmp.Container.Directory[3]]/a:b:c", 3, "c"),
        ("Xmp.Container.Directory[+4]/x:Semantic", 4, "Semantic"),
        ("Xmp.Container.Directory[5]x:y", 5, "y"),
        ("Xmp.Container.Directory[6]/a:b/", 6, "b"),
    ])
    func directoryKeysNameTheirItemAndField(key: String, index: Int, field: String) throws {
        let found = try #require(MotionPhotoClaimsReader.directoryField(key))
        #expect(found.0 == index && found.1 == field)
    }

    @Test(arguments: [
        "Xmp.Container.Directory[2]", "Xmp.Container.Directory[2]/", "Xmp.Container.Directory[2]/noPrefix",
        "Xmp.Container.Directory[0]/x:y", "Xmp.Container.Directory[a]/x:y", "Xmp.Container.Directory[2/x:y",
        "Xmp.Container.Directory[99999999999999999999]/x:y", "Xmp.Other.Directory[2]/x:y", "Xmp.Container.Dir[2]/x:y",
        "Xmp.Container.Directory[2]/x:y/plain",
    ])
    func otherKeysAreNoDirectoryField(key: String) {
        #expect(MotionPhotoClaimsReader.directoryField(key) == nil, "\(key)")
    }

    /// Camera tags under either prefix, and a directory's items in index order.
    @Test func claimsAreReadFromTheProperties() {
        func xmp(_ key: String, _ value: String) -> MetadataProperty { MetadataProperty(key: key, type: "XmpText", value: .string(value)) }
        var issues: [ReadIssue] = []
        let claims = MotionPhotoClaimsReader.read([
            MetadataProperty(key: "Exif.Image.Make", type: "Ascii", value: .string("Google")),
            xmp("Xmp.Camera.MotionPhoto", "1"), xmp("Xmp.GCamera.MotionPhotoVersion", "1"),
            xmp("Xmp.GCamera.MotionPhotoPresentationTimestampUs", " 1500000 "),
            xmp("Xmp.Container.Directory[2]/Container:Item/Item:Semantic", "MotionPhoto"),
            xmp("Xmp.Container.Directory[2]/Container:Item/Item:Length", "7418"),
            xmp("Xmp.Container.Directory[1]/Container:Item/Item:Semantic", "Primary"),
            xmp("Xmp.GCamera.MicroVideoOffset", "x"),
        ], issues: &issues)
        #expect(claims?.motionPhoto == 1 && claims?.version == 1 && claims?.presentationTimestampUs == 1_500_000)
        #expect(claims?.items.map(\.semantic) == ["Primary", "MotionPhoto"] && claims?.items.last?.length == 7418)
        #expect(claims?.itemCount == 2 && claims?.microVideoOffset == nil)
        #expect(issues.map(\.location) == ["xmp/Xmp.GCamera.MicroVideoOffset"])
        #expect(MotionPhotoClaimsReader.read([xmp("Xmp.dc.title", "x")], issues: &issues) == nil)
    }
}
