#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import LiveReaders

/// 64-bit values appended one a file, those that will not change again written to an unlinked
/// temporary file (``TemporaryFile``) when asked, and read back through a read-only map: the slots of ``ScanRecords``, 8 bytes a file for as long as the engine runs,
/// on disk for a library-sized scan (issue 13: flat memory).
///
/// The map's pages leave the resident set every ``releaseEvery`` reads (the engine reads the
/// slots nearly in order, a bucket at a time, so a few pages are resident at once). Where no
/// temporary file can be made or written, the values stay in memory; where the file cannot be
/// mapped, each is read with `pread`, and one that cannot be read at all comes back as `lost`.
final class SlotList {
    /// Reads through the map between two releases of its pages.
    static let releaseEvery = 8192

    /// The values from ``written`` on.
    private var tail: [UInt64] = []
    /// Values before this one are in the file.
    private(set) var written = 0
    private var descriptor: Int32 = -1
    /// True while values may be written out.
    private var writes: Bool
    private let directory: String
    private var mapping: UnsafeMutableRawPointer?
    private var mapped = 0
    private var mappingFailed: Bool
    private var readsSinceRelease = 0
    /// What a value that cannot be read back reads as.
    private let lost: UInt64

    /// Values held in memory, or, with `onDisk`, written out as asked to a temporary file in
    /// `directory`. (`maps` false, for the tests: read back with `pread`, as when the file cannot
    /// be mapped.)
    init(onDisk: Bool, in directory: String, lost: UInt64, maps: Bool = true) {
        writes = onDisk
        self.directory = directory
        self.lost = lost
        mappingFailed = !maps
    }

    deinit {
        if let mapping { munmap(mapping, mapped) }
        if descriptor >= 0 { close(descriptor) }
    }

    var count: Int { written + tail.count }

    /// True when values wait in the temporary file (for the tests).
    var spills: Bool { written > 0 }

    func reserveCapacity(_ n: Int) {
        // Held whole only when nothing goes to disk.
        if !writes { tail.reserveCapacity(n) }
    }

    func append(_ value: UInt64) { tail.append(value) }

    subscript(index: Int) -> UInt64 {
        get { index >= written ? tail[index - written] : read(index) }
        set {
            precondition(index >= written, "a value written out is not changed")
            tail[index - written] = newValue
        }
    }

    /// Writes out the values before `stable` (which will not change again) that are not out yet;
    /// when the disk refuses them, keeps them and writes no more.
    func writeOut(below stable: Int) {
        let n = min(stable - written, tail.count)
        guard writes, n > 0 else { return }
        if descriptor < 0 {
            descriptor = TemporaryFile.make(in: directory, prefix: "livelint-slots")
            guard descriptor >= 0 else {
                writes = false
                return
            }
        }
        guard tail.withUnsafeBytes({ TemporaryFile.write(descriptor, UnsafeRawBufferPointer(rebasing: $0[0..<(n * 8)]), at: Int64(written) * 8) }) else {
            writes = false
            return
        }
        tail.removeFirst(n)
        written += n
    }

    /// Value `index` of the file.
    private func read(_ index: Int) -> UInt64 {
        let offset = index * 8
        if !mappingFailed, mapped < offset + 8 {
            // Mapped at the first read, again if values were written out since.
            if let mapping { munmap(mapping, mapped) }
            mapping = TemporaryFile.map(descriptor, count: written * 8)
            mapped = mapping == nil ? 0 : written * 8
            mappingFailed = mapping == nil
        }
        if let mapping, offset + 8 <= mapped {
            let value = mapping.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            readsSinceRelease += 1
            if readsSinceRelease >= Self.releaseEvery {
                TemporaryFile.release(mapping, count: mapped)
                readsSinceRelease = 0
            }
            return value
        }
        var value: UInt64 = 0
        let got = withUnsafeMutableBytes(of: &value) { pread(descriptor, $0.baseAddress!, 8, off_t(offset)) }
        return got == 8 ? value : lost
    }
}
