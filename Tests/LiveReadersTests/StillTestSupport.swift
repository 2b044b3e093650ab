import Foundation
import TestSupport
import LiveModel

/// The shared real-device corpus (`<repo>/../shared/corpus`) seen from the still side: the manifest's
/// entries that carry `still` facts.
enum StillCorpus {
    static let directory: URL? = TestPaths.corpusPresent ? TestPaths.corpus : nil

    static var isPresent: Bool { directory != nil }

    nonisolated(unsafe) static let entries: [[String: Any]] = TestPaths.manifestEntries

    /// Manifest ids of entries with `still` facts (pairs' stills, lone stills, negatives, motion photos).
    static let stillIDs: [String] = entries.filter { $0["still"] is [String: Any] }.compactMap { $0["id"] as? String }

    static func facts(_ id: String) -> [String: Any]? {
        entries.first { $0["id"] as? String == id }?["still"] as? [String: Any]
    }

    static func path(_ id: String) -> String? {
        guard let dir = directory, let file = entries.first(where: { $0["id"] as? String == id })?["file"] as? String else { return nil }
        return dir.appendingPathComponent(file).path
    }

    static func int(_ any: Any?) -> Int64? {
        if let n = any as? NSNumber { return n.int64Value }
        if let s = any as? String { return Int64(s) }
        return nil
    }

    static func string(_ any: Any?) -> String? {
        if let s = any as? String { return s }
        if let n = any as? NSNumber { return n.stringValue }
        return nil
    }
}

/// Captures what is written to the process's stderr (file descriptor 2) while `body` runs, minus the
/// test runner's own progress lines (Swift Testing writes them to stderr from other threads).
func captureStandardError(_ body: () -> Void) -> String {
    let runnerGlyphs: Set<Character> = ["✔", "✘", "◇", "↳", "􀟈", "􀢄", "􀄵"]
    return captureRawStandardError(body)
        .split(separator: "\n")
        .filter { line in
            guard let first = line.first else { return false }
            return !runnerGlyphs.contains(first) && !line.hasPrefix("Test Suite") && !line.hasPrefix("Test Case")
        }
        .joined(separator: "\n")
}

/// Captures everything written to file descriptor 2 while `body` runs.
func captureRawStandardError(_ body: () -> Void) -> String {
    fflush(nil)
    let path = NSTemporaryDirectory() + "livelint-stderr-\(UUID().uuidString)"
    let fd = open(path, O_CREAT | O_RDWR | O_TRUNC, 0o600)
    guard fd >= 0 else {
        body()
        return ""
    }
    let saved = dup(2)
    dup2(fd, 2)
    body()
    fflush(nil)
    dup2(saved, 2)
    close(saved)
    close(fd)
    defer { unlink(path) }
    return (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
}

/// Small JPEGs built in code (structure only: exiv2 and exiftool never decode the entropy-coded data).
enum StillFixtures {
    /// SOI, APP0 JFIF, DQT, SOF0 (`width`×`height`, one component), DHT, SOS, a few data bytes, EOI. No Exif.
    static func minimalJPEG(width: UInt16 = 16, height: UInt16 = 8, jfif: Bool = true) -> [UInt8] {
        var b: [UInt8] = [0xFF, 0xD8]
        if jfif { b += [0xFF, 0xE0, 0x00, 0x10] + Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0] }
        b += [0xFF, 0xDB, 0x00, 0x43, 0x00] + [UInt8](repeating: 1, count: 64)
        b += [0xFF, 0xC0, 0x00, 0x0B, 0x08, UInt8(height >> 8), UInt8(height & 0xFF), UInt8(width >> 8), UInt8(width & 0xFF), 0x01, 0x01, 0x11, 0x00]
        // A DC table with one 1-bit code and an AC table with one 1-bit code (EOB).
        b += [0xFF, 0xC4, 0x00, 0x14, 0x00, 1] + [UInt8](repeating: 0, count: 15) + [0x00]
        b += [0xFF, 0xC4, 0x00, 0x14, 0x10, 1] + [UInt8](repeating: 0, count: 15) + [0x00]
        b += [0xFF, 0xDA, 0x00, 0x08, 0x01, 0x01, 0x00, 0x00, 0x3F, 0x00]
        b += [UInt8](repeating: 0x00, count: Int(width / 8) * Int(height / 8))
        b += [0xFF, 0xD9]
        return b
    }
}
