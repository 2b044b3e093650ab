#!/usr/bin/env bash
# Builds and runs one libFuzzer target (swiftc -sanitize=fuzzer,address).
#
#   scripts/fuzz.sh TARGET SECONDS [libFuzzer flags...]
#   scripts/fuzz.sh TARGET build          # build only
#   scripts/fuzz.sh TARGET run FILE...    # replay inputs (e.g. a crash-* file) once each
#
# TARGET:
#   movie      TopLevel scan, BoxTree, MovieReader on bytes (MemoryByteSource)   Fuzz/movie
#   makernote  AppleMakerNoteDecoder, the encoder's re-keying, BinaryPlist        Fuzz/makernote
#   file       MediaInspector.inspect(bytes:) -> sniffer, CExiv2, movie reader    Fuzz/file
#
# Everything lives under .fuzz/ (gitignored): .fuzz/build/TARGET (objects, binary),
# .fuzz/corpus/TARGET (the growing corpus), .fuzz/seeds/TARGET (seeds from Fixtures/ and, when
# present, ../shared/corpus: movies cut down to ftyp + moov, makernotes extracted with exiftool),
# .fuzz/artifacts/TARGET (crash-*, leak-*, timeout-* inputs). A crash exits non-zero; add its input
# to Fixtures/malformed/ with a regression test in Tests/HostileInputTests.
#
# Module sources are compiled with swiftc directly (SwiftPM has no fuzz entry point to offer):
# each library module once with -emit-module, the target's entry file last, linked with libFuzzer.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
TARGET=${1:?usage: scripts/fuzz.sh movie|makernote|file SECONDS|build|run [args...]}
MODE=${2:-60}
shift 2 2>/dev/null || shift $#

SWIFT_BIN=${SWIFT_BIN:-$(dirname "$(command -v swiftc)")}
SWIFTC="$SWIFT_BIN/swiftc"
CLANGXX="$SWIFT_BIN/clang++"
[ -x "$CLANGXX" ] || CLANGXX=$(command -v clang++)
CORPUS_SHARED=${LIVELINT_CORPUS:-$ROOT/../shared/corpus}
[ -d "$CORPUS_SHARED" ] || CORPUS_SHARED=/work/shared/corpus

OUT="$ROOT/.fuzz/build/$TARGET"
mkdir -p "$OUT"
SAN=(-sanitize=fuzzer,address)
SWIFT_FLAGS=(-O -g -parse-as-library -swift-version 6 -wmo -I "$OUT")

# module NAME [swift flags...] -- SOURCES...: compiles one module to NAME.o + NAME.swiftmodule,
# skipped when nothing changed since the last build.
module() {
    local name=$1; shift
    local flags=()
    while [ "$1" != "--" ]; do flags+=("$1"); shift; done
    shift
    local stamp="$OUT/$name.o"
    if [ -f "$stamp" ] && [ -z "$(find "$@" -newer "$stamp" 2>/dev/null | head -1)" ]; then return; fi
    echo "fuzz.sh: compiling $name" >&2
    "$SWIFTC" "${SAN[@]}" "${SWIFT_FLAGS[@]}" "${flags[@]}" -module-name "$name" \
        -emit-module -emit-module-path "$OUT/$name.swiftmodule" -emit-object -o "$OUT/$name.o" "$@"
}

sources() { find "$@" -name '*.swift' | sort; }

build() {
    local objects=()
    module LiveModel -- $(sources "$ROOT/Sources/LiveModel")
    objects+=("$OUT/LiveModel.o")
    case "$TARGET" in
    movie)
        module ISOBMFF -- $(sources "$ROOT/Sources/ISOBMFF")
        # The movie reader's files only import ISOBMFF and LiveModel: compile them with the entry.
        module FuzzMovie -- $(sources "$ROOT/Sources/LiveReaders/Movie") "$ROOT/Fuzz/movie/FuzzMovie.swift"
        objects+=("$OUT/ISOBMFF.o" "$OUT/FuzzMovie.o")
        ;;
    makernote)
        module FuzzMakerNote -- $(sources "$ROOT/Sources/AppleMakerNote") "$ROOT/Fuzz/makernote/FuzzMakerNote.swift"
        objects+=("$OUT/FuzzMakerNote.o")
        ;;
    file)
        local zip
        zip=$(find "$ROOT"/.build*/checkouts/ZIPFoundation -maxdepth 0 -type d 2>/dev/null | head -1)
        if [ -z "$zip" ]; then
            echo "fuzz.sh: ZIPFoundation checkout not found; run 'swift package resolve' first" >&2
            exit 2
        fi
        module ISOBMFF -- $(sources "$ROOT/Sources/ISOBMFF")
        module AppleMakerNote -- $(sources "$ROOT/Sources/AppleMakerNote")
        module ScratchFiles -- $(sources "$ROOT/Sources/ScratchFiles")
        module ZIPFoundation -swift-version 5 -Xcc -D_GNU_SOURCE=1 -I "$zip/Sources/CZLib" -- $(sources "$zip/Sources/ZIPFoundation")
        # The C modules (exiv2, libmediainfo): C++ with ASan and coverage; a module map each for
        # Swift to import them.
        for c in CExiv2:exiv2:cexiv2 CMediaInfo:mediainfo:cmediainfo; do
            IFS=: read -r cmod cfile cheader <<<"$c"
            mkdir -p "$OUT/$cheader"
            if [ "$cmod" = CExiv2 ]; then link='    link "exiv2"\n'; else link=''; fi
            printf "module $cmod {\n    header \"%s\"\n$link    export *\n}\n" \
                "$ROOT/Sources/$cmod/include/$cheader.h" > "$OUT/$cheader/module.modulemap"
            if [ ! -f "$OUT/$cfile.o" ] || [ -n "$(find "$ROOT/Sources/$cmod" -newer "$OUT/$cfile.o" | head -1)" ]; then
                echo "fuzz.sh: compiling $cmod" >&2
                "$CLANGXX" -std=c++14 -O1 -g -fsanitize=fuzzer-no-link,address -Wno-deprecated-declarations \
                    -I "$ROOT/Sources/$cmod/include" -c "$ROOT/Sources/$cmod/$cfile.cpp" -o "$OUT/$cfile.o"
            fi
        done
        local cmodules=(-I "$OUT/cexiv2" -I "$OUT/cmediainfo")
        module LiveReaders "${cmodules[@]}" -I "$zip/Sources/CZLib" -- \
            $(sources "$ROOT/Sources/LiveReaders")
        module FuzzFile "${cmodules[@]}" -I "$zip/Sources/CZLib" -- "$ROOT/Fuzz/file/FuzzFile.swift"
        objects+=("$OUT/ISOBMFF.o" "$OUT/AppleMakerNote.o" "$OUT/ScratchFiles.o" "$OUT/ZIPFoundation.o" "$OUT/exiv2.o" "$OUT/mediainfo.o" "$OUT/LiveReaders.o" "$OUT/FuzzFile.o")
        ;;
    *)
        echo "fuzz.sh: unknown target '$TARGET' (movie, makernote, file)" >&2
        exit 2
        ;;
    esac
    local binary="$OUT/fuzz-$TARGET" newest=""
    for o in "${objects[@]}"; do [ "$o" -nt "$binary" ] && newest=$o; done
    if [ ! -x "$binary" ] || [ -n "$newest" ]; then
        echo "fuzz.sh: linking $binary" >&2
        "$SWIFTC" "${SAN[@]}" -g -use-ld=lld "${objects[@]}" -o "$binary" -lexiv2 -lz -lstdc++
    fi
}

# Seeds: every fixture (and Fixtures/malformed/), corpus files when present. Movies from the
# corpus are cut to ftyp + moov (their mdat is megabytes the reader never looks at, and libFuzzer
# mutates small inputs far faster); makernotes are extracted from every still with exiftool.
seed() {
    local dir="$ROOT/.fuzz/seeds/$TARGET"
    [ -d "$dir" ] && [ -n "$(ls -A "$dir")" ] && return
    mkdir -p "$dir"
    local stills movies
    stills=$(find "$ROOT/Fixtures" "$CORPUS_SHARED" -type f \( -iname '*.jpg' -o -iname '*.jpeg' -o -iname '*.heic' \) 2>/dev/null || true)
    movies=$(find "$ROOT/Fixtures" -type f \( -iname '*.mov' -o -iname '*.mp4' \) 2>/dev/null || true)
    local n=0
    case "$TARGET" in
    movie|file)
        for f in $movies $(find "$ROOT/Fixtures/malformed" -type f 2>/dev/null || true); do
            n=$((n + 1)); cp "$f" "$dir/fixture-$n"
        done
        if [ -d "$CORPUS_SHARED" ]; then
            find "$CORPUS_SHARED" -type f \( -iname '*.mov' -o -iname '*.mp4' \) -print0 |
            python3 -c '
import struct, sys, os
out = sys.argv[1]
for i, path in enumerate(p for p in sys.stdin.read().split("\0") if p):
    data = open(path, "rb").read()
    keep, off = b"", 0
    while off + 8 <= len(data):
        size, kind = struct.unpack(">I4s", data[off:off + 8])
        if size == 1: size = struct.unpack(">Q", data[off + 8:off + 16])[0]
        if size == 0: size = len(data) - off
        if size < 8: break
        if kind in (b"ftyp", b"moov"): keep += data[off:off + size]
        off += size
    if keep: open(os.path.join(out, "corpus-moov-%d" % i), "wb").write(keep)
' "$dir"
        fi
        if [ "$TARGET" = file ]; then
            for f in $stills; do
                # Big corpus stills slow every execution down: keep those under 1 MB.
                [ "$(stat -c %s "$f")" -le 1048576 ] || continue
                n=$((n + 1)); cp "$f" "$dir/still-$n"
            done
        fi
        ;;
    makernote)
        if command -v exiftool >/dev/null; then
            for f in $stills; do
                n=$((n + 1))
                exiftool -q -q -b -MakerNotes "$f" > "$dir/makernote-$n" 2>/dev/null || true
                [ -s "$dir/makernote-$n" ] || rm -f "$dir/makernote-$n"
            done
        fi
        for f in $(find "$ROOT/Fixtures/malformed" -type f -name '*makernote*' 2>/dev/null || true); do
            n=$((n + 1)); cp "$f" "$dir/fixture-$n"
        done
        ;;
    esac
    echo "fuzz.sh: $(ls "$dir" | wc -l) seeds in $dir" >&2
}

build
BIN="$OUT/fuzz-$TARGET"
case "$MODE" in
build) echo "$BIN"; exit 0 ;;
run) SWIFT_BACKTRACE=${SWIFT_BACKTRACE:-enable=no} exec "$BIN" -runs=1 "$@" ;;
esac

seed
CORPUS="$ROOT/.fuzz/corpus/$TARGET"
ARTIFACTS="$ROOT/.fuzz/artifacts/$TARGET"
mkdir -p "$CORPUS" "$ARTIFACTS"
# Swift's own crash backtracer would hold the terminal; libFuzzer prints the stack.
export SWIFT_BACKTRACE=${SWIFT_BACKTRACE:-enable=no}
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1}
# -rss_limit_mb and -malloc_limit_mb make "allocates without bound" a crash too; -timeout a hang.
exec "$BIN" "$CORPUS" "$ROOT/.fuzz/seeds/$TARGET" \
    -max_total_time="$MODE" -max_len="${FUZZ_MAX_LEN:-262144}" -timeout=10 \
    -rss_limit_mb=2048 -malloc_limit_mb=1024 -artifact_prefix="$ARTIFACTS/" -print_final_stats=1 "$@"
