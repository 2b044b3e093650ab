import LiveReaders

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What the lint cache compares to decide that a file is unchanged since its record was written:
/// device, inode, size, and the modification and status-change times in nanoseconds.
///
/// The status-change time (ctime) is what catches an edit whose modification time was put back
/// (`touch -r`, `cp -p`, a tool restoring dates): any write or `utimensat` sets it to now, and no
/// ordinary call sets it back. A file replaced by another (a rename over it, a copy) has a new inode.
struct FileStamp: Sendable, Hashable {
    var device: Int64
    var inode: Int64
    var size: Int64
    var modified: Int64
    var changed: Int64

    /// The stamp of the file at `path` (links followed, as the walker follows them); nil when it
    /// cannot be stat'ed or is not a regular file.
    init?(path: String) {
        var st = stat()
        guard stat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { return nil }
        self.init(LibraryWalker.FileStat(st))
    }

    /// The stamp in what the walk's `stat` said (taken before the file is read, as a stamp must be).
    init(_ stat: LibraryWalker.FileStat) {
        self.init(device: stat.device, inode: stat.inode, size: stat.size, modified: stat.modified, changed: stat.changed)
    }

    init(device: Int64, inode: Int64, size: Int64, modified: Int64, changed: Int64) {
        self.device = device
        self.inode = inode
        self.size = size
        self.modified = modified
        self.changed = changed
    }
}
