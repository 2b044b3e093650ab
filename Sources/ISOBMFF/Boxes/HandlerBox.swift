/// `hdlr`, the handler reference (ISO/IEC 14496-12 §8.4.3; QuickTime "Handler Reference Atoms").
///
/// QuickTime's component type (`mhlr` media handler, `dhlr` data handler; ISO's pre_defined 0)
/// and the handler (subtype) `vide`, `soun`, `meta`, `mdta`, `alis`, … Then 12 reserved bytes
/// (QuickTime: manufacturer, flags, flags mask) and a name that is a Pascal string in QuickTime
/// and a C string in ISO files; nothing here reads them, so they stay as stored in `remainder`.
public struct HandlerBox: TypedBox, Hashable {
    public var header: FullBoxHeader
    public var componentType: BoxType
    public var handlerType: BoxType
    /// The reserved fields and the name, as stored.
    public var remainder: [UInt8]

    public var boxType: BoxType { "hdlr" }

    /// A handler with zero reserved fields and `name` (the default: one 0 byte, an empty name in
    /// both the Pascal and the C reading).
    public init(componentType: BoxType = BoxType(rawValue: 0), handlerType: BoxType, name: [UInt8] = [0]) {
        header = FullBoxHeader()
        self.componentType = componentType
        self.handlerType = handlerType
        remainder = [UInt8](repeating: 0, count: 12) + name
    }

    /// Reads the header, component and handler types; the rest is kept only when `keepRemainder`
    /// (the movie reader never needs it, so it costs no copy there).
    public static func read(_ payload: ByteCursor, keepRemainder: Bool = true) throws(BoxError) -> HandlerBox {
        var c = payload
        let header = try FullBoxHeader.read(&c)
        let component = try c.fourCC("component type")
        let handler = try c.fourCC("handler type")
        return HandlerBox(header: header, componentType: component, handlerType: handler, remainder: keepRemainder ? c.readRest() : [])
    }

    private init(header: FullBoxHeader, componentType: BoxType, handlerType: BoxType, remainder: [UInt8]) {
        self.header = header
        self.componentType = componentType
        self.handlerType = handlerType
        self.remainder = remainder
    }

    public func write(to w: inout ByteWriter) {
        header.write(to: &w)
        w.fourCC(componentType)
        w.fourCC(handlerType)
        w.bytes(remainder)
    }
}
