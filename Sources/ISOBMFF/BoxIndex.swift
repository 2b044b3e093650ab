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
    /// `payloadStart..<childrenStart`, its children follow, and its trailer is `trailer`.
    struct Entry {
        var type: BoxType
        var headerStart: Int
        var payloadStart: Int
        var childrenStart: Int
        var end: Int
        var trailer: Range<Int>
        var firstChild: Int32 = -1
        var nextSibling: Int32 = -1
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
            let (first, _) = builder.parseChildren(0..<bytes.count, path: path, depth: ancestors.count)
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
            guard e.type == Self.uuidType else { return nil }
            return Array(index.bytes[(e.payloadStart - 16)..<e.payloadStart])
        }
        private static let uuidType: BoxType = "uuid"

        /// The box's children, none for a data box.
        public var children: Children { Children(index: index, first: e.firstChild) }

        /// The first child of type `type`.
        public func child(_ type: BoxType) -> Box? { children.first(type) }

        /// A cursor over the payload (after the header), in place: for a container, its prefix,
        /// children and trailer.
        public func payloadCursor(path: BoxPath) -> ByteCursor {
            let e = e
            return ByteCursor(bytes: index.bytes, start: e.payloadStart, end: e.end, baseOffset: index.baseOffset, boxPath: path)
        }

        /// The payload of a data box, copied; nil for a container.
        public var data: [UInt8]? {
            let e = e
            return e.isContainer ? nil : Array(index.bytes[e.payloadStart..<e.end])
        }

        /// The box as a ``BoxNode`` (payloads copied), to edit or write.
        public var node: BoxNode {
            let e = e
            let content: BoxNode.Content
            if e.isContainer {
                content = .container(prefix: Array(index.bytes[e.payloadStart..<e.childrenStart]),
                                     children: children.map(\.node), trailer: Array(index.bytes[e.trailer]))
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

        public var isEmpty: Bool { first < 0 }

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
        var boxCount = 0
        var stopped = false
        /// The types of the containers around the box being parsed, outermost first.
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

        private func allZero(_ range: Range<Int>) -> Bool {
            buffer[range].allSatisfy { $0 == 0 }
        }

        private func u32(_ at: Int) -> UInt32 {
            UInt32(buffer[at]) << 24 | UInt32(buffer[at + 1]) << 16 | UInt32(buffer[at + 2]) << 8 | UInt32(buffer[at + 3])
        }

        /// A cursor over `range` under `path`, for the checks and errors only cursors make.
        private func cursor(_ range: Range<Int>, _ path: BoxPath) -> ByteCursor {
            ByteCursor(bytes: bytes, start: range.lowerBound, end: range.upperBound, baseOffset: baseOffset, boxPath: path)
        }

        private func error(_ category: BoxError.Category, _ message: String, _ path: BoxPath, at position: Int) -> BoxError {
            BoxError(category, message, path: path.description, offset: baseOffset + Int64(position))
        }

        /// Parses the boxes of `window` (inside the container whose path is `path`) as siblings;
        /// returns the first one's entry and the trailer kept after the last (QuickTime's zero
        /// terminator).
        mutating func parseChildren(_ window: Range<Int>, path: BoxPath, depth: Int) -> (first: Int32, trailer: Range<Int>) {
            var position = window.lowerBound
            let end = window.upperBound
            var first: Int32 = -1
            var last: Int32 = -1
            var seen = BoxTree.SiblingCounts()
            let none = end..<end
            func link(_ i: Int32, _ entries: inout [Entry]) {
                if last < 0 { first = i } else { entries[Int(last)].nextSibling = i }
                last = i
            }
            while position < end && !stopped {
                let rest = position..<end
                if rest.count < 8 {
                    // QuickTime ends some atom lists with a 32-bit zero; keep it so writes round-trip.
                    if allZero(rest) { return (first, rest) }
                    issues.append(error(.malformed, "\(rest.count) stray bytes after the last child box", path, at: position))
                    return (first, none)
                }
                if ancestors.last == BoxTree.udtaType, rest.count <= 8, allZero(rest) {
                    // A zero-size terminator (4 to 8 zero bytes) at the end of a QuickTime `udta`.
                    return (first, rest)
                }
                boxCount += 1
                guard boxCount <= BoxLimits.maxBoxes else {
                    issues.append(error(.limit, "more than \(BoxLimits.maxBoxes) boxes", path, at: position))
                    stopped = true
                    return (first, none)
                }
                let size = u32(position)
                let type = BoxType(rawValue: u32(position + 4))
                let headerSize: Int, boxEnd: Int
                if size >= 8, type != Self.uuidType, Int(size) <= rest.count {
                    (headerSize, boxEnd) = (8, position + Int(size))
                } else {
                    let header: BoxHeader
                    do {
                        header = try BoxHeader.parse(at: cursor(rest, path), topLevel: false)
                    } catch {
                        issues.append(error)
                        return (first, none)
                    }
                    // BoxHeader.parse checked the size against the room left.
                    guard header.size <= Int64(rest.count), Int64(header.headerSize) <= header.size else {
                        issues.append(error(.malformed, "box overruns its parent", path, at: position))
                        return (first, none)
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
                link(parseNode(type, headerStart, headerStart + headerSize, boxEnd, path: own, layout: kind, depth: depth), &entries)
            }
            return (first, none)
        }

        private static let uuidType: BoxType = "uuid"

        private mutating func append(_ type: BoxType, _ headerStart: Int, _ payloadStart: Int, _ end: Int, container: Bool) -> Int32 {
            entries.append(Entry(type: type, headerStart: headerStart, payloadStart: payloadStart, childrenStart: payloadStart,
                                 end: end, trailer: end..<end, isContainer: container))
            return Int32(entries.count - 1)
        }

        mutating func parseNode(_ type: BoxType, _ headerStart: Int, _ payloadStart: Int, _ end: Int, path: BoxPath,
                                layout kind: ContainerLayout, depth: Int) -> Int32 {
            guard depth < BoxLimits.maxDepth else {
                issues.append(BoxError(.limit, "boxes nested deeper than \(BoxLimits.maxDepth)", path: path.description,
                                       offset: baseOffset + Int64(headerStart)))
                return append(type, headerStart, payloadStart, end, container: false)
            }
            let prefixLength: Int
            switch kind {
            case .children(let p): prefixLength = p
            case .meta: prefixLength = BoxTree.metaPrefixLength(cursor(payloadStart..<end, path))
            }
            guard prefixLength >= 0, prefixLength <= end - payloadStart else {
                issues.append(error(.malformed, "container too short for its \(prefixLength)-byte header", path, at: payloadStart))
                return append(type, headerStart, payloadStart, end, container: false)
            }
            let i = append(type, headerStart, payloadStart, end, container: true)
            entries[Int(i)].childrenStart = payloadStart + prefixLength
            ancestors.append(type)
            let (first, trailer) = parseChildren((payloadStart + prefixLength)..<end, path: path, depth: depth + 1)
            ancestors.removeLast()
            entries[Int(i)].firstChild = first
            entries[Int(i)].trailer = trailer
            return i
        }
    }
}
