import LiveModel
import ScratchFiles

/// A scan's files cut into buckets that pairing, the scan rules and the consumers' library facts
/// can each work on alone (issue 13: their working lists then cover one bucket at a time, not
/// the library).
///
/// Everything the engine weighs between files is between files that share a folder (as
/// `Pairing.split` cuts the path: pairing by name, `edited-version`, `name-identifier-conflict`,
/// the name-based consumers) or an identifier ignoring case (pairing by identifier, the scan
/// context's searches, `duplicate-identifier`, the orphan rules, the identifier-based consumers).
/// A group here is a set of files tied by those two, transitively (each `.livp` tied to its
/// members' folders and identifiers as well), and a bucket holds whole groups. Pairing a bucket's
/// halves, or running a scan rule on a bucket's pairs, then makes what it makes of them in the
/// whole library; their union is the library's outcome, and sorting it gives the same lists.
///
/// A group is as large as the files it ties: a library in one folder is one group. Buckets fill
/// in walk order, a group at a time, up to the target's files (a larger group is a bucket alone).
struct Partition {
    /// Each file's bucket, by its index among the summaries.
    let bucketOf: [Int32]
    /// How many buckets there are.
    let count: Int

    /// The buckets of `files`, each of whole groups, holding up to `target` files where its
    /// groups allow (tied as ``PartitionBuilder`` ties them).
    init(_ files: [FileSummary], target: Int) {
        var builder = PartitionBuilder(capacity: files.count)
        // Each summary borrowed where it lies (`for file in files` copies each one).
        files.withUnsafeBufferPointer { for i in $0.indices { builder.add($0[i]) } }
        self = builder.partition(target: target)
    }

    init(bucketOf: [Int32], count: Int) {
        self.bucketOf = bucketOf
        self.count = count
    }

    /// Turns `p`, each file's parent in the groups (every parent before its file, as
    /// ``PartitionBuilder``'s unions keep them), into each file's bucket, buckets filled in order up to `target` files;
    /// returns how many there are. `release` is called every 65,536 files of each pass (a list
    /// in a mapped file lets its pages go).
    ///
    /// With `mark` (each file's ``FileKey/mark``), a bucket is also cut before a group by its
    /// first file's mark, once it holds a quarter of `target`: a group of `size` files starts a
    /// bucket with odds of `2 × size / target`. Buckets then hold about three quarters of
    /// `target` and end where they ended before when files are added or removed elsewhere (a
    /// count alone moves every cut after them): what lets a bucket's outcome be kept
    /// (``BucketOutcomes``).
    static func assign(_ p: UnsafeMutableBufferPointer<Int32>, target: Int, mark: ((Int) -> UInt32)? = nil,
                       release: () -> Void = {}) -> Int {
        let n = p.count
        var buckets = 0
        for i in 0..<n {
            if i & 0xFFFF == 0xFFFF { release() }
            let parent = Int(p[i])
            if parent == i {
                p[i] = -1
            } else {
                // The parent came first: it holds its root now, or is the root, holding its
                // size so far.
                let root = p[parent] < 0 ? parent : Int(p[parent])
                p[i] = Int32(root)
                p[root] -= 1
            }
        }
        var filled = 0
        for i in 0..<n {
            if i & 0xFFFF == 0xFFFF { release() }
            if p[i] < 0 {
                let size = -Int(p[i])
                if filled > 0, filled + size > target || mark.map({ filled >= target / 4 && startsBucket($0(i), size: size, target: target) }) == true {
                    buckets += 1
                    filled = 0
                }
                filled += size
                p[i] = Int32(buckets)
            } else {
                p[i] = p[Int(p[i])]
            }
        }
        return n == 0 ? 0 : buckets + 1
    }

    /// True when a group of `size` files whose first file's mark is `mark` starts a bucket:
    /// with odds of `2 × size / target`, as a mark is spread evenly over its 32 bits. (Both
    /// sides stay below 2⁶⁴: the target is taken as at most 2³⁰ files.)
    @inline(__always) static func startsBucket(_ mark: UInt32, size: Int, target: Int) -> Bool {
        let target = min(target, 1 << 30)
        return UInt64(mark) * UInt64(target) < UInt64(min(size, target)) << 33
    }

    /// The indices `0..<count` grouped by bucket, each bucket's in their order, and where each
    /// bucket's run ends; `bucket(i)` gives index `i`'s bucket.
    func group(_ count: Int, bucket: (Int) -> Int) -> (order: [Int32], ends: [Int]) {
        var ends = [Int](repeating: 0, count: self.count)
        for i in 0..<count { ends[bucket(i)] += 1 }
        var starts = [Int](repeating: 0, count: self.count)
        var total = 0
        for b in ends.indices {
            starts[b] = total
            total += ends[b]
            ends[b] = total
        }
        var order = [Int32](repeating: 0, count: count)
        for i in 0..<count {
            let b = bucket(i)
            order[starts[b]] = Int32(i)
            starts[b] += 1
        }
        return (order, ends)
    }
}

/// What ties files (``Partition``), gathered one summary at a time in the scan's order: for
/// summaries kept outside memory (``SummaryStore``), which are never all in memory at once
/// (docs/flat-memory.md, step 2). It keeps 4 bytes a file for the groups, 16 for each UUID met (a
/// 64-bit hash of its bits beside the file's index, ``TiedUUID``; sorted on disk in runs for a
/// library-sized scan, ``SortedRuns``, and merged when the partition is made), and one entry a
/// folder and a text identifier. Two UUIDs whose bits hash alike tie their groups though nothing
/// else does: a bucket then holds more files than it must, never fewer, and the result is the same.
///
/// One owner at a time (the read, then the engine, which consumes it): copies share the mapped
/// list and the UUIDs' runs, so a copy that adds files changes the other's groups.
public struct PartitionBuilder: @unchecked Sendable {
    /// Each file's parent in the union-find: held, or, for a library-sized scan, in a mapped
    /// temporary file whose pages are let go as the read goes (4 bytes a file).
    private var parent: FileColumn<Int32>
    private var folders: [String: Int32] = [:]
    private var texts: [String: Int32] = [:]
    private var uuids: SortedRuns<TiedUUID>
    private var previousHeld = false
    private var previousFolder: PathFolder?

    /// Each file's ``FileKey`` when the builder was made `keyed` (a scan with a cache, whose
    /// buckets' outcomes can be kept: ``BucketOutcomes``); their marks then cut the buckets.
    private(set) var keys: FileColumn<FileKey>?

    /// A builder for about `capacity` files; with `directory`, the UUIDs met wait there in runs
    /// of `runSize` (1 MiB by default), and the groups and keys in mapped files. With `keyed`,
    /// each file's key is kept (``add(_:key:)``).
    public init(capacity: Int = 0, spillingIn directory: String? = nil, runSize: Int? = nil, keyed: Bool = false) {
        parent = FileColumn(capacity: capacity, spillingIn: directory, prefix: "livelint-groups")
        keys = keyed ? FileColumn(capacity: capacity, spillingIn: directory, prefix: "livelint-keys") : nil
        uuids = SortedRuns(spillingIn: directory, prefix: "livelint-ties", runSize: runSize)
        edges = SortedRuns(spillingIn: directory, prefix: "livelint-edges", runSize: runSize)
    }

    /// The UUIDs' ties, as a larger index beside a smaller, when the groups are mapped: applied
    /// in that order, they touch the mapped list nearly in order, not at random.
    private let edges: SortedRuns<UInt64>

    /// How many files were added.
    public var count: Int { parent.count }

    /// True when the groups wait in a mapped file (for the tests).
    var mapsGroups: Bool { parent.mapped != nil }

    private mutating func root(_ x: Int32) -> Int32 {
        var x = x
        while parent[Int(x)] != x {
            parent[Int(x)] = parent[Int(parent[Int(x)])]
            x = parent[Int(x)]
        }
        return x
    }

    private mutating func union(_ a: Int32, _ b: Int32) {
        let ra = root(a), rb = root(b)
        if ra < rb { parent[Int(rb)] = ra } else if rb < ra { parent[Int(ra)] = rb }
    }

    private mutating func tie(_ i: Int32, folder key: String) {
        if let first = folders[key] { union(i, first) } else { folders[key] = i }
    }

    private mutating func tie(_ i: Int32, text: String) {
        if let first = texts[text] { union(i, first) } else { texts[text] = i }
    }

    private mutating func tie(_ i: Int32, uuid high: UInt64, _ low: UInt64) {
        uuids.append(TiedUUID(hash: Mix.spread(Mix.combine(high, low)), index: i))
    }

    /// An identifier as ``Partition`` ties it: a UUID of either case by its bits, text as it is
    /// and upper-cased (``ScanContext/folded(_:)``), as a UUID's bits when that is what it
    /// upper-cases to.
    private mutating func tie(_ i: Int32, identifier key: IdentifierKey) {
        switch key.form {
        case .none: return
        case .upperUUID, .lowerUUID: tie(i, uuid: key.high, key.low)
        case .text:
            guard let text = key.text else { return }
            tie(i, text: text)
            let folded = ScanContext.folded(text)
            if let (_, high, low) = IdentifierKey.parse(folded) { tie(i, uuid: high, low) } else { tie(i, text: folded) }
        }
    }

    /// Adds the next file (its index is how many came before it), with its key when the
    /// builder keeps them (``FileKey/unknown`` when it has none).
    public mutating func add(_ file: FileSummary, key: FileKey = .unknown) {
        let i = Int32(count)
        // Its own group (held once the map cannot grow: what is mapped is copied out).
        parent.append(i)
        keys?.append(key)
        let held = file.splitsAsHeld
        if held, previousHeld, PathFolder.sameText(file.folder, previousFolder) {
            union(i, i - 1)
        } else {
            tie(i, folder: held ? FileSummary.splitFolderKey(held: file.folder) : file.splitFolderKey)
        }
        previousHeld = held
        previousFolder = file.folder
        tie(i, identifier: file.identifierKey)
        for member in file.members ?? [] {
            tie(i, folder: member.splitFolderKey)
            tie(i, identifier: member.identifierKey)
        }
    }

    /// Ties the files that share a UUID: those whose hashes are alike (sorted by hash), each to
    /// the one before it; when the groups are mapped, in the order of their indices (sorted again:
    /// the list is then touched nearly in order, not at random). The buckets are the same in
    /// any order: a union keeps the smaller index as the root.
    private mutating func tieUUIDs() {
        folders = [:]
        texts = [:]
        previousFolder = nil
        var previous: TiedUUID?
        let uuids = self.uuids
        self.uuids = SortedRuns(spillingIn: nil, prefix: "")
        let inOrder = parent.mapped != nil
        uuids.forEachInOrder { tied in
            if let previous, tied.hash == previous.hash {
                if inOrder {
                    let a = UInt64(UInt32(bitPattern: tied.index)), b = UInt64(UInt32(bitPattern: previous.index))
                    edges.append(max(a, b) << 32 | min(a, b))
                } else {
                    union(tied.index, previous.index)
                }
            }
            previous = tied
        }
        guard inOrder else { return }
        var tiedSoFar = 0
        edges.forEachInOrder { edge in
            union(Int32(bitPattern: UInt32(truncatingIfNeeded: edge >> 32)), Int32(bitPattern: UInt32(truncatingIfNeeded: edge)))
            tiedSoFar += 1
            if tiedSoFar & 0xFFFF == 0 { parent.release() }
        }
    }

    /// The buckets of the files added, up to `target` files each where their groups allow.
    consuming func partition(target: Int) -> Partition {
        tieUUIDs()
        // Handed over, not shared: the list becomes the buckets in place (a copy was 4 bytes a
        // file at the engine's start).
        var p = parent.take()
        let count = p.withUnsafeMutableBufferPointer { Partition.assign($0, target: max(1, target), mark: markOf) }
        return Partition(bucketOf: p, count: count)
    }

    /// Each file's mark (``FileKey/mark``) when the builder keeps keys.
    private var markOf: ((Int) -> UInt32)? { keys.map { keys in { keys[$0].mark } } }

    /// Each file's index and bucket, in order, the buckets as ``partition(target:)`` makes them:
    /// worked out in place, in the mapped file when the groups are there (its pages let go as the
    /// passes go), so that no list of the library's size is held.
    consuming func forEachBucket(target: Int, _ body: (Int, Int32) -> Void) {
        guard let mapped = parent.mapped else {
            for (i, bucket) in partition(target: target).bucketOf.enumerated() { body(i, bucket) }
            return
        }
        tieUUIDs()
        mapped.withUnsafeMutableBufferPointer { p in
            _ = Partition.assign(p, target: max(1, target), mark: markOf, release: { mapped.release(); keys?.release() })
            for i in p.indices {
                body(i, p[i])
                if i & 0xFFFF == 0xFFFF { mapped.release() }
            }
        }
    }
}

/// A UUID met by ``PartitionBuilder``: a 64-bit hash of its bits and the file's index, ordered by
/// hash, then index. (A 32-bit hash, 8 bytes a UUID in memory, ties about n² / 2^33 pairs of
/// unrelated UUIDs among n: 116 among the million UUIDs of two million files, whose ties chained
/// folders into a bucket of about 190,000 files where 16,384 were asked for. Sorted on disk, the
/// record's size no longer weighs; with 64 bits, two of a million UUIDs hash alike about once in
/// 37 million runs.)
struct TiedUUID: Comparable, BitwiseCopyable, Sendable {
    var hash: UInt64
    var index: Int32

    static func < (a: TiedUUID, b: TiedUUID) -> Bool { (a.hash, a.index) < (b.hash, b.index) }
}

/// One value a file, in the scan's order: in a mapped temporary file (``MappedArray``) when a
/// directory is given and one can be made, its pages let go when asked, else held; once the map
/// cannot grow, what it holds is copied out and held from then on. Copies share the map.
struct FileColumn<Element: BitwiseCopyable> {
    private var held: [Element] = []
    /// The map, while the values are there.
    private(set) var mapped: MappedArray<Element>?

    /// Room for about `capacity` values, in a file in `directory` named after `prefix`.
    init(capacity: Int, spillingIn directory: String?, prefix: String) {
        if let directory { mapped = MappedArray(capacity: capacity, in: directory, prefix: prefix) }
        if mapped == nil { held.reserveCapacity(capacity) }
    }

    var count: Int { mapped?.count ?? held.count }

    mutating func append(_ value: Element) {
        if let mapped {
            if mapped.append(value) { return }
            held = mapped.withUnsafeMutableBufferPointer { Array($0) }
            self.mapped = nil
        }
        held.append(value)
    }

    subscript(i: Int) -> Element {
        @inline(__always) get { mapped?[i] ?? held[i] }
        @inline(__always) set { if let mapped { mapped[i] = newValue } else { held[i] = newValue } }
    }

    /// Lets the mapped pages go from the resident set.
    func release() { mapped?.release() }

    /// The values as an array, handed over (held ones without a copy); the column is left empty.
    mutating func take() -> [Element] {
        defer { held = [] }
        return mapped?.withUnsafeMutableBufferPointer { Array($0) } ?? held
    }
}
