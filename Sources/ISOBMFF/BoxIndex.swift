/// Boxes parsed once and held flat over the bytes they were read from: each box is an entry of
/// offsets into those bytes, its children a chain of entries, and no payload is copied.
///
/// This is the one box-tree parser. Readers walk it through ``Box`` views and read a payload
/// through a cursor over the shared bytes (``Box/payloadCursor(path:)``); ``BoxTree/parse``
/// copies it into ``BoxNode`` trees for the writers, which edit boxes. Before this, a movie's
/// reader built that tree too: an array per box and per container, freed a moment later, a
/// tenth of an uncached lint's CPU on small movies (issue 13).
///
/// The parse checks what ``BoxTree`` always has: every header against the room its parent has
/// left (``BoxHeader/parse(at:topLevel:)``), at most ``BoxLimits/maxBoxes`` boxes and
/// ``BoxLimits/maxDepth`` levels. A bad child stops its own container (earlier siblings are
/// kept) and is recorded in ``issues``; the containers around it carry on after it.
public final class BoxIndex: Sendable {
    /// The bytes parsed; offsets in entries index into them.
    public let bytes: [UInt8]
    /// File offset of `bytes[0]`.
    public let baseOffset: Int64
    /// Every problem met, in the order met.
    public let issues: [BoxError]
    private let entries: [Entry]
    private let first: Int32

    /// One box. A data box's payload is `payloadStart..<end`; a container's prefix is
    /// `payloadStart..<childrenStart`, its children follow, and its trailer (a QuickTime zero
    /// terminator) is `trailerStart..<end`.
    struct Entry {
        var type: BoxType
        var headerStart: Int
        var payloadStart: Int
        var childrenStart: Int
        var trailerStart: Int
        var end: Int
        var firstChild: Int32 = -1
        var nextSibling: Int32 = -1
        /// A container with no prefix and no children looks like an empty data box otherwise.
        var isContainer: Bool
    }

    /// Parses the boxes in `bytes` (which start at file offset `baseOffset`) as siblings under
    /// `path`, inside containers of the types `ancestors` (outermost first); `layout` says which
    /// boxes to open.
    public init(_ bytes: [UInt8], baseOffset: Int64 = 0, path: BoxPath = BoxPath(), ancestors: [BoxType] = [],
                layout: @escaping BoxTree.Layout = BoxTree.movieLayout) {
        // The builder reads through `buffer`, valid only inside this call: what it made leaves it.
        let (first, issues, entries) = bytes.withUnsafeBufferPointer { buffer in
            var builder = Builder(bytes: bytes, buffer: buffer, baseOffset: baseOffset, layout: layout, ancestors: ancestors)
            let (first, _) = builder.parseChildren(0..<bytes.count, path: path)
            return (first, builder.issues, builder.entries)
        }
        self.bytes = bytes
        self.baseOffset = baseOffset
        self.issues = issues
        self.entries = entries
        self.first = first
    }

    /// The boxes at the top of what was parsed, in order.
    public var topLevel: Children { Children(index: self, first: first) }

    /// A box of an index: a view, valid as long as it is held (it keeps the index alive).
    public struct Box: Sendable {
        public let index: BoxIndex
        let entry: Int32

        private var e: Entry { index.entries[Int(entry)] }

        public var type: BoxType { e.type }
        /// Absolute file offset of the box's first byte.
        public var offset: Int64 { index.baseOffset + Int64(e.headerStart) }
        /// Header size as read (8, 16, or +16 for `uuid`).
        public var headerSize: Int { e.payloadStart - e.headerStart }
        public var isContainer: Bool { e.isContainer }
        /// The extended type of a `uuid` box.
        public var userType: [UInt8]? {
            let e = e
            guard e.type == .uuid else { return nil }
            return Array(index.bytes[(e.payloadStart - 16)..<e.payloadStart])
        }

        /// The box's children, none for a data box.
        public var children: Children { Children(index: index, first: e.firstChild) }

        /// The first child of type `type`.
        public func child(_ type: BoxType) -> Box? { children.first(type) }

        /// A cursor over the payload (after the header), in place: for a container, its prefix,
        /// children and trailer, whatever of them parsed.
        public func payloadCursor(path: BoxPath) -> ByteCursor {
            let e = e
            return ByteCursor(bytes: index.bytes, start: e.payloadStart, end: e.end, baseOffset: index.baseOffset, boxPath: path)
        }

        /// A cursor over a data box's payload, in place; nil for a container, whose payload is
        /// its children (what ``BoxNode`` gives: a container has no data).
        public func dataCursor(path: BoxPath) -> ByteCursor? {
            isContainer ? nil : payloadCursor(path: path)
        }

        /// The payload of a data box, copied; nil for a container.
        public var data: [UInt8]? {
            let e = e
            return e.isContainer ? nil : Array(index.bytes[e.payloadStart..<e.end])
        }

        /// The box as a ``BoxNode`` (payloads copied), to edit or write (``BoxTree/parse``).
        var node: BoxNode {
            let e = e
            let content: BoxNode.Content
            if e.isContainer {
                content = .container(prefix: Array(index.bytes[e.payloadStart..<e.childrenStart]),
                                     children: children.map(\.node), trailer: Array(index.bytes[e.trailerStart..<e.end]))
            } else {
                content = .data(Array(index.bytes[e.payloadStart..<e.end]))
            }
            return BoxNode(type: e.type, userType: userType, offset: offset, headerSize: headerSize, content: content)
        }
    }

    /// Sibling boxes, in order.
    public struct Children: Sequence, Sendable {
        let index: BoxIndex
        let first: Int32

        /// The first box of type `type`.
        public func first(_ type: BoxType) -> Box? {
            var i = first
            while i >= 0 {
                let e = index.entries[Int(i)]
                if e.type == type { return Box(index: index, entry: i) }
                i = e.nextSibling
            }
            return nil
        }

        public struct Iterator: IteratorProtocol {
            let index: BoxIndex
            var at: Int32

            public mutating func next() -> Box? {
                guard at >= 0 else { return nil }
                let box = Box(index: index, entry: at)
                at = index.entries[Int(at)].nextSibling
                return box
            }
        }

        public func makeIterator() -> Iterator { Iterator(index: index, at: first) }
    }

    /// How many containers of each type a container's children held so far: a short list read
    /// in a row (a container has few kinds of container inside it), and a dictionary past 16
    /// kinds (an `ilst` can hold any number: each of its items is a container).
    struct SiblingCounts {
        private var few: [(type: BoxType, count: Int)] = []
        private var many: [BoxType: Int] = [:]

        /// Counts one more `type` and returns how many there are now.
        mutating func count(_ type: BoxType) -> Int {
            if let i = few.firstIndex(where: { $0.type == type }) {
                few[i].count += 1
                return few[i].count
            }
            if few.count < 16 {
                few.append((type, 1))
                return 1
            }
            let n = (many[type] ?? 0) + 1
            many[type] = n
            return n
        }
    }

    /// The parse: entries appended in document order, a container before its children. It works
    /// on positions in `bytes`: a box with a plain 32-bit header that fits its parent is read
    /// straight from them, and anything else (a 64-bit or zero size, `uuid`, a size that does not
    /// fit) goes through ``BoxHeader/parse(at:topLevel:)`` on a cursor, for the same checks and
    /// the same errors. A cursor per box, each holding the bytes and a path, was a third of the
    /// parse in retains and releases (issue 13).
    private struct Builder {
        let bytes: [UInt8]
        let buffer: UnsafeBufferPointer<UInt8>
        let baseOffset: Int64
        let layout: BoxTree.Layout
        var issues: [BoxError] = []
        var entries: [Entry] = []
        /// Boxes met so far; past ``BoxLimits/maxBoxes`` the whole parse stops.
        var boxCount = 0
        /// The types of the containers around the box being parsed, outermost first: their
        /// count is the depth.
        var ancestors: [BoxType]

        init(bytes: [UInt8], buffer: UnsafeBufferPointer<UInt8>, baseOffset: Int64, layout: @escaping BoxTree.Layout,
             ancestors: [BoxType]) {
            self.bytes = bytes
            self.buffer = buffer
            self.baseOffset = baseOffset
            self.layout = layout
            self.ancestors = ancestors
            // A box takes at least 8 bytes; a movie's moov holds some 50 to 300 of them.
            entries.reserveCapacity(min(bytes.count / 8, 512))
        }

        private var stopped: Bool { boxCount > BoxLimits.maxBoxes }

        private func allZero(_ range: Range<Int>) -> Bool {
            buffer[range].allSatisfy { $0 == 0 }
        }

        private func error(_ category: BoxError.Category, _ message: String, _ path: BoxPath, at position: Int) -> BoxError {
            BoxError(category, message, path: path.description, offset: baseOffset + Int64(position))
        }

        /// 0 for a QuickTime `meta` whose payload `range` starts with a child box header, 4 for an
        /// ISO one (version and flags first), told apart as exiftool's QuickTime.pm does.
        private func metaPrefixLength(_ range: Range<Int>) -> Int {
            guard range.count >= 8 else { return range.count >= 4 ? 4 : 0 }
            let size = bigEndianU32(buffer, at: range.lowerBound)
            let type = BoxType(rawValue: bigEndianU32(buffer, at: range.lowerBound + 4))
            return size >= 8 && Int(size) <= range.count && type.looksLikeBoxType ? 0 : 4
        }

        /// Parses the boxes of `window` (inside the container whose path is `path`) as siblings;
        /// returns the first one's entry and where the trailer kept after the last begins
        /// (QuickTime's zero terminator; the window's end when there is none).
        mutating func parseChildren(_ window: Range<Int>, path: BoxPath) -> (first: Int32, trailerStart: Int) {
            var position = window.lowerBound
            let end = window.upperBound
            var first: Int32 = -1
            var last: Int32 = -1
            var seen = SiblingCounts()
            func link(_ i: Int32, _ entries: inout [Entry]) {
                if last < 0 { first = i } else { entries[Int(last)].nextSibling = i }
                last = i
            }
            while position < end && !stopped {
                let rest = position..<end
                if rest.count < 8 {
                    // QuickTime ends some atom lists with a 32-bit zero; keep it so writes round-trip.
                    if allZero(rest) { return (first, position) }
                    issues.append(error(.malformed, "\(rest.count) stray bytes after the last child box", path, at: position))
                    return (first, end)
                }
                if ancestors.last == BoxTree.udtaType, rest.count <= 8, allZero(rest) {
                    // A zero-size terminator (4 to 8 zero bytes) at the end of a QuickTime `udta`.
                    return (first, position)
                }
                boxCount += 1
                guard !stopped else {
                    issues.append(error(.limit, "more than \(BoxLimits.maxBoxes) boxes", path, at: position))
                    return (first, end)
                }
                let size = bigEndianU32(buffer, at: position)
                let type = BoxType(rawValue: bigEndianU32(buffer, at: position + 4))
                let headerSize: Int, boxEnd: Int
                if size >= 8, type != .uuid, Int(size) <= rest.count {
                    (headerSize, boxEnd) = (8, position + Int(size))
                } else {
                    // BoxHeader.parse checks the size against the room left and the header's own.
                    let header: BoxHeader
                    do {
                        header = try BoxHeader.parse(at: ByteCursor(bytes: bytes, start: position, end: end, baseOffset: baseOffset,
                                                                    boxPath: path), topLevel: false)
                    } catch {
                        issues.append(error)
                        return (first, end)
                    }
                    (headerSize, boxEnd) = (header.headerSize, position + Int(header.size))
                }
                let headerStart = position
                position = boxEnd
                guard let kind = layout(type, ancestors) else {
                    // A data box: nothing inside it is parsed here, so it needs no path of its own.
                    link(append(type, headerStart, headerStart + headerSize, boxEnd, container: false), &entries)
                    continue
                }
                // A container's path names it among its same-type siblings (`trak[2]`). Whether a
                // box is a container depends only on its type and ancestors, so counting the
                // containers alone counts every sibling of that type.
                let n = seen.count(type)
                let own = path.appending(type, index: n > 1 || type == BoxTree.trakType ? n : nil)
                link(parseNode(type, headerStart, headerStart + headerSize, boxEnd, path: own, layout: kind), &entries)
            }
            return (first, end)
        }

        private mutating func append(_ type: BoxType, _ headerStart: Int, _ payloadStart: Int, _ end: Int,
                                     container: Bool, childrenStart: Int? = nil) -> Int32 {
            entries.append(Entry(type: type, headerStart: headerStart, payloadStart: payloadStart,
                                 childrenStart: childrenStart ?? payloadStart, trailerStart: end, end: end, isContainer: container))
            return Int32(entries.count - 1)
        }

        mutating func parseNode(_ type: BoxType, _ headerStart: Int, _ payloadStart: Int, _ end: Int, path: BoxPath,
                                layout kind: ContainerLayout) -> Int32 {
            guard ancestors.count < BoxLimits.maxDepth else {
                issues.append(error(.limit, "boxes nested deeper than \(BoxLimits.maxDepth)", path, at: headerStart))
                return append(type, headerStart, payloadStart, end, container: false)
            }
            let prefixLength: Int
            switch kind {
            case .children(let p): prefixLength = p
            case .meta: prefixLength = metaPrefixLength(payloadStart..<end)
            }
            guard prefixLength >= 0, prefixLength <= end - payloadStart else {
                issues.append(error(.malformed, "container too short for its \(prefixLength)-byte header", path, at: payloadStart))
                return append(type, headerStart, payloadStart, end, container: false)
            }
            let i = append(type, headerStart, payloadStart, end, container: true, childrenStart: payloadStart + prefixLength)
            ancestors.append(type)
            let (first, trailerStart) = parseChildren((payloadStart + prefixLength)..<end, path: path)
            ancestors.removeLast()
            entries[Int(i)].firstChild = first
            entries[Int(i)].trailerStart = trailerStart
            return i
        }
    }
}
