import LiveModel

// What a library-sized scan needs beyond one lint: keeping little per file, and splitting a
// library into shards that keep each pair together (issue 4).

extension MediaFile {
    /// The file with only what pairing and the rules read, so that a scan of 100,000 files keeps
    /// a few hundred bytes per file instead of every tag and table read.
    ///
    /// Kept: path, kind, format, size, error, warnings; for a still its geometry, the properties
    /// named in `metadataKeys`, the makernote's content identifier (tag 0x0011, in a makernote with
    /// no other tag), the makernote issue, and its motion photo when `metadataKeys` holds
    /// ``MetadataKey/motionPhoto`` (the embedded movie cut to its duration and video stream); for a
    /// movie the major brand, duration, the content-identifier key and the keys named in
    /// `metadataKeys`, the still-image-time, the video stream and the video track's edit list when
    /// it is not trivial. `metadataKeys` is what the enabled rules declare
    /// (``RuleDescription/readsMetadata``, ``LintEngine/metadataKeys``). Compatible brands,
    /// movie tracks, top-level box lists, audio streams, libmediainfo properties and every other
    /// tag are dropped. `.livp` members are slimmed the same way.
    public func slimmedForLint(keeping metadataKeys: Set<String>) -> MediaFile {
        var slim = MediaFile(path: path, kind: kind, format: format, size: size,
                             error: error, warnings: warnings)
        if let still {
            var s = StillInfo(width: still.width, height: still.height,
                              properties: still.properties.compactMap { Self.interned($0, in: metadataKeys) },
                              makerNoteIssue: still.makerNoteIssue)
            if let note = still.makerNote {
                s.makerNote = AppleMakerNoteInfo(version: note.version,
                                                 tags: note.tag(AppleMakerNoteInfo.contentIdentifierTag).map { [$0] } ?? [])
            }
            if let motion = still.motionPhoto, metadataKeys.contains(MetadataKey.motionPhoto.key) {
                s.motionPhoto = motion.slimmedForLint()
            }
            slim.still = s
        }
        if let movie {
            slim.movie = MovieInfo(
                majorBrand: movie.majorBrand, timescale: movie.timescale, durationTicks: movie.durationTicks,
                keys: movie.keys.compactMap { Self.interned($0, in: metadataKeys) },
                tracks: Self.editedVideoTrack(of: movie),
                stillImageTime: movie.stillImageTime, video: movie.video)
        }
        slim.members = members?.map { $0.slimmedForLint(keeping: metadataKeys) }
        // A few entries per archive, and only archives have one (livp-layout reads it).
        slim.archiveLayout = archiveLayout
        // A few fields, and only Takeout files have one (the scan attaches it after slimming).
        slim.sidecar = sidecar
        return slim
    }

    /// The video track cut down to its edit list, when that list does more than show the whole
    /// track from its start (the HTML report draws it, ``PairMedia``); none otherwise, which is
    /// nearly always, so a clean library keeps nothing more per movie.
    private static func editedVideoTrack(of movie: MovieInfo) -> [TrackInfo] {
        guard let video = movie.tracks.first(where: { $0.handler == "vide" }),
              !PairMedia.isTrivialEditList(video, movieDurationTicks: movie.durationTicks) else { return [] }
        return [TrackInfo(id: video.id, handler: video.handler, mediaTimescale: video.mediaTimescale,
                          mediaDurationTicks: video.mediaDurationTicks, matrix: [], editList: video.editList)]
    }

    /// `property` when a rule reads it, its key replaced by the one string `keys` holds (equal, so
    /// nothing changes but memory: 10,000 stills share one copy of each key instead of one each).
    private static func interned(_ property: MetadataProperty, in keys: Set<String>) -> MetadataProperty? {
        guard let shared = shared(property.key, in: keys) else { return nil }
        var kept = property
        kept.key = shared
        return kept
    }

    /// `key` when it is the content identifier or a rule reads it, its name shared as above.
    private static func interned(_ key: QuickTimeKey, in keys: Set<String>) -> QuickTimeKey? {
        guard let shared = key.key == MovieInfo.contentIdentifierKey ? MovieInfo.contentIdentifierKey
                : shared(key.key, in: keys) else { return nil }
        var kept = key
        kept.key = shared
        return kept
    }

    /// The copy of `key` that `keys` holds, nil when it holds none.
    private static func shared(_ key: String, in keys: Set<String>) -> String? {
        keys.firstIndex(of: key).map { keys[$0] }
    }
}

extension MotionPhotoInfo {
    /// What the motion photo rules read: the claims, where the video is and what it is (its
    /// duration and video stream); the embedded movie's tracks, keys and audio are dropped.
    func slimmedForLint() -> MotionPhotoInfo {
        var slim = self
        slim.video = video.map { MovieInfo(majorBrand: $0.majorBrand, timescale: $0.timescale, durationTicks: $0.durationTicks,
                                           video: $0.video) }
        return slim
    }
}

/// `--shard K/N`: which of N shards a file belongs to, stable across runs, machines and
/// processes (FNV-1a over UTF-8, never Swift's seeded `Hasher`).
///
/// The key is the content identifier, upper-cased (so the halves that pairing ties together,
/// exactly or ignoring case, land in one shard, and so do all the files a `duplicate-identifier`
/// finding would name). A `.livp` archive goes by the identifier of its first member that has
/// one (so it lands beside its own extracted copy, which `duplicate-identifier` flags). A file
/// without an identifier (or one whose read failed) is keyed by its folder and its pairing name stem
/// (``Pairing/nameKey(_:)``, with a Takeout `(N)` suffix removed), so halves that pair by name
/// stay together too.
///
/// Caveat: a pair whose halves are tied by name while only one half carries an identifier (the
/// very pairs `movie-missing-identifier` and `still-missing-identifier` report) can be split
/// across two shards; each shard then reports a lone half.
public struct Shard: Sendable, Hashable, CustomStringConvertible {
    /// 1-based shard number, `1...count`.
    public let index: Int
    public let count: Int

    /// `index` in `1...count`, `count` ≥ 1; nil otherwise.
    public init?(index: Int, count: Int) {
        guard count >= 1, (1...count).contains(index) else { return nil }
        self.index = index
        self.count = count
    }

    /// Parses `K/N` (`3/8`).
    public init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]) else { return nil }
        self.init(index: k, count: n)
    }

    public var description: String { "\(index)/\(count)" }

    /// True when `file` (as read) belongs to this shard.
    public func contains(_ file: MediaFile) -> Bool { Self.number(for: file, of: count) == index }

    /// True when a file that could not even be listed (`path`) belongs to this shard.
    public func contains(path: String) -> Bool { Self.number(of: Self.nameKey(path), in: count) == index }

    /// The 1-based shard of `file` among `count`.
    public static func number(for file: MediaFile, of count: Int) -> Int {
        number(of: key(for: file), in: count)
    }

    /// The string a file is sharded by: `id:<IDENTIFIER>` or `name:<folder>\0<stem>`.
    public static func key(for file: MediaFile) -> String {
        key(kind: file.kind, identifier: file.contentIdentifier, members: file.members, path: file.path)
    }

    /// ``key(for:)`` from the file's parts: an archive by its members' first identifier (in
    /// path order), any other file by its own, else by its name.
    static func key(kind: FileKind, identifier: String?, members: [MediaFile]?, path: String) -> String {
        let id = kind == .livp ? (members ?? []).sorted { $0.path < $1.path }.lazy.compactMap(\.contentIdentifier).first : identifier
        if let id, !id.isEmpty { return "id:" + id.uppercased() }
        return nameKey(path)
    }

    /// ``contains(_:)`` of a file known by its parts, its members not among them (a cache keeps
    /// none for an archive that has members).
    public func contains(kind: FileKind, identifier: String?, path: String) -> Bool {
        Self.number(of: Self.key(kind: kind, identifier: identifier, members: nil, path: path), in: count) == index
    }

    static func nameKey(_ path: String) -> String {
        let (folder, name) = Pairing.split(path)
        let stem = Pairing.nameKey(name)
        return "name:" + folder + "\u{0}" + Pairing.takeoutKey(stem)
    }

    static func number(of key: String, in count: Int) -> Int {
        guard count > 1 else { return 1 }
        return Int(fnv1a(key) % UInt64(count)) + 1
    }

    /// 64-bit FNV-1a (http://www.isthe.com/chongo/tech/comp/fnv/): tiny, stable, well spread.
    public static func fnv1a(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01B3
        }
        return hash
    }
}
