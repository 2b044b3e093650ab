/// A parsed box header (mp4parse `read_box_header` rules).
public struct BoxHeader: Sendable, Hashable {
    public var type: BoxType
    /// Total size including the header.
    public var size: Int64
    /// 8, 16 (64-bit size), plus 16 for a `uuid` extended type.
    public var headerSize: Int
    /// Absolute offset of the box's first byte.
    public var offset: Int64
    /// The extended type of a `uuid` box.
    public var userType: [UInt8]?
    /// True when the size field was 0 ("to the end of the file"), allowed only at the top level.
    public var extendsToEnd: Bool

    public init(type: BoxType, size: Int64, headerSize: Int, offset: Int64, userType: [UInt8]? = nil, extendsToEnd: Bool = false) {
        self.type = type
        self.size = size
        self.headerSize = headerSize
        self.offset = offset
        self.userType = userType
        self.extendsToEnd = extendsToEnd
    }

    public var payloadSize: Int64 { size - Int64(headerSize) }
    public var payloadOffset: Int64 { offset + Int64(headerSize) }
    public var endOffset: Int64 { offset + size }

    /// Parses a header from `raw` (at least 8 bytes; 16 or 32 when the box needs them) found at
    /// `offset`, with `available` bytes left in the parent from `offset` on.
    ///
    /// - size 0 means "to the end" only when `topLevel`; elsewhere it is malformed.
    /// - size 1 means a 64-bit size follows, which must be ≥ 16.
    /// - a size below the header size, or past what the parent has left, is malformed.
    public static func parse(_ raw: [UInt8], at offset: Int64, available: Int64, topLevel: Bool,
                             path: String) throws(BoxError) -> BoxHeader {
        try parse(ByteCursor(raw, baseOffset: offset), available: available, topLevel: topLevel, parent: BoxPath(path))
    }

    /// Parses the header at `cursor`'s position in place (no copy), with everything the cursor
    /// has left as the parent's room; errors name the box under the cursor's path.
    public static func parse(at cursor: ByteCursor, topLevel: Bool) throws(BoxError) -> BoxHeader {
        try parse(cursor, available: Int64(cursor.remaining), topLevel: topLevel, parent: cursor.boxPath)
    }

    /// The checks of both entry points. `c` starts at the header; `parent` is rendered only for
    /// an error.
    private static func parse(_ cursor: ByteCursor, available: Int64, topLevel: Bool,
                              parent: BoxPath) throws(BoxError) -> BoxHeader {
        var c = cursor
        let offset = c.fileOffset
        guard available >= 8, c.remaining >= 8 else {
            throw BoxError(.malformed, "truncated box header: \(min(available, Int64(c.remaining))) bytes left, 8 needed",
                           path: parent.description, offset: offset)
        }
        let size32 = try c.u32("box size")
        let type = try c.fourCC("box type")
        func failure(_ message: String) -> BoxError {
            BoxError(.malformed, message, path: parent.appending(type).description, offset: offset)
        }
        var size = Int64(size32)
        var headerSize = 8
        var toEnd = false
        if size32 == 1 {
            guard available >= 16, c.remaining >= 8 else { throw failure("truncated 64-bit box size") }
            let large = try c.u64("largesize")
            guard large <= UInt64(Int64.max) else { throw failure("64-bit box size \(large) is out of range") }
            size = Int64(large)
            headerSize = 16
            guard size >= 16 else { throw failure("64-bit box size \(size) is below 16") }
        } else if size32 == 0 {
            guard topLevel else { throw failure("box size 0 (to end) is only allowed at the top level") }
            size = available
            toEnd = true
        }
        var userType: [UInt8]?
        if type == .uuid {
            guard available >= Int64(headerSize + 16), c.remaining >= 16 else { throw failure("truncated uuid extended type") }
            userType = try c.read(16, "extended type")
            headerSize += 16
        }
        guard size >= Int64(headerSize) else { throw failure("box size \(size) is below its header size \(headerSize)") }
        guard size <= available else {
            throw failure("box size \(size) is larger than the \(available) bytes its parent has left")
        }
        return BoxHeader(type: type, size: size, headerSize: headerSize, offset: offset, userType: userType, extendsToEnd: toEnd)
    }

}

extension ByteCursor {
    /// Reads the next child box header inside this window and returns it with a cursor over its
    /// payload (its path this cursor's plus the box type); nil at the end of the window.
    public mutating func nextBox(topLevel: Bool = false) throws(BoxError) -> (header: BoxHeader, payload: ByteCursor)? {
        guard !isAtEnd else { return nil }
        let header = try BoxHeader.parse(at: self, topLevel: topLevel)
        try skip(header.headerSize, "box header")
        let payload = try slice(Int(header.payloadSize), boxPath: boxPath.appending(header.type))
        return (header, payload)
    }
}
