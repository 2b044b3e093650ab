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
        guard stat(path, &st) == 0 else { return nil }
        self.init(st)
    }

    /// The stamp of the file `name` in the open folder `folder` (links followed).
    init?(in folder: Int32, name: String) {
        var st = stat()
        guard fstatat(folder, name, &st, 0) == 0 else { return nil }
        self.init(st)
    }

    private init?(_ st: stat) {
        guard (st.st_mode & S_IFMT) == S_IFREG else { return nil }
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

/// Takes stamps folder by folder: a scan asks for its files in path order, so one folder stays
/// open while its files are stat'ed by name (`fstatat`), and the kernel looks up one path
/// component a file instead of every folder above it (issue 13: a tenth of a cached run).
/// Not `Sendable`: the scan's consuming task asks, file after file.
final class FileStamper {
    private var folder: String?
    private var descriptor: Int32 = -1

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// ``FileStamp/init(path:)``, through the open folder of `path` when it can be opened.
    func stamp(_ path: String) -> FileStamp? {
        let utf8 = Array(path.utf8)
        guard let slash = utf8.lastIndex(of: UInt8(ascii: "/")), slash + 1 < utf8.count else { return FileStamp(path: path) }
        let folder = slash == 0 ? "/" : String(decoding: utf8[..<slash], as: UTF8.self)
        let name = String(decoding: utf8[(slash + 1)...], as: UTF8.self)
        if folder != self.folder {
            if descriptor >= 0 { close(descriptor) }
            descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            self.folder = folder
        }
        return descriptor >= 0 ? FileStamp(in: descriptor, name: name) : FileStamp(path: path)
    }
}
