/// QuickTime metadata (QuickTime File Format, "Metadata"): the `keys` table of a `meta` box
/// (handler `mdta`), the `ilst` items that refer to its entries by 1-based index, and the `data`
/// atoms that hold their values.

/// `keys`: version/flags, an entry count, then entries of [size][namespace][name].
public struct MetadataKeysBox: TypedBox, Hashable {
    public struct Entry: Sendable, Hashable {
        /// `mdta` for reverse-DNS keys.
        public var namespace: BoxType
        public var name: String

        public init(namespace: BoxType = "mdta", name: String) {
            self.namespace = namespace
            self.name = name
        }
    }

    public var header: FullBoxHeader
    public var entries: [Entry]

    public var boxType: BoxType { "keys" }

    public init(header: FullBoxHeader = FullBoxHeader(), entries: [Entry]) {
        self.header = header
        self.entries = entries
    }

    public static func read(_ payload: ByteCursor) throws(BoxError) -> MetadataKeysBox {
        var box = MetadataKeysBox(entries: [])
        try read(payload, into: &box)
        return box
    }

    /// Reads into `box` entry by entry: the entries before a bad one are kept.
    public static func read(_ payload: ByteCursor, into box: inout MetadataKeysBox) throws(BoxError) {
        var c = payload
        box.header = try FullBoxHeader.read(&c)
        let count = try c.checkedCount(try c.u32("entry count"), entrySize: 8, "keys entry")
        for _ in 0..<count {
            let size = try c.u32("key size")
            guard size >= 8 else { throw c.error(.malformed, "key entry size \(size) is below 8") }
            var entry = try c.slice(Int(size) - 4)
            let namespace = try entry.fourCC("key namespace")
            box.entries.append(Entry(namespace: namespace, name: String(decoding: entry.readRest(), as: UTF8.self)))
        }
    }

    public func write(to w: inout ByteWriter) {
        header.write(to: &w)
        w.u32(UInt32(entries.count))
        for e in entries {
            let name = Array(e.name.utf8)
            w.u32(UInt32(8 + name.count))
            w.fourCC(e.namespace)
            w.bytes(name)
        }
    }
}

/// A `data` atom: type indicator (1 byte type set, 3 bytes well-known type), locale, value.
public struct DataBox: TypedBox, Hashable {
    /// The whole indicator as stored (type set in the top byte).
    public var typeIndicator: UInt32
    public var locale: UInt32
    public var value: [UInt8]

    public var boxType: BoxType { "data" }

    /// A value of well-known type `type` (type set 0) in the default locale.
    public init(type: UInt32, locale: UInt32 = 0, value: [UInt8]) {
        typeIndicator = type & 0x00FF_FFFF
        self.locale = locale
        self.value = value
    }

    /// The well-known type (the low 24 bits).
    public var wellKnownType: UInt32 { typeIndicator & 0x00FF_FFFF }

    public static func read(_ payload: ByteCursor) throws(BoxError) -> DataBox {
        var c = payload
        let indicator = try c.u32("type indicator")
        let locale = try c.u32("locale")
        var box = DataBox(type: 0, locale: locale, value: c.readRest())
        box.typeIndicator = indicator
        return box
    }

    public func write(to w: inout ByteWriter) {
        w.u32(typeIndicator)
        w.u32(locale)
        w.bytes(value)
    }

    /// An `ilst` item for key `index` (1-based, the item's type is the index) holding this atom.
    public func item(index: UInt32) -> BoxNode {
        BoxNode(type: BoxType(rawValue: index), children: [node])
    }
}

/// A timed-metadata sample entry `mebx` (QuickTime "Metadata Sample Descriptions"): the sample
/// entry header, then a `keys` box whose children are typed by local key id and each hold `keyd`
/// (namespace + key name) and `dtyp` (namespace 0 + well-known type, or a type name).
public struct MetadataSampleEntry: Sendable {
    public struct Key: Sendable, Hashable {
        /// The local key id samples use (the child box's type as a number).
        public var localID: UInt32
        /// Nil when the key has no `keyd`.
        public var namespace: BoxType?
        public var name: String
        /// `dtyp` namespace 0: the well-known type.
        public var dataType: UInt32?
        /// `dtyp` other namespaces: a reverse-DNS type name (Apple doubles its prefix).
        public var dataTypeName: String?

        public init(localID: UInt32, namespace: BoxType? = "mdta", name: String, dataType: UInt32? = nil, dataTypeName: String? = nil) {
            self.localID = localID
            self.namespace = namespace
            self.name = name
            self.dataType = dataType
            self.dataTypeName = dataTypeName
        }
    }

    public var entryHeader: SampleEntryHeader
    public var keys: [Key]

    public init(dataReferenceIndex: UInt16 = 1, keys: [Key]) {
        entryHeader = SampleEntryHeader(dataReferenceIndex: dataReferenceIndex)
        self.keys = keys
    }

    /// Reads the entry payload (after its box header) into `entry`, key by key: the keys before a
    /// bad one are kept. A key without `keyd` has an empty namespace and name; boxes other than
    /// `keys` are skipped.
    public static func read(_ payload: ByteCursor, into entry: inout MetadataSampleEntry) throws(BoxError) {
        var c = payload
        entry.entryHeader = try SampleEntryHeader.read(&c)
        while let (header, keysPayload) = try c.nextBox() {
            guard header.type == "keys" else { continue }
            var keys = keysPayload
            while let (keyHeader, keyPayload) = try keys.nextBox() {
                var key = Key(localID: keyHeader.type.rawValue, namespace: nil, name: "")
                var k = keyPayload
                while let (h, p) = try k.nextBox() {
                    var field = p
                    if h.type == "keyd" {
                        key.namespace = try field.fourCC("key namespace")
                        key.name = String(decoding: field.readRest(), as: UTF8.self)
                    } else if h.type == "dtyp" {
                        let ns = try field.u32("type namespace")
                        if ns == 0 {
                            key.dataType = try field.u32("well-known type")
                        } else {
                            key.dataTypeName = String(decoding: field.readRest(), as: UTF8.self)
                        }
                    }
                }
                entry.keys.append(key)
            }
        }
    }

    /// The `mebx` entry box.
    public var node: BoxNode {
        var header = ByteWriter()
        entryHeader.write(to: &header)
        let keyNodes = keys.map { key -> BoxNode in
            var children: [BoxNode] = []
            if let namespace = key.namespace {
                var keyd = ByteWriter()
                keyd.fourCC(namespace)
                keyd.bytes(Array(key.name.utf8))
                children.append(BoxNode(type: "keyd", data: keyd.bytes))
            }
            var dtyp = ByteWriter()
            if let type = key.dataType {
                dtyp.u32(0)
                dtyp.u32(type)
                children.append(BoxNode(type: "dtyp", data: dtyp.bytes))
            } else if let name = key.dataTypeName {
                dtyp.u32(1)
                dtyp.bytes(Array(name.utf8))
                children.append(BoxNode(type: "dtyp", data: dtyp.bytes))
            }
            return BoxNode(type: BoxType(rawValue: key.localID), children: children)
        }
        return BoxNode(type: "mebx", prefix: header.bytes, children: [BoxNode(type: "keys", children: keyNodes)])
    }
}
