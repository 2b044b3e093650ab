import ArgumentParser
import Foundation
import ISOBMFF
import LiveModel
import LiveReaders
import LiveWriters

struct PackCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pack",
        abstract: "Pack a still and its movie into a .livp archive.",
        discussion: """
            Writes the .livp layout that Baidu and Aliyun accept: a ZIP \
            with the still first and the movie second, both stored (not compressed) with no extra \
            fields, named IMG_0001.JPG.jpeg and IMG_0001.JPG.mov after the still (--keep-names keeps \
            the files' own names), and an archive comment giving each member's type, data offset and \
            size, ending in the hex of 1000LIVP. `lint` checks that layout (rule livp-layout).

            The archive is written to a temporary file, read back (every member compared byte for \
            byte and opened by livelint's own .livp reader, its layout checked) and only then renamed \
            into place. An existing file is never overwritten.

            Examples:
              livelint pack IMG_0001.JPG IMG_0001.MOV --output IMG_0001.livp
              livelint lint IMG_0001.livp

            Exit codes: 0 written, 2 bad usage, unreadable input or a failed write.
            """
    )

    @Argument(help: ArgumentHelp("The still.", valueName: "still"))
    var still: String

    @Argument(help: ArgumentHelp("The movie.", valueName: "movie"))
    var movie: String

    @Option(name: [.short, .long], help: ArgumentHelp("The archive to write (conventionally .livp).", valueName: "file"))
    var output: String

    @Flag(help: "Name the members after the files themselves (IMG_0001.JPG, IMG_0001.MOV) instead of IMG_0001.JPG.jpeg and IMG_0001.JPG.mov.")
    var keepNames = false

    func run() async throws {
        try await reportingUserErrors {
            guard !FileManager.default.fileExists(atPath: output) else { throw UserError("\(output) already exists; not overwriting it") }
            var members: [(name: String, data: [UInt8])] = []
            var stillFormat = ContainerFormat.unknown
            for (path, kind) in [(still, FileKind.still), (movie, FileKind.movie)] {
                guard let data = FileManager.default.contents(atPath: path) else { throw UserError("cannot read \(path)") }
                let bytes = [UInt8](data)
                let format = Sniffer.sniff(Array(bytes.prefix(Sniffer.headerLength)))
                guard format.kind == kind else { throw UserError("\(path) is not a \(kind.rawValue) (it reads as \(format.rawValue))") }
                if kind == .still { stillFormat = format }
                members.append(((path as NSString).lastPathComponent, bytes))
            }
            if !keepNames {
                let names = LivpArchive.livpMemberNames(stillName: members[0].name, format: stillFormat)
                members = [(names[0], members[0].data), (names[1], members[1].data)]
            }
            guard members[0].name != members[1].name else { throw UserError("the still and the movie have the same name, \(members[0].name)") }
            let archive: [UInt8]
            do {
                archive = try LivpArchive.buildLivp(still: (members[0].name, members[0].data, stillFormat), movie: members[1])
            } catch { throw UserError("cannot pack: \(error)") }
            do {
                try AtomicWriter.write(archive, to: output) { temp in
                    let source = try FileByteSource(path: temp)
                    let found = try LivpArchive.members(of: source)
                    guard found.map(\.name) == members.map(\.name) else { throw LivpArchive.ArchiveError("members read back as \(found.map(\.name))") }
                    for (member, original) in zip(found, members) where try LivpArchive.extract(member, from: source) != original.data {
                        throw LivpArchive.ArchiveError("member \(member.name) reads back differently")
                    }
                    let inspected = MediaInspector.inspect(path: temp, options: .lint)
                    guard inspected.kind == .livp, inspected.error == nil, inspected.members?.count == 2 else {
                        throw LivpArchive.ArchiveError("the archive does not open as a .livp: \(inspected.error?.description ?? "\(inspected.members?.count ?? 0) members")")
                    }
                }
            } catch {
                throw UserError("cannot write \(error)")
            }
            Terminal.out("packed \(members.map(\.name).joined(separator: " + ")) into \(output)\n")
            return LiveLintExit.clean
        }
    }
}

struct UnpackCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unpack",
        abstract: "Extract the still and the movie from a .livp archive.",
        discussion: """
            Writes each member of the archive into DIR under its own file name (folders inside the \
            archive are dropped; macOS resource forks and hidden files are skipped; an archive with a \
            member named with `..` or a leading `/` is refused). Members may be stored, as iCloud \
            writes them, or deflated. Each file is size- and CRC-checked, written to a temporary file, \
            read back and renamed into place; existing files are never overwritten.

            Examples:
              livelint unpack IMG_0001.livp --output IMG_0001/
              livelint fix IMG_0001/                      (then repair the unpacked pair)

            Exit codes: 0 unpacked, 2 bad usage, a damaged or unsupported archive, or a failed write.
            """
    )

    @Argument(help: ArgumentHelp("The .livp archive.", valueName: "file"))
    var archive: String

    @Option(name: [.short, .long], help: ArgumentHelp("Folder to extract into (created when missing).", valueName: "dir"))
    var output: String

    func run() async throws {
        try await reportingUserErrors {
            let source: FileByteSource
            do { source = try FileByteSource(path: archive) } catch let error as ReadError { throw UserError(error.message) }
            let members: [LivpArchive.Member]
            do { members = try LivpArchive.members(of: source) } catch { throw UserError("\(archive): \(error)") }
            var plan: [(LivpArchive.Member, String)] = []
            var names = Set<String>()
            for member in members {
                guard !member.escapesArchive else {
                    throw UserError("\(archive): member name escapes the archive: \(member.name)")
                }
                let name = member.name.split(separator: "/").last.map(String.init) ?? ""
                if member.name.hasSuffix("/") || member.name.hasPrefix("__MACOSX/") || name.hasPrefix(".") || name.isEmpty { continue }
                guard names.insert(name).inserted else { throw UserError("\(archive): two members are named \(name)") }
                let target = (output as NSString).appendingPathComponent(name)
                guard !FileManager.default.fileExists(atPath: target) else { throw UserError("\(target) already exists; not overwriting it") }
                plan.append((member, target))
            }
            guard !plan.isEmpty else { throw UserError("\(archive) holds no files") }
            do { try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true) } catch {
                throw UserError("cannot create \(output): \(error.localizedDescription)")
            }
            for (member, target) in plan {
                let bytes: [UInt8]
                do { bytes = try LivpArchive.extract(member, from: source) } catch { throw UserError("\(archive): \(error)") }
                do {
                    try AtomicWriter.write(bytes, to: target) { temp in
                        guard let back = FileManager.default.contents(atPath: temp), back == Data(bytes) else {
                            throw LivpArchive.ArchiveError("\(member.name) reads back differently from disk")
                        }
                    }
                } catch {
                    throw UserError("cannot write \(error)")
                }
                Terminal.out("\(target)\n")
            }
            return LiveLintExit.clean
        }
    }
}
