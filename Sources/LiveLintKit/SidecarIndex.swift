import LiveModel
import LiveReaders

/// The Google Takeout sidecars of a scan (issue 12): every `.json` name, by folder, so that each
/// media file can be given the sidecar that describes it (``TakeoutSidecars/match(media:in:)``).
///
/// Built from the walker's listing; empty (and free) for a library with no `.json` files. The
/// sidecar itself is read when its media file is, and never cached: it can change on its own.
struct SidecarIndex: Sendable {
    /// Display folder (`2024/05`, `` for the root) → the `.json` names in it.
    private var folders: [String: Set<String>] = [:]

    var isEmpty: Bool { folders.isEmpty }

    init() {}

    init(_ entries: LibraryWalker.Listing) {
        for index in entries.jsonFiles {
            let (folder, name) = Self.split(entries[index].displayPath)
            folders[folder, default: []].insert(name)
        }
    }

    /// The sidecar of the file at `entry` that ``matching(_:)`` found (nil: none), read.
    func sidecar(for entry: LibraryWalker.Entry, matching match: Match?) -> TakeoutSidecar? {
        guard let (folder, name) = match else { return nil }
        let openFolder = Self.split(entry.path).folder
        return TakeoutSidecars.read(path: openFolder.isEmpty ? name : openFolder + "/" + name,
                                    displayPath: folder.isEmpty ? name : folder + "/" + name)
    }

    /// A sidecar matched by name: the display folder of the file and the `.json`'s name.
    typealias Match = (folder: String, name: String)

    /// The `.json` in the file's folder whose name matches it (nothing is read); nil when none
    /// does: such a file never has a sidecar.
    func matching(_ entry: LibraryWalker.Entry) -> Match? {
        guard !folders.isEmpty else { return nil }
        let (folder, name) = Self.split(entry.displayPath)
        guard let names = folders[folder], let match = TakeoutSidecars.match(media: name, in: names) else { return nil }
        return (folder, match)
    }

    /// (`2024/05`, `IMG_1.JPG`) from `2024/05/IMG_1.JPG`; ("", name) without a slash.
    static func split(_ path: String) -> (folder: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return ("", path) }
        if slash == path.startIndex { return ("/", String(path.dropFirst())) }
        return (String(path[..<slash]), String(path[path.index(after: slash)...]))
    }
}
