// livelint-bench: the library-scale benchmark of issue 4 (see README, "Performance").
//
//   livelint-bench run                      build 200- and 2,000-pair libraries, time floor / livelint / exiftool
//   livelint-bench build --pairs N DIR      just build a library
//   livelint-bench floor DIR                the floor: read the first and last 256 KiB of every file
//
// scripts/bench.sh builds release binaries and runs `livelint-bench run`.
import ArgumentParser
import Foundation
import LiveReaders

struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "livelint-bench",
        abstract: "Library-scale benchmark: livelint lint against the read-the-headers floor and exiftool.",
        subcommands: [Run.self, Build.self, Floor.self],
        defaultSubcommand: Run.self)
}

/// `--names camera|pixel`.
extension LibraryBuilder.Naming: ExpressibleByArgument {}

/// Where the source pairs come from.
struct SourceOptions: ParsableArguments {
    @Option(help: "The real-device corpus (manifest.json); default ../shared/corpus beside the repository.")
    var corpus: String = "../shared/corpus"

    @Option(help: "The project's Fixtures folder, used when the corpus is absent (or with --source fixtures).")
    var fixtures: String = "Fixtures"

    @Option(help: "corpus (default, falls back to fixtures when absent) or fixtures.")
    var source: String = "corpus"

    @Option(help: ArgumentHelp("How the files are named: camera (IMG_00042.JPG) or pixel (PXL_20231105_100000042.JPG).",
                               discussion: "An Android phone's names are 19 to 26 bytes; an iPhone's fit in 15, which a summary holds inline."))
    var names: LibraryBuilder.Naming = .camera

    @Flag(help: "Give every movie an identifier of its own: every pair broken (identifier-mismatch), for timing fix.")
    var broken = false

    @Flag(help: ArgumentHelp("Make each pair one Android motion photo instead (N files, not 2N).",
                             discussion: "The still with its movie appended and Motion Photo XMP, as `livelint convert --to motion-photo` makes it, named STEM.MP.JPG (or .MP.HEIC). Not with --broken: a motion photo has no second half to break."))
    var motionPhotos = false

    func validate() throws {
        if motionPhotos && broken { throw ValidationError("--motion-photos makes one file of each pair: it has no movie of its own for --broken to break") }
    }

    /// The library's folder name under the workdir: the source, the naming when not the camera's,
    /// `broken` when every pair is, `motion` for motion photos, the size.
    func folderName(_ kind: String, pairs: Int) -> String {
        (names == .camera ? "\(kind)" : "\(kind)-\(names.rawValue)") + (broken ? "-broken" : "")
            + (motionPhotos ? "-motion" : "") + "-\(pairs)"
    }

    /// How many files N items make: a file a motion photo, two a pair.
    func files(_ n: Int) -> Int { motionPhotos ? n : 2 * n }

    /// What one of the N items is, and how many files N of them make.
    func items(_ n: Int) -> String {
        motionPhotos ? "\(n) motion photos (\(files(n)) files)" : "\(n) pairs (\(files(n)) files)"
    }

    func builder() throws -> (LibraryBuilder, String) {
        let manifest = URL(fileURLWithPath: corpus).appendingPathComponent("manifest.json").path
        if source == "corpus", FileManager.default.fileExists(atPath: manifest) {
            return (try LibraryBuilder.corpus(at: corpus), "corpus")
        }
        return (try LibraryBuilder.fixtures(at: fixtures), "fixtures")
    }
}

struct Build: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Build a library of N pairs in a new folder.")
    @Option(help: "Number of pairs.") var pairs: Int = 200
    @OptionGroup var sources: SourceOptions
    @Argument(help: "The folder to create.") var folder: String

    func run() throws {
        let (builder, kind) = try sources.builder()
        let bytes = try builder.build(pairs: pairs, into: folder, naming: sources.names, broken: sources.broken,
                                      motionPhotos: sources.motionPhotos)
        print("built \(sources.items(pairs)), \(bytes / 1_048_576) MiB, from the \(kind) in \(folder)")
    }
}

struct Floor: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Read the first and last 256 KiB of every file under the paths.")
    @Argument(help: "Folders or files.") var paths: [String]

    func run() throws {
        let entries = LibraryWalker().files(in: paths).entries.map(\.path)
        let (files, bytes) = readFloor(entries)
        print("\(files) files, \(bytes) bytes")
    }
}

struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Build the libraries (once) and time floor, livelint and exiftool, alternating.")

    @Option(help: "Library sizes in pairs, comma-separated.") var pairs: String = "200,2000"
    @Option(help: "Timed rounds per library (each round runs every tool once, alternating).") var rounds: Int = 5
    @Option(help: "The livelint binary (default: beside this one).") var livelint: String?
    @Option(help: "Where libraries are built and kept between runs.") var workdir: String = "/tmp/livelint-bench"
    @Option(help: "Largest library exiftool is timed on (it takes about 40 ms a file).") var exiftoolMaxPairs: Int = 200
    @Option(help: "Rounds for exiftool (slow).") var exiftoolRounds: Int = 1
    @Option(help: "Extra livelint lint arguments, space-separated.") var lintArgs: String = "--format json"
    @Flag(help: "Skip the dump start-up comparison.") var noDump = false
    @Option(help: "The C floor's source (compiled once with cc -O2 into --workdir); the Swift floor is used when it is absent.")
    var cFloor: String = "../shared/bench/io-floor.c"
    @Flag(help: "Skip the cached second run (livelint lint with a warm cache, against find -printf).") var noCached = false
    @Flag(help: "Also time `livelint fix --dry-run --quiet` (and the --compare binary's), planning every broken pair and writing nothing.")
    var fix = false
    @Option(help: "A second livelint binary (say, a build of an earlier commit) timed in the same alternating rounds, to compare a change against its base.")
    var compare: String?
    @Option(help: "How the --compare binary is named in the table.") var compareLabel: String = "base"
    @OptionGroup var sources: SourceOptions

    func run() throws {
        let me = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        let livelint = self.livelint ?? me.deletingLastPathComponent().appendingPathComponent("livelint").path
        guard access(livelint, X_OK) == 0 else { throw BenchError("no livelint binary at \(livelint) (build it, or pass --livelint)") }
        if let compare, access(compare, X_OK) != 0 { throw BenchError("no livelint binary at \(compare) (--compare)") }
        let exiftool = onPath("exiftool")
        // The --compare build with `--no-cache` when it knows the flag (before issue 13 it had no
        // cache): else it would answer from the default cache and be timed against a full read.
        let compareLint = compare.map { [$0, "lint"] + (Self.knowsNoCache($0) ? ["--no-cache"] : []) }
        let (builder, kind) = try sources.builder()
        let sizes = pairs.split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        print(machineLine())
        print("source: the \(kind) (\(builder.sources.count) distinct pairs, copied with fresh identifiers)")
        for n in sizes {
            let folder = "\(workdir)/\(sources.folderName(kind, pairs: n))"
            if !FileManager.default.fileExists(atPath: folder + "/.complete") {
                try? FileManager.default.removeItem(atPath: folder)
                let t0 = now()
                let bytes = try builder.build(pairs: n, into: folder, naming: sources.names, broken: sources.broken,
                                              motionPhotos: sources.motionPhotos)
                _ = FileManager.default.createFile(atPath: folder + "/.complete", contents: nil)
                print(String(format: "built %@ (%d MiB) in %.1f s", sources.items(n), bytes / 1_048_576, now() - t0))
            }
            try bench(folder: folder, pairs: n, livelint: livelint, compareLint: compareLint,
                      exiftool: n <= exiftoolMaxPairs ? exiftool : nil)
        }
        if !noDump, let exiftool, let first = builder.sources.first {
            try dumpStartup(livelint: livelint, exiftool: exiftool, still: first.still, movie: first.movie)
        }
    }

    /// The C floor (`../shared/bench/io-floor.c`), compiled once into the workdir; nil without a C compiler or source.
    func cFloorBinary() -> String? {
        let binary = workdir + "/io-floor"
        if access(binary, X_OK) == 0 { return binary }
        guard FileManager.default.fileExists(atPath: cFloor), let cc = onPath("cc") ?? onPath("gcc") else { return nil }
        try? FileManager.default.createDirectory(atPath: workdir, withIntermediateDirectories: true)
        guard let s = try? measure([cc, "-O2", "-o", binary, cFloor]), s.status == 0 else { return nil }
        return binary
    }

    func bench(folder: String, pairs n: Int, livelint: String, compareLint: [String]?, exiftool: String?) throws {
        let me = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().path
        let files = sources.files(n)
        let lintArgv = lintArgs.split(separator: " ").map(String.init)
        // The floor is the C program when it builds (a Swift floor spends ~20 ms starting up).
        let floor = cFloorBinary().map { [$0, folder] } ?? [me, "floor", folder]
        // Uncached: `--no-cache` (the default cache would answer every round after the first).
        var tools: [(name: String, argv: [String], rounds: Int)] = [
            ("floor", floor, rounds),
            ("livelint", [livelint, "lint", "--no-cache"] + lintArgv + [folder], rounds),
        ]
        if let compareLint { tools.append((compareName, compareLint + lintArgv + [folder], rounds)) }
        if fix {
            tools.append(("fix", [livelint, "fix", "--dry-run", "--quiet", folder], rounds))
            if let compare = compareLint?.first { tools.append(("fix " + compareName, [compare, "fix", "--dry-run", "--quiet", folder], rounds)) }
        }
        // Cached: a cache of this library's own, filled before the rounds, so every round reads
        // the cache and stats the files; against `find -printf`, which stats them and prints.
        let cacheDir = "\(workdir)/cache-\(URL(fileURLWithPath: folder).lastPathComponent)"
        if !noCached {
            tools.append(("lint cached", [livelint, "lint", "--cache-dir", cacheDir] + lintArgv + [folder], rounds))
            tools.append(("find -printf", ["find", folder, "-printf", "%s %T@ %i\\n"], rounds))
        }
        if let exiftool { tools.append(("exiftool -ee", [exiftool, "-r", "-j", "-ee", folder], exiftoolRounds)) }
        // Warm the page cache, fill the cache, and check every tool runs.
        if !noCached {
            try? FileManager.default.removeItem(atPath: cacheDir)
            // The cache does not keep a file changed within a second of being stat'ed (git's racily
            // clean case): a library built just now would be read again in every round.
            sleep(1)
        }
        for tool in tools where tool.name != "exiftool -ee" { _ = try measure(tool.argv) }
        var samples: [String: [Sample]] = [:]
        for round in 0..<max(rounds, exiftoolRounds) {
            for tool in tools where round < tool.rounds {
                samples[tool.name, default: []].append(try measure(tool.argv))
            }
        }
        let floorWall = median(samples["floor"]?.map(\.wall) ?? [])
        let floorCPU = median(samples["floor"]?.map(\.cpu) ?? [])
        print("\n\(sources.items(n)), warm cache, median of \(rounds) alternating rounds (floor: \(floor[0].hasSuffix("io-floor") ? "C" : "Swift")):")
        print("  tool           wall s    ×floor   cpu s    ×floor   read/file     peak RSS   exit")
        for tool in tools {
            guard let s = samples[tool.name], !s.isEmpty else { continue }
            let wall = median(s.map(\.wall)), cpu = median(s.map(\.cpu))
            let rchar = s.map(\.rchar).max() ?? 0, rss = s.map(\.maxRSS).max() ?? 0
            print("  " + tool.name.padding(toLength: 13, withPad: " ", startingAt: 0) + String(format: " %7.3f  %7.1f×  %7.3f  %7.1f×  %8.1f KiB  %6.1f MiB   %d",
                         wall, wall / floorWall, cpu, cpu / floorCPU,
                         Double(rchar) / Double(files) / 1024, Double(rss) / 1_048_576, s.last?.status ?? -1))
        }
        if let cached = samples["lint cached"], let uncached = samples["livelint"], let find = samples["find -printf"] {
            let cacheBytes = ["", "-wal"].compactMap { suffix in
                (try? FileManager.default.attributesOfItem(atPath: cacheDir + "/lint-cache.sqlite3" + suffix)[.size] as? NSNumber)?.int64Value
            }.reduce(0, +)
            let rchar = cached.map(\.rchar).max() ?? 0, plain = uncached.map(\.rchar).max() ?? 1
            print(String(format: "  cached: %.3f s = %.2f× find -printf (%.3f s); rchar %.1f MiB, the cache %.1f MiB, beyond it %.2f%% of the uncached run's %.1f MiB",
                         median(cached.map(\.wall)), median(cached.map(\.wall)) / median(find.map(\.wall)), median(find.map(\.wall)),
                         Double(rchar) / 1_048_576, Double(cacheBytes) / 1_048_576,
                         100 * Double(max(0, rchar - cacheBytes)) / Double(plain), Double(plain) / 1_048_576))
        }
        if let lint = samples["livelint"], let base = samples[compareName] {
            print(String(format: "  livelint against %@: wall %+.1f%%, cpu %+.1f%% (medians; negative is faster)",
                         compareLabel as NSString,
                         100 * (median(lint.map(\.wall)) / median(base.map(\.wall)) - 1),
                         100 * (median(lint.map(\.cpu)) / median(base.map(\.cpu)) - 1)))
        }
        if let lint = samples["livelint"], let exif = samples["exiftool -ee"] {
            print(String(format: "  livelint is %.0f× faster than exiftool -ee (wall)", median(exif.map(\.wall)) / median(lint.map(\.wall))))
        }
    }

    /// Whether `binary lint --help` lists `--no-cache`.
    static func knowsNoCache(_ binary: String) -> Bool {
        let help = FileManager.default.temporaryDirectory.appendingPathComponent("livelint-bench-\(getpid())-help").path
        defer { unlink(help) }
        guard (try? measure([binary, "lint", "--help"], stdoutPath: help)) != nil,
              let text = try? String(contentsOfFile: help, encoding: .utf8) else { return false }
        return text.contains("--no-cache")
    }

    /// The --compare binary's row in the table.
    var compareName: String { "livelint " + compareLabel }

    /// `livelint dump` of one still and one movie against `exiftool` of the same file, start-up included.
    func dumpStartup(livelint: String, exiftool: String, still: String, movie: String) throws {
        print("\ndump of one file, process start included, median of 10:")
        for path in [still, movie] {
            var ours: [Double] = [], theirs: [Double] = []
            for _ in 0..<10 {
                ours.append(try measure([livelint, "dump", path]).wall)
                theirs.append(try measure([exiftool, path]).wall)
            }
            let name = URL(fileURLWithPath: path).lastPathComponent
            print("  " + name.padding(toLength: 24, withPad: " ", startingAt: 0) + String(format: " livelint dump %.3f s, exiftool %.3f s: %.1f× faster",
                         median(ours), median(theirs), median(theirs) / median(ours)))
        }
    }

    func machineLine() -> String {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let memory = Double(ProcessInfo.processInfo.physicalMemory) / 1_073_741_824
        var cpu = "unknown CPU"
        if let info = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8),
           let line = info.split(separator: "\n").first(where: { $0.hasPrefix("model name") }),
           let colon = line.firstIndex(of: ":") {
            cpu = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        var load = ""
        if let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) {
            load = ", load average " + (text.split(separator: " ").first.map(String.init) ?? "?")
        }
        return String(format: "machine: %@, %d cores, %.0f GiB RAM%@", cpu as NSString, cores, memory, load as NSString)
    }
}

Bench.main()
