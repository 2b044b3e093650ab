/// `ftyp`, the file type (ISO/IEC 14496-12 §4.3): major brand, minor version, compatible brands.
public struct FileTypeBox: TypedBox, Hashable {
    public var majorBrand: BoxType
    public var minorVersion: UInt32
    public var compatibleBrands: [BoxType]

    public var boxType: BoxType { "ftyp" }

    public init(majorBrand: BoxType, minorVersion: UInt32 = 0, compatibleBrands: [BoxType] = []) {
        self.majorBrand = majorBrand
        self.minorVersion = minorVersion
        self.compatibleBrands = compatibleBrands
    }

    public static func read(_ payload: ByteCursor) throws(BoxError) -> FileTypeBox {
        var box = FileTypeBox(majorBrand: BoxType(rawValue: 0))
        try read(payload, into: &box)
        return box
    }

    /// Reads into `box` field by field (a major brand read before a truncation is kept). Trailing
    /// bytes that are not a whole brand are ignored.
    public static func read(_ payload: ByteCursor, into box: inout FileTypeBox) throws(BoxError) {
        var c = payload
        box.majorBrand = try c.fourCC("major brand")
        box.minorVersion = try c.u32("minor version")
        while c.remaining >= 4 { box.compatibleBrands.append(try c.fourCC()) }
    }

    public func write(to w: inout ByteWriter) {
        w.fourCC(majorBrand)
        w.u32(minorVersion)
        for brand in compatibleBrands { w.fourCC(brand) }
    }
}
