/// A box held in memory: its type and either raw payload bytes or parsed children.
///
/// Containers may carry `prefix` bytes before their children (version/flags of an ISO `meta`,
/// the 8 bytes of a `stsd` or `dref` header, a sample entry's fixed fields) and `trailer` bytes
/// after them (QuickTime's 4-byte zero terminator at the end of some `udta` lists). Writing a
/// parsed tree back with `serialized()` reproduces the original bytes whenever the original
/// used the smallest header (32-bit sizes below 4 GiB).
public struct BoxNode: Sendable, Hashable {
    public enum Content: Sendable, Hashable {
        case data([UInt8])
        case container(prefix: [UInt8], children: [BoxNode], trailer: [UInt8])
    }

    public var type: BoxType
    /// The extended type of a `uuid` box.
    public var userType: [UInt8]?
    /// Absolute offset where the box was read; nil for a box built in code.
    public var offset: Int64?
    /// Header size as read (8, 16, or +16 for `uuid`); 0 for a box built in code.
    public var headerSize: Int
    public var content: Content

    public init(type: BoxType, data: [UInt8], userType: [UInt8]? = nil) {
        self.type = type
        self.userType = userType
        self.offset = nil
        self.headerSize = 0
        self.content = .data(data)
    }

    public init(type: BoxType, prefix: [UInt8] = [], children: [BoxNode], trailer: [UInt8] = []) {
        self.type = type
        self.userType = nil
        self.offset = nil
        self.headerSize = 0
        self.content = .container(prefix: prefix, children: children, trailer: trailer)
    }

    init(type: BoxType, userType: [UInt8]?, offset: Int64, headerSize: Int, content: Content) {
        self.type = type
        self.userType = userType
        self.offset = offset
        self.headerSize = headerSize
        self.content = content
    }

    /// Children of a container, empty for a data box.
    public var children: [BoxNode] {
        get {
            if case .container(_, let c, _) = content { return c }
            return []
        }
        set {
            switch content {
            case .container(let p, _, let t): content = .container(prefix: p, children: newValue, trailer: t)
            case .data: content = .container(prefix: [], children: newValue, trailer: [])
            }
        }
    }

    /// Payload of a data box, nil for a container.
    public var data: [UInt8]? {
        if case .data(let d) = content { return d }
        return nil
    }

    public var isContainer: Bool {
        if case .container = content { return true }
        return false
    }

    public func child(_ type: BoxType) -> BoxNode? { children.first { $0.type == type } }
    public func children(_ type: BoxType) -> [BoxNode] { children.filter { $0.type == type } }

    /// The first descendant along `path` (`["mdia", "minf", "stbl"]`).
    public func descendant(_ path: [BoxType]) -> BoxNode? {
        var node = self
        for t in path {
            guard let next = node.child(t) else { return nil }
            node = next
        }
        return node
    }

    /// Payload size when written.
    public var payloadSize: Int64 {
        switch content {
        case .data(let d): return Int64(d.count)
        case .container(let p, let c, let t):
            return c.reduce(Int64(p.count + t.count)) { $0 + $1.size }
        }
    }

    /// Size when written: a 32-bit header when the box fits, else a 64-bit one.
    public var size: Int64 {
        let payload = payloadSize
        let extra: Int64 = userType == nil ? 0 : 16
        let small = 8 + extra + payload
        return small <= Int64(UInt32.max) ? small : small + 8
    }

    /// The box as bytes (header chosen by `size`).
    public func serialized() -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(Int(clamping: size))
        write(into: &out)
        return out
    }

    public func write(into out: inout [UInt8]) {
        let total = size
        var w = ByteWriter()
        if total <= Int64(UInt32.max) {
            w.u32(UInt32(total))
            w.fourCC(type)
        } else {
            w.u32(1)
            w.fourCC(type)
            w.u64(UInt64(total))
        }
        if type == "uuid" {
            let ut = userType ?? []
            w.bytes(Array((ut + [UInt8](repeating: 0, count: 16)).prefix(16)))
        }
        out += w.bytes
        switch content {
        case .data(let d):
            out += d
        case .container(let p, let c, let t):
            out += p
            for child in c { child.write(into: &out) }
            out += t
        }
    }
}

/// How a parsed container lays out its payload.
public enum ContainerLayout: Sendable, Hashable {
    /// `prefix` bytes, then child boxes.
    case children(prefix: Int)
    /// `meta`: QuickTime (children right away) or ISO (4 bytes version/flags first); decided by
    /// peeking whether the first 8 bytes look like a child box header (exiftool QuickTime.pm).
    case meta
}

/// Parses boxes into `BoxNode` trees.
public enum BoxTree {
    /// Decides which boxes to open: given a box type and its ancestors' types (outermost first),
    /// the layout to parse it with, or nil to keep it as data.
    public typealias Layout = @Sendable (_ type: BoxType, _ ancestors: [BoxType]) -> ContainerLayout?

    /// The containers a QuickTime / MP4 movie reader needs: `moov`, `trak`, `mdia`, `minf`,
    /// `stbl`, `dinf`, `edts`, `udta`, `tref`, `mvex`, `gmhd`, `tapt`, `meta`, `ilst` and each
    /// `ilst` item (which holds `data` atoms). Sample descriptions (`stsd`) stay data.
    public static let movieLayout: Layout = { type, ancestors in
        if movieContainers.contains(type.rawValue) { return .children(prefix: 0) }
        if type == metaType { return .meta }
        if ancestors.last == ilstType { return .children(prefix: 0) }
        return nil
    }

    // Built once: comparing against literals would convert each literal on every box. Eighteen
    // four-byte codes compared in a row cost less than hashing the type (every box of a movie is
    // asked; issue 13).
    private static let movieContainers: [UInt32] = ([
        "moov", "trak", "mdia", "minf", "stbl", "dinf", "edts", "udta", "tref", "mvex", "gmhd", "tapt",
        "ilst", "moof", "traf", "mfra", "clip", "matt",
    ] as [BoxType]).map(\.rawValue)
    private static let metaType: BoxType = "meta"
    private static let ilstType: BoxType = "ilst"
    /// Also read by ``BoxIndex``'s parse (a `udta` terminator, `trak` paths always indexed).
    static let udtaType: BoxType = "udta"
    static let trakType: BoxType = "trak"

    /// The outcome of a parse: the nodes read (as far as they go) and every problem met.
    public struct Result: Sendable {
        public var nodes: [BoxNode]
        public var issues: [BoxError]
    }

    /// Parses the boxes in `bytes` (which start at file offset `baseOffset`) as siblings under
    /// `path`. A bad child stops its own container (earlier siblings are kept) and is recorded in
    /// `issues`; the containers around it carry on after it. The parse is ``BoxIndex``'s; this
    /// copies each payload out of it into a tree that can be edited and written.
    public static func parse(_ bytes: [UInt8], baseOffset: Int64 = 0, path: String = "",
                             ancestors: [BoxType] = [], layout: @escaping Layout = movieLayout) -> Result {
        let index = BoxIndex(bytes, baseOffset: baseOffset, path: BoxPath(path), ancestors: ancestors, layout: layout)
        return Result(nodes: index.topLevel.map(\.node), issues: index.issues)
    }

    /// Parses one whole box (header included) from `bytes`, e.g. a `moov` loaded from a file.
    public static func parseBox(_ bytes: [UInt8], baseOffset: Int64 = 0, path: String = "",
                                ancestors: [BoxType] = [], layout: @escaping Layout = movieLayout) -> (node: BoxNode?, issues: [BoxError]) {
        let r = parse(bytes, baseOffset: baseOffset, path: path, ancestors: ancestors, layout: layout)
        return (r.nodes.first, r.issues)
    }
}
