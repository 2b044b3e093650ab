import Foundation
import TestSupport
import ISOBMFF
import LiveModel
@testable import LiveReaders

/// External tools and scratch files for the writer tests.
enum MovieTools {
    static func which(_ tool: String) -> String? { TestTools.which(tool) }

    static let ffmpeg = which("ffmpeg")
    static let exiftool = which("exiftool")

    /// Runs a tool; returns exit status, stdout and stderr.
    @discardableResult
    static func run(_ tool: String, _ args: [String]) throws -> (status: Int32, out: String, err: String) {
        try TestTools.run(tool, args)
    }

    static func tempDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("livelint-movie-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// A 3 s, 64x48 H.264 movie with AAC audio, made by ffmpeg (`extra` adds e.g. `-movflags +faststart`).
    static func makeMovie(in dir: URL, name: String = "in.mov", codec: [String] = ["-c:v", "libx264"], extra: [String] = []) throws -> URL {
        let out = dir.appendingPathComponent(name)
        let ffmpeg = try #require(ffmpeg)
        let args = ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=64x48:rate=10",
                    "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=8000", "-t", "3"]
            + codec + ["-pix_fmt", "yuvj420p", "-c:a", "aac", "-shortest"] + extra + [out.path]
        let r = try run(ffmpeg, args)
        guard r.status == 0 else { throw ToolFailure(message: r.err) }
        return out
    }

    struct ToolFailure: Error { var message: String }
}

/// Hashes of each track's sample bytes, by track id, located through the sample tables.
enum MovieSampleHashes {
    static func hashes(_ bytes: [UInt8]) throws -> [UInt32: UInt64] {
        let source = MemoryByteSource(bytes)
        let scan = TopLevel.scan(source)
        let moovHeader = try #require(scan.first("moov"))
        let payload = try source.read(at: moovHeader.payloadOffset, count: Int(moovHeader.payloadSize))
        let tree = BoxIndex(payload, baseOffset: moovHeader.payloadOffset, path: "moov", ancestors: ["moov"])
        var out: [UInt32: UInt64] = [:]
        for (i, trak) in tree.topLevel.filter({ $0.type == "trak" }).enumerated() {
            var reader = MovieTrackReader(node: trak, path: BoxPath("moov").appending("trak", index: i + 1), movieTimescale: 0)
            let stbl = try #require(trak.child("mdia")?.child("minf")?.child("stbl"))
            var tables = MovieTrackReader.SampleTables(stbl: stbl, path: "stbl")
            tables.sizes = reader.readSampleSizes(stbl, "stbl")
            let sizes = try MovieTrackReader.sampleSizes(tables, limit: .max)
            let offsets = try MovieTrackReader.sampleOffsets(tables, sizes: sizes)
            var h: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a
            for (o, s) in zip(offsets, sizes) {
                for b in try source.read(at: o, count: s) { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01B3 }
            }
            let tkhd = try #require(trak.child("tkhd")?.data)
            let at = tkhd[0] == 1 ? 20 : 12
            let id = UInt32(tkhd[at]) << 24 | UInt32(tkhd[at + 1]) << 16 | UInt32(tkhd[at + 2]) << 8 | UInt32(tkhd[at + 3])
            out[id] = h
        }
        return out
    }
}

import Testing
