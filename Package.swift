// swift-tools-version:6.1
import PackageDescription
#if canImport(Glibc)
import Glibc
#endif

/// How `livelint` is linked on Linux: with no symbols exported, and by the toolchain's lld with
/// its relative relocations packed (DT_RELR) when the glibc it will run on can load them (2.36
/// and later: Debian 12, Ubuntu 22.10). The Swift runtime linked in (--static-swift-stdlib, as
/// the .deb ships it) brings ~81,000 relocations, 1.9 MiB the loader reads at every start, and
/// the runtime's -export-dynamic put 8,000 of our symbols in the dynamic table, which the loader
/// searches first for every library's symbols (README "Linked by lld"). An older glibc would
/// refuse the binary (it needs GLIBC_ABI_DT_RELR), so there the default linker links it with
/// its relocations unpacked. Which glibc is this machine's (`confstr`); for another target, or a
/// toolchain without ld.lld, LIVELINT_PACK_RELOCATIONS=0 or =1 decides instead.
let livelintLinkFlags: [String] = {
    let flags = ["-Xlinker", "--no-export-dynamic"]
    let packed = ["-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs"] + flags
    #if canImport(Glibc)
    if let choice = getenv("LIVELINT_PACK_RELOCATIONS") {
        return String(cString: choice) == "1" ? packed : flags
    }
    var text = [CChar](repeating: 0, count: 64)
    guard confstr(Int32(_CS_GNU_LIBC_VERSION), &text, text.count) > 0 else { return flags }
    // "glibc 2.36"
    let name = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    let version = name.split(separator: " ").last?.split(separator: ".").compactMap { Int($0) } ?? []
    return version.count >= 2 && (version[0], version[1]) >= (2, 36) ? packed : flags
    #else
    return flags
    #endif
}()

// Module seams (see README "Architecture"):
//   LiveModel        plain Sendable values: files, stills, movies, tags, issues. No I/O.
//   ISOBMFF          pure-Swift, bounds-checked box reader and writer. No C, no rules.
//   AppleMakerNote   pure-Swift Apple makernote decoder / encoder and its tag table.
//   CExiv2           C header outside, C++ inside: the only code that touches libexiv2 (and its
//                    pread(2) BasicIo).
//   CMediaInfo       C header outside, C++ inside: the only code that touches libmediainfo, which
//                    it dlopens on first use (so `lint` never loads it).
//   LiveReaders      turns bytes (via ISOBMFF, AppleMakerNote, exiv2, mediainfo, ZIP) into the model.
//   LiveWriters      writes Live Photo metadata (makernote into JPEG, keys + mebx track into MOV).
//   LiveLintEngine   rule protocol, registry, pairing, configuration, baseline, runner.
//   Rules            built-in rules, one file per rule (path: "Rules").
//   Reporters        pure functions from results to text / JSON / SARIF / JUnit / GitHub.
//   LiveLintKit      the pipelines: scanning a library (walk, read, slim, shard, pair, rules,
//                    progress events) and repairing pairs (plan, write, verify). No printing.
//   LiveLintCLI      the argument-parser commands; `livelint` is a two-line main.
let package = Package(
    name: "livelint",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "livelint", targets: ["livelint"]),
        .executable(name: "livelint-fixtures", targets: ["livelint-fixtures"]),
        .executable(name: "livelint-bench", targets: ["livelint-bench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.20"),
    ],
    targets: [
        .target(name: "LiveModel"),
        .target(name: "ISOBMFF"),
        // A library-sized scan's temporary files: made unlinked, written with pwrite, read back
        // through maps; values sorted on disk in runs (issue 13).
        .target(name: "ScratchFiles"),
        .target(name: "AppleMakerNote", dependencies: ["LiveModel"]),
        .target(
            name: "CExiv2",
            // exiv2 0.27's AutoPtr is std::auto_ptr (deprecated since C++11); its API has no other spelling.
            cxxSettings: [.unsafeFlags(["-Wno-deprecated-declarations"])],
            linkerSettings: [.linkedLibrary("exiv2")]
        ),
        // Not linked: loaded with dlopen on first use (the package libmediainfo-dev provides it).
        .target(name: "CMediaInfo"),
        // Debian's libcrypto (OpenSSL 3), for SHA-256 only: see README "Dependencies".
        .target(name: "COpenSSL"),
        // Debian's SQLite 3 (libsqlite3-dev), through a module map of our own: the lint cache.
        .systemLibrary(name: "CSQLite"),
        .target(
            name: "LiveReaders",
            dependencies: [
                "LiveModel", "ISOBMFF", "AppleMakerNote", "CExiv2", "CMediaInfo", "ScratchFiles",
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ]
        ),
        .target(
            name: "LiveWriters",
            dependencies: [
                "LiveModel", "ISOBMFF", "AppleMakerNote", "LiveReaders",
                "COpenSSL",
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ]
        ),
        .target(name: "LiveLintEngine", dependencies: ["LiveModel", "ScratchFiles", .product(name: "Yams", package: "Yams")]),
        .target(name: "Rules", dependencies: ["LiveModel", "LiveLintEngine"], path: "Rules"),
        .target(name: "Reporters", dependencies: ["LiveModel", "LiveLintEngine", "ScratchFiles"]),
        .target(
            name: "LiveLintKit",
            dependencies: ["LiveModel", "ISOBMFF", "ScratchFiles", "LiveReaders", "LiveWriters", "LiveLintEngine", "Rules", "Reporters", "CSQLite"]
        ),
        .target(
            name: "LiveLintCLI",
            dependencies: [
                "LiveLintKit", "LiveModel", "ISOBMFF", "LiveReaders", "LiveWriters", "LiveLintEngine", "Rules", "Reporters",
                "ScratchFiles", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "livelint", dependencies: ["LiveLintCLI"],
            linkerSettings: [
                // See livelintLinkFlags above.
                .unsafeFlags(livelintLinkFlags, .when(platforms: [.linux])),
            ]
        ),
        .executableTarget(
            name: "livelint-fixtures",
            dependencies: [
                "LiveWriters", "LiveReaders", "LiveModel", "AppleMakerNote", "ISOBMFF",
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ]
        ),

        .executableTarget(
            name: "livelint-bench",
            dependencies: [
                "LiveWriters", "LiveReaders", "LiveModel", "AppleMakerNote", "ISOBMFF",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        // Locators and tool runners every test target shares (test targets cannot import each other).
        .target(name: "TestSupport", path: "Tests/TestSupport"),

        .testTarget(name: "ISOBMFFTests", dependencies: ["ISOBMFF"]),
        .testTarget(name: "ScratchFilesTests", dependencies: ["ScratchFiles", "TestSupport"]),
        .testTarget(name: "AppleMakerNoteTests", dependencies: ["AppleMakerNote", "LiveModel", "TestSupport"]),
        .testTarget(name: "LiveReadersTests", dependencies: ["LiveReaders", "LiveWriters", "LiveModel", "ISOBMFF", "AppleMakerNote", "TestSupport"]),
        .testTarget(name: "RulesTests", dependencies: ["Rules", "LiveLintEngine", "LiveModel"]),
        .testTarget(name: "LiveLintEngineTests", dependencies: ["LiveLintEngine", "Rules", "LiveModel", "TestSupport"]),
        .testTarget(name: "ReportersTests", dependencies: ["Reporters", "LiveLintEngine", "LiveModel", "Rules", "TestSupport"], exclude: ["Golden"]),
        .testTarget(
            name: "HostileInputTests",
            dependencies: [
                "LiveReaders", "LiveWriters", "LiveModel", "ISOBMFF", "AppleMakerNote", "LiveLintEngine", "Rules",
                "TestSupport", .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ]
        ),
        .testTarget(name: "LiveWritersTests", dependencies: ["LiveWriters", "LiveReaders", "LiveModel", "ISOBMFF", "AppleMakerNote", "LiveLintEngine", "Rules"]),
        .testTarget(name: "LiveLintKitTests", dependencies: ["LiveLintKit", "LiveLintEngine", "LiveModel", "LiveReaders", "LiveWriters", "Reporters", "Rules", "TestSupport"]),
        .testTarget(name: "LiveLintCLITests", dependencies: ["LiveLintCLI", "LiveLintEngine", "LiveModel", "LiveReaders", "LiveWriters", "Rules", "TestSupport", "ISOBMFF"], exclude: ["Golden", "Scripts"]),
    ],
    cxxLanguageStandard: .cxx14
)
