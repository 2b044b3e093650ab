import LiveLintEngine

/// Every built-in rule, one type per file in this folder. The CLI builds its
/// ``RuleRegistry`` from this list; the engine never imports this module.
public let builtinRules: [any Rule.Type] = [
    StillMissingIdentifierRule.self,
    MovieMissingIdentifierRule.self,
    IdentifierMismatchRule.self,
    IdentifierCaseMismatchRule.self,
    IdentifierNotUUIDRule.self,
    IdentifierOnlyInXMPRule.self,
    DuplicateIdentifierRule.self,
    EditedVersionRule.self,
    NameIdentifierConflictRule.self,
    OrphanStillRule.self,
    OrphanMovieRule.self,
    MissingStillImageTimeRule.self,
    StillImageTimeOutOfRangeRule.self,
    StillImageTimeTypeRule.self,
    VideoCodecRule.self,
    VideoPixelFormatRule.self,
    ExtensionMismatchRule.self,
    MovieNotQuickTimeRule.self,
    UnreadableFileRule.self,
    UnreadableSidecarRule.self,
    CreationDateSkewRule.self,
    MovieDateOnlyInSidecarRule.self,
    GeometryMismatchRule.self,
    LivpNotSinglePairRule.self,
    LivpLayoutRule.self,
    MotionPhotoMissingVideoRule.self,
    MotionPhotoOffsetMismatchRule.self,
    MotionPhotoTimeOutOfRangeRule.self,
]

/// The registry of ``builtinRules`` (sorted by id).
public let builtinRegistry = RuleRegistry(builtinRules)
