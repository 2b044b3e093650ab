/// One Apple makernote tag as the table knows it.
public struct AppleMakerNoteTagDefinition: Sendable, Hashable {
    public var id: UInt16
    /// exiftool's current name (`lib/Image/ExifTool/Apple.pm` 1.14).
    public var name: String
    /// Other names for the same tag, older exiftool names first (exiftool 12.57 says `MediaGroupUUID`).
    public var aliases: [String]
    /// Apple's internal name where exiftool records one ("ref 2", Frank Rupprecht), else nil.
    public var appleName: String?
    /// Where the name comes from and what is known (or unsettled) about the tag.
    public var note: String

    public init(_ id: UInt16, _ name: String, aliases: [String] = [], appleName: String? = nil, note: String) {
        self.id = id
        self.name = name
        self.aliases = aliases
        self.appleName = appleName
        self.note = note
    }
}

/// The Apple makernote tag table: ids, exiftool's names, and a source note per tag.
///
/// Source: exiftool `lib/Image/ExifTool/Apple.pm` version 1.14 (2024), the `%Apple::Main` table,
/// cross-checked with the Debian exiftool 12.57 copy (Apple.pm 1.0x, which still calls 0x0011
/// `MediaGroupUUID` and 0x0020 `ImageCaptureReqestID`). Tags exiftool only mentions in comments get
/// `Apple_0xNNNN` names (exiftool's own convention for unnamed tags) with Apple's name in `appleName`.
public enum AppleMakerNoteTags {
    public static let all: [AppleMakerNoteTagDefinition] = [
        .init(0x0001, "MakerNoteVersion", appleName: "Version", note: "Apple.pm; int32s; 4 (iOS 10) to 16 (iOS 26) in the corpus"),
        .init(0x0002, "AEMatrix", note: "Apple.pm (ref 2); binary plist holding one 512-byte data object"),
        .init(0x0003, "RunTime", appleName: "Timestamp", note: "Apple.pm; binary plist CMTime (flags, value, timescale, epoch): time since boot"),
        .init(0x0004, "AEStable", note: "Apple.pm (ref 2); int32s 0/1"),
        .init(0x0005, "AETarget", note: "Apple.pm (ref 2); int32s"),
        .init(0x0006, "AEAverage", note: "Apple.pm (ref 2); int32s"),
        .init(0x0007, "AFStable", note: "Apple.pm (ref 2); int32s 0/1"),
        .init(0x0008, "AccelerationVector", appleName: "FocusAccelerometerVector", note: "Apple.pm; rational64s[3], units of g"),
        .init(0x0009, "Apple_0x0009", appleName: "SISMethod", note: "Apple.pm comment; int32s"),
        .init(0x000a, "HDRImageType", appleName: "HDRMethod", note: "Apple.pm; int32s, 3 = HDR Image, 4 = Original Image"),
        .init(0x000b, "BurstUUID", note: "Apple.pm; string, one UUID for all images of a burst (not the Live Photo key)"),
        .init(0x000c, "FocusDistanceRange", appleName: "SphereHealthTrackingError", note: "Apple.pm (forum13710); rational64s[2]"),
        .init(0x000d, "Apple_0x000d", appleName: "SphereHealthAverageCurrent", note: "Apple.pm comment; int32s"),
        .init(0x000e, "Apple_0x000e", appleName: "SphereMotionDataStatus", note: "Apple.pm comment; int32s, possibly orientation"),
        .init(0x000f, "OISMode", note: "Apple.pm (ref 2); int32s"),
        .init(0x0010, "Apple_0x0010", appleName: "SphereStatus", note: "Apple.pm comment; int32s"),
        .init(
            0x0011, "ContentIdentifier", aliases: ["MediaGroupUUID"], appleName: "AssetIdentifier",
            note: "Apple.pm; string UUID, the Live Photo pairing key (equals the movie's com.apple.quicktime.content.identifier). exiftool called it MediaGroupUUID from 12.19 to 12.64"
        ),
        .init(0x0012, "Apple_0x0012", appleName: "QRMOutputType", note: "Apple.pm comment"),
        .init(0x0013, "Apple_0x0013", appleName: "SphereExternalForceOffset", note: "Apple.pm comment"),
        .init(0x0014, "ImageCaptureType", appleName: "StillImageCaptureType", note: "Apple.pm; int32s, 1 ProRAW, 2 Portrait, 10 Photo, 11 Manual Focus, 12 Scene"),
        .init(0x0015, "ImageUniqueID", appleName: "ImageGroupIdentifier", note: "Apple.pm; string"),
        .init(0x0016, "Apple_0x0016", appleName: "PhotosOriginatingSignature", note: "Apple.pm comment; string[29]"),
        .init(
            0x0017, "LivePhotoVideoIndex", appleName: "StillImageCaptureFlags",
            note: "Apple.pm (forum13565). Meaning unsettled: exiftool says 'divide by RunTimeScale', Apple's name says capture flags; it is 0 on some real Live Photo stills, so it is not a Live Photo flag. Dump it, never lint on it"
        ),
        .init(0x0018, "Apple_0x0018", appleName: "PhotosRenderOriginatingSignature", note: "Apple.pm comment"),
        .init(0x0019, "ImageProcessingFlags", appleName: "StillImageProcessingFlags", note: "Apple.pm; int32s bit mask"),
        .init(0x001a, "QualityHint", appleName: "PhotoTranscodeQualityHint", note: "Apple.pm; string such as q825s"),
        .init(0x001b, "Apple_0x001b", appleName: "PhotosRenderEffect", note: "Apple.pm comment"),
        .init(0x001c, "Apple_0x001c", appleName: "BracketedCaptureSequenceNumber", note: "Apple.pm comment; 2 = flash on (PH)"),
        .init(0x001d, "LuminanceNoiseAmplitude", note: "Apple.pm (ref 2); rational64s"),
        .init(0x001e, "Apple_0x001e", appleName: "OriginatingAppID", note: "Apple.pm comment"),
        .init(0x001f, "PhotosAppFeatureFlags", note: "Apple.pm (ref 2); int32s, set if a person or pet is detected"),
        .init(
            0x0020, "ImageCaptureRequestID", aliases: ["ImageCaptureReqestID"], appleName: "ImageCaptureRequestIdentifier",
            note: "Apple.pm; string UUID, not the pairing key (exiftool 12.57 spells it ImageCaptureReqestID)"
        ),
        .init(0x0021, "HDRHeadroom", appleName: "MeteorHeadroom", note: "Apple.pm; rational64s"),
        .init(0x0022, "Apple_0x0022", appleName: "ARKitPhoto", note: "Apple.pm comment"),
        .init(0x0023, "AFPerformance", note: "Apple.pm (ref 2); int32s[2]"),
        .init(0x0024, "Apple_0x0024", appleName: "AFExternalOffset", note: "Apple.pm comment"),
        .init(0x0025, "SceneFlags", appleName: "StillImageSceneFlags", note: "Apple.pm; int32s bit mask"),
        .init(0x0026, "SignalToNoiseRatioType", appleName: "StillImageSNRType", note: "Apple.pm; int32s"),
        .init(0x0027, "SignalToNoiseRatio", appleName: "StillImageSNR", note: "Apple.pm; rational64s"),
        .init(0x0028, "Apple_0x0028", appleName: "UBMethod", note: "Apple.pm comment; int32s"),
        .init(0x0029, "Apple_0x0029", appleName: "SpatialOverCaptureGroupIdentifier", note: "Apple.pm comment; string"),
        .init(0x002a, "Apple_0x002a", appleName: "iCloudServerSoftwareVersionForDynamicallyGeneratedMedia", note: "Apple.pm comment"),
        .init(0x002b, "PhotoIdentifier", note: "Apple.pm (ref 2); string UUID, not the pairing key"),
        .init(0x002c, "Apple_0x002c", appleName: "SpatialOverCaptureImageType", note: "Apple.pm comment"),
        .init(0x002d, "ColorTemperature", appleName: "CCT", note: "Apple.pm (PH); int32s"),
        .init(0x002e, "CameraType", appleName: "ApsMode", note: "Apple.pm (PH); int32s, 0 Back Wide Angle, 1 Back Normal, 6 Front"),
        .init(0x002f, "FocusPosition", note: "Apple.pm (ref 2); int32s"),
        .init(0x0030, "HDRGain", appleName: "MeteorPlusGainMap", note: "Apple.pm; rational64s"),
        .init(0x0031, "Apple_0x0031", appleName: "StillImageProcessingHomography", note: "Apple.pm comment"),
        .init(0x0032, "Apple_0x0032", appleName: "IntelligentDistortionCorrection", note: "Apple.pm comment"),
        .init(0x0033, "Apple_0x0033", appleName: "NRFStatus", note: "Apple.pm comment"),
        .init(0x0034, "Apple_0x0034", appleName: "NRFInputBracketCount", note: "Apple.pm comment"),
        .init(0x0035, "Apple_0x0035", appleName: "NRFRegisteredBracketCount", note: "Apple.pm comment"),
        .init(0x0036, "Apple_0x0036", appleName: "LuxLevel", note: "Apple.pm comment"),
        .init(0x0037, "Apple_0x0037", appleName: "LastFocusingMethod", note: "Apple.pm comment"),
        .init(0x0038, "AFMeasuredDepth", appleName: "TimeOfFlightAssistedAutoFocusEstimatorMeasuredDepth", note: "Apple.pm; int32s"),
        .init(0x0039, "Apple_0x0039", appleName: "TimeOfFlightAssistedAutoFocusEstimatorROIType", note: "Apple.pm comment"),
        .init(0x003a, "Apple_0x003a", appleName: "NRFSRLStatus", note: "Apple.pm comment"),
        .init(0x003b, "Apple_0x003b", appleName: "SystemPressureLevel", note: "Apple.pm comment"),
        .init(0x003c, "Apple_0x003c", appleName: "CameraControlsStatisticsMaster", note: "Apple.pm comment"),
        .init(0x003d, "AFConfidence", appleName: "TimeOfFlightAssistedAutoFocusEstimatorSensorConfidence", note: "Apple.pm; int32s"),
        .init(0x003e, "ColorCorrectionMatrix", note: "Apple.pm (ref 2); binary plist"),
        .init(0x003f, "GreenGhostMitigationStatus", note: "Apple.pm (ref 2); int32s"),
        .init(0x0040, "SemanticStyle", note: "Apple.pm (ref 2); binary plist (_1 Tone, _2 Warm, _3 preset)"),
        .init(0x0041, "SemanticStyleRenderingVer", appleName: "SemanticStyleKey_RenderingVersion", note: "Apple.pm; binary plist"),
        .init(0x0042, "SemanticStylePreset", appleName: "SemanticStyleKey_Preset", note: "Apple.pm; binary plist"),
        .init(0x0043, "Apple_0x0043", appleName: "SemanticStyleKey_ToneBias", note: "Apple.pm comment"),
        .init(0x0044, "Apple_0x0044", appleName: "SemanticStyleKey_WarmthBias", note: "Apple.pm comment"),
        .init(
            0x0045, "Apple_0x0045", aliases: ["FrontFacingCamera"], appleName: "FrontFacing",
            note: "Apple.pm 1.14 comment (named FrontFacingCamera in exiftool 12.57, dropped later: 'not for iPhone15')"
        ),
        .init(0x0046, "Apple_0x0046", appleName: "TimeOfFlightAssistedAutoFocusEstimatorContainsBlindSpot", note: "Apple.pm comment"),
        .init(0x0047, "Apple_0x0047", appleName: "LeaderFollowerAutoFocusLeaderDepth", note: "Apple.pm comment"),
        .init(0x0048, "Apple_0x0048", appleName: "LeaderFollowerAutoFocusLeaderFocusMethod", note: "Apple.pm comment"),
        .init(0x0049, "Apple_0x0049", appleName: "LeaderFollowerAutoFocusLeaderConfidence", note: "Apple.pm comment"),
        .init(0x004a, "Apple_0x004a", appleName: "LeaderFollowerAutoFocusLeaderROIType", note: "Apple.pm comment"),
        .init(0x004b, "Apple_0x004b", appleName: "ZeroShutterLagFailureReason", note: "Apple.pm comment"),
        .init(0x004c, "Apple_0x004c", appleName: "TimeOfFlightAssistedAutoFocusEstimatorMSPMeasuredDepth", note: "Apple.pm comment"),
        .init(0x004d, "Apple_0x004d", appleName: "TimeOfFlightAssistedAutoFocusEstimatorMSPSensorConfidence", note: "Apple.pm comment"),
        .init(0x004e, "Apple_0x004e", appleName: "Camera", note: "Apple.pm; binary plist, first number 0 for the front camera"),
        .init(0x004f, "Apple_0x004f", note: "Apple.pm; binary plist"),
    ]

    private static let byID: [UInt16: AppleMakerNoteTagDefinition] = {
        var d: [UInt16: AppleMakerNoteTagDefinition] = [:]
        for t in all { d[t.id] = t }
        return d
    }()

    /// The table entry for `id`, nil when exiftool does not know the tag.
    public static func definition(for id: UInt16) -> AppleMakerNoteTagDefinition? { byID[id] }

    /// exiftool's name for `id`, or `Apple_0xNNNN` (lower-case hex) for a tag not in the table.
    public static func name(for id: UInt16) -> String {
        byID[id]?.name ?? unknownName(id)
    }

    /// Other names for `id` (empty when none).
    public static func aliases(for id: UInt16) -> [String] { byID[id]?.aliases ?? [] }

    /// The table entry whose name or alias is `name` (case-insensitive), or an `Apple_0xNNNN` name.
    public static func id(named name: String) -> UInt16? {
        let lower = name.lowercased()
        if let t = all.first(where: { $0.name.lowercased() == lower || $0.aliases.contains { $0.lowercased() == lower } }) {
            return t.id
        }
        guard lower.hasPrefix("apple_0x") else { return nil }
        return UInt16(lower.dropFirst(8), radix: 16)
    }

    static func unknownName(_ id: UInt16) -> String {
        let h = String(id, radix: 16)
        return "Apple_0x" + String(repeating: "0", count: max(0, 4 - h.count)) + h
    }

    /// Tag ids with names used throughout the project.
    public static let contentIdentifier: UInt16 = 0x0011
    public static let burstUUID: UInt16 = 0x000b
    public static let livePhotoVideoIndex: UInt16 = 0x0017
    public static let imageCaptureRequestID: UInt16 = 0x0020
    public static let photoIdentifier: UInt16 = 0x002b
}
