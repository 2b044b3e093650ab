#!/bin/sh
# The library-scale benchmark (issue 4; README "Performance").
#
#   scripts/bench.sh                     200 and 2,000 pairs from ../shared/corpus (or Fixtures/)
#   scripts/bench.sh --pairs 200 --rounds 9
#   scripts/bench.sh --source fixtures --pairs 1000,10000 --exiftool-max-pairs 0 --no-dump
#   scripts/bench.sh --source fixtures --names pixel ...   files named as a Pixel names them (26 bytes)
#   scripts/bench.sh --source fixtures --motion-photos ... each pair made one Android motion photo (N files)
#   scripts/bench.sh --source fixtures --broken --fix --pairs 20000 --no-cached --exiftool-max-pairs 0 --no-dump
#                                        every pair broken (each movie its own identifier); times `fix --dry-run` too
#   LIVELINT_BENCH_BASE=HEAD~5 scripts/bench.sh   also times a build of that commit, alternating
#   LIVELINT_BENCH_STATIC=0 scripts/bench.sh      times builds with the shared Swift runtime
#
# The binaries are built as the .deb builds its one (scripts/package.sh): release, with the Swift
# runtime linked in (--static-swift-stdlib); a build with the shared runtime starts about 6 ms
# slower and holds about 6 MiB more in RSS (the runs in docs/performance-history.md used it).
#
# Builds release binaries, then runs `livelint-bench run`, which builds the libraries once under
# /tmp/livelint-bench (--workdir), warms the page cache and times, alternating, the floor (the C
# program ../shared/bench/io-floor.c, compiled once with cc -O2: first and last 256 KiB of every
# file), `livelint lint --no-cache --format json`, a second, cached run (`--cache-dir` in the
# workdir, filled first) against `find -printf` (--no-cached skips both), and `exiftool -r -j -ee`
# (when installed, up to --exiftool-max-pairs); then `livelint dump` against `exiftool` on one file.
set -eu
cd "$(dirname "$0")/.."
case "${LIVELINT_BENCH_STATIC:-1}" in
  0) static="" suffix="" ;;
  1) static="--static-swift-stdlib" suffix="-static" ;;
  *) echo "bench.sh: LIVELINT_BENCH_STATIC is 1 (the default: Swift runtime linked in) or 0 (shared runtime)" >&2; exit 2 ;;
esac
# Each kind of build in scratch folders of its own, the base commit's too (never one made with
# the other flags).
prefix=${LIVELINT_BENCH_SCRATCH:-.build-bench}
scratch=$prefix$suffix
swift build -c release $static --scratch-path "$scratch" --product livelint >&2
swift build -c release $static --scratch-path "$scratch" --product livelint-bench >&2
bin=$(swift build -c release $static --scratch-path "$scratch" --show-bin-path)
if [ -n "${LIVELINT_BENCH_BASE:-}" ]; then
  # Before/after: build the commit LIVELINT_BENCH_BASE names (a hash, tag or HEAD~3) from a clean
  # export of its tree, and time it in the same alternating rounds as the working tree's build.
  base=$(git rev-parse --short "$LIVELINT_BENCH_BASE^{commit}")
  src="$prefix-base$suffix/$base"
  if [ ! -x "$src/.build/release/livelint" ]; then
    rm -rf "$src" && mkdir -p "$src"
    git archive "$base" | tar -x -C "$src"
    (cd "$src" && swift build -c release $static --product livelint >&2)
  fi
  exec "$bin/livelint-bench" run --livelint "$bin/livelint" --compare "$src/.build/release/livelint" --compare-label "$base" "$@"
fi
exec "$bin/livelint-bench" run --livelint "$bin/livelint" "$@"
