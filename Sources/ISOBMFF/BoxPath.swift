/// Where a box sits (`moov/trak[2]/mdia/minf/stbl/stsd`), kept as components and turned into
/// text only when something asks for it — in practice only when an error is made.
///
/// Parsing a movie visits every box of its `moov`; building each box's path as a `String` up
/// front cost more than reading the boxes (issue 4's profile). A chain of one small object per
/// component came next, and its allocations, releases and deinits were still about a tenth of
/// an uncached lint's CPU on small movies (issue 13): a path is made for every container the
/// index parses and every box a reader opens, and almost none is ever shown. So the last
/// ``inlineCapacity`` box components are held in the value itself (a type and an index each);
/// appending one of them copies the value and allocates nothing. Free text, and components past
/// that capacity, go to the chain (``Node``), which holds what precedes the inline ones.
public struct BoxPath: Sendable, Hashable, CustomStringConvertible, ExpressibleByStringLiteral {
    private final class Node: Sendable {
        let parent: Node?
        let component: Component
        init(parent: Node?, component: Component) {
            self.parent = parent
            self.component = component
        }
    }

    private enum Component: Sendable {
        /// Free text (`moov/trak[1]`, ` sample[3]`); joined to what precedes it with `/` unless
        /// it starts with a space.
        case text(String)
        /// A box type, with its 1-based index among same-type siblings when it is shown (`trak[2]`).
        case box(BoxType, index: Int?)
    }

    /// Box components held inline; `moov/trak/mdia/minf/stbl/stsd` and two more fit.
    static let inlineCapacity = 8

    /// What precedes the inline components.
    private let node: Node?
    /// The inline components' types, the first `count` of them used.
    private var types = SIMD8<UInt32>()
    /// Their indexes plus one (0: no index shown); an index that does not fit goes to the chain.
    private var indexes = SIMD8<UInt16>()
    private var count: UInt8 = 0

    /// The empty path (a top-level box's parent).
    public init() { node = nil }

    /// A path given as text (`"moov/trak[1]"`); the empty string is the empty path.
    public init(_ text: String) {
        node = text.isEmpty ? nil : Node(parent: nil, component: .text(text))
    }

    public init(stringLiteral value: String) { self.init(value) }

    private init(node: Node?) { self.node = node }

    public var isEmpty: Bool { node == nil && count == 0 }

    /// This path followed by a box (`index` shown as `[n]` when given).
    public func appending(_ type: BoxType, index: Int? = nil) -> BoxPath {
        let stored: UInt16
        switch index {
        case nil: stored = 0
        case let n? where n >= 0 && n < Int(UInt16.max): stored = UInt16(n + 1)
        default: return BoxPath(node: Node(parent: chain(), component: .box(type, index: index)))
        }
        var path = count < Self.inlineCapacity ? self : BoxPath(node: chain())
        path.types[Int(path.count)] = type.rawValue
        path.indexes[Int(path.count)] = stored
        path.count += 1
        return path
    }

    /// This path followed by text: `/`-joined, or attached as is when it starts with a space
    /// (`stbl sample[3]`). Four letters or digits (`mdia`) are a box's name, kept inline: the
    /// same text either way.
    public func appending(_ text: String) -> BoxPath {
        if text.isEmpty { return self }
        if let type = Self.boxName(text) { return appending(type) }
        return BoxPath(node: Node(parent: chain(), component: .text(text)))
    }

    /// `text` as a box type when it is four ASCII letters or digits, which a box type renders
    /// back to unchanged.
    private static func boxName(_ text: String) -> BoxType? {
        let type = text.utf8.withContiguousStorageIfAvailable { b -> BoxType? in
            guard b.count == 4, b.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7A) }) else {
                return nil
            }
            return BoxType(rawValue: UInt32(b[0]) << 24 | UInt32(b[1]) << 16 | UInt32(b[2]) << 8 | UInt32(b[3]))
        }
        return type ?? nil
    }

    /// The whole path as a chain: the inline components moved onto `node`.
    private func chain() -> Node? {
        var chain = node
        for i in 0..<Int(count) { chain = Node(parent: chain, component: inlineComponent(i)) }
        return chain
    }

    private func inlineComponent(_ i: Int) -> Component {
        .box(BoxType(rawValue: types[i]), index: indexes[i] == 0 ? nil : Int(indexes[i]) - 1)
    }

    /// The path as text: components joined by `/` (`moov/trak[2]/mdia`).
    public var description: String {
        var components: [Component] = []
        var cursor = node
        while let n = cursor {
            components.append(n.component)
            cursor = n.parent
        }
        components.reverse()
        for i in 0..<Int(count) { components.append(inlineComponent(i)) }
        var out = ""
        for component in components {
            switch component {
            case .text(let text):
                if !out.isEmpty && !text.hasPrefix(" ") { out += "/" }
                out += text
            case .box(let type, let index):
                if !out.isEmpty { out += "/" }
                out += type.description
                if let index { out += "[\(index)]" }
            }
        }
        return out
    }

    public static func == (a: BoxPath, b: BoxPath) -> Bool { a.description == b.description }
    public func hash(into hasher: inout Hasher) { hasher.combine(description) }
}
