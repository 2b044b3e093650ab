import Foundation
import ScratchFiles
import Testing

/// Values of one a file written out as they stop changing and read back by index through a map
/// (or `pread`): the records' slots and the engine's pairs of a library-sized scan.
struct ScratchArrayTests {
    @Test(arguments: [true, false])
    func valuesComeBackAsTheyWent(mapped: Bool) {
        let list = ScratchArray<UInt64>(in: NSTemporaryDirectory(), prefix: "livelint-test", lost: 7, maps: mapped)
        let values = (0..<30_000).map { UInt64($0) &* 0x9E37_79B9_7F4A_7C15 }
        for v in values.prefix(20_000) { list.append(v) }
        list.writeOut(below: 12_345)
        #expect(list.spills && list.written == 12_345 && list.count == 20_000)
        // The values after it may still change; those before it are read back from the file.
        list[12_345] = 1
        list[12_345] = values[12_345]
        #expect((0..<20_000).allSatisfy { list[$0] == values[$0] })
        // Written out again after reads, read again through a new map.
        for v in values.dropFirst(20_000) { list.append(v) }
        list.writeOutAll()
        #expect(list.written == 30_000)
        #expect((0..<30_000).reversed().allSatisfy { list[$0] == values[$0] })
    }

    /// Values wider than a word, with padding (12 bytes in a stride of 12), come back whole.
    @Test func wideValues() {
        struct Span: Equatable, BitwiseCopyable { var a: Int32; var b: Int32; var c: UInt8 }
        let list = ScratchArray<Span>(in: NSTemporaryDirectory(), prefix: "livelint-test", lost: Span(a: -1, b: -1, c: 0))
        let spans = (0..<10_000).map { Span(a: Int32($0), b: Int32(-$0), c: UInt8($0 % 7)) }
        for s in spans { list.append(s) }
        list.writeOutAll()
        #expect(list.spills && (0..<10_000).allSatisfy { list[$0] == spans[$0] })
    }

    /// Nothing goes to disk unless asked, nor where no temporary file can be made: the values are
    /// held, and read back all the same.
    @Test func valuesStayInMemoryWhenTheyCannotGoToDisk() {
        for list in [ScratchArray<UInt64>(in: nil, prefix: "livelint-test", lost: 0),
                     ScratchArray<UInt64>(in: "/nonexistent-livelint-\(UUID().uuidString)", prefix: "livelint-test", lost: 0)] {
            for v in 0..<5_000 { list.append(UInt64(v)) }
            list.writeOut(below: 5_000)
            #expect(!list.spills && list.count == 5_000)
            #expect((0..<5_000).allSatisfy { list[$0] == UInt64($0) })
        }
    }
}
