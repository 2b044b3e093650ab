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
        for index in entries.indices(whereDisplayPathEndsWith: ".json") {
            let (folder, name) = Self.split(entries[index].displayPath)
            folders[folder, default: []].insert(name)
        }
    }

    /// The sidecar of the file at `entry`, read, or nil when none in its folder matches it.
    func sidecar(for entry: LibraryWalker.Entry) -> TakeoutSidecar? {
        guard let (folder, match) = matching(entry) else { return nil }
        let openFolder = Self.split(entry.path).folder
        return TakeoutSidecars.read(path: openFolder.isEmpty ? match : openFolder + "/" + match,
                                    displayPath: folder.isEmpty ? match : folder + "/" + match)
    }

    /// True when a `.json` in the file's folder matches it by name (nothing is read): a file with
    /// no such match never has a sidecar.
    func mayHaveSidecar(_ entry: LibraryWalker.Entry) -> Bool { matching(entry) != nil }

    /// The display folder of the file at `entry` and the name of the `.json` in it that matches
    /// the file, if one does.
    private func matching(_ entry: LibraryWalker.Entry) -> (folder: String, name: String)? {
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
