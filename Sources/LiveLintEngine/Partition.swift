import LiveModel

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
    /// groups allow.
    init(_ files: [FileSummary], target: Int) {
        let n = files.count
        // One list, 4 bytes a file, used three ways: each file's parent in the groups as they are
        // tied; then each file's group (its first file: every union keeps the smaller index as
        // the root, so a root comes before its group), a root holding its group's size, negated;
        // then each file's bucket.
        var p = [Int32](unsafeUninitializedCapacity: n) { buffer, count in
            for i in 0..<n { buffer[i] = Int32(i) }
            count = n
        }
        p.withUnsafeMutableBufferPointer { p in
            files.withUnsafeBufferPointer { f in Self.tie(f, parent: p) }
        }
        self.init(tied: p, target: target)
    }

    /// The buckets of files whose groups `parent` holds (each file's parent, every parent before
    /// its file, as the unions below keep them), filled in order up to `target` files; `parent`
    /// becomes the bucket list.
    init(tied parent: consuming [Int32], target: Int) {
        var p = parent
        let n = p.count
        var buckets = 0
        p.withUnsafeMutableBufferPointer { p in
            for i in 0..<n {
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
                if p[i] < 0 {
                    let size = -Int(p[i])
                    if filled > 0, filled + size > target {
                        buckets += 1
                        filled = 0
                    }
                    filled += size
                    p[i] = Int32(buckets)
                } else {
                    p[i] = p[Int(p[i])]
                }
            }
        }
        self.bucketOf = p
        self.count = n == 0 ? 0 : buckets + 1
    }

    /// Ties the files that share a folder or an identifier (ignoring case) in `parent`.
    private static func tie(_ f: UnsafeBufferPointer<FileSummary>, parent p: UnsafeMutableBufferPointer<Int32>) {
        func root(_ x: Int32) -> Int32 {
            var x = x
            while p[Int(x)] != x {
                p[Int(x)] = p[Int(p[Int(x)])]
                x = p[Int(x)]
            }
            return x
        }
        func union(_ a: Int32, _ b: Int32) {
            let ra = root(a), rb = root(b)
            if ra < rb { p[Int(rb)] = ra } else if rb < ra { p[Int(ra)] = rb }
        }
        // Folders, as `Pairing.split` cuts them (``FileSummary/splitFolderKey``). A run of files
        // held in one folder object is tied without its text looked up.
        var folders: [String: Int32] = [:]
        func tie(_ i: Int32, folder key: String) {
            if let first = folders[key] { union(i, first) } else { folders[key] = i }
        }
        var previousHeld = false
        for i in f.indices {
            let file = f[i]
            let held = file.splitsAsHeld
            if held, previousHeld, PathFolder.sameText(file.folder, f[i - 1].folder) {
                union(Int32(i), Int32(i - 1))
            } else {
                tie(Int32(i), folder: held ? FileSummary.splitFolderKey(held: file.folder) : file.splitFolderKey)
            }
            previousHeld = held
            for member in file.members ?? [] { tie(Int32(i), folder: member.splitFolderKey) }
        }
        folders = [:]

        // Identifiers, as they are and ignoring case: a UUID of either case by its bits
        // (upper-casing keeps them); other text both as it is (texts `==` to one another can
        // upper-case to different scalars) and upper-cased, as `ScanContext.folded` compares it
        // (as a UUID's bits when that is what it upper-cases to).
        var uuids: [Int32] = []
        var foldedUUIDs: [(high: UInt64, low: UInt64, file: Int32)] = []
        var texts: [String: Int32] = [:]
        func tie(_ i: Int32, text: String) {
            if let first = texts[text] { union(i, first) } else { texts[text] = i }
        }
        func tie(_ i: Int32, identifier key: IdentifierKey) {
            guard key.form == .text, let text = key.text else { return }
            tie(i, text: text)
            let folded = ScanContext.folded(text)
            if let (_, high, low) = IdentifierKey.parse(folded) {
                foldedUUIDs.append((high, low, i))
            } else {
                tie(i, text: folded)
            }
        }
        for i in f.indices {
            let file = f[i]
            let bits = file.identifierBits
            switch bits.form {
            case .upperUUID, .lowerUUID: uuids.append(Int32(i))
            case .text: tie(Int32(i), identifier: file.identifierKey)
            case .none: break
            }
            for member in file.members ?? [] {
                let key = member.identifierKey
                if key.form == .upperUUID || key.form == .lowerUUID {
                    foldedUUIDs.append((key.high, key.low, Int32(i)))
                } else {
                    tie(Int32(i), identifier: key)
                }
            }
        }
        texts = [:]
        func bits(_ i: Int32) -> (UInt64, UInt64) { (f[Int(i)].identifierBits.high, f[Int(i)].identifierBits.low) }
        uuids.sort { bits($0) < bits($1) }
        for k in uuids.indices.dropFirst() where bits(uuids[k]) == bits(uuids[k - 1]) { union(uuids[k], uuids[k - 1]) }
        foldedUUIDs.sort { ($0.high, $0.low) < ($1.high, $1.low) }
        // Both lists sorted by the bits: walked side by side, each entry tied to the one before
        // it with the same bits and to a file holding them as its own identifier.
        var j = 0
        for (k, entry) in foldedUUIDs.enumerated() {
            if k > 0, (foldedUUIDs[k - 1].high, foldedUUIDs[k - 1].low) == (entry.high, entry.low) {
                union(entry.file, foldedUUIDs[k - 1].file)
            }
            while j < uuids.count, bits(uuids[j]) < (entry.high, entry.low) { j += 1 }
            if j < uuids.count, bits(uuids[j]) == (entry.high, entry.low) { union(entry.file, uuids[j]) }
        }
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
/// (docs/flat-memory.md, step 2). It keeps 4 bytes a file for the groups, 8 for each UUID met (a
/// 32-bit hash of its bits beside the file's index), and one entry a folder and a text
/// identifier. Two UUIDs whose bits hash alike tie their groups though nothing else does: a
/// bucket then holds more files than it must, never fewer, and the result is the same.
public struct PartitionBuilder: Sendable {
    private var parent: [Int32] = []
    private var folders: [String: Int32] = [:]
    private var texts: [String: Int32] = [:]
    private var uuids: [UInt64] = []
    private var previousHeld = false
    private var previousFolder: PathFolder?

    public init(capacity: Int = 0) { parent.reserveCapacity(capacity) }

    /// How many files were added.
    public var count: Int { parent.count }

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
        var x = (high &* 0x9E37_79B9_7F4A_7C15) ^ low
        x ^= x >> 29
        x &*= 0xBF58_476D_1CE4_E5B9
        x ^= x >> 32
        uuids.append(UInt64(UInt32(truncatingIfNeeded: x)) << 32 | UInt64(UInt32(bitPattern: i)))
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

    /// Adds the next file (its index is how many came before it).
    public mutating func add(_ file: FileSummary) {
        let i = Int32(parent.count)
        parent.append(i)
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

    /// The buckets of the files added, up to `target` files each where their groups allow.
    consuming func partition(target: Int) -> Partition {
        folders = [:]
        texts = [:]
        previousFolder = nil
        uuids.sort()
        var k = 1
        while k < uuids.count {
            if uuids[k] >> 32 == uuids[k - 1] >> 32 {
                union(Int32(bitPattern: UInt32(truncatingIfNeeded: uuids[k])), Int32(bitPattern: UInt32(truncatingIfNeeded: uuids[k - 1])))
            }
            k += 1
        }
        uuids = []
        return Partition(tied: parent, target: max(1, target))
    }
}
