import LiveReaders

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What the lint cache compares to decide that a file is unchanged since its record was written:
/// device, inode, size, and the modification and status-change times in nanoseconds. It is the
/// walk's own ``LibraryWalker/FileStat``: a scan with the cache takes the stamp from the walk,
/// before the file is read, as a stamp must be.
///
/// The status-change time (ctime) is what catches an edit whose modification time was put back
/// (`touch -r`, `cp -p`, a tool restoring dates): any write or `utimensat` sets it to now, and no
/// ordinary call sets it back. A file replaced by another (a rename over it, a copy) has a new inode.
typealias FileStamp = LibraryWalker.FileStat

extension FileStamp {
    /// The stamp of the file at `path` (links followed, as the walker follows them); nil when it
    /// cannot be stat'ed or is not a regular file.
    init?(path: String) {
        var st = stat()
        guard stat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { return nil }
        self.init(st)
    }
}
