/// A located failure from the box reader or a `ByteSource`.
///
/// `category` keeps "the bytes are wrong" (`malformed`) apart from "valid but not read by us"
/// (`unsupported`), operating-system failures (`io`) and tripped safety limits (`limit`).
/// `path` names the box (`moov/trak[2]/mdia/minf/stbl/stsd`, track indexes are 1-based) and
/// `offset` is the absolute byte offset in the file where the problem was found.
public struct BoxError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Category: String, Sendable, Hashable {
        case malformed, unsupported, io, limit
    }

    public var category: Category
    public var message: String
    public var path: String
    public var offset: Int64

    public init(_ category: Category, _ message: String, path: String = "", offset: Int64 = 0) {
        self.category = category
        self.message = message
        self.path = path
        self.offset = offset
    }

    public var description: String {
        var s = "\(category.rawValue): \(message)"
        if !path.isEmpty { s += " at \(path)" }
        s += " (byte offset \(offset))"
        return s
    }
}

/// The error type `ByteSource` throws (the same type as the box reader's).
public typealias ReadError = BoxError

/// Safety limits, all in one place. Every loop driven by file data is bounded by one of these
/// or by the bytes actually present.
public enum BoxLimits {
    /// Maximum nesting depth of boxes below the top level.
    public static let maxDepth = 32
    /// Maximum number of boxes parsed from one file (top level plus every parsed container).
    public static let maxBoxes = 100_000
    /// Maximum bytes of one box (`moov`, `ftyp`, …) loaded into memory.
    public static let maxLoadedBoxBytes: Int64 = 256 << 20
    /// Maximum bytes of one sample read by the movie reader (timed metadata samples are tiny).
    public static let maxSampleBytes = 16 << 20
    /// Maximum number of top-level boxes scanned.
    public static let maxTopLevelBoxes = 10_000
    /// Maximum timed-metadata samples decoded from one file, all tracks together (a camera movie
    /// has one still-image-time sample and at most a few hundred others). Sample tables cost
    /// almost nothing to declare, so without it thousands of tiny tracks could each claim
    /// `MovieReadOptions.maxSamplesPerTrack` samples.
    public static let maxSamplesPerFile = 100_000
    /// Maximum bytes of timed-metadata samples read from one file, all tracks together (samples
    /// may all point at the same bytes, so the file's size is no bound).
    public static let maxSampleBytesPerFile: Int64 = 64 << 20
}
