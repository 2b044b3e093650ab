import LiveModel

// How each photo app ties a still to its movie, as its code and issue tracker show. The sources
// are listed on each type and in docs/consumers.md; the shared notes
// (`docs/photo-apps-and-motion-photos.md` beside the project) collect them.

/// Verdicts every consumer gives the same way.
enum CommonVerdicts {
    static func archive(_ pair: LivePair, _ app: String) -> ConsumerVerdict {
        ConsumerVerdict(.unsupported, "\(app) does not read .livp archives (\(pair.archive ?? "archive"))",
                        fix: "livelint unpack the archive into a still and a movie")
    }

    /// A motion photo (the video inside the still): what apps that read them do.
    static func motionPhoto(_ still: MediaFile, _ app: String, reads: Bool) -> ConsumerVerdict? {
        guard still.hasMotionVideo else { return nil }
        return reads
            ? ConsumerVerdict(.live, "\(app) plays the video embedded in the motion photo")
            : ConsumerVerdict(.unsupported, "\(app) shows a motion photo as a still only; the embedded video is not played",
                              fix: "livelint convert \(still.path) --to live-photo")
    }

    static func lone(_ pair: LivePair, _ app: String) -> ConsumerVerdict {
        if let still = pair.still {
            let id = still.contentIdentifier.map { " (identifier \($0))" } ?? ""
            return ConsumerVerdict(.split, "lone still\(id): \(app) shows it as a plain photo",
                                   fix: "put its movie beside it, or remove the identifier if it has none")
        }
        let id = pair.movie?.contentIdentifier.map { " (identifier \($0))" } ?? ""
        return ConsumerVerdict(.split, "lone movie\(id): \(app) shows it as a plain video",
                               fix: "put its still beside it")
    }

    /// The still's identifier as exiftool's `ContentIdentifier` tag gives it to Immich and
    /// Memories (exiftool-vendored, tags by name without group): the makernote's, else an embedded
    /// XMP `ContentIdentifier` (exiftool 12.57 reports `XMP-apple-fi:ContentIdentifier` under the
    /// same name, checked here; not an `.xmp` sidecar's, immich#25810).
    static func exiftoolIdentifier(_ still: MediaFile) -> String? {
        still.contentIdentifier ?? still.still?.xmpContentIdentifier?.value
    }

    /// " (the still's only in XMP, …)" when ``exiftoolIdentifier(_:)`` came from XMP, else "".
    static func readFromXMP(_ still: MediaFile) -> String {
        guard still.contentIdentifier == nil, let xmp = still.still?.xmpContentIdentifier else { return "" }
        return " (the still's only in XMP, \(xmp.key), which exiftool reports as ContentIdentifier; Apple Photos does not read it: livelint fix)"
    }

    /// ", only in XMP (key)" when the still carries its identifier in XMP alone, else "".
    static func onlyInXMP(_ still: MediaFile) -> String {
        still.still?.xmpContentIdentifier.map { ", only in XMP (\($0.key))" } ?? ""
    }

    static func list(_ paths: [String], count: Int) -> String {
        let shown = paths.prefix(2).joined(separator: ", ")
        return count > paths.prefix(2).count ? "\(shown) and \(count - paths.prefix(2).count) more" : shown
    }
}

/// Immich: the server links a still and a movie whose exiftool `ContentIdentifier` (movie) and
/// `MediaGroupUUID` (still, makernote 0x0011) are equal, compared exactly (case-sensitive),
/// opposite asset type, same owner, first match wins; file names and XMP identifiers are not
/// read. It reads Google/Samsung motion photos (the embedded video becomes the motion part).
public struct ImmichConsumer: Consumer {
    public init() {}
    public var id: String { "immich" }
    public var displayName: String { "Immich" }
    public var sources: [String] {
        ["immich server/src/services/metadata.service.ts (linkLivePhotos)",
         "immich server/src/repositories/asset.repository.ts (live-photo match: exact identifier, opposite type, same owner, LIMIT 1)",
         "immich-app/immich#25810 (no XMP fallback)", "immich-app/immich#11947, #24008 (copies cross-link)",
         "immich-app/immich#30654 (motion photos)"]
    }

    public func verdict(on pair: LivePair, in library: LibraryFacts) -> ConsumerVerdict {
        if pair.archive != nil { return CommonVerdicts.archive(pair, displayName) }
        if let still = pair.still, pair.movie == nil, let v = CommonVerdicts.motionPhoto(still, displayName, reads: true) { return v }
        guard let still = pair.still, let movie = pair.movie else { return CommonVerdicts.lone(pair, displayName) }
        guard let sid = CommonVerdicts.exiftoolIdentifier(still) else {
            return ConsumerVerdict(.split, "the still has no MediaGroupUUID (Apple makernote 0x0011) and no XMP ContentIdentifier; Immich ignores names",
                                   fix: "livelint fix (writes the movie's identifier into the still's makernote)")
        }
        guard let mid = movie.contentIdentifier else {
            return ConsumerVerdict(.split, "the movie has no ContentIdentifier (com.apple.quicktime.content.identifier); Immich ignores names",
                                   fix: "livelint fix (writes the still's identifier into the movie)")
        }
        guard sid == mid else {
            let how = sid.lowercased() == mid.lowercased() ? "differ only in case; Immich compares them exactly" : "differ"
            return ConsumerVerdict(.split, "identifiers \(sid) (still) and \(mid) (movie) \(how)",
                                   fix: "livelint fix (writes one identifier into both halves)")
        }
        let others = library.otherMovies(withIdentifier: sid, than: movie.path)
        if others.count > 0 {
            return ConsumerVerdict(.ambiguous, "\(others.count) other movie(s) carry \(sid) (\(CommonVerdicts.list(others.paths, count: others.count))); Immich links the first match, which may not be \(movie.path)",
                                   fix: "keep one copy of the pair per library, or give each copy its own identifier (livelint make STILL MOVIE --output DIR --identifier NEW-UUID)")
        }
        return ConsumerVerdict(.live, "still and movie carry the same identifier \(sid)" + CommonVerdicts.readFromXMP(still))
    }
}

/// Apple Photos on a Mac, and the stricter iPhone / iCloud Photo Library: the identifier in
/// both halves (makernote 0x0011 and the movie's `content.identifier` key), names irrelevant,
/// XMP ignored; the iPhone also needs the timed still-image-time metadata track, without which
/// the pair is Live on the Mac only.
public struct AppleConsumer: Consumer {
    public let id: String
    public let displayName: String
    let needsStillImageTime: Bool

    public static let applePhotos = AppleConsumer(id: "apple-photos", displayName: "Apple Photos (Mac)", needsStillImageTime: false)
    public static let iphone = AppleConsumer(id: "iphone", displayName: "iPhone / iCloud", needsStillImageTime: true)

    public var sources: [String] {
        ["LivePhotoRepair ReadMe.md (makernote 0x0011 = content.identifier, names irrelevant)",
         "RaylenZed/vivo-live-photo-converter README (XMP identifier ignored)",
         "RhetTbull/makelive#26 (Live on the Mac only without the still-image-time track)",
         "davidpovarsky/live-photos docs/experiments.md (identifier + still-image-time suffices on iPhone)"]
    }

    public func verdict(on pair: LivePair, in library: LibraryFacts) -> ConsumerVerdict {
        if pair.archive != nil { return CommonVerdicts.archive(pair, displayName) }
        if let still = pair.still, pair.movie == nil, let v = CommonVerdicts.motionPhoto(still, displayName, reads: false) { return v }
        guard let still = pair.still, let movie = pair.movie else { return CommonVerdicts.lone(pair, displayName) }
        guard let sid = still.contentIdentifier else {
            return ConsumerVerdict(.split, "the still has no content identifier in its Apple makernote (tag 0x0011)" + CommonVerdicts.onlyInXMP(still)
                                   + "; Photos reads no XMP identifier",
                                   fix: "livelint fix (writes the movie's identifier into the still's makernote)")
        }
        guard let mid = movie.contentIdentifier else {
            return ConsumerVerdict(.split, "the movie has no com.apple.quicktime.content.identifier",
                                   fix: "livelint fix (writes the still's identifier into the movie)")
        }
        guard sid == mid else {
            return ConsumerVerdict(.split, "identifiers \(sid) (still) and \(mid) (movie) are not the same string",
                                   fix: "livelint fix (writes one identifier into both halves)")
        }
        guard movie.format == .quicktime else {
            return ConsumerVerdict(.split, "the movie is \(movie.format.rawValue), not QuickTime; Photos pairs a QuickTime movie",
                                   fix: "re-mux the movie as QuickTime .MOV (livelint make)")
        }
        if needsStillImageTime, movie.movie?.stillImageTime == nil {
            return ConsumerVerdict(.split, "the movie has no still-image-time track: Live on a Mac, but not on an iPhone or in iCloud",
                                   fix: "livelint fix (adds the still-image-time track)")
        }
        let others = library.otherMovies(withIdentifier: sid, than: movie.path)
        if others.count > 0 {
            return ConsumerVerdict(.ambiguous, "\(others.count) other movie(s) carry \(sid) (\(CommonVerdicts.list(others.paths, count: others.count))); Photos may pair the still with one of them when both are imported",
                                   fix: "import one copy of the pair, or give each copy its own identifier")
        }
        return ConsumerVerdict(.live, "still and movie carry the same identifier \(sid)" + (needsStillImageTime ? " and the movie has a still-image-time track" : ""))
    }
}

/// Nextcloud Memories: pairs by content identifier, and the movie must be QuickTime by content
/// (its MIME type comes from exiftool, which reads the content, so a `.MP4` that is QuickTime
/// passes). It reads Google motion photos. Files that reach Nextcloud server ≥ 28 other than
/// through the iOS client get no server-side pairing.
public struct NextcloudMemoriesConsumer: Consumer {
    public init() {}
    public var id: String { "nextcloud-memories" }
    public var displayName: String { "Nextcloud Memories" }
    public var sources: [String] {
        ["pulsejet/memories (live photo by ContentIdentifier; the movie must be video/quicktime by exiftool's MIME type)",
         "nextcloud/server#40242 (server ≥ 28: files-live-photo set by the iOS client)"]
    }

    public func verdict(on pair: LivePair, in library: LibraryFacts) -> ConsumerVerdict {
        if pair.archive != nil { return CommonVerdicts.archive(pair, displayName) }
        if let still = pair.still, pair.movie == nil, let v = CommonVerdicts.motionPhoto(still, displayName, reads: true) { return v }
        guard let still = pair.still, let movie = pair.movie else { return CommonVerdicts.lone(pair, displayName) }
        guard let sid = CommonVerdicts.exiftoolIdentifier(still), let mid = movie.contentIdentifier else {
            return ConsumerVerdict(.split, "the \(CommonVerdicts.exiftoolIdentifier(still) == nil ? "still" : "movie") has no content identifier; Memories pairs by identifier only",
                                   fix: "livelint fix (copies the identifier from the other half)")
        }
        guard sid == mid else {
            return ConsumerVerdict(.split, "identifiers \(sid) (still) and \(mid) (movie) are not the same string",
                                   fix: "livelint fix (writes one identifier into both halves)")
        }
        guard movie.format == .quicktime else {
            return ConsumerVerdict(.split, "the movie's content is \(movie.format.rawValue), not QuickTime (video/quicktime); Memories links QuickTime movies only",
                                   fix: "re-mux the movie as QuickTime (livelint make)")
        }
        let others = library.otherMovies(withIdentifier: sid, than: movie.path)
        if others.count > 0 {
            return ConsumerVerdict(.ambiguous, "\(others.count) other movie(s) carry \(sid) (\(CommonVerdicts.list(others.paths, count: others.count)))",
                                   fix: "keep one copy of the pair, or give each copy its own identifier")
        }
        return ConsumerVerdict(.live, "same identifier \(sid) and a QuickTime movie" + CommonVerdicts.readFromXMP(still))
    }
}

/// PhotoPrism: stacks files with the same base name in one folder (always on), then files
/// sharing a 36-character UUID; the Photos-library `<UUID>_3.mov` original is not matched;
/// `.livp` is not supported. Name rollover (`IMG_0001` reused) stacks unrelated files.
public struct PhotoPrismConsumer: Consumer {
    public init() {}
    public var id: String { "photoprism" }
    public var displayName: String { "PhotoPrism" }
    public var sources: [String] {
        ["photoprism discussion #5136 (stacks by base name, always on)", "photoprism/photoprism#1885 (_3.mov not matched)",
         "photoprism/photoprism#2983 (_HEVC special case)", "photoprism/photoprism#2312 (.livp not supported)",
         "photoprism/photoprism#5799 (stacks without checking identifiers)"]
    }

    /// The base name PhotoPrism compares: the name without its extension, and without an
    /// icloudpd `_HEVC` suffix (special-cased since #2983).
    static func base(_ path: String) -> String {
        var stem = LibraryFacts.stem(LibraryFacts.name(path))
        if stem.hasSuffix("_HEVC") || stem.hasSuffix("_hevc"), stem.count > 5 { stem.removeLast(5) }
        return stem
    }

    /// `<UUID>_3.mov`: the movie name a Photos library gives a Live Photo's original.
    static func isPhotosLibraryOriginal(_ path: String) -> Bool {
        let stem = LibraryFacts.stem(LibraryFacts.name(path))
        guard let underscore = stem.lastIndex(of: "_") else { return false }
        let tail = stem[stem.index(after: underscore)...]
        return !tail.isEmpty && tail.allSatisfy(\.isASCIIDigit) && ContentIdentifier.isUUID(String(stem[..<underscore]))
    }

    public func verdict(on pair: LivePair, in library: LibraryFacts) -> ConsumerVerdict {
        if pair.archive != nil { return CommonVerdicts.archive(pair, displayName) }
        if let still = pair.still, pair.movie == nil, let v = CommonVerdicts.motionPhoto(still, displayName, reads: true) { return v }
        guard let still = pair.still, let movie = pair.movie else { return CommonVerdicts.lone(pair, displayName) }
        let sameFolder = LibraryFacts.folder(still.path) == LibraryFacts.folder(movie.path)
        let sameBase = sameFolder && Self.base(still.path) == Self.base(movie.path)
        if sameBase {
            let crowd = library.sameStem(as: still.path, excluding: [still.path, movie.path])
            if crowd.count > 0 {
                return ConsumerVerdict(.ambiguous, "\(crowd.count) other file(s) share the base name \(Self.base(still.path)) in this folder (\(CommonVerdicts.list(crowd.paths, count: crowd.count))); PhotoPrism stacks them all",
                                       fix: "rename so that each pair has a base name of its own")
            }
            return ConsumerVerdict(.live, "same base name \(Self.base(still.path)) in one folder")
        }
        if Self.isPhotosLibraryOriginal(movie.path) {
            return ConsumerVerdict(.split, "the movie \(LibraryFacts.name(movie.path)) is a Photos-library `<UUID>_N` original, which PhotoPrism does not match (photoprism#1885)",
                                   fix: "rename the movie to \(Self.base(still.path)).mov beside the still")
        }
        if let sid = still.contentIdentifier, sid == movie.contentIdentifier, sid.count == 36 {
            return ConsumerVerdict(.live, "different names, but the same 36-character identifier \(sid)")
        }
        let why = sameFolder ? "base names \(Self.base(still.path)) and \(Self.base(movie.path)) differ"
                             : "the halves are in different folders"
        return ConsumerVerdict(.split, "\(why), and no shared 36-character identifier; PhotoPrism stacks by name in one folder",
                               fix: "rename the movie to \(Self.base(still.path)).\(movie.pathExtension.isEmpty ? "mov" : movie.pathExtension) beside the still")
    }
}

/// Synology Photos: a still and a movie with the same name in the same folder; `.livp` is not
/// read (its own download of a Live Photo is a ZIP named `.HEIF`).
public struct SynologyConsumer: Consumer {
    public init() {}
    public var id: String { "synology" }
    public var displayName: String { "Synology Photos" }
    public var sources: [String] {
        ["letorbi/synoindexwatcher#50 (same name, same folder)", "jaimetur/PhotoMigrator#912, #1028 (Live Photo served as a ZIP named .HEIF)"]
    }

    public func verdict(on pair: LivePair, in library: LibraryFacts) -> ConsumerVerdict {
        if pair.archive != nil { return CommonVerdicts.archive(pair, displayName) }
        if let still = pair.still, pair.movie == nil, let v = CommonVerdicts.motionPhoto(still, displayName, reads: false) { return v }
        guard let still = pair.still, let movie = pair.movie else { return CommonVerdicts.lone(pair, displayName) }
        let sameFolder = LibraryFacts.folder(still.path) == LibraryFacts.folder(movie.path)
        let sStem = LibraryFacts.stem(LibraryFacts.name(still.path)), mStem = LibraryFacts.stem(LibraryFacts.name(movie.path))
        guard sameFolder, sStem == mStem else {
            return ConsumerVerdict(.split, sameFolder ? "names \(sStem) and \(mStem) differ; Synology pairs by name" : "the halves are in different folders; Synology pairs by name in one folder",
                                   fix: "rename the movie to \(sStem).\(movie.pathExtension.isEmpty ? "MOV" : movie.pathExtension) beside the still")
        }
        let crowd = library.sameStem(as: still.path, excluding: [still.path, movie.path])
        if crowd.count > 0 {
            return ConsumerVerdict(.ambiguous, "\(crowd.count) other file(s) are named \(sStem) in this folder (\(CommonVerdicts.list(crowd.paths, count: crowd.count)))",
                                   fix: "rename so that each pair has a name of its own")
        }
        return ConsumerVerdict(.live, "same name \(sStem) in one folder")
    }
}
