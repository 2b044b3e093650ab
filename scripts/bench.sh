#!/bin/sh
# The library-scale benchmark (issue 4; README "Performance").
#
#   scripts/bench.sh                     200 and 2,000 pairs from ../shared/corpus (or Fixtures/)
#   scripts/bench.sh --pairs 200 --rounds 9
#   scripts/bench.sh --source fixtures --pairs 1000,10000 --exiftool-max-pairs 0 --no-dump
#
# Builds release binaries, then runs `livelint-bench run`, which builds the libraries once under
# /tmp/livelint-bench (--workdir), warms the page cache and times, alternating, the floor (first
# and last 256 KiB of every file), `livelint lint --format json` and `exiftool -r -j -ee` (when
# installed, up to --exiftool-max-pairs); then `livelint dump` against `exiftool` on one file.
set -eu
cd "$(dirname "$0")/.."
scratch=${LIVELINT_BENCH_SCRATCH:-.build-bench}
swift build -c release --scratch-path "$scratch" --product livelint >&2
swift build -c release --scratch-path "$scratch" --product livelint-bench >&2
bin=$(swift build -c release --scratch-path "$scratch" --show-bin-path)
exec "$bin/livelint-bench" run --livelint "$bin/livelint" "$@"
