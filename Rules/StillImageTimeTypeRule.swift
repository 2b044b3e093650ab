import LiveLintEngine
import LiveModel

/// The still-image-time key is not a one-byte int8.
public struct StillImageTimeTypeRule: PairRule {
    public init() {}

    public static let description = RuleDescription(
        identifier: "still-image-time-type",
        name: "Still-image-time type",
        summary: "The still-image-time key's data type is not int8 (65) or its sample payload is not one byte.",
        rationale: """
            Flags a still-image-time key whose `dtyp` is not the well-known type 65 (signed int8), \
            or whose sample payload is not exactly one byte. The value itself does not matter: \
            Apple's camera writes -1 and makers write 0 (live-photo-format.md, "The movie"); only \
            the declared type and size are checked.

            Every camera movie in the corpus declares type 65 with a one-byte payload; readers that \
            expect it may skip a key of another type.
            """,
        defaultSeverity: .warning,
        triggeringExamples: [
            RuleExample(.pair(still: .jpeg(), movie: .mov(stillImageTime: .at(1.5, type: 67, size: 4))),
                        .finding(on: "IMG_0001.MOV", saying: "int32 (67)", "4 bytes"),
                        repairs: [.replaceStillImageTime(at: 1.5)],
                        note: "`fix` replaces the track with an int8 one presented at the same time."),
            RuleExample(.pair(still: .jpeg(), movie: .mov(stillImageTime: .at(1.5, type: nil, size: 1))),
                        .finding(on: "IMG_0001.MOV", saying: "no well-known data type"),
                        repairs: [.replaceStillImageTime(at: 1.5)]),
        ],
        nonTriggeringExamples: [
            RuleExample(.pair(still: .jpeg(), movie: .mov(stillImageTime: 1.5)), note: "int8, one byte, value -1 (Apple)."),
            RuleExample(.pair(still: .jpeg(), movie: .mov(stillImageTime: SampleStillTime(presentationTime: 1.5, value: 0))),
                        note: "int8, one byte, value 0 (makers)."),
        ]
    )

    public func check(pair: LivePair) -> [Violation] {
        guard let file = pair.liveMovie, file.error == nil, let sit = file.movie?.stillImageTime else { return [] }
        var problems: [String] = []
        if let type = sit.dataType {
            if type != WellKnownDataType.int8 {
                problems.append("its data type is \(WellKnownDataType.name(type)) (\(type)), not int8 (65)")
            }
        } else {
            problems.append("it has no well-known data type (int8, 65, expected)")
        }
        if let size = sit.payloadSize, size != 1 {
            problems.append("its sample payload is \(size) bytes, not 1")
        }
        guard !problems.isEmpty else { return [] }
        return [Violation(
            "the still-image-time key (track \(sit.trackID)): " + problems.joined(separator: "; "),
            files: [file.path],
            fixHint: "Declare the key with dtyp 65 (int8) and write a one-byte sample (-1 or 0).",
            repair: file.movie.map(Repair.stillImageTime(for:)))]
    }
}
