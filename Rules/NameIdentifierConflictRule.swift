import LiveLintEngine
import LiveModel

/// A still and a movie share a name in one folder but carry different identifiers, while at
/// least one of them is paired by identifier with another file: tools that pair by name tie the
/// wrong halves together.
public struct NameIdentifierConflictRule: ScanRule {
    public init() {}

    public static let description = RuleDescription(
        identifier: "name-identifier-conflict",
        name: "Name and identifier disagree",
        summary: "A still and a movie with the same name in one folder carry different identifiers, and one of them belongs to another file by identifier.",
        rationale: """
            Flags a still and a movie in one folder whose names match the way exports pair them \
            (`IMG_0001.JPG` and `IMG_0001.MOV`, `_HEVC` and `X.JPG.mov` stems included) but whose content \
            identifiers differ, even ignoring case, when at least one of the two is paired by identifier \
            with a different file.

            Apple Photos and Immich pair by identifier and get it right; PhotoPrism, Synology Photos and \
            immich-go pair by name and tie the wrong halves together — a still with another capture's \
            movie (photoprism#5799, simulot/immich-go#498; live-photo-format.md, "How others pair"). It \
            happens when a camera's counter rolls over (`IMG_9999` → `IMG_0001`), when Takeout or a copy \
            renames one half, and when two libraries are merged into one folder. `identifier-mismatch` \
            covers a name-paired still and movie that have no other partner.
            """,
        defaultSeverity: .warning,
        triggeringExamples: [
            RuleExample(.pair(still: .jpeg("IMG_0001.JPG", id: Sample.uuidA), movie: .mov("clip.MOV", id: Sample.uuidA))
                        + .files(.mov("IMG_0001.MOV", id: Sample.uuidB)),
                        .finding(on: "IMG_0001.JPG", "IMG_0001.MOV", saying: Sample.uuidA, Sample.uuidB, "by name"),
                        note: "The still's movie by identifier is clip.MOV; name-based tools take IMG_0001.MOV."),
            RuleExample(.pair(still: .jpeg("a/IMG_0001.JPG", id: Sample.uuidA), movie: .mov("a/IMG_0001.MOV", id: Sample.uuidA))
                        + .pair(still: .heic("a/IMG_0001.HEIC", id: Sample.uuidB), movie: .mov("b/IMG_0001.MOV", id: Sample.uuidB)),
                        .finding(on: "a/IMG_0001.HEIC", "a/IMG_0001.MOV", saying: Sample.uuidB, Sample.uuidA),
                        note: "Two captures named IMG_0001 in one folder (a counter rollover)."),
        ],
        nonTriggeringExamples: [
            RuleExample(.pair(still: .jpeg(), movie: .mov())),
            RuleExample(.pair(still: .jpeg("IMG_0001.JPG", id: Sample.uuidA), movie: .mov("IMG_0001.MOV", id: Sample.uuidB)),
                        note: "No other partner: identifier-mismatch reports this one."),
            RuleExample(.pair(still: .jpeg("a/IMG_0001.JPG", id: Sample.uuidA), movie: .mov("a/IMG_0001.MOV", id: Sample.uuidA))
                        + .pair(still: .jpeg("b/IMG_0001.JPG", id: Sample.uuidB), movie: .mov("b/IMG_0001.MOV", id: Sample.uuidB)),
                        note: "Same names in different folders."),
            RuleExample(.pair(still: .jpeg("IMG_0001.JPG", id: Sample.uuidA), movie: .mov("IMG_0001.MOV", id: Sample.uuidA.lowercased())),
                        note: "Differing only in case: identifier-case-mismatch."),
        ]
    )

    public func check(scan: ScanContext) -> [Violation] {
        // Halves paired by identifier, and with whom.
        var partner: [String: String] = [:]
        for pair in scan.pairs where pair.pairedBy == .contentIdentifier || pair.pairedBy == .archive {
            if let s = pair.still?.path, let m = pair.movie?.path { partner[s] = m; partner[m] = s }
        }
        // Stills and movies with an identifier, grouped by folder + export name key.
        var groups: [String: (stills: [MediaFile], movies: [MediaFile])] = [:]
        for file in scan.halves where file.contentIdentifier != nil {
            let (folder, name) = Pairing.split(file.path)
            let key = folder + "\u{0}" + Pairing.nameKey(name)
            if file.kind == .still { groups[key, default: ([], [])].stills.append(file) }
            if file.kind == .movie { groups[key, default: ([], [])].movies.append(file) }
        }
        var out: [Violation] = []
        for key in groups.keys.sorted() {
            guard let group = groups[key] else { continue }
            for still in group.stills {
                for movie in group.movies {
                    guard let sid = still.contentIdentifier, let mid = movie.contentIdentifier,
                          sid.uppercased() != mid.uppercased(),
                          partner[still.path] != nil || partner[movie.path] != nil else { continue }
                    var whose: [String] = []
                    if let p = partner[still.path] { whose.append("the still's movie by identifier is '\(p)'") }
                    if let p = partner[movie.path] { whose.append("the movie's still by identifier is '\(p)'") }
                    out.append(Violation(
                        "'\(still.path)' (\(sid)) and '\(movie.path)' (\(mid)) share a name but not an identifier; "
                            + whose.joined(separator: ", ") + ": tools that pair by name (PhotoPrism, Synology, immich-go) tie the wrong halves",
                        files: [still.path, movie.path],
                        fixHint: "Rename one of the two so that each still shares its name only with its own movie (the one with the same identifier)."))
                }
            }
        }
        return out
    }
}
