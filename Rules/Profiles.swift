import LiveLintEngine

/// The built-in profiles (`lint --profile NAME`), one per consumer: the rules whose findings mean
/// the pair will not be Live in that app become errors. Sources as in `docs/consumers.md`.
public let builtinProfiles: [Profile] = [
    Profile(id: "immich",
            summary: "Immich pairs by identifier only, compared exactly, first match wins: a missing, mismatched, re-cased or repeated identifier splits or cross-links the pair.",
            severities: ["identifier-case-mismatch": .error, "duplicate-identifier": .error, "identifier-mismatch": .error,
                         "still-missing-identifier": .error, "movie-missing-identifier": .error],
            sources: ["immich server asset.repository.ts (exact identifier match, LIMIT 1)", "immich#25810", "immich#11947, #24008"]),
    Profile(id: "photoprism",
            summary: "PhotoPrism stacks by base name in one folder, then by a 36-character UUID: a name shared by two captures stacks the wrong files, and a non-canonical identifier cannot stack differently named halves.",
            severities: ["name-identifier-conflict": .error, "identifier-not-uuid": .error, "identifier-mismatch": .error],
            sources: ["photoprism discussion #5136", "photoprism#5799", "photoprism#1885"]),
    Profile(id: "apple-photos",
            summary: "Apple Photos pairs by the identifier in the makernote and the movie's key, in a QuickTime movie.",
            severities: ["identifier-case-mismatch": .error, "movie-not-quicktime": .error, "identifier-mismatch": .error,
                         "still-missing-identifier": .error, "movie-missing-identifier": .error],
            sources: ["LivePhotoRepair ReadMe.md", "RaylenZed/vivo-live-photo-converter README"]),
    Profile(id: "iphone",
            summary: "As Apple Photos, and without a well-formed still-image-time track the pair is Live on the Mac only.",
            severities: ["missing-still-image-time": .error, "still-image-time-out-of-range": .error, "still-image-time-type": .error,
                         "identifier-case-mismatch": .error, "movie-not-quicktime": .error, "video-codec": .error],
            sources: ["RhetTbull/makelive#26", "davidpovarsky/live-photos docs/experiments.md"]),
    Profile(id: "nextcloud-memories",
            summary: "Memories pairs by identifier and takes only QuickTime movies (by content).",
            severities: ["movie-not-quicktime": .error, "identifier-case-mismatch": .error, "identifier-mismatch": .error,
                         "movie-missing-identifier": .error, "still-missing-identifier": .error],
            sources: ["pulsejet/memories (video/quicktime only)"]),
    Profile(id: "synology",
            summary: "Synology Photos pairs by name in one folder: names shared by two captures pair the wrong halves.",
            severities: ["name-identifier-conflict": .error, "extension-mismatch": .error],
            sources: ["letorbi/synoindexwatcher#50"]),
]
