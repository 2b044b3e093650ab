import Foundation
import Testing
@testable import LiveWriters

struct AtomicWriterTests {
    @Test func writesANewFileWithOrdinaryPermissions() throws {
        let dir = try W.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let target = dir + "/new.bin"
        var checked: String?
        try AtomicWriter.write([1, 2, 3], to: target) { temp in
            checked = temp
            #expect((try? W.bytes(temp)) == [1, 2, 3])  // the check sees the content on disk
            #expect(!FileManager.default.fileExists(atPath: target))  // not yet in place
        }
        #expect(try W.bytes(target) == [1, 2, 3])
        #expect(checked.map { ($0 as NSString).deletingLastPathComponent } == dir)  // temp beside the target
        let mode = try #require(try FileManager.default.attributesOfItem(atPath: target)[.posixPermissions] as? Int)
        #expect(mode == 0o666 & ~Int(AtomicWriter.umaskValue))
        #expect(W.leftovers(dir).isEmpty)
    }

    @Test func aFailedCheckLeavesTheTargetAndNoTemporaryFile() throws {
        struct No: Error {}
        let dir = try W.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let target = dir + "/old.bin"
        try W.write([9, 9], target)
        #expect(throws: SafeWriteError.self) { try AtomicWriter.write([1, 2, 3], to: target) { _ in throw No() } }
        #expect(try W.bytes(target) == [9, 9])
        #expect(W.leftovers(dir).isEmpty)
    }

    @Test func preservingAttributesKeepsModeAndModificationTime() throws {
        let dir = try W.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let target = dir + "/kept.bin"
        try W.write([0], target)
        let past = Date(timeIntervalSince1970: 1_000_000_000)
        try FileManager.default.setAttributes([.posixPermissions: 0o640, .modificationDate: past], ofItemAtPath: target)
        try AtomicWriter.write([1, 2], to: target, preservingAttributesOf: target) { _ in }
        let attributes = try FileManager.default.attributesOfItem(atPath: target)
        #expect(attributes[.posixPermissions] as? Int == 0o640)
        #expect((attributes[.modificationDate] as? Date).map { abs($0.timeIntervalSince(past)) < 1 } == true)
        #expect(try W.bytes(target) == [1, 2])
    }

    @Test func stagedFilesCanBeDiscarded() throws {
        let dir = try W.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let staged = try AtomicWriter.stage(Array(repeating: 7, count: 10_000), for: dir + "/x")
        #expect(FileManager.default.fileExists(atPath: staged.temporaryPath))
        staged.discard()
        #expect(W.leftovers(dir).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: dir + "/x"))
    }

    @Test func aMissingFolderIsAnErrorNotACrash() {
        #expect(throws: SafeWriteError.self) { _ = try AtomicWriter.stage([1], for: "/nonexistent-livelint-folder/x") }
    }
}
