import LiveModel

/// A file as pairing and the scan rules see it: its path, kind, format, content identifier and
/// the few facts a whole-library rule reads, plus where its full record is (``slot``).
///
/// A library-sized scan keeps one of these per file (48 bytes inline, its path and
/// identifier shared with the full record) while the full records, which only the file and pair
/// rules and the consumers read, can wait outside memory (a ``FileStore``) and are decoded two at
/// a time, pair by pair (issue 13).
public struct FileSummary: PairHalf {
    // Stored in this order (the widest first) so the summary takes 47 bytes, 48 in an array,
    // and a pair of them 112 (issue 13: one pair list holds every half of the library).
    public var path: String
    /// The still's makernote 0x0011 or the movie's content-identifier key (``MediaFile/contentIdentifier``).
    public var contentIdentifier: String?
    /// What most files leave empty, boxed (nil when all of it is).
    private var rare: Boxed<Rare>?
    private var storedSlot: Int32
    public var kind: FileKind
    public var format: ContainerFormat
    /// True for a still holding a motion photo's embedded video (a complete unit on its own).
    public var hasMotionVideo: Bool

    /// The index of the file's full record in its ``FileStore``; for a `.livp` member, the
    /// archive's. A scan holds far fewer than 2³¹ files.
    public var slot: Int {
        get { Int(storedSlot) }
        set { storedSlot = Int32(newValue) }
    }

    private struct Rare: Sendable {
        var error: String?
        var sidecar: String?
        var members: [FileSummary]?
        /// For a `.livp` member, its index among the archive's members; -1 otherwise.
        var member: Int32 = -1
    }

    /// For a `.livp` member, its index among the archive's members; -1 otherwise (kept with
    /// the rare fields: most files are no archive's member, and 4 bytes a file took the summary
    /// to 56 bytes in an array, 128 a pair).
    public var member: Int32 { rare?.value.member ?? -1 }

    /// The summary of `file`, whose full record is at `slot` (and for a member, `member` in it).
    public init(_ file: MediaFile, slot: Int, member: Int = -1) {
        path = file.path
        contentIdentifier = file.contentIdentifier
        kind = file.kind
        format = file.format
        hasMotionVideo = file.still?.motionPhoto?.hasVideo == true
        storedSlot = Int32(slot)
        let members = file.members.map { list in list.indices.map { FileSummary(list[$0], slot: slot, member: $0) } }
        let rare = Rare(error: file.error?.description, sidecar: file.sidecar?.path, members: members,
                        member: Int32(clamping: member))
        self.rare = rare.error == nil && rare.sidecar == nil && rare.members == nil && rare.member < 0 ? nil : Boxed(rare)
    }

    /// Why the file could not be read (``ReadIssue/description``), or nil.
    public var error: String? { rare?.value.error }
    public var sidecarPath: String? { rare?.value.sidecar }
    /// A `.livp` archive's members.
    public var members: [FileSummary]? { rare?.value.members }

    /// What the result lists for this file.
    public var scanned: ScannedFile {
        ScannedFile(path: path, kind: kind, format: format, error: error, sidecar: sidecarPath)
    }
}

/// One pairing outcome as pairing and the scan rules see it: the full pair is decoded from the
/// ``FileStore`` only for the pair rules (``full(from:)``).
public typealias PairSummary = PairOf<FileSummary>

extension PairSummary {
    /// The full pair, its halves taken from `store`.
    public func full(from store: some FileStore) -> LivePair {
        LivePair(still: still.map { store.file($0) }, movie: movie.map { store.file($0) }, pairedBy: pairedBy, archive: archive)
    }
}

/// Where a scan's full records wait while pairing and the scan rules work on summaries:
/// memory (``FileList``) or a spill file (the lint pipeline's, past a size).
public protocol FileStore {
    /// How many top-level files (slots) the store holds.
    var count: Int { get }
    /// The full record in `slot` (a top-level file; a `.livp` with its members).
    func file(atSlot slot: Int) -> MediaFile
}

extension FileStore {
    /// The full record `summary` stands for (a `.livp` member is taken from its archive's record).
    public func file(_ summary: FileSummary) -> MediaFile {
        var file = file(atSlot: summary.slot)
        guard summary.member >= 0 else {
            // A record that could not be read back, not even its path: the summary knows it.
            if file.path.isEmpty, file.error != nil { file.path = summary.path }
            return file
        }
        if let members = file.members, members.indices.contains(Int(summary.member)) { return members[Int(summary.member)] }
        // The archive's record came back without its members (it could not be read back): the
        // member gets the archive's error rather than the archive standing in for it.
        return MediaFile(path: summary.path, kind: summary.kind, format: summary.format,
                         error: file.error ?? ReadIssue(.io, "the record of this archive member was lost"))
    }
}

/// Full records held in memory, in slot order: the store for a scan small enough to keep them.
public struct FileList: FileStore {
    public let files: [MediaFile]
    public init(_ files: [MediaFile]) { self.files = files }
    public var count: Int { files.count }
    public func file(atSlot slot: Int) -> MediaFile { files[slot] }
    /// A summary of each file, its slot its index.
    public var summaries: [FileSummary] { files.indices.map { FileSummary(files[$0], slot: $0) } }
}
