#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Values appended one at a time, those that will not change again written to an unlinked
/// temporary file (``TemporaryFile``) when asked (``writeOut(below:)``), and read back by index
/// through a read-only map: an array of one value a file (or a pair) that a library-sized scan
/// does not hold (issue 13: flat memory). The records' slots (`ScanRecords`) and the engine's
/// pairs (`StoredPairs`) are kept this way.
///
/// The map's pages leave the resident set every ``releaseEvery`` reads (a scan reads these
/// nearly in order, so a few pages are resident at once). Where no temporary file can be made or
/// written, the values stay in memory; where the file cannot be mapped, each is read with
/// `pread`, and one that cannot be read at all comes back as `lost`, or, without it, ends the run
/// with an error (``TemporaryFile/failedReadBack(in:)``).
///
/// One task appends and writes out; reads may come from any task (the map is made, remade and
/// let go under a lock), once the values they read are appended.
public final class ScratchArray<Element: BitwiseCopyable>: @unchecked Sendable {
    /// Reads through the map between two releases of its pages.
    public static var releaseEvery: Int { 8192 }

    /// The values from ``written`` on.
    @usableFromInline var tail: [Element] = []
    /// Values before this one are in the file.
    public private(set) var written = 0
    @usableFromInline var descriptor: Int32 = -1
    /// True while values may be written out.
    @usableFromInline var writes: Bool
    @usableFromInline let directory: String
    @usableFromInline let prefix: String
    @usableFromInline var mapping: UnsafeMutableRawPointer?
    @usableFromInline var mapped = 0
    @usableFromInline var mappingFailed: Bool
    @usableFromInline var readsSinceRelease = 0
    /// What a value that cannot be read back reads as (nil: it ends the run).
    @usableFromInline let lost: Element?
    @usableFromInline let lock = NSLock()

    /// Values written out as asked to a temporary file in `directory` (named from `prefix` while
    /// it is made), or held in memory when `directory` is nil. (`maps` false, for the tests: read
    /// back with `pread`, as when the file cannot be mapped.)
    public init(in directory: String?, prefix: String, lost: Element?, maps: Bool = true) {
        writes = directory != nil
        self.directory = directory ?? ""
        self.prefix = prefix
        self.lost = lost
        mappingFailed = !maps
    }

    deinit {
        if let mapping { munmap(mapping, mapped) }
        if descriptor >= 0 { close(descriptor) }
    }

    @inlinable public var count: Int { written + tail.count }

    /// True when values wait in the temporary file (for the tests).
    public var spills: Bool { written > 0 }

    public func reserveCapacity(_ n: Int) {
        // Held whole only when nothing goes to disk.
        if !writes { tail.reserveCapacity(n) }
    }

    @inlinable public func append(_ value: Element) { tail.append(value) }

    @inlinable public subscript(index: Int) -> Element {
        get { index >= written ? tail[index - written] : read(index) }
        set {
            precondition(index >= written, "a value written out is not changed")
            tail[index - written] = newValue
        }
    }

    /// Writes out the values before `stable` (which will not change again) that are not out yet;
    /// when the disk refuses them, keeps them and writes no more.
    public func writeOut(below stable: Int) {
        let n = min(stable - written, tail.count)
        guard writes, n > 0 else { return }
        if descriptor < 0 {
            descriptor = TemporaryFile.make(in: directory, prefix: prefix)
            guard descriptor >= 0 else {
                writes = false
                return
            }
        }
        let stride = MemoryLayout<Element>.stride
        let done = tail.withUnsafeBytes {
            TemporaryFile.write(descriptor, UnsafeRawBufferPointer(rebasing: $0[0..<(n * stride)]), at: Int64(written) * Int64(stride))
        }
        guard done else {
            writes = false
            return
        }
        tail.removeFirst(n)
        written += n
    }

    /// Writes out every value: none will change again.
    public func writeOutAll() { writeOut(below: count) }

    /// Value `index` of the file.
    @inlinable func read(_ index: Int) -> Element {
        lock.lock()
        defer { lock.unlock() }
        let stride = MemoryLayout<Element>.stride
        let offset = index * stride
        if !mappingFailed, mapped < offset + stride {
            // Mapped at the first read, again if values were written out since.
            if let mapping { munmap(mapping, mapped) }
            mapping = TemporaryFile.map(descriptor, count: written * stride)
            mapped = mapping == nil ? 0 : written * stride
            mappingFailed = mapping == nil
        }
        if let mapping, offset + stride <= mapped {
            let value = mapping.loadUnaligned(fromByteOffset: offset, as: Element.self)
            readsSinceRelease += 1
            if readsSinceRelease >= Self.releaseEvery {
                TemporaryFile.release(mapping, count: mapped)
                readsSinceRelease = 0
            }
            return value
        }
        return withUnsafeTemporaryAllocation(of: Element.self, capacity: 1) { value in
            if TemporaryFile.read(descriptor, into: UnsafeMutableRawBufferPointer(value), at: Int64(offset)) {
                return UnsafeRawPointer(value.baseAddress!).loadUnaligned(as: Element.self)
            }
            guard let lost else { TemporaryFile.failedReadBack(in: directory) }
            return lost
        }
    }
}
