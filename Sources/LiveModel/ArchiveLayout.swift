/// How a ZIP archive (a `.livp`) lays out its members, as its central directory, local headers and
/// end record say: what Baidu- and Aliyun-style consumers check before they accept a `.livp`
/// (stored members, still first, no extra fields, and an archive comment ending in `1000LIVP` that
/// gives each member's type, data offset and size; photo-apps-and-motion-photos.md, section 2).
public struct ArchiveLayout: Sendable, Hashable {
    /// One member, in central-directory order.
    public struct Entry: Sendable, Hashable {
        public var name: String
        /// 0 stored, 8 deflated (APPNOTE 4.4.5).
        public var compressionMethod: UInt16
        /// Bytes of extra fields in the local header and in the central directory entry.
        public var localExtraLength: Int
        public var centralExtraLength: Int
        /// Where the member's data starts: after its local header, name and extra fields.
        public var dataOffset: Int64
        public var compressedSize: UInt64
        public var size: UInt64

        public init(name: String, compressionMethod: UInt16, localExtraLength: Int, centralExtraLength: Int,
                    dataOffset: Int64, compressedSize: UInt64, size: UInt64) {
            self.name = name
            self.compressionMethod = compressionMethod
            self.localExtraLength = localExtraLength
            self.centralExtraLength = centralExtraLength
            self.dataOffset = dataOffset
            self.compressedSize = compressedSize
            self.size = size
        }

        public var isStored: Bool { compressionMethod == 0 }
    }

    public var entries: [Entry]
    /// The archive comment's bytes (at most 65,535).
    public var comment: [UInt8]

    public init(entries: [Entry], comment: [UInt8]) {
        self.entries = entries
        self.comment = comment
    }
}

/// The `.livp` archive comment Baidu writes and its clients check: 56 upper-case hex digits,
/// `TTTT` still type (`0002` HEIC, `0005` JPEG), still data offset (8), still size (8), `0003`
/// (movie), movie data offset (8), movie size (8), then `313030304C495650`, the hex of `1000LIVP`
/// (FroyoRab/livp2jpg_eofs `test/test_jpg.livp`; LetMeFly666's livp notes).
public struct LivpComment: Sendable, Hashable, CustomStringConvertible {
    public var stillType: UInt16
    public var stillOffset: UInt32
    public var stillSize: UInt32
    public var movieType: UInt16
    public var movieOffset: UInt32
    public var movieSize: UInt32

    public static let stillTypeHEIC: UInt16 = 0x0002
    public static let stillTypeJPEG: UInt16 = 0x0005
    public static let movieTypeQuickTime: UInt16 = 0x0003
    /// `1000LIVP` in hex, the comment's last 16 characters.
    public static let trailer = "313030304C495650"

    public init(stillType: UInt16, stillOffset: UInt32, stillSize: UInt32, movieType: UInt16 = movieTypeQuickTime,
                movieOffset: UInt32, movieSize: UInt32) {
        self.stillType = stillType
        self.stillOffset = stillOffset
        self.stillSize = stillSize
        self.movieType = movieType
        self.movieOffset = movieOffset
        self.movieSize = movieSize
    }

    /// The still type code of a still container format, nil for one Baidu has no code for.
    public static func stillType(for format: ContainerFormat) -> UInt16? {
        switch format {
        case .jpeg: return stillTypeJPEG
        case .heic, .heif: return stillTypeHEIC
        default: return nil
        }
    }

    /// The 56 ASCII characters.
    public var description: String {
        func hex<T: BinaryInteger>(_ v: T, _ digits: Int) -> String {
            let s = String(v, radix: 16, uppercase: true)
            return String(repeating: "0", count: max(0, digits - s.count)) + s
        }
        return hex(stillType, 4) + hex(stillOffset, 8) + hex(stillSize, 8)
            + hex(movieType, 4) + hex(movieOffset, 8) + hex(movieSize, 8) + Self.trailer
    }

    public var bytes: [UInt8] { Array(description.utf8) }

    /// Parses the ASCII form (upper- or lower-case hex) or the 28-byte binary form some converters
    /// write (the same fields big-endian, then `1000LIVP`); nil when `comment` is neither.
    public init?(_ comment: [UInt8]) {
        if comment.count == 56, let text = String(bytes: comment, encoding: .ascii), text.uppercased().hasSuffix(Self.trailer) {
            let t = Array(text.uppercased())
            func field(_ from: Int, _ count: Int) -> UInt32? { UInt32(String(t[from..<(from + count)]), radix: 16) }
            guard let st = field(0, 4), let so = field(4, 8), let ss = field(12, 8),
                  let mt = field(20, 4), let mo = field(24, 8), let ms = field(32, 8) else { return nil }
            self.init(stillType: UInt16(st), stillOffset: so, stillSize: ss, movieType: UInt16(mt), movieOffset: mo, movieSize: ms)
            return
        }
        if comment.count == 28, Array(comment[20...]) == Array("1000LIVP".utf8) {
            func be16(_ i: Int) -> UInt16 { UInt16(comment[i]) << 8 | UInt16(comment[i + 1]) }
            func be32(_ i: Int) -> UInt32 { UInt32(be16(i)) << 16 | UInt32(be16(i + 2)) }
            self.init(stillType: be16(0), stillOffset: be32(2), stillSize: be32(6), movieType: be16(10),
                      movieOffset: be32(12), movieSize: be32(16))
            return
        }
        return nil
    }
}

extension ArchiveLayout {
    /// What keeps Baidu- and Aliyun-style consumers from taking this archive as a `.livp`, one
    /// sentence each (empty: the layout is theirs). `members` are the archive's members as read
    /// (name inside the archive, kind, sniffed format); the check applies when they are exactly one
    /// still and one movie (anything else is livp-not-single-pair's).
    public func livpProblems(members: [(name: String, kind: FileKind, format: ContainerFormat)]) -> [String] {
        let stills = members.filter { $0.kind == .still }, movies = members.filter { $0.kind == .movie }
        guard stills.count == 1, movies.count == 1, let still = stills.first, let movie = movies.first,
              let stillEntry = entries.first(where: { $0.name == still.name }),
              let movieEntry = entries.first(where: { $0.name == movie.name }) else { return [] }
        var problems: [String] = []
        for entry in entries where !entry.isStored {
            problems.append("'\(entry.name)' is compressed (method \(entry.compressionMethod)); the member data must be stored")
        }
        for entry in entries where entry.localExtraLength + entry.centralExtraLength > 0 {
            problems.append("'\(entry.name)' has \(entry.localExtraLength + entry.centralExtraLength) bytes of extra fields; there must be none")
        }
        if entries.first?.name != still.name {
            problems.append("the still '\(still.name)' is not the first member (the first is '\(entries.first?.name ?? "")')")
        }
        guard !comment.isEmpty else {
            problems.append("the archive has no comment; it must end in 1000LIVP (hex 313030304C495650) after the members' types, data offsets and sizes")
            return problems
        }
        guard let found = LivpComment(comment) else {
            let shown = String(decoding: comment.prefix(80), as: UTF8.self).unicodeScalars
                .map { $0.value >= 0x20 && $0.value < 0x7F ? String($0) : "?" }.joined()
            problems.append("the archive comment '\(shown)' is not a 1000LIVP comment (56 hex digits: types, data offsets and sizes, then 313030304C495650)")
            return problems
        }
        func hex(_ v: some BinaryInteger, _ digits: Int) -> String {
            let s = String(v, radix: 16, uppercase: true)
            return String(repeating: "0", count: max(0, digits - s.count)) + s
        }
        if let type = LivpComment.stillType(for: still.format), found.stillType != type {
            problems.append("the comment's still type is \(hex(found.stillType, 4)), not \(hex(type, 4)) for a \(still.format.rawValue.uppercased()) still")
        }
        if found.movieType != LivpComment.movieTypeQuickTime {
            problems.append("the comment's movie type is \(hex(found.movieType, 4)), not 0003")
        }
        for (what, entry, offset, size) in [("still", stillEntry, found.stillOffset, found.stillSize),
                                            ("movie", movieEntry, found.movieOffset, found.movieSize)]
        where Int64(offset) != entry.dataOffset || UInt64(size) != entry.compressedSize {
            problems.append("the comment places the \(what) at offset \(offset), \(size) bytes, but its data is at \(entry.dataOffset), \(entry.compressedSize) bytes")
        }
        return problems
    }
}
