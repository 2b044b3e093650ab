import Foundation
import LiveModel
import LiveReaders
import Testing
// Not a declared dependency of this test target: LiveReaders depends on it, so SwiftPM builds it
// and its module is importable here. Used only to build hostile archives.
import ZIPFoundation

/// `.livp` archives that lie: deflate bombs, members whose declared size is a fiction, nested
/// archives, names escaping the archive, too many entries. Members are read from memory and
/// capped; nothing is extracted to disk.
@Suite struct ArchiveLimitTests {
    static let bombSize = 64 << 20

    /// A ZIP with one deflated member of `size` zero bytes (a deflate bomb: ~1000:1).
    static func bomb(at url: URL, name: String = "IMG_0001.JPG.jpeg", size: Int = bombSize) throws {
        let archive = try Archive(url: url, accessMode: .create)
        try archive.addEntry(with: name, type: .file, uncompressedSize: Int64(size), compressionMethod: .deflate) { (_: Int64, chunk: Int) in
            Data(count: chunk)
        }
    }

    /// Rewrites the uncompressed size of every member, in the local headers and the central directory.
    static func declare(_ size: UInt32, in url: URL) throws {
        var bytes = [UInt8](try Data(contentsOf: url))
        func put(_ at: Int) { for i in 0..<4 { bytes[at + i] = UInt8((size >> (8 * UInt32(i))) & 0xFF) } }
        var i = 0
        while i + 46 <= bytes.count {
            if bytes[i] == 0x50, bytes[i + 1] == 0x4B, bytes[i + 2] == 3, bytes[i + 3] == 4 { put(i + 22) }
            if bytes[i] == 0x50, bytes[i + 1] == 0x4B, bytes[i + 2] == 1, bytes[i + 3] == 2 { put(i + 24) }
            i += 1
        }
        try Data(bytes).write(to: url)
    }

    func withTemporary(_ body: (URL) throws -> Void) throws {
        let dir = try Paths.temporaryDirectory("zip")
        defer { try? FileManager.default.removeItem(at: dir) }
        try body(dir)
    }

    @Test func aBombDeclaringItsRealSizeIsRefusedByTheMemberCapBeforeInflating() throws {
        try withTemporary { dir in
            let url = dir.appendingPathComponent("bomb.livp")
            try Self.bomb(at: url)
            let size = try #require(try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int)
            #expect(size < Self.bombSize / 200, "the bomb is \(size) bytes: not a bomb")
            let options = InspectOptions(everything: false, streamProperties: false, maxArchiveMemberBytes: 1 << 20)
            let file = MediaInspector.inspect(path: url.path, options: options)
            #expect(file.kind == .livp)
            let member = try #require(file.members?.first)
            #expect(member.error?.category == .limit)
            #expect(member.error?.message.contains("\(Self.bombSize)") == true, "\(String(describing: member.error))")
            #expect(member.error?.location == "bomb.livp!IMG_0001.JPG.jpeg" || member.path.hasSuffix("!IMG_0001.JPG.jpeg"))
        }
    }

    @Test func aBombLyingAboutItsSizeStopsAtTheDeclaredSize() throws {
        try withTemporary { dir in
            let url = dir.appendingPathComponent("liar.livp")
            try Self.bomb(at: url)
            try Self.declare(1000, in: url)
            let start = Date()
            let file = MediaInspector.inspect(path: url.path, options: .lint)
            let member = try #require(file.members?.first)
            #expect(member.error?.category == .limit, "\(String(describing: member.error))")
            #expect(member.error?.message.contains("inflates past its declared size of 1000") == true)
            // It stopped at the first chunk past 1000 bytes instead of inflating 64 MiB.
            #expect(Date().timeIntervalSince(start) < 2)
        }
    }

    /// A member claiming just under the 1 GiB default cap while holding a few bytes: reading it must not
    /// reserve the claimed gigabyte. Checked in a child `livelint` whose address space is capped below it.
    /// True when this process (and so the `livelint` built with it) runs under AddressSanitizer,
    /// whose shadow memory needs terabytes of address space: `ulimit -v` cannot apply there.
    static let underAddressSanitizer = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__asan_init") != nil

    @Test(.disabled(if: underAddressSanitizer, "ASan reserves terabytes of address space"))
    func aHugeDeclaredSizeIsNotAllocatedUpFront() throws {
        try withTemporary { dir in
            let url = dir.appendingPathComponent("claims-a-gigabyte.livp")
            let archive = try Archive(url: url, accessMode: .create)
            let jpeg = [UInt8](try Data(contentsOf: Paths.fixtures.appendingPathComponent("pair/IMG_0001.JPG")))
            try archive.addEntry(with: "IMG_0001.JPG.jpeg", type: .file, uncompressedSize: Int64(jpeg.count), compressionMethod: .deflate) { (position: Int64, chunk: Int) in
                Data(jpeg[Int(position)..<min(jpeg.count, Int(position) + chunk)])
            }
            try Self.declare(UInt32((1 << 30) - 1), in: url)
            let binary = try #require(Paths.binary)
            // 900 MB of address space: plenty for livelint, not for a 1 GiB reservation.
            let result = try Shell.run("ulimit -v 900000; exec '\(binary.path)' dump --format json '\(url.path)'")
            #expect(!result.signaled, "livelint died under the address-space cap: \(result.stderr.suffix(800))")
            #expect([0, 1, 2].contains(result.status), "\(result.status): \(result.stderr.suffix(800))")
            let json = try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any]
            #expect((json?["files"] as? [Any])?.count == 1)
        }
    }

    @Test func aNestedArchiveIsReportedNotOpened() throws {
        try withTemporary { dir in
            let inner = dir.appendingPathComponent("inner.livp")
            try FileManager.default.copyItem(at: Paths.fixtures.appendingPathComponent("library/2024/07/IMG_0200.livp"), to: inner)
            let outer = dir.appendingPathComponent("outer.livp")
            let archive = try Archive(url: outer, accessMode: .create)
            try archive.addEntry(with: "inner.livp", relativeTo: dir, compressionMethod: .none)
            let file = MediaInspector.inspect(path: outer.path, options: .lint)
            let member = try #require(file.members?.first)
            #expect(member.kind == .livp)
            #expect(member.error?.category == .unsupported)
            #expect(member.error?.message.contains("nested") == true)
            #expect(member.members == nil || member.members?.isEmpty == true)
        }
    }

    @Test func memberNamesEscapingTheArchiveAreFlaggedAndNothingIsWritten() throws {
        try withTemporary { dir in
            let url = dir.appendingPathComponent("escape.livp")
            let archive = try Archive(url: url, accessMode: .create)
            let payload = Data("not an image".utf8)
            for name in ["../../escaped.jpeg", "/absolute.mov"] {
                try archive.addEntry(with: name, type: .file, uncompressedSize: Int64(payload.count)) { (_: Int64, _: Int) in payload }
            }
            let before = try TreeHash.snapshot(dir)
            let file = MediaInspector.inspect(path: url.path, options: .dump)
            #expect(file.warnings.filter { $0.message.contains("escapes the archive") }.count == 2, "\(file.warnings)")
            #expect(file.members?.count == 2)
            #expect(try TreeHash.snapshot(dir) == before)
            #expect(!FileManager.default.fileExists(atPath: dir.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("escaped.jpeg").path))
        }
    }

    @Test func tooManyEntriesIsALimit() throws {
        try withTemporary { dir in
            let url = dir.appendingPathComponent("many.livp")
            let archive = try Archive(url: url, accessMode: .create)
            let payload = Data([0x00])
            for i in 0..<30 {
                try archive.addEntry(with: "m\(i)", type: .file, uncompressedSize: Int64(1)) { (_: Int64, _: Int) in payload }
            }
            let options = InspectOptions(everything: false, streamProperties: false, maxArchiveEntries: 20)
            let file = MediaInspector.inspect(path: url.path, options: options)
            #expect(file.error?.category == .limit)
            #expect(file.error?.message.contains("20") == true)
            #expect((file.members?.count ?? 0) <= 20)
        }
    }
}

/// `/bin/sh -c` with captured output, for running `livelint` under resource limits.
enum Shell {
    static func run(_ script: String) throws -> LiveLint.Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script]
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let start = Date()
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        // sh reports a child killed by signal N as exit status 128 + N.
        let signaled = process.terminationReason == .uncaughtSignal || process.terminationStatus > 128
        return LiveLint.Result(status: process.terminationStatus, signaled: signaled, timedOut: false,
                               seconds: Date().timeIntervalSince(start), stdout: stdout,
                               stderr: String(decoding: stderr, as: UTF8.self))
    }
}
