#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// A value a temporary file holds as bytes of its own length (a finding: its message, its
/// files), written by ``encode(into:)`` and read back by ``init(decoding:)``.
public protocol ScratchRecord {
    /// Appends the value's bytes to `bytes`.
    func encode(into bytes: inout [UInt8])
    /// The value `bytes` hold, as ``encode(into:)`` wrote them; nil when they hold none.
    init?(decoding bytes: UnsafeRawBufferPointer)
}

/// ``RecordFile/cachedChunks``: a chunk for each core, at least 8 (counted once): enough for
/// readers on as many threads as there are cores (the JSON report caps its threads there).
@usableFromInline let recordFileCachedChunks = max(8, ProcessInfo.processInfo.activeProcessorCount)

/// Records appended one after another to an unlinked temporary file (``TemporaryFile``), each
/// behind its length (4 bytes), and read back by index: a list of values of any length that a
/// library-sized scan does not hold (issue 13: flat memory; the report's findings are kept this
/// way, ``SortedRecords``).
///
/// What stays in memory is the write buffer (64 KiB), where every ``chunk``th record starts (8
/// bytes for 64 records) and the last few chunks read, decoded (``cachedChunks``): a read of
/// record `i` decodes its chunk whole, so a reader going through the list in order reads the file
/// a chunk at a time, and so does each of several readers on threads of their own.
///
/// Where no temporary file can be made, the records stay in memory; where the disk refuses a
/// write, the records from there on stay in the write buffer (memory pays, never the list). A
/// chunk that cannot be read back or decoded (the disk failed under the run) ends the run with an
/// error (``TemporaryFile/failedReadBack(in:)``).
///
/// A class: copies share their records. One task appends; reads may come from any task, also
/// while it appends (under a lock), once the records they read are appended.
public final class RecordFile<Element: ScratchRecord>: @unchecked Sendable {
    /// Records a chunk holds: what one read decodes.
    public let chunk: Int
    /// Bytes the write buffer holds before it is written out.
    @inlinable static var bufferSize: Int { 1 << 16 }

    /// The records, when there is no file.
    @usableFromInline var held: [Element] = []
    @usableFromInline var descriptor: Int32 = -1
    /// Bytes not yet written out (all of them from `written` on, once a write failed).
    @usableFromInline var pending: [UInt8] = []
    /// Bytes in the file: `pending` starts there.
    @usableFromInline var written: Int64 = 0
    @usableFromInline var writes: Bool
    /// Bytes the file may hold before a write fails as on a full disk (for the tests).
    @usableFromInline var writeLimit: Int64 = .max
    /// Where each chunk's first record starts.
    @usableFromInline var starts: [Int64] = []
    @inlinable public var count: Int { lock.withLock { appended } }
    @usableFromInline var appended = 0
    @usableFromInline let directory: String
    /// The chunks read last, the oldest replaced first: one for each reader at its own place (the
    /// JSON report's threads, as many as the cores), which would otherwise take turns decoding
    /// each other's.
    @usableFromInline var cached: [(chunk: Int, values: [Element])] = []
    @usableFromInline var oldestCached = 0
    /// A chunk for each core, at least 8 (a few KiB each).
    @usableFromInline static var cachedChunks: Int { recordFileCachedChunks }
    @usableFromInline let lock = NSLock()

    /// Records written to a temporary file in `directory` (named from `prefix` while it is made),
    /// or held in memory when `directory` is nil or no file can be made there; read back `chunk`
    /// at a time.
    @inlinable public init(in directory: String?, prefix: String, chunk: Int = 64) {
        self.directory = directory ?? ""
        self.chunk = max(1, chunk)
        if let directory {
            descriptor = TemporaryFile.make(in: directory, prefix: prefix)
        }
        writes = descriptor >= 0
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// True when the records are in a temporary file (for the tests).
    @inlinable public var spills: Bool { descriptor >= 0 }

    @inlinable public func append(_ value: Element) {
        lock.lock()
        defer { lock.unlock() }
        guard descriptor >= 0 else {
            held.append(value)
            appended += 1
            return
        }
        appendRecord { value.encode(into: &$0) }
    }

    /// Appends a record given as the bytes its ``ScratchRecord/encode(into:)`` wrote (moved from
    /// one list to another without being decoded and encoded again).
    @inlinable public func append(encoded bytes: some Collection<UInt8>) {
        lock.lock()
        defer { lock.unlock() }
        guard descriptor >= 0 else {
            // Held: decoded here, as a chunk read back is. Bytes that do not decode came damaged
            // from the list they were read from (a temporary file of the run): the run ends.
            guard let value = Array(bytes).withUnsafeBytes({ Element(decoding: $0) }) else {
                errno = EIO
                TemporaryFile.failedReadBack(in: directory.isEmpty ? "the run's temporary folder" : directory)
            }
            held.append(value)
            appended += 1
            return
        }
        appendRecord { $0.append(contentsOf: bytes) }
    }

    /// Puts the record `write` appends to the buffer behind its length, noting where a chunk
    /// starts; under the lock, with a file.
    @inlinable func appendRecord(_ write: (inout [UInt8]) -> Void) {
        // The chunk being appended to grows: read it again when asked.
        if let grown = cached.firstIndex(where: { $0.chunk == appended / chunk }) {
            cached.remove(at: grown)
            oldestCached = 0
        }
        let at = pending.count
        if appended % chunk == 0 { starts.append(written + Int64(at)) }
        for _ in 0..<4 { pending.append(0) }
        write(&pending)
        let length = UInt32(pending.count - at - 4)
        withUnsafeBytes(of: length.littleEndian) { pending.replaceSubrange(at..<(at + 4), with: $0) }
        appended += 1
        if writes, pending.count >= Self.bufferSize { flush() }
    }

    /// Writes the buffer out; on failure keeps it, and all that comes after, in memory.
    @inlinable func flush() {
        guard writes, !pending.isEmpty else { return }
        guard written + Int64(pending.count) <= writeLimit,
              pending.withUnsafeBytes({ TemporaryFile.write(descriptor, $0, at: written) }) else {
            writes = false
            return
        }
        written += Int64(pending.count)
        pending.removeAll(keepingCapacity: true)
    }

    @inlinable public subscript(index: Int) -> Element {
        lock.lock()
        defer { lock.unlock() }
        precondition(index >= 0 && index < appended, "a record of the list")
        guard descriptor >= 0 else { return held[index] }
        let k = index / chunk
        if let c = cached.firstIndex(where: { $0.chunk == k }) { return cached[c].values[index - k * chunk] }
        let values = decode(chunk: k)
        if cached.count < Self.cachedChunks {
            cached.append((k, values))
        } else {
            cached[oldestCached] = (k, values)
            oldestCached = (oldestCached + 1) % Self.cachedChunks
        }
        return values[index - k * chunk]
    }

    /// Calls `body` with every record, in order (the list's, one chunk decoded at a time).
    @inlinable public func forEach(_ body: (Element) -> Void) {
        var index = 0
        while index < count {
            let values = records(inChunk: index / chunk)
            values.forEach(body)
            index += values.count
        }
    }

    /// The records of chunk `k` (from record `k * chunk` on), read from the file and the write
    /// buffer; for a reader that keeps its own place (a merge's cursor).
    @inlinable public func records(inChunk k: Int) -> [Element] {
        lock.withLock {
            descriptor >= 0 ? decode(chunk: k) : Array(held[(k * chunk)..<min(appended, (k + 1) * chunk)])
        }
    }

    /// The records of chunk `k`, read from the file and the write buffer.
    @inlinable func decode(chunk k: Int) -> [Element] {
        let start = starts[k]
        let end = k + 1 < starts.count ? starts[k + 1] : written + Int64(pending.count)
        var bytes = [UInt8](repeating: 0, count: Int(end - start))
        // The part in the file, then the part still in the buffer.
        let inFile = Int(max(0, min(end, written) - start))
        if inFile > 0 {
            let read = bytes.withUnsafeMutableBytes {
                TemporaryFile.read(descriptor, into: UnsafeMutableRawBufferPointer(rebasing: $0[..<inFile]), at: start)
            }
            if !read { TemporaryFile.failedReadBack(in: directory) }
        }
        if inFile < bytes.count {
            let from = Int(max(start, written) - written)
            bytes.replaceSubrange(inFile..., with: pending[from..<(from + bytes.count - inFile)])
        }
        var values: [Element] = []
        values.reserveCapacity(min(chunk, appended - k * chunk))
        bytes.withUnsafeBytes { raw in
            var at = 0
            while at < raw.count {
                guard at + 4 <= raw.count else { lost() }
                let length = Int(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: at, as: UInt32.self)))
                guard length <= raw.count - at - 4,
                      let value = Element(decoding: UnsafeRawBufferPointer(rebasing: raw[(at + 4)..<(at + 4 + length)]))
                else { lost() }
                values.append(value)
                at += 4 + length
            }
        }
        return values
    }

    /// Ends the run: a chunk read back does not hold the records written (the disk failed under it).
    @inlinable func lost() -> Never {
        errno = EIO
        TemporaryFile.failedReadBack(in: directory)
    }
}
