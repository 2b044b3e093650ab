import ISOBMFF
import Testing

/// `iloc`: read and write side by side, every version and field width; hostile counts refused.
struct ItemLocationBoxTests {
    @Test(arguments: [(UInt8(0), 4, 4, 0, 0), (1, 4, 4, 4, 0), (1, 8, 8, 0, 4), (2, 4, 8, 8, 8)])
    func roundTrip(_ version: UInt8, _ offsetSize: Int, _ lengthSize: Int, _ baseSize: Int, _ indexSize: Int) throws {
        let items = [
            ItemLocationBox.Item(id: 1, constructionMethod: version >= 1 ? 1 : 0, baseOffset: baseSize > 0 ? 100 : 0,
                                 extents: [.init(index: indexSize > 0 ? 2 : 0, offset: 10, length: 20)]),
            ItemLocationBox.Item(id: 70_000 & (version < 2 ? 0xFFFF : 0xFFFF_FFFF), extents: [.init(offset: 5, length: 6), .init(offset: 7, length: 0)]),
        ]
        let box = ItemLocationBox(header: FullBoxHeader(version: version), offsetSize: offsetSize, lengthSize: lengthSize,
                                  baseOffsetSize: baseSize, indexSize: version >= 1 ? indexSize : 0, items: items)
        let read = try ItemLocationBox.read(ByteCursor(box.payload, path: "meta/iloc"))
        #expect(read == box)
        #expect(box.payload.count == 4 + 2 + (version < 2 ? 2 : 4) + box.entrySize(extents: 1) + box.entrySize(extents: 2))
    }

    @Test func hostileCountsAreRefused() {
        // Version 2, 4-byte fields, an item count of 2^32 - 1 with no entries behind it.
        let payload: [UInt8] = [2, 0, 0, 0, 0x44, 0x00, 0xFF, 0xFF, 0xFF, 0xFF]
        #expect(throws: BoxError.self) { try ItemLocationBox.read(ByteCursor(payload, path: "meta/iloc")) }
        // A field width of 3.
        #expect(throws: BoxError.self) { try ItemLocationBox.read(ByteCursor([0, 0, 0, 0, 0x33, 0x00, 0, 0], path: "meta/iloc")) }
        // Version 3.
        #expect(throws: BoxError.self) { try ItemLocationBox.read(ByteCursor([3, 0, 0, 0, 0x44, 0x00, 0, 0], path: "meta/iloc")) }
    }

    @Test func fits() {
        #expect(ItemLocationBox.fits(UInt64(UInt32.max), width: 4) && !ItemLocationBox.fits(UInt64(UInt32.max) + 1, width: 4))
        #expect(ItemLocationBox.fits(0, width: 0) && !ItemLocationBox.fits(1, width: 0) && ItemLocationBox.fits(.max, width: 8))
    }
}
