import LiveLintEngine
import LiveModel
import Rules
import Testing

/// `MediaFile` keeps its fields in a shared copy-on-write box (issue 4): copies must still behave
/// as independent values, and `slimmedForLint(keeping:)` must keep what the rules read.
struct MediaFileStorageTests {
    @Test func copiesDoNotSeeEachOthersChanges() {
        let original = MediaFile.jpeg("a/IMG_0001.JPG")
        var copy = original
        copy.path = "b/IMG_0002.JPG"
        copy.still?.width = 1
        copy.still?.properties.removeAll()
        copy.warnings.append(ReadIssue(.unsupported, "odd box"))
        copy.members = [MediaFile.mov()]
        #expect(original.path == "a/IMG_0001.JPG")
        #expect(original.still?.width == 4032)
        #expect(original.still?.properties.isEmpty == false)
        #expect(original.warnings.isEmpty)
        #expect(original.members == nil)
        #expect(copy.path == "b/IMG_0002.JPG")
        #expect(copy.still?.width == 1)
        #expect(copy.still?.properties.isEmpty == true)
        #expect(copy.warnings.count == 1)
        #expect(copy.members?.count == 1)
    }

    @Test func settingAndClearingTheHalves() {
        var file = MediaFile(path: "x", kind: .unknown, format: .unknown)
        #expect(file.still == nil && file.movie == nil && file.contentIdentifier == nil)
        file.movie = MediaFile.mov().movie
        #expect(file.contentIdentifier == Sample.uuidA)
        let snapshot = file
        file.movie = nil
        file.error = ReadIssue(.io, "gone")
        #expect(file.movie == nil && file.error?.message == "gone")
        #expect(snapshot.contentIdentifier == Sample.uuidA && snapshot.error == nil)
    }

    @Test func slimmedKeepsWhatTheRulesRead() throws {
        let keys: Set<String> = ["Exif.Photo.DateTimeOriginal", "com.apple.quicktime.creationdate"]
        let still = MediaFile.jpeg(orientation: 6, offset: "+02:00").slimmedForLint(keeping: keys)
        #expect(still.contentIdentifier == Sample.uuidA)
        #expect(still.still?.dateTimeOriginal == "2021:04:10 11:44:00")
        #expect(try #require(still.still).properties.map(\.key) == ["Exif.Photo.DateTimeOriginal"])
        #expect(still.still?.makerNote?.tags.map(\.tag) == [0x0011])
        #expect(still.still?.width == 4032)

        let movie = MediaFile.mov().slimmedForLint(keeping: keys)
        #expect(movie.contentIdentifier == Sample.uuidA)
        #expect(movie.movie?.keys.map(\.key).sorted() == [MovieInfo.contentIdentifierKey, "com.apple.quicktime.creationdate"])
        #expect(movie.movie?.tracks.isEmpty == true)
        #expect(movie.movie?.compatibleBrands.isEmpty == true)
        #expect(movie.movie?.video?.codec == "hvc1")
        #expect(movie.movie?.stillImageTime != nil)

        // Nothing declared: the identifiers stay (pairing needs them), every property goes.
        let bare = MediaFile.jpeg(orientation: 6).slimmedForLint(keeping: [])
        #expect(bare.still?.properties.isEmpty == true && bare.contentIdentifier == Sample.uuidA)
        #expect(MediaFile.mov().slimmedForLint(keeping: []).movie?.keys.map(\.key) == [MovieInfo.contentIdentifierKey])
    }

    /// The built-in rules declare what they read: with every rule on, lint keeps exactly those keys.
    @Test func engineKeepsWhatItsEnabledRulesDeclare() throws {
        let everything = Configuration(rules: Dictionary(uniqueKeysWithValues: builtinRules.map {
            ($0.description.identifier, RuleSetting(enabled: true))
        }))
        let all = try LintEngine(rules: builtinRules, configuration: everything)
        #expect(all.metadataKeys == ["Exif.Photo.DateTimeOriginal", "Exif.Photo.OffsetTimeOriginal", "Exif.Image.Orientation",
                                      "com.apple.quicktime.creationdate", MetadataKey.motionPhoto.key,
                                      MetadataKey.xmpContentIdentifier.key])
        // By default both rules that read still or movie tags are off: beyond the identifiers only
        // the motion photo record (the motion-photo, codec, pixel-format and orphan-still rules read
        // it; it is nil on every still that is no motion photo) and the XMP identifier
        // (identifier-only-in-xmp) are kept.
        #expect(try LintEngine(rules: builtinRules).metadataKeys == [MetadataKey.motionPhoto.key, MetadataKey.xmpContentIdentifier.key])
    }

    @Test func slimmedLintsTheSameAsTheFullFile() throws {
        // A pair without a still-image-time, a second still carrying the same identifier, and a
        // pair whose still and movie dates disagree by a year.
        let files = [MediaFile.jpeg(), MediaFile.mov(stillImageTime: nil), MediaFile.jpeg("copy/IMG_0001.JPG"),
                     MediaFile.jpeg("IMG_0003.JPG", id: Sample.uuidB, date: "2020:04:10 11:44:00"),
                     MediaFile.mov("IMG_0003.MOV", id: Sample.uuidB)]
        let everything = Configuration(rules: Dictionary(uniqueKeysWithValues: builtinRules.map {
            ($0.description.identifier, RuleSetting(enabled: true))
        }))
        for configuration in [Configuration.default, everything] {
            let engine = try LintEngine(rules: builtinRules, configuration: configuration)
            let full = engine.run(files: files, root: "scan")
            let slim = engine.run(files: files.map { $0.slimmedForLint(keeping: engine.metadataKeys) }, root: "scan")
            #expect(full == slim)
            #expect(full.findings.count >= 2)
        }
    }
}

/// A motion photo's record is kept only when an enabled rule reads it, cut to what rules read.
@Test func slimmingKeepsTheMotionPhotoOnlyForRulesThatReadIt() throws {
    let file = MediaFile.motionPhoto(id: Sample.uuidA)
    #expect(file.slimmedForLint(keeping: []).still?.motionPhoto == nil)
    let kept = try #require(file.slimmedForLint(keeping: [MetadataKey.motionPhoto.key]).still?.motionPhoto)
    #expect(kept.videoOffset == file.still?.motionPhoto?.videoOffset && kept.declaredVideoLength == file.still?.motionPhoto?.declaredVideoLength)
    #expect(kept.video?.video == file.still?.motionPhoto?.video?.video && kept.duration == file.still?.motionPhoto?.duration)
    #expect(kept.video?.tracks.isEmpty == true && kept.video?.keys.isEmpty == true)
    // With only the motion-photo rules off, none of the enabled rules reads it, and it goes.
    let off = Configuration(rules: Dictionary(uniqueKeysWithValues: builtinRules.filter { $0.description.readsMetadata.contains(.motionPhoto) }
        .map { ($0.description.identifier, RuleSetting(enabled: false)) }))
    let engine = try LintEngine(rules: builtinRules, configuration: off)
    #expect(!engine.metadataKeys.contains(MetadataKey.motionPhoto.key))
    #expect(file.slimmedForLint(keeping: engine.metadataKeys).still?.motionPhoto == nil)
}
