#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Finds the files to lint under the paths a user gave.
///
/// Folders are walked recursively in sorted order. Symbolic links are followed, but a folder is
/// entered once only and never one that contains a scanned folder (tracked by device and inode),
/// so link loops end and a link back up the tree does not escape it; a file reached twice (a
/// link, a hard link) is listed once, under the first name met. Hidden entries (names starting
/// with `.`) are skipped unless asked for. Nothing is opened for reading here.
public struct LibraryWalker: Sendable {
    public struct Entry: Sendable, Hashable {
        /// Where to open the file.
        public var path: String
        /// How to show it: relative to the scanned root when one folder was given.
        public var displayPath: String
        /// What the walk's `stat` said of the file, when the walk was asked to keep it
        /// (``LibraryWalker/files(in:keepingStats:)``).
        public var stat: FileStat? = nil
    }

    /// What the walk's `stat` of a file said that the lint cache compares: device, inode, size,
    /// and the modification and status-change times in nanoseconds. A scan with the cache keeps
    /// it from the walk instead of asking the kernel a second time (issue 13: each `stat` was a
    /// tenth of a cached run).
    public struct FileStat: Sendable, Hashable {
        public var device: Int64
        public var inode: Int64
        public var size: Int64
        public var modified: Int64
        public var changed: Int64

        /// The fields of `st`.
        public init(_ st: stat) {
            device = Int64(bitPattern: UInt64(st.st_dev))
            inode = Int64(bitPattern: UInt64(st.st_ino))
            size = Int64(st.st_size)
            #if canImport(Darwin)
            modified = Int64(st.st_mtimespec.tv_sec) * 1_000_000_000 + Int64(st.st_mtimespec.tv_nsec)
            changed = Int64(st.st_ctimespec.tv_sec) * 1_000_000_000 + Int64(st.st_ctimespec.tv_nsec)
            #else
            modified = Int64(st.st_mtim.tv_sec) * 1_000_000_000 + Int64(st.st_mtim.tv_nsec)
            changed = Int64(st.st_ctim.tv_sec) * 1_000_000_000 + Int64(st.st_ctim.tv_nsec)
            #endif
        }
    }

    /// The files a walk found, in display-path order (UTF-8 byte order), held compactly: every
    /// display path back to back in one buffer, each file a 16-byte record, and an ``Entry``
    /// (two strings) made only when one is asked for. 100,000 files list in about 4 MB instead
    /// of the ~29 MB two `String`s each took (issue 4: flat memory).
    public struct Listing: RandomAccessCollection, Sendable {
        /// Each given folder's open-path prefix (`Photos/`); a path to open is this prefix plus
        /// the display path with its first `displayPrefix` bytes dropped.
        private var openPrefixes: [String] = []
        private var bytes: [UInt8] = []
        private var records: [Record] = []
        /// Each file's stat in walk order, when the walk keeps them (40 bytes a file, only while
        /// the files are read).
        private var stats: [FileStat] = []

        private struct Record: Sendable {
            var offset: Int
            var length: UInt32
            var root: UInt32
            /// Bytes of the display path that are the root's display prefix (replaced by the
            /// open prefix to make the path to open); `UInt32.max`: the display path is the path.
            var displayPrefix: UInt32
            /// The file's index in `stats`; `UInt32.max`: none kept. (In the record's padding.)
            var stat: UInt32 = .max
        }

        init() {}

        /// Registers a root: `open` is how its files are opened (`Photos/`), `display` how they
        /// are shown (`` for the single scanned folder).
        mutating func addRoot(open: String) -> UInt32 {
            openPrefixes.append(open)
            return UInt32(openPrefixes.count - 1)
        }

        mutating func append(display: String, root: UInt32, displayPrefix: Int?, stat: FileStat? = nil) {
            let offset = bytes.count
            bytes.append(contentsOf: display.utf8)
            var record = Record(offset: offset, length: UInt32(bytes.count - offset), root: root,
                                displayPrefix: displayPrefix.map(UInt32.init) ?? .max)
            if let stat {
                record.stat = UInt32(stats.count)
                stats.append(stat)
            }
            records.append(record)
        }

        /// Sorts by display path, byte by byte.
        mutating func sort() {
            let buffer = bytes
            buffer.withUnsafeBufferPointer { b in
                records.sort { x, y in
                    let n = Int(Swift.min(x.length, y.length))
                    let c = n == 0 ? 0 : memcmp(b.baseAddress! + x.offset, b.baseAddress! + y.offset, n)
                    return c != 0 ? c < 0 : x.length < y.length
                }
            }
        }

        /// The indices of the files whose display path ends with `suffix`, ignoring ASCII case
        /// (`.json`: the Takeout sidecars), found without making a string per file.
        public func indices(whereDisplayPathEndsWith suffix: String) -> [Int] {
            let tail = Array(suffix.lowercased().utf8)
            guard !tail.isEmpty else { return Array(records.indices) }
            return bytes.withUnsafeBufferPointer { b in
                records.indices.filter { i in
                    let r = records[i]
                    guard Int(r.length) >= tail.count else { return false }
                    let start = r.offset + Int(r.length) - tail.count
                    for k in 0..<tail.count {
                        var c = b[start + k]
                        if c >= 0x41, c <= 0x5A { c += 0x20 }
                        if c != tail[k] { return false }
                    }
                    return true
                }
            }
        }

        public var startIndex: Int { 0 }
        public var endIndex: Int { records.count }

        public subscript(position: Int) -> Entry {
            let r = records[position]
            let display = bytes.withUnsafeBufferPointer { b in
                String(decoding: UnsafeBufferPointer(rebasing: b[r.offset..<(r.offset + Int(r.length))]), as: UTF8.self)
            }
            let stat = r.stat == .max ? nil : stats[Int(r.stat)]
            guard r.displayPrefix != .max else { return Entry(path: display, displayPath: display, stat: stat) }
            let tail = bytes.withUnsafeBufferPointer { b in
                String(decoding: UnsafeBufferPointer(rebasing: b[(r.offset + Int(r.displayPrefix))..<(r.offset + Int(r.length))]), as: UTF8.self)
            }
            return Entry(path: openPrefixes[Int(r.root)] + tail, displayPath: display, stat: stat)
        }
    }

    public struct Problem: Sendable, Hashable {
        public var path: String
        public var message: String
    }

    public var includeHidden: Bool
    /// Deepest folder nesting entered (a guard against pathological trees).
    public var maxDepth: Int

    public init(includeHidden: Bool = false, maxDepth: Int = 256) {
        self.includeHidden = includeHidden
        self.maxDepth = maxDepth
    }

    /// The display root: the folder itself when exactly one folder was given, else "."
    public static func root(for paths: [String]) -> String {
        if paths.count == 1, isDirectory(paths[0]) { return paths[0] }
        return "."
    }

    /// Every regular file under `paths`, sorted by display path (byte order); plus the paths that
    /// could not be read. With `keepingStats`, each entry carries its ``FileStat``.
    public func files(in paths: [String], keepingStats: Bool = false) -> (entries: Listing, problems: [Problem]) {
        var entries = Listing()
        var problems: [Problem] = []
        var visited = Set<DirectoryID>()
        var seenFiles = Set<DirectoryID>()
        let singleRoot = paths.count == 1 && Self.isDirectory(paths[0])
        // The folders above every scanned folder: a link to one of them would walk out of the scan.
        for given in paths where Self.isDirectory(given) {
            visited.formUnion(Self.ancestors(of: given))
        }
        for given in paths {
            var st = stat()
            guard stat(given, &st) == 0 else {
                problems.append(Problem(path: given, message: "cannot read: \(Self.errnoText())"))
                continue
            }
            if (st.st_mode & S_IFMT) == S_IFDIR {
                let display = singleRoot ? "" : Self.trimmed(given)
                let root = Root(index: entries.addRoot(open: given.hasSuffix("/") ? given : given + "/"),
                                displayPrefix: display.isEmpty ? 0 : display.utf8.count + 1)
                walk(directory: given, display: display, depth: 0, root: root, keepingStats: keepingStats,
                     visited: &visited, seenFiles: &seenFiles, entries: &entries, problems: &problems)
            } else if (st.st_mode & S_IFMT) == S_IFREG {
                if seenFiles.insert(DirectoryID(st)).inserted {
                    entries.append(display: given, root: 0, displayPrefix: nil, stat: keepingStats ? FileStat(st) : nil)
                }
            } else {
                problems.append(Problem(path: given, message: "not a regular file or folder"))
            }
        }
        entries.sort()
        return (entries, problems)
    }

    /// A given folder: its index in the listing and how many display bytes name it.
    struct Root {
        var index: UInt32
        var displayPrefix: Int
    }

    /// A file or folder's identity: device and inode.
    struct DirectoryID: Hashable {
        var device: UInt64
        var inode: UInt64
        init(_ st: stat) {
            device = UInt64(st.st_dev)
            inode = UInt64(st.st_ino)
        }
    }

    /// Identities of the folders strictly above `path` (resolved through links).
    static func ancestors(of path: String) -> Set<DirectoryID> {
        guard let resolved = realpath(path, nil) else { return [] }
        defer { free(resolved) }
        var components = String(cString: resolved).split(separator: "/").map(String.init)
        var out = Set<DirectoryID>()
        while !components.isEmpty {
            components.removeLast()
            var st = stat()
            if stat("/" + components.joined(separator: "/"), &st) == 0 { out.insert(DirectoryID(st)) }
        }
        return out
    }

    private func walk(directory: String, display: String, depth: Int, root: Root, keepingStats: Bool, visited: inout Set<DirectoryID>,
                      seenFiles: inout Set<DirectoryID>, entries: inout Listing, problems: inout [Problem]) {
        var st = stat()
        guard stat(directory, &st) == 0 else {
            problems.append(Problem(path: display.isEmpty ? directory : display, message: "cannot read: \(Self.errnoText())"))
            return
        }
        guard visited.insert(DirectoryID(st)).inserted else { return }  // a link loop, or the same folder twice
        guard depth <= maxDepth else {
            problems.append(Problem(path: display, message: "folder nesting deeper than \(maxDepth) levels: not entered"))
            return
        }
        guard let dir = opendir(directory) else {
            problems.append(Problem(path: display.isEmpty ? directory : display, message: "cannot list folder: \(Self.errnoText())"))
            return
        }
        var names: [String] = []
        while let ent = readdir(dir) {
            let name = Self.entryName(ent)
            if name == "." || name == ".." { continue }
            if !includeHidden, name.hasPrefix(".") { continue }
            names.append(name)
        }
        // The folder stays open (a descriptor, not the listing's buffer) while its entries are
        // stat'ed relative to it: `fstatat` on a name looks up one component, where `stat` on the
        // full path walks every folder above it again (issue 13: a twelfth of a cached run was
        // the kernel looking paths up). Held down to 64 levels (a descriptor a level, closed on
        // exec); deeper folders use full paths.
        let folder = depth < 64 ? fcntl(dirfd(dir), F_DUPFD_CLOEXEC, 0) : -1
        closedir(dir)
        defer { if folder >= 0 { close(folder) } }
        names.sort()
        let separator = directory.hasSuffix("/") ? "" : "/"
        for name in names {
            // The full path is made only where it is used (a folder to enter, a `stat` by path),
            // not for every file.
            func full() -> String { directory + separator + name }
            let shown = display.isEmpty ? name : display + "/" + name
            var child = stat()
            // A full path too long for the system fails as it always did (a listing problem).
            let relative = folder >= 0 && directory.utf8.count + separator.utf8.count + name.utf8.count < Int(PATH_MAX)
            guard (relative ? fstatat(folder, name, &child, 0) : stat(full(), &child)) == 0 else {
                // A dangling link, or a file removed while we walked.
                problems.append(Problem(path: shown, message: "cannot read: \(Self.errnoText())"))
                continue
            }
            switch child.st_mode & S_IFMT {
            case S_IFDIR:
                walk(directory: full(), display: shown, depth: depth + 1, root: root, keepingStats: keepingStats, visited: &visited,
                     seenFiles: &seenFiles, entries: &entries, problems: &problems)
            case S_IFREG:
                if seenFiles.insert(DirectoryID(child)).inserted {
                    entries.append(display: shown, root: root.index, displayPrefix: root.displayPrefix,
                                   stat: keepingStats ? FileStat(child) : nil)
                }
            default:
                continue  // sockets, FIFOs, devices: never opened
            }
        }
    }

    /// The entry's name, read in place. glibc hands out variable-length records (`d_reclen`), so
    /// the declared 256-byte `d_name` may run past the record: copying `ent.pointee.d_name` reads
    /// beyond it (AddressSanitizer: heap-buffer-overflow). Read up to the NUL through a pointer.
    static func entryName(_ ent: UnsafeMutablePointer<dirent>) -> String {
        let offset = MemoryLayout<dirent>.offset(of: \dirent.d_name) ?? 19
        let name = UnsafeRawPointer(ent).advanced(by: offset).assumingMemoryBound(to: CChar.self)
        return String(cString: name)
    }

    static func isDirectory(_ path: String) -> Bool {
        var st = stat()
        return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR
    }

    static func trimmed(_ path: String) -> String {
        var p = path
        while p.count > 1, p.hasSuffix("/") { p.removeLast() }
        if p.hasPrefix("./"), p.count > 2 { p.removeFirst(2) }
        return p
    }

    static func errnoText() -> String {
        String(cString: strerror(errno))
    }
}
