#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An array read and written in place through a shared map of an unlinked temporary file
/// (``TemporaryFile``), its pages let go from the resident set every ``releaseEvery`` appends or
/// when asked: for a list of one value a file that is changed anywhere as the scan goes (the
/// partition's union-find), which ``ScratchArray`` (append, then read) cannot hold (issue 13:
/// flat memory). Let go, a page stays in the page cache (written back in time) and faults in
/// again when touched: a scan that touches its list nearly in order keeps a few pages resident.
///
/// The file's blocks are allocated before they are mapped (`posix_fallocate`, Linux only: elsewhere
/// the list is held): a write through the map to a full disk would otherwise raise SIGBUS. (A
/// copy-on-write file system, btrfs or ZFS, may still need room to write a page again, and on a
/// full disk can raise it all the same.) Where no file can be made, allocated or mapped,
/// ``init(capacity:in:prefix:)`` fails and the caller holds its list in memory; where it cannot
/// grow, ``append(_:)`` says so.
///
/// One task at a time.
public final class MappedArray<Element: BitwiseCopyable> {
    /// Appends between two releases of the map's pages (256 KiB of 4-byte values).
    public static var releaseEvery: Int { 1 << 16 }

    @usableFromInline let descriptor: Int32
    @usableFromInline var base: UnsafeMutablePointer<Element>
    @usableFromInline var capacity: Int
    @usableFromInline var storedCount = 0
    @inlinable public var count: Int { storedCount }
    @usableFromInline var sinceRelease = 0

    /// A list with room for `capacity` values (more as it grows) in a temporary file in
    /// `directory`; nil when none can be made, allocated or mapped.
    public init?(capacity: Int, in directory: String, prefix: String) {
        let fd = TemporaryFile.make(in: directory, prefix: prefix)
        guard fd >= 0 else { return nil }
        let room = max(capacity, 1024)
        guard let p = Self.map(fd, room) else {
            close(fd)
            return nil
        }
        descriptor = fd
        base = p
        self.capacity = room
    }

    deinit {
        munmap(base, capacity * MemoryLayout<Element>.stride)
        close(descriptor)
    }

    /// `count` values of `fd` allocated on disk and mapped read-write, shared.
    private static func map(_ fd: Int32, _ count: Int) -> UnsafeMutablePointer<Element>? {
        #if os(Linux)
        let bytes = count * MemoryLayout<Element>.stride
        guard posix_fallocate(fd, 0, off_t(bytes)) == 0 else { return nil }
        let p = mmap(nil, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0)
        guard let p, p != MAP_FAILED else { return nil }
        return p.bindMemory(to: Element.self, capacity: count)
        #else
        // No posix_fallocate (Darwin): the list is held in memory there.
        return nil
        #endif
    }

    /// Appends `value`; false when the list cannot grow (no room on disk), nothing appended.
    @inlinable @discardableResult
    public func append(_ value: Element) -> Bool {
        if storedCount == capacity, !grow() { return false }
        base[storedCount] = value
        storedCount += 1
        sinceRelease += 1
        if sinceRelease >= Self.releaseEvery { release() }
        return true
    }

    @inlinable public subscript(index: Int) -> Element {
        get {
            precondition(index >= 0 && index < storedCount, "index out of range")
            return base[index]
        }
        set {
            precondition(index >= 0 && index < storedCount, "index out of range")
            base[index] = newValue
        }
    }

    /// The values, in place (the pages touched stay resident until the next release).
    @inlinable public func withUnsafeMutableBufferPointer<R>(_ body: (UnsafeMutableBufferPointer<Element>) throws -> R) rethrows -> R {
        try body(UnsafeMutableBufferPointer(start: base, count: count))
    }

    /// Lets the map's pages go from the resident set (they stay in the page cache).
    public func release() {
        sinceRelease = 0
        TemporaryFile.release(UnsafeRawPointer(base), count: capacity * MemoryLayout<Element>.stride)
    }

    /// Doubles the room: the file allocated further and mapped again.
    @usableFromInline func grow() -> Bool {
        let stride = MemoryLayout<Element>.stride
        guard let p = Self.map(descriptor, capacity * 2) else { return false }
        munmap(base, capacity * stride)
        base = p
        capacity *= 2
        return true
    }
}
