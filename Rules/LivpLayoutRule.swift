import LiveLintEngine
import LiveModel

/// A `.livp` laid out in a way Baidu- and Aliyun-style consumers refuse.
public struct LivpLayoutRule: FileRule {
    public init() {}

    public static let description = RuleDescription(
        identifier: "livp-layout",
        name: ".livp layout",
        summary: "A .livp whose ZIP layout Baidu- and Aliyun-style consumers refuse: compressed members, extra fields, the still not first, or a missing or wrong 1000LIVP comment.",
        rationale: """
            Reports, for information, a `.livp` holding one still and one movie whose ZIP layout is not \
            the one Baidu's and Aliyun's clients accept: every member stored (not compressed) with no \
            extra fields, the still first, and an archive comment of 56 upper-case hex digits giving the \
            still's type (`0002` HEIC, `0005` JPEG), data offset and size, the movie's (`0003`), then \
            `313030304C495650`, the hex of `1000LIVP` (a Baidu-made file reads \
            `00050000002F002E84B00003002E850D000F415F313030304C495650`; FroyoRab/livp2jpg_eofs, \
            LetMeFly666's livp notes; photo-apps-and-motion-photos.md, section 2). Such clients seek to \
            the offsets the comment gives instead of reading the ZIP directory. The binary form of the \
            comment some converters write is accepted when its values are right.

            Other consumers read the ZIP directory and do not care; PhotoPrism and Immich do not take \
            `.livp` at all (`lint --consumers`). Unpack and pack again to get the layout: \
            `livelint unpack A.livp --output DIR && livelint pack DIR/… --output B.livp`.
            """,
        defaultSeverity: .info,
        triggeringExamples: [
            RuleExample(.files(.livp(members: [.jpeg("IMG_0001.JPG.jpeg"), .mov("IMG_0001.JPG.mov")],
                                     layout: SampleLivpLayout(comment: .none))),
                        .finding(on: "IMG_0001.livp", saying: "no comment", "1000LIVP")),
            RuleExample(.files(.livp(members: [.mov("IMG_0001.JPG.mov"), .jpeg("IMG_0001.JPG.jpeg")])),
                        .finding(on: "IMG_0001.livp", saying: "not the first member")),
            RuleExample(.files(.livp(members: [.jpeg("IMG_0001.JPG.jpeg"), .mov("IMG_0001.JPG.mov")],
                                     layout: SampleLivpLayout(compressed: true))),
                        .finding(on: "IMG_0001.livp", saying: "compressed (method 8)")),
            RuleExample(.files(.livp(members: [.jpeg("IMG_0001.JPG.jpeg"), .mov("IMG_0001.JPG.mov")],
                                     layout: SampleLivpLayout(comment: .wrongOffsets))),
                        .finding(on: "IMG_0001.livp", saying: "places the movie at offset")),
            RuleExample(.files(.livp(members: [.heic("IMG_0001.HEIC.heic"), .mov("IMG_0001.HEIC.mov")],
                                     layout: SampleLivpLayout(extraFieldBytes: 28, comment: .text("made by hand")))),
                        .finding(on: "IMG_0001.livp", saying: "56 bytes of extra fields", "'made by hand' is not a 1000LIVP comment")),
        ],
        nonTriggeringExamples: [
            RuleExample(.files(.livp(members: [.jpeg("IMG_0001.JPG.jpeg"), .mov("IMG_0001.JPG.mov")])),
                        note: "The layout `livelint pack` writes."),
            RuleExample(.files(.livp(members: [.jpeg("IMG_0001.JPG.jpeg")], layout: SampleLivpLayout(comment: .none))),
                        note: "A .livp missing a half is livp-not-single-pair's."),
            RuleExample(.files(.unreadable("IMG_0001.livp", format: .zip, error: "end of central directory not found")),
                        note: "An archive that cannot be opened is unreadable-file's."),
        ]
    )

    public func check(file: MediaFile) -> [Violation] {
        guard file.kind == .livp, file.error == nil, let layout = file.archiveLayout, let members = file.members else { return [] }
        let prefix = file.path + "!"
        let read = members.map { m in
            (name: m.path.hasPrefix(prefix) ? String(m.path.dropFirst(prefix.count)) : m.path, kind: m.kind, format: m.format)
        }
        let problems = layout.livpProblems(members: read)
        guard !problems.isEmpty else { return [] }
        return [Violation(
            "Baidu- and Aliyun-style consumers refuse this .livp: " + problems.joined(separator: "; "),
            files: [file.path],
            fixHint: "Repack it: `livelint unpack` then `livelint pack` writes stored members, the still first and the 1000LIVP comment.")]
    }
}
