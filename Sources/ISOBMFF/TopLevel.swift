/// The result of scanning a file's top-level boxes.
public struct TopLevelScan: Sendable {
    public var boxes: [BoxHeader]
    /// Problems that did not stop the scan (trailing garbage, a truncated last box).
    public var warnings: [BoxError]
    /// The problem that stopped the scan before the end of the file, if any.
    public var error: BoxError?

    public func first(_ type: BoxType) -> BoxHeader? { boxes.first { $0.type == type } }
}

public enum TopLevel {
    /// Scans the top-level boxes of `source`, reading only their headers (never an `mdat`
    /// payload). Tolerates a missing `ftyp`, `wide`/`free`, 64-bit sizes, size 0 (to the end),
    /// `moov` before or after `mdat`. Bytes after the last box that do not form a box header
    /// are a warning ("trailing garbage"), not a failure. A last box whose size runs past the end
    /// of the file is kept, cut to the file, with a warning (unless it is the first box: then the
    /// data is not a box file at all and `error` is set).
    public static func scan(_ source: some ByteSource) -> TopLevelScan {
        var result = TopLevelScan(boxes: [], warnings: [], error: nil)
        var offset: Int64 = 0
        let size = source.size
        while offset < size {
            guard result.boxes.count < BoxLimits.maxTopLevelBoxes else {
                result.error = BoxError(.limit, "more than \(BoxLimits.maxTopLevelBoxes) top-level boxes", offset: offset)
                return result
            }
            let left = size - offset
            if left < 8 {
                result.warnings.append(BoxError(.malformed, "\(left) trailing bytes after the last box", offset: offset))
                return result
            }
            let raw: [UInt8]
            do {
                raw = try source.read(at: offset, count: Int(min(left, 32)))
            } catch {
                result.error = error
                return result
            }
            let type = BoxType(rawValue: bigEndianU32(raw, at: 4))
            if !type.looksLikeBoxType {
                let issue = BoxError(.malformed, "\(left) trailing bytes that are not a box (type bytes \(type))", offset: offset)
                if result.boxes.isEmpty { result.error = issue } else { result.warnings.append(issue) }
                return result
            }
            do {
                let header = try BoxHeader.parse(raw, at: offset, available: left, topLevel: true, path: "")
                result.boxes.append(header)
                offset += header.size
            } catch {
                // A size past the end of the file: keep the box as far as it goes (a truncated
                // `mdat` still lets `moov` be read), and say so.
                if !result.boxes.isEmpty,
                   let declared = try? BoxHeader.parse(raw, at: offset, available: .max, topLevel: true, path: ""),
                   declared.size > left {
                    var cut = declared
                    cut.size = left
                    result.boxes.append(cut)
                    result.warnings.append(BoxError(.malformed, "top-level '\(type)' is truncated: it declares \(declared.size) bytes, the file has \(left) left", path: type.description, offset: offset))
                    return result
                }
                result.error = error
                return result
            }
        }
        return result
    }
}
