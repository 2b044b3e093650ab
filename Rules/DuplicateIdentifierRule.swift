import LiveLintEngine
import LiveModel

/// One identifier on several stills, or on several movies.
public struct DuplicateIdentifierRule: ScanRule {
    public init() {}

    public static let description = RuleDescription(
        identifier: "duplicate-identifier",
        name: "Duplicate identifier",
        summary: "One content identifier is carried by more than one still or more than one movie in the scan.",
        rationale: """
            Flags each identifier (compared exactly) that more than one still, or more than one movie, \
            carries anywhere in the scan, `.livp` members included, and lists every file that carries \
            it, stills and movies alike.

            An identifier names one capture. When it is repeated, consumers disagree on which halves \
            belong together: Immich takes the first match and leaves the rest unpaired \
            (live-photo-format.md, "How others pair"). Duplicates come from copies (the same import \
            twice, a `.livp` next to its extracted files) or from tools that stamp one fixed identifier \
            on everything they make.
            """,
        defaultSeverity: .error,
        triggeringExamples: [
            RuleExample(.files(.jpeg("IMG_0001.JPG"), .mov("IMG_0001.MOV"), .jpeg("IMG_0001 copy.JPG")),
                        .finding(on: "IMG_0001.JPG", "IMG_0001.MOV", "IMG_0001 copy.JPG", saying: Sample.uuidA, "2 stills", "1 movie")),
            RuleExample(.pair(still: .jpeg("2021/IMG_0001.JPG"), movie: .mov("2021/IMG_0001.MOV"))
                        + .pair(still: .jpeg("backup/IMG_0001.JPG"), movie: .mov("backup/IMG_0001.MOV")),
                        .finding(on: "2021/IMG_0001.JPG", "2021/IMG_0001.MOV", "backup/IMG_0001.JPG", "backup/IMG_0001.MOV",
                                 saying: "2 stills", "2 movies"),
                        note: "The same import copied twice: every file is listed."),
        ],
        nonTriggeringExamples: [
            RuleExample(.pair(still: .jpeg(), movie: .mov())),
            RuleExample(.pair(still: .jpeg("IMG_0001.JPG", id: Sample.uuidA), movie: .mov("IMG_0001.MOV", id: Sample.uuidA))
                        + .pair(still: .jpeg("IMG_0002.JPG", id: Sample.uuidB), movie: .mov("IMG_0002.MOV", id: Sample.uuidB))),
        ]
    )

    public func check(scan: ScanContext) -> [Violation] {
        var out: [Violation] = []
        for id in scan.repeatedIdentifiers {
            let stills = scan.stills(withIdentifier: id), movies = scan.movies(withIdentifier: id)
            guard stills.count > 1 || movies.count > 1 else { continue }
            out.append(Violation(
                "identifier '\(id)' is carried by \(count(stills.count, "still")) and \(count(movies.count, "movie")): "
                    + (stills + movies).map { "'\($0)'" }.joined(separator: ", "),
                files: stills + movies,
                fixHint: "Remove the duplicate copies; if they are different captures, give each still and its movie an identifier of their own."))
        }
        return out
    }

    private func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }
}
