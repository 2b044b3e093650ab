import LiveModel
import LiveReaders
import Testing

/// The one table of metadata names (`MetadataKey.table`) and what the lint path derives from it.
struct MetadataKeyTableTests {
    /// Each name appears once per reader, and every entry says where its meaning comes from.
    @Test func everyEntryIsUniqueAndSourced() {
        let table = MetadataKey.table
        #expect(Set(table.map { "\($0.reader.rawValue) \($0.key)" }).count == table.count)
        #expect(table.allSatisfy { !$0.name.isEmpty && !$0.source.isEmpty })
        #expect(table.filter { $0.reader == .appleMakerNote }.allSatisfy { $0.makerNoteTag != nil })
    }

    /// The fast path asks exiv2 for what it asked for before the table existed, in the same order,
    /// and decodes the same makernote tags.
    @Test func fastPathIsDerivedUnchanged() {
        #expect(StillReadOptions.lintKeyPrefixes == [
            "Exif.Photo.MakerNote", "Exif.MakerNote.", "Exif.Image.Make", "Exif.Image.Model", "Exif.Image.Software",
            "Exif.Image.Orientation", "Exif.Photo.DateTimeOriginal", "Exif.Photo.OffsetTimeOriginal",
            "Exif.Photo.PixelXDimension", "Exif.Photo.PixelYDimension",
            "Xmp.GCamera.", "Xmp.Container.", "Xmp.GContainer.", "Xmp.Camera.",
            // Issue 12: identifier-only-in-xmp.
            "Xmp.apple-fi.ContentIdentifier",
        ])
        #expect(StillReadOptions.lintMakerNoteTags == [AppleMakerNoteInfo.contentIdentifierTag])
        #expect(MetadataKey.makerNoteContentIdentifier.key == "0x0011")
        #expect(MovieInfo.contentIdentifierKey == "com.apple.quicktime.content.identifier")
        #expect(MovieInfo.stillImageTimeKey == "com.apple.quicktime.still-image-time")
    }
}
