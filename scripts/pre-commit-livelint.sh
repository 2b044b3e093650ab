#!/usr/bin/env bash
# The pre-commit hook (.pre-commit-hooks.yaml): pre-commit calls it with the hook's `args`
# followed by the staged file names. Every argument that names an existing file is a staged
# file, whose folder is linted; every other argument is handed to `livelint lint` as an option.
# Exit status: livelint's (0 clean, 1 findings at or above --fail-on, 2 usage or internal error).
set -euo pipefail

livelint="${LIVELINT:-livelint}"
if ! command -v "$livelint" >/dev/null 2>&1; then
  echo "livelint hook: '$livelint' is not on PATH; install the .deb or build livelint (see its README, Install)" >&2
  exit 2
fi

options=()
folders=()
for arg in "$@"; do
  if [ -f "$arg" ]; then
    dir=$(dirname -- "$arg")
    seen=0
    for f in "${folders[@]+"${folders[@]}"}"; do [ "$f" = "$dir" ] && seen=1 && break; done
    [ "$seen" = 1 ] || folders+=("$dir")
  else
    options+=("$arg")
  fi
done
[ ${#folders[@]} -gt 0 ] || exit 0

exec "$livelint" lint --quiet "${options[@]+"${options[@]}"}" -- "${folders[@]}"
