#!/usr/bin/env bash
# CI step (issue 14): builds the .deb (scripts/package.sh), then checks it as a user would
# meet it: the binary needs no libswift*.so (ldd), the package installs (dpkg -i, apt-get
# for its Depends), and `livelint --version`, `man livelint`, the completions and a lint of
# Fixtures/library work from outside the source tree. Prints how long each part took.
# Needs root (dpkg -i). LIVELINT_CI_PACKAGE=0 in .ci/run skips it.
set -euo pipefail
cd "$(dirname "$0")/.."
repo="$PWD"
t0=$(date +%s)
deb="$(scripts/package.sh | tail -n 1)"
t1=$(date +%s)
echo "test-package: built $deb ($(du -h "$deb" | cut -f1)) in $((t1 - t0)) s"

fail() { echo "test-package: FAIL: $*" >&2; exit 1; }
dpkg-deb --info "$deb"
dpkg-deb --contents "$deb"
dpkg-deb --field "$deb" Depends | grep -q 'libexiv2-27' || fail "Depends lacks exiv2's runtime package"
dpkg-deb --field "$deb" Depends | grep -q 'libmediainfo0v5' || fail "Depends lacks libmediainfo's runtime package"
dpkg-deb --field "$deb" Depends | grep -q 'libssl3' || fail "Depends lacks libssl3 (libcrypto, loaded with dlopen)"

# Install (apt-get resolves Depends from the distribution, as a user's install would).
dpkg -i "$deb" >/dev/null 2>&1 || DEBIAN_FRONTEND=noninteractive apt-get install -f -y -qq >/dev/null
dpkg -s livelint | grep -q '^Status: install ok installed' || fail "livelint is not installed"
bin="$(command -v livelint)"
[ "$bin" = /usr/bin/livelint ] || fail "livelint on PATH is $bin, not the package's"
if ldd "$bin" | grep -q libswift; then ldd "$bin"; fail "the installed binary needs a Swift runtime library"; fi
ldd "$bin" | grep -q 'not found' && { ldd "$bin"; fail "a shared library is missing"; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cp -r "$repo/Fixtures/library" "$work/library"
cd "$work"
# No Swift toolchain on PATH: what a user of the .deb has.
clean_path=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
version="$(env PATH=$clean_path livelint --version)"
[ -n "$version" ] || fail "livelint --version printed nothing"
env PATH=$clean_path MANPAGER=cat MANWIDTH=80 man livelint > man.txt 2>/dev/null || fail "man livelint failed"
grep -q 'lint' man.txt || fail "the man page does not describe lint"
[ -s /usr/share/bash-completion/completions/livelint ] || fail "no bash completion"
bash -c 'source /usr/share/bash-completion/completions/livelint && complete -p livelint' >/dev/null || fail "the bash completion does not load"
set +e
env PATH=$clean_path livelint lint --format json --output report.json library
status=$?
set -e
[ "$status" = 1 ] || fail "lint of Fixtures/library exited $status (1 expected: it holds broken pairs)"
python3 -c 'import json,sys; d=json.load(open("report.json")); assert len(d["findings"]) > 10 and d["summary"]["pairs"] > 10, d["summary"]' \
  || fail "the lint report is not what Fixtures/library gives"
env PATH=$clean_path livelint dump library/2024/05/IMG_0001.MOV > dump.txt || fail "dump of a movie failed (libmediainfo)"
env PATH=$clean_path livelint fix --output fixed library/broken/identifier-mismatch > fix.txt || fail "fix failed (libcrypto)"
ls fixed | grep -q . || fail "fix wrote nothing"
t2=$(date +%s)
echo "test-package: ok: livelint $version, $(du -h "$repo/$deb" | cut -f1) package, build $((t1 - t0)) s, checks $((t2 - t1)) s"
