import LiveModel

/// A file as pairing and the scan rules see it: its path, kind, format, content identifier and
/// the few facts a whole-library rule reads, plus where its full record is (``slot``).
///
/// A library-sized scan keeps one of these per file (56 bytes: a name of up to 15 bytes and a
/// UUID identifier held inline, the folder part shared, see ``folder`` and ``IdentifierKey``) while the full records, which only the file and pair
/// rules and the consumers read, can wait outside memory (a ``FileStore``) and are decoded two at
/// a time, pair by pair (issue 13).
public struct FileSummary: PairHalf {
    // Stored in this order (the widest first) so the summary takes 56 bytes.
    /// The path's last part, after its last `/`: a name of up to 15 bytes (`IMG_1234.HEIC`) is
    /// held inline, the folder part is shared (``PathFolder``), and the summary's path costs no
    /// allocation of its own (issue 13: a path string took 64–80 bytes a file). A longer ASCII
    /// name (`PXL_20231105_123456789.jpg`) is held by the folder instead, and this is a key to
    /// where (``holdNames(in:from:)``, ``withNameBytes(_:)``; a name's own bytes never start with
    /// a NUL, a key's do).
    private var name: String
    /// The path up to its last `/`, shared by the files of one folder; nil for a bare name.
    public private(set) var folder: PathFolder?
    /// A UUID identifier's bits (``IdentifierKey``).
    private var identifierHigh: UInt64
    private var identifierLow: UInt64
    /// What most files leave empty, boxed (nil when all of it is).
    private var rare: Boxed<Rare>?
    private var storedSlot: Int32
    public var kind: FileKind
    public var format: ContainerFormat
    /// True for a still holding a motion photo's embedded video (a complete unit on its own).
    public var hasMotionVideo: Bool
    /// How the identifier is held: none, a UUID's bits, or text (with the rare fields).
    private var identifierForm: IdentifierKey.Form

    /// The still's makernote 0x0011 or the movie's content-identifier key
    /// (``MediaFile/contentIdentifier``), its text built when asked from ``identifierKey``.
    public var contentIdentifier: String? {
        get { identifierKey.string }
        set { identifierKey = IdentifierKey(newValue) }
    }

    /// The identifier's form and a UUID's bits: read in place, with no copy of the summary (a
    /// sort that compared whole summaries retained and released three references a comparison).
    var identifierBits: IdentifierKey.Bits {
        IdentifierKey.Bits(form: identifierForm, high: identifierHigh, low: identifierLow)
    }

    /// True when the file carries an identifier (without building its text).
    public var hasContentIdentifier: Bool { identifierForm != .none }

    /// The identifier as it is held, for comparisons that build no text.
    public var identifierKey: IdentifierKey {
        get {
            IdentifierKey(form: identifierForm, high: identifierHigh, low: identifierLow,
                          text: identifierForm == .text ? rare?.value.identifier : nil)
        }
        set {
            identifierForm = newValue.form
            identifierHigh = newValue.high
            identifierLow = newValue.low
            if newValue.form == .text || rare?.value.identifier != nil {
                var fields = rare?.value ?? Rare()
                fields.identifier = newValue.form == .text ? newValue.text : nil
                rare = Self.box(fields)
            }
        }
    }

    /// The file's scan path: its folder's text and its name (built when asked: pairing and the
    /// result compare paths with ``comparePaths(_:_:)`` instead).
    public var path: String {
        get {
            guard let folder else { return name }
            guard isHeld else { return folder.text + name }
            // The folder's bytes and the held name's, copied once into the path's string.
            return PathFolder.withBytes(folder) { head in
                withNameBytes { tail in
                    String(unsafeUninitializedCapacity: head.count + tail.count) { path in
                        _ = path.initialize(fromContentsOf: head)
                        _ = path[head.count...].initialize(fromContentsOf: tail)
                        return head.count + tail.count
                    }
                }
            }
        }
        set {
            var folders = RecentFolders()
            (folder, name) = folders.split(newValue)
        }
    }

    /// The path's last part, after its last `/` (the whole path when it has none): with
    /// ``folder``, the path as held, for a rule keyed on names that builds no path.
    public var fileName: String {
        isHeld ? withNameBytes { String(decoding: $0, as: UTF8.self) } : name
    }

    /// True when the folder holds the name and ``name`` is the key to it.
    private var isHeld: Bool {
        guard let folder, !folder.names.isEmpty else { return false }
        return name.utf8.first == 0
    }

    /// `body` on the bytes of ``fileName``, wherever it is held (no string is made).
    public func withNameBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        if isHeld, let folder {
            let (offset, count) = Key.read(name)
            return folder.names.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[offset..<offset + count])) }
        }
        var text = name
        return text.withUTF8(body)
    }

    /// ``Pairing/nameKey(_:)`` of ``fileName``, from the name's bytes where they are ASCII (a
    /// held name makes no string of its own first).
    public var nameKey: String {
        withASCIIName(Pairing.asciiNameKey) ?? Pairing.characterNameKey(fileName)
    }

    /// `body` on the bytes of ``fileName`` when it is all ASCII; else nil.
    func withASCIIName<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R? {
        withNameBytes { PathText.isASCII($0) ? body($0) : nil }
    }

    /// A held name's key: a NUL, then the name's offset in its folder's ``PathFolder/names`` in
    /// four 7-bit pieces and its length in three, low pieces first (eight ASCII bytes: a string
    /// held inline). No file's name starts with a NUL, so no name reads as a key.
    private enum Key {
        static let offsetPieces = 1..<5, countPieces = 5..<8
        /// The most a folder copy holds (28 bits of offset) and the longest name it holds (21 bits).
        static let offsetLimit = 1 << (7 * offsetPieces.count), countLimit = 1 << (7 * countPieces.count)

        static func make(offset: Int, count: Int) -> String {
            String(unsafeUninitializedCapacity: countPieces.upperBound) { key in
                key[0] = 0
                for i in offsetPieces { key[i] = UInt8((offset >> (7 * (i - offsetPieces.lowerBound))) & 0x7F) }
                for i in countPieces { key[i] = UInt8((count >> (7 * (i - countPieces.lowerBound))) & 0x7F) }
                return countPieces.upperBound
            }
        }

        static func read(_ key: String) -> (offset: Int, count: Int) {
            var key = key
            return key.withUTF8 { b in
                (offsetPieces.reduce(0) { $0 | Int(b[$1]) << (7 * ($1 - offsetPieces.lowerBound)) },
                 countPieces.reduce(0) { $0 | Int(b[$1]) << (7 * ($1 - countPieces.lowerBound)) })
            }
        }
    }

    /// Whether ``holdNames(in:from:)`` moves this summary's name to its folder: an ASCII name too
    /// long to be held inline. (One that starts with a NUL, which no file system gives, is moved
    /// too, so that a folder holding names never meets a name that reads as a key.)
    private var wantsHolding: Bool {
        guard folder != nil, let first = name.utf8.first else { return false }
        let count = name.utf8.count
        return first == 0 || (count > 15 && count < Key.countLimit && name.utf8.allSatisfy { $0 < 0x80 })
    }

    /// Moves the long ASCII names of `summaries[start...]` into their folders: each run of
    /// summaries that share one folder object gets a copy of it holding their long names back
    /// to back (``PathFolder/names``), and each such summary a key to where its name sits. A
    /// name of more than 15 bytes took a string of its own, about 80 bytes with the
    /// allocator's, where a Pixel's or a Samsung's names are 19 to 26 (issue 13: 100,000 pairs
    /// named `PXL_…` peaked 16 MiB higher than pairs named `IMG_…`). What every accessor gives
    /// is unchanged. A scan calls it as summaries come, and once at the end.
    public static func holdNames(in summaries: inout [FileSummary], from start: Int) {
        var i = max(start, 0)
        while i < summaries.count {
            guard let folder = summaries[i].folder, folder.names.isEmpty else {
                i += 1
                continue
            }
            // The run: the summaries in this folder object, cut where the copy would outgrow
            // what a key can say (the rest make a run of their own).
            var end = i
            var bytes: [UInt8] = []
            var keys: [String?] = []
            while end < summaries.count, summaries[end].folder === folder {
                var key: String?
                if summaries[end].wantsHolding {
                    var name = summaries[end].name
                    guard bytes.count + name.utf8.count < Key.offsetLimit else { break }
                    key = Key.make(offset: bytes.count, count: name.utf8.count)
                    name.withUTF8 { bytes.append(contentsOf: $0) }
                }
                keys.append(key)
                end += 1
            }
            if !bytes.isEmpty {  // some name of the run is held (none is empty)
                let shared = PathFolder(sharing: folder, names: bytes)
                for (k, key) in zip(i..<end, keys) {
                    if let key { summaries[k].name = key }
                    summaries[k].folder = shared
                }
            }
            i = end
        }
    }

    /// True when ``folder`` and ``fileName`` are where `Pairing.split` cuts the path: the path is
    /// ASCII (split on its bytes, at its last `/`) and the name holds no `!` (an archive
    /// member's container mark, after which `Pairing.split` cuts). ``folder``'s text is then
    /// `Pairing.split`'s folder with its `/` (none: the empty folder). A path that is not ASCII is
    /// split on `Character`s, where a `/` can be part of a larger one (`a/\u{301}x`,
    /// `\u{600}/x`), so a rule keyed as `Pairing.split` keys must split it.
    public var splitsAsHeld: Bool {
        (folder?.isASCII ?? true) && withNameBytes { $0.allSatisfy { $0 < 0x80 && $0 != UInt8(ascii: "!") } }
    }

    /// The name `Pairing.split` gives the path: ``fileName`` where ``splitsAsHeld``, no path built;
    /// else split from the path.
    public var splitName: String { splitsAsHeld ? fileName : Pairing.split(path).name }

    /// The folder `Pairing.split` gives the path, with a `/` after it: two files share it exactly
    /// when `Pairing.split` gives them one folder. Where ``splitsAsHeld`` it is the folder's text
    /// as held, and `/` for none (a bare name, whose folder `Pairing.split` gives as "", like a
    /// file at the root of the file system, whose held folder is `/`); else the path is split.
    /// What pairing by name and the rules keyed like it group files by
    /// (`name-identifier-conflict`, the engine's buckets).
    public var splitFolderKey: String {
        splitsAsHeld ? Self.splitFolderKey(held: folder) : Self.splitFolderKey(split: Pairing.split(path).folder)
    }

    /// ``splitFolderKey`` of a summary that ``splitsAsHeld`` in `folder`.
    public static func splitFolderKey(held folder: PathFolder?) -> String { folder?.text ?? "/" }

    /// ``splitFolderKey`` of a path whose folder `Pairing.split` gives as `folder`.
    public static func splitFolderKey(split folder: String) -> String { folder + "/" }

    /// `LibraryFacts.stem` of ``splitName``: for a held name, made from its bytes, with no string
    /// of the whole name first.
    public var splitStem: String {
        guard isHeld, splitsAsHeld else { return LibraryFacts.stem(splitName) }
        return withNameBytes { b in
            // The last dot, unless it starts the name (an ASCII name: one byte a `Character`).
            let dot = b.lastIndex(of: UInt8(ascii: ".")).flatMap { $0 > 0 ? $0 : nil } ?? b.count
            return String(decoding: UnsafeBufferPointer(rebasing: b[..<dot]), as: UTF8.self)
        }
    }

    /// The index of the file's full record in its ``FileStore``; for a `.livp` member, the
    /// archive's. A scan holds far fewer than 2³¹ files.
    public var slot: Int {
        get { Int(storedSlot) }
        set { storedSlot = Int32(newValue) }
    }

    private struct Rare: Sendable {
        /// An identifier that is not a canonical UUID of one case.
        var identifier: String?
        var error: String?
        var sidecar: String?
        var members: [FileSummary]?
        /// For a `.livp` member, its index among the archive's members; -1 otherwise.
        var member: Int32 = -1
    }

    /// For a `.livp` member, its index among the archive's members; -1 otherwise (kept with
    /// the rare fields: most files are no archive's member, and 4 bytes a file would take the
    /// summary from 56 bytes in an array to 64).
    public var member: Int32 { rare?.value.member ?? -1 }

    /// The summary of `file`, whose full record is at `slot` (and for a member, `member` in it).
    public init(_ file: MediaFile, slot: Int, member: Int = -1) {
        var folders = RecentFolders()
        self.init(file, slot: slot, member: member, folders: &folders)
    }

    /// The summary of `file`, its folder shared with a recent summary's when they have the same
    /// (``RecentFolders``): a scan makes its summaries in walk order, where one folder's files
    /// follow one another.
    public init(_ file: MediaFile, slot: Int, member: Int = -1, folders: inout RecentFolders) {
        let members = file.members.map { list in list.indices.map { FileSummary(list[$0], slot: slot, member: $0, folders: &folders) } }
        self.init(path: file.path, kind: file.kind, format: file.format, identifier: IdentifierKey(file.contentIdentifier),
                  hasMotionVideo: file.hasMotionVideo, error: file.error?.description,
                  sidecar: file.sidecar?.path, members: members, member: member, slot: slot, folders: &folders)
    }

    /// The summary of a file from its parts: what ``init(_:slot:member:folders:)`` makes of a
    /// file read, and a cache makes of what it kept of one (no members, no sidecar).
    public init(path: String, kind: FileKind, format: ContainerFormat, identifier: IdentifierKey, hasMotionVideo: Bool,
                error: String?, sidecar: String? = nil, members: [FileSummary]? = nil, member: Int = -1, slot: Int,
                folders: inout RecentFolders) {
        var path = path
        self = path.withUTF8 { bytes in
            FileSummary(pathBytes: bytes, kind: kind, format: format, identifier: identifier, hasMotionVideo: hasMotionVideo,
                        error: error, sidecar: sidecar, members: members, member: member, slot: slot, folders: &folders)
        }
    }

    /// ``init(path:kind:format:identifier:hasMotionVideo:error:sidecar:members:member:slot:folders:)``
    /// with the path given as its UTF-8 bytes (a summary read back from its encoding: no string
    /// of the whole path is made).
    public init(pathBytes: UnsafeBufferPointer<UInt8>, kind: FileKind, format: ContainerFormat, identifier: IdentifierKey,
                hasMotionVideo: Bool, error: String?, sidecar: String? = nil, members: [FileSummary]? = nil, member: Int = -1,
                slot: Int, folders: inout RecentFolders) {
        (folder, name) = folders.split(bytes: pathBytes)
        identifierForm = identifier.form
        identifierHigh = identifier.high
        identifierLow = identifier.low
        self.kind = kind
        self.format = format
        self.hasMotionVideo = hasMotionVideo
        storedSlot = Int32(slot)
        rare = Self.box(Rare(identifier: identifier.text, error: error, sidecar: sidecar, members: members,
                             member: Int32(clamping: member)))
    }

    /// `fields` boxed, or nil when all of them are empty.
    private static func box(_ fields: Rare) -> Boxed<Rare>? {
        fields.identifier == nil && fields.error == nil && fields.sidecar == nil && fields.members == nil && fields.member < 0
            ? nil : Boxed(fields)
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

/// `a` against `b` as -1, 0 or 1 (`<`, `==`, neither), as the sorts here compare.
@inline(__always)
func threeWay<T: Comparable>(_ a: T, _ b: T) -> Int {
    a == b ? 0 : a < b ? -1 : 1
}

extension FileSummary {
    /// How `a.path` and `b.path` order as Swift orders strings: below 0 when `a.path < b.path`,
    /// 0 when they are `==`, above 0 otherwise. Neither path is built when both are ASCII (their
    /// bytes are compared, as Swift compares ASCII text) or share one folder (one object, or copies
    /// of one made to hold names: ``PathFolder/sameText(_:_:)``; the names
    /// are compared: a common prefix ending in `/` changes neither `==` nor `<`). Pairing and
    /// the result sort every path of a library with it.
    public static func comparePaths(_ a: FileSummary, _ b: FileSummary) -> Int {
        if PathFolder.sameText(a.folder, b.folder) {
            if let order = a.withASCIIName({ an in b.withASCIIName { bn in PathText.compare(an, bn) } }) ?? nil { return order }
            return threeWay(a.fileName, b.fileName)
        }
        if a.folder?.isASCII ?? true, b.folder?.isASCII ?? true,
           let order = a.withASCIIName({ an in
               b.withASCIIName { bn in
                   PathFolder.withBytes(a.folder) { af in
                       PathFolder.withBytes(b.folder) { bf in PathFolder.compareBytes(af, an, bf, bn) }
                   }
               }
           }) ?? nil {
            return order
        }
        return threeWay(a.path, b.path)
    }

    /// ``IdentifierKey/compare(_:_:)`` on two summaries' identifiers.
    public static func compareIdentifiers(_ a: FileSummary, _ b: FileSummary) -> Int {
        IdentifierKey.Bits.compare(a.identifierBits, b.identifierBits) ?? IdentifierKey.compare(a.identifierKey, b.identifierKey)
    }


    /// ``IdentifierKey/compare(_:_:)`` on a summary's identifier and `key`.
    public static func compareIdentifier(_ a: FileSummary, with key: IdentifierKey) -> Int {
        IdentifierKey.Bits.compare(a.identifierBits, key.bits) ?? IdentifierKey.compare(a.identifierKey, key)
    }

}

/// The folder part of scan paths, up to and including the last `/` (`2023/05/`), held once for
/// all the summaries of that folder's files (``FileSummary/folder``).
public final class PathFolder: Sendable {
    /// The folder part, its trailing `/` included.
    public let text: String
    /// True when ``text`` is all ASCII: its bytes then order as Swift orders the text.
    let isASCII: Bool

    /// The long names of the summaries that share this folder object, back to back
    /// (``FileSummary/holdNames(in:from:)``); empty for most.
    let names: [UInt8]
    /// For a copy made to hold names, the folder it copies (whose text it shares); nil for one
    /// made from a path.
    private let original: PathFolder?

    /// True when `a` and `b` are one folder object, or copies of one (their text is the same
    /// string): paths in them order as their names do.
    static func sameText(_ a: PathFolder?, _ b: PathFolder?) -> Bool {
        if a === b { return true }
        guard let a, let b else { return false }
        return (a.original ?? a) === (b.original ?? b)
    }

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        text = String(decoding: bytes, as: UTF8.self)
        isASCII = PathText.isASCII(bytes)
        names = []
        original = nil
    }

    /// `folder`'s text, holding `names`.
    init(sharing folder: PathFolder, names: [UInt8]) {
        text = folder.text
        isASCII = folder.isASCII
        self.names = names
        original = folder.original ?? folder
    }


    /// `body` on the bytes of `folder`'s text (none for no folder).
    public static func withBytes<R>(_ folder: PathFolder?, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        guard let folder else { return body(UnsafeBufferPointer(start: nil, count: 0)) }
        var text = folder.text
        return text.withUTF8(body)
    }

    /// How `a1 + a2` and `b1 + b2` order byte by byte (memcmp's sign), without joining them.
    static func compareBytes(_ a1: UnsafeBufferPointer<UInt8>, _ a2: UnsafeBufferPointer<UInt8>,
                             _ b1: UnsafeBufferPointer<UInt8>, _ b2: UnsafeBufferPointer<UInt8>) -> Int {
        var a = (a1[...], a2[...]), b = (b1[...], b2[...])
        while true {
            if a.0.isEmpty { a = (a.1, a.1[a.1.endIndex...]) }
            if b.0.isEmpty { b = (b.1, b.1[b.1.endIndex...]) }
            if a.0.isEmpty { return b.0.isEmpty ? 0 : -1 }
            if b.0.isEmpty { return 1 }
            let n = min(a.0.count, b.0.count)
            let order = PathText.compare(UnsafeBufferPointer(rebasing: a.0.prefix(n)), UnsafeBufferPointer(rebasing: b.0.prefix(n)))
            if order != 0 { return order }
            a.0 = a.0.dropFirst(n)
            b.0 = b.0.dropFirst(n)
        }
    }
}

/// The folders of the last few summaries made, so that the next file's summary takes one of
/// them when it lies in the same folder, byte for byte (``FileSummary/init(_:slot:member:folders:)``).
public struct RecentFolders {
    private var recent: [PathFolder] = []
    private var next = 0

    public init() {}

    /// `path` as its folder part (nil when it has no `/`) and its name.
    mutating func split(_ path: String) -> (PathFolder?, String) {
        var text = path
        return text.withUTF8 { bytes in
            guard bytes.contains(UInt8(ascii: "/")) else { return (nil, path) }
            return split(bytes: bytes)
        }
    }

    /// The path whose UTF-8 bytes are `bytes`, as its folder part (nil when it has no `/`) and
    /// its name: no string of the whole path is made.
    mutating func split(bytes: UnsafeBufferPointer<UInt8>) -> (PathFolder?, String) {
        guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else { return (nil, String(decoding: bytes, as: UTF8.self)) }
        let head = UnsafeBufferPointer(rebasing: bytes[...slash])
        let name = String(decoding: UnsafeBufferPointer(rebasing: bytes[(slash + 1)...]), as: UTF8.self)
        return (folder(head), name)
    }

    /// A recent folder whose text is `bytes`, else a new one, kept as recent.
    private mutating func folder(_ bytes: UnsafeBufferPointer<UInt8>) -> PathFolder {
        // The newest first: the folder of the file just before, nearly always.
        for k in 0..<recent.count {
            let candidate = recent[(next + recent.count - 1 - k) % recent.count]
            if candidate.text.utf8.elementsEqual(bytes) {
                return candidate
            }
        }
        let made = PathFolder(bytes)
        if recent.count < 8 {
            recent.append(made)
            next = recent.count % 8
        } else {
            recent[next] = made
            next = (next + 1) % recent.count
        }
        return made
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
    /// `n` readers of the same records for `n` threads at once, one each, once every record is
    /// kept; nil (the default) when the store is read by one thread only. What lets the pair
    /// rules run on several cores (``LintEngine/pairWorkers``).
    func concurrentReaders(_ n: Int) -> [any FileStore & Sendable]?
}

extension FileStore {
    public func concurrentReaders(_ n: Int) -> [any FileStore & Sendable]? { nil }
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
public struct FileList: FileStore, Sendable {
    public let files: [MediaFile]
    public init(_ files: [MediaFile]) { self.files = files }
    public var count: Int { files.count }
    public func file(atSlot slot: Int) -> MediaFile { files[slot] }
    /// The list itself, for each thread: it is only read.
    public func concurrentReaders(_ n: Int) -> [any FileStore & Sendable]? { Array(repeating: self, count: n) }
    /// A summary of each file, its slot its index.
    public var summaries: [FileSummary] {
        var folders = RecentFolders()
        return files.indices.map { FileSummary(files[$0], slot: $0, folders: &folders) }
    }
}

/// A scan's file summaries kept outside memory, read back by index (issue 13, docs/flat-memory.md
/// step 2: a library's summaries took 53 MiB a million files). The engine reads each bucket's
/// summaries back to pair and check them, and the result reads them again for the report.
///
/// Summary `i` read back is the summary stored `i`-th, field for field and byte for byte.
public protocol SummaryStore: AnyObject, Sendable {
    /// How many summaries are stored.
    var count: Int { get }
    /// Summary `i` (`0..<count`).
    func summary(_ i: Int) -> FileSummary
    /// What the result lists for file `i`: `summary(i).scanned`, which a store may read without
    /// making the summary.
    func scanned(_ i: Int) -> ScannedFile
    /// What a pair's record takes from file `i` as its half: its path, identifier and sidecar
    /// (``FileSummary/path``, ``FileSummary/contentIdentifier``, ``FileSummary/sidecarPath``),
    /// which a store may read without making the summary.
    func half(_ i: Int) -> RecordHalf
}

/// What a pair's record (``PairRecord``) takes from one of its halves.
public struct RecordHalf: Sendable {
    public var path: String
    public var contentIdentifier: String?
    public var sidecar: String?

    public init(path: String, contentIdentifier: String?, sidecar: String?) {
        self.path = path
        self.contentIdentifier = contentIdentifier
        self.sidecar = sidecar
    }

    public init(_ summary: FileSummary) {
        self.init(path: summary.path, contentIdentifier: summary.contentIdentifier, sidecar: summary.sidecarPath)
    }
}

extension SummaryStore {
    public func scanned(_ i: Int) -> ScannedFile { summary(i).scanned }
    public func half(_ i: Int) -> RecordHalf { RecordHalf(summary(i)) }
}
