/// Where a box sits (`moov/trak[2]/mdia/minf/stbl/stsd`), kept as components and turned into
/// text only when something asks for it — in practice only when an error is made.
///
/// Parsing a movie visits every box of its `moov`; building each box's path as a `String` up
/// front cost more than reading the boxes (issue 4's profile). A chain of one small object per
/// component came next, and its allocations, releases and deinits were still several percent
/// of an uncached lint's CPU on small movies (issue 13): a path is made for every container the
/// index parses and every box a reader opens, and almost none is ever shown. So up to
/// ``inlineCapacity`` box components are held in the value itself (a type and an index each),
/// and appending one copies the value and allocates nothing. Free text, a ninth box, or an index
/// too large to hold inline is one ``Node``: the path so far, then that component.
public struct BoxPath: Sendable, Hashable, CustomStringConvertible, ExpressibleByStringLiteral {
    private final class Node: Sendable {
        let parent: BoxPath
        let component: Component
        init(parent: BoxPath, component: Component) {
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

    /// Box components held inline after ``node``: `moov/trak/mdia/minf/stbl/stsd` and two more.
    static var inlineCapacity: Int { Types.scalarCount }
    /// The inline components' storage: its width is ``inlineCapacity``.
    private typealias Types = SIMD8<UInt32>
    private typealias Indexes = SIMD8<UInt8>

    /// What precedes the inline components.
    private let node: Node?
    /// The inline components' types, the first `count` of them used.
    private var types = Types()
    /// Their indexes plus one (0: no index shown); a larger index is a node of its own.
    private var indexes = Indexes()
    private var count: UInt8 = 0

    /// The empty path (a top-level box's parent).
    public init() { node = nil }

    /// A path given as text (`"moov/trak[1]"`; `"moov"` is a box's name, held inline, as
    /// ``appending(_:)-(String)`` holds it); the empty string is the empty path.
    public init(_ text: String) {
        self = BoxPath().appending(text)
    }

    public init(stringLiteral value: String) { self.init(value) }

    private init(node: Node?) { self.node = node }

    /// This path followed by `component`, as one node.
    private func appendingNode(_ component: Component) -> BoxPath {
        BoxPath(node: Node(parent: self, component: component))
    }

    public var isEmpty: Bool { node == nil && count == 0 }

    /// This path followed by a box (`index` shown as `[n]` when given).
    public func appending(_ type: BoxType, index: Int? = nil) -> BoxPath {
        let stored: UInt8
        switch index {
        case nil: stored = 0
        case let n? where n >= 0 && n < Int(UInt8.max): stored = UInt8(n + 1)
        default: return appendingNode(.box(type, index: index))
        }
        guard count < Self.inlineCapacity else { return appendingNode(.box(type, index: index)) }
        var path = self
        path.types[Int(count)] = type.rawValue
        path.indexes[Int(count)] = stored
        path.count += 1
        return path
    }

    /// This path followed by text: `/`-joined, or attached as is when it starts with a space
    /// (`stbl sample[3]`). Four letters or digits (`mdia`) are a box's name, held inline: the
    /// same text either way.
    public func appending(_ text: String) -> BoxPath {
        if text.isEmpty { return self }
        if let type = BoxType(alphanumeric: text) { return appending(type) }
        return appendingNode(.text(text))
    }

    /// The path as text: components joined by `/` (`moov/trak[2]/mdia`).
    public var description: String {
        // Last component first: a path's inline components, then its node's, then the node's
        // parent's.
        var components: [Component] = []
        var path = self
        while true {
            for i in (0..<Int(path.count)).reversed() {
                let index = path.indexes[i]
                components.append(.box(BoxType(rawValue: path.types[i]), index: index == 0 ? nil : Int(index) - 1))
            }
            guard let node = path.node else { break }
            components.append(node.component)
            path = node.parent
        }
        var out = ""
        for component in components.reversed() {
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
