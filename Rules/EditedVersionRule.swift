import LiveLintEngine
import LiveModel

/// An edited version beside its original: `IMG_E1234` next to `IMG_1234`, or a Photos-library
/// edit name (`<UUID>_1_201_a`, `<UUID>_2_100_a`).
public struct EditedVersionRule: ScanRule {
    public init() {}

    public static let description = RuleDescription(
        identifier: "edited-version",
        name: "Edited version",
        summary: "An edited copy (IMG_E1234, _1_201_a, _2_100_a) sits beside its original; each is a pair of its own.",
        rationale: """
            Reports, for information, each still or movie whose name marks it as an edit: an iCloud or \
            iPhone export's `IMG_E1234.*` when `IMG_1234.*` is in the same folder, and a Photos library's \
            `<name>_1_201_a.*` / `<name>_2_100_a.*` derivative names.

            Edits come as separate files: `IMG_E1234.JPG` + `IMG_E1234.MOV` with their own sidecar `.AAE` \
            (immich#17218). No consumer here links an edit to its original: Immich, PhotoPrism, Nextcloud \
            and Synology show both as separate items (two Live Photos when both halves of each are there), \
            and Apple Photos imports both as separate assets; name-based apps stack `IMG_E1234` apart from \
            `IMG_1234` because the names differ. Keep the original, the edit, or both knowingly \
            (live-photo-format.md, "How others pair").
            """,
        defaultSeverity: .info,
        triggeringExamples: [
            RuleExample(.pair(still: .jpeg("IMG_0011.JPG", id: Sample.uuidA), movie: .mov("IMG_0011.MOV", id: Sample.uuidA))
                        + .pair(still: .jpeg("IMG_E0011.JPG", id: Sample.uuidB), movie: .mov("IMG_E0011.MOV", id: Sample.uuidB)),
                        .finding(on: "IMG_E0011.JPG", "IMG_E0011.MOV", "IMG_0011.JPG", "IMG_0011.MOV", saying: "edit", "IMG_0011")),
            RuleExample(.files(.heic("\(Sample.uuidC)_1_201_a.heic", id: Sample.uuidC)),
                        .finding(on: "\(Sample.uuidC)_1_201_a.heic", saying: "_1_201_a")),
        ],
        nonTriggeringExamples: [
            RuleExample(.pair(still: .jpeg(), movie: .mov())),
            RuleExample(.pair(still: .jpeg("IMG_E0011.JPG"), movie: .mov("IMG_E0011.MOV")),
                        note: "An edit without its original in the folder is just a pair."),
        ]
    )

    /// `IMG_E1234` → `IMG_1234` (the export names an edit by an `E` after `IMG_`).
    static func original(ofEdit stem: String) -> String? {
        guard stem.hasPrefix("IMG_E"), stem.count > 5 else { return nil }
        let rest = stem.dropFirst(5)
        guard rest.first?.isNumber == true else { return nil }
        return "IMG_" + rest
    }

    static let derivativeSuffixes = ["_1_201_a", "_2_100_a", "_1_105_c", "_2_0_a"]

    /// A stem in one folder.
    private struct FolderStem: Hashable, Comparable {
        var folder: String
        var stem: String
        static func < (a: FolderStem, b: FolderStem) -> Bool { (a.folder, a.stem) < (b.folder, b.stem) }
    }

    public func check(scan: ScanContext) -> [Violation] {
        // Files by folder + stem, kept only for the stems that name an edit or a derivative and for
        // the originals those edits name: one finding per edited stem, naming its files and the
        // original's (issue 13: no dictionary of every file at a large scan's peak).
        var candidates: [FolderStem: [String]] = [:]
        var originalKeys: Set<FolderStem> = []
        // Each half's stem read from its name as `Pairing.split` gives it (``FileSummary/splitStem``:
        // as held for an ASCII path, no path or whole name built); a path is built and split only for a half
        // the rule keeps (issue 13: building every path was 0.6 points of a cached run's profile on
        // 50,000 pairs).
        func forEveryHalf(_ body: (_ file: FileSummary, _ stem: String) -> Void) {
            for index in scan.pairs.indices {
                scan.pairs.withHalf(index, stills: true) { body($0, $0.splitStem) }
                scan.pairs.withHalf(index, stills: false) { body($0, $0.splitStem) }
            }
        }
        func place(_ file: FileSummary, _ stem: String) -> (path: String, key: FolderStem) {
            let path = file.path
            return (path, FolderStem(folder: Pairing.split(path).folder, stem: stem))
        }
        forEveryHalf { file, stem in
            let original = Self.original(ofEdit: stem)
            guard original != nil || Self.derivativeSuffixes.contains(where: { stem.hasSuffix($0) }) else { return }
            let (path, key) = place(file, stem)
            candidates[key, default: []].append(path)
            if let original { originalKeys.insert(FolderStem(folder: key.folder, stem: original)) }
        }
        var originalFiles: [FolderStem: [String]] = [:]
        if !originalKeys.isEmpty {
            let originalStems = Set(originalKeys.map(\.stem))
            forEveryHalf { file, stem in
                guard originalStems.contains(stem) else { return }
                let (path, key) = place(file, stem)
                if originalKeys.contains(key) { originalFiles[key, default: []].append(path) }
            }
        }
        var out: [Violation] = []
        for key in candidates.keys.sorted() {
            let files = candidates[key, default: []].sorted()
            let stem = key.stem
            if let original = Self.original(ofEdit: stem), let originals = originalFiles[FolderStem(folder: key.folder, stem: original)] {
                out.append(Violation(
                    "\(stem) (\(files.joined(separator: ", "))) is an edit of \(original) (\(originals.sorted().joined(separator: ", "))): every app shows the edit and the original as separate items",
                    files: files + originals.sorted(),
                    fixHint: "Keep both knowingly, or remove the edit (with its movie and .AAE) or the original."))
            } else if let suffix = Self.derivativeSuffixes.first(where: { stem.hasSuffix($0) }) {
                out.append(Violation(
                    "\(files.joined(separator: ", ")) has a Photos-library derivative name (\(suffix)): an edit or render, shown as an item of its own",
                    files: files,
                    fixHint: "Export originals, or keep the derivative knowingly."))
            }
        }
        return out
    }
}
