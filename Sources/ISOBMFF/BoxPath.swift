/// Where a box sits (`moov/trak[2]/mdia/minf/stbl/stsd`), kept as a chain of components and
/// turned into text only when something asks for it — in practice only when an error is made.
///
/// Parsing a movie visits every box of its `moov`; building each box's path as a `String` up
/// front cost more than reading the boxes (issue 4's profile). Appending here is one small
/// allocation and no text work.
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
        /// Free text (`moov`, `moov/trak[1]`, ` sample[3]`); joined to what precedes it with `/`
        /// unless it starts with a space.
        case text(String)
        /// A box type, with its 1-based index among same-type siblings when it is shown (`trak[2]`).
        case box(BoxType, index: Int?)
    }

    private let node: Node?

    /// The empty path (a top-level box's parent).
    public init() { node = nil }

    /// A path given as text (`"moov/trak[1]"`); the empty string is the empty path.
    public init(_ text: String) {
        node = text.isEmpty ? nil : Node(parent: nil, component: .text(text))
    }

    public init(stringLiteral value: String) { self.init(value) }

    private init(node: Node?) { self.node = node }

    public var isEmpty: Bool { node == nil }

    /// This path followed by a box (`index` shown as `[n]` when given).
    public func appending(_ type: BoxType, index: Int? = nil) -> BoxPath {
        BoxPath(node: Node(parent: node, component: .box(type, index: index)))
    }

    /// This path followed by text: `/`-joined, or attached as is when it starts with a space
    /// (`stbl sample[3]`).
    public func appending(_ text: String) -> BoxPath {
        text.isEmpty ? self : BoxPath(node: Node(parent: node, component: .text(text)))
    }

    /// The path as text: components joined by `/` (`moov/trak[2]/mdia`).
    public var description: String {
        var components: [Component] = []
        var cursor = node
        while let n = cursor {
            components.append(n.component)
            cursor = n.parent
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
