#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Testing
@testable import ISOBMFF

/// A file's first ``FileByteSource/headLength`` bytes are read once, when it is opened, and reads
/// inside them are served from memory (issue 13: a small file costs one `pread`); reads across
/// and past its end still go to the file, with the same bytes and the same errors.
@Suite struct FileByteSourceTests {
    static func write(_ bytes: [UInt8]) -> String {
        let path = "\(FileManager.default.temporaryDirectory.path)/isobmff-head-\(UInt32.random(in: 0...UInt32.max)).bin"
        let f = fopen(path, "wb")
        _ = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, bytes.count, f) }
        fclose(f)
        return path
    }

    static let head = FileByteSource.headLength

    @Test(arguments: [1, 300, head - 1, head, head + 1, 3 * head + 17])
    func readsAnywhereGiveTheFilesBytes(size: Int) throws {
        var rng = SystemRandomNumberGenerator()
        let bytes = (0..<size).map { _ in UInt8.random(in: 0...255, using: &rng) }
        let path = Self.write(bytes)
        defer { unlink(path) }
        let source = try FileByteSource(path: path)
        #expect(source.head == Array(bytes.prefix(Self.head)))
        // Inside the head, across its end, past it, the whole file, the last byte.
        var ranges = [(0, 1), (0, size), (size - 1, 1), (size / 2, size - size / 2)]
        if size > Self.head { ranges += [(Self.head - 4, min(8, size - Self.head + 4)), (Self.head, size - Self.head), (Self.head - 1, 1)] }
        for (offset, count) in ranges {
            #expect(try source.read(at: Int64(offset), count: count) == Array(bytes[offset..<(offset + count)]), "\(offset)+\(count)")
        }
        #expect(source.readCount == ranges.count)
        #expect(source.bytesRead == Int64(ranges.map(\.1).reduce(0, +)))
        #expect(throws: BoxError.self) { try source.read(at: Int64(size - 1), count: 2) }
        #expect(throws: BoxError.self) { try source.read(at: -1, count: 1) }
    }

    /// What shows the head is where those reads come from: bytes changed after the file was opened
    /// are seen past the head, not inside it.
    @Test func readsInsideTheHeadComeFromMemory() throws {
        let size = Self.head * 2
        let path = Self.write([UInt8](repeating: 1, count: size))
        defer { unlink(path) }
        let source = try FileByteSource(path: path)
        let fd = open(path, O_WRONLY)
        #expect(fd >= 0)
        let twos = [UInt8](repeating: 2, count: size)
        _ = twos.withUnsafeBytes { pwrite(fd, $0.baseAddress, size, 0) }
        close(fd)
        #expect(try source.read(at: 0, count: 4) == [1, 1, 1, 1])
        #expect(try source.read(at: Int64(Self.head), count: 4) == [2, 2, 2, 2])
    }
}
