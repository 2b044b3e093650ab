#!/usr/bin/env bash
# Builds dist/livelint_<version>_<arch>.deb for people without a Swift toolchain:
#   - a release binary with the Swift runtime linked in (--static-swift-stdlib), so it needs no
#     libswift*.so; exiv2, the C++ runtime and libc stay shared, from Debian;
#   - a man page made by swift-argument-parser's generate-manual plugin;
#   - bash, zsh and fish completions (livelint --generate-completion-script).
# Depends: comes from dpkg-shlibdeps on the binary (libexiv2-27, libstdc++6, libgcc-s1, libc6),
# plus the two libraries livelint loads with dlopen, which no ELF header names:
# libmediainfo0v5 (dump's stream properties) and libssl3 (libcrypto: SHA-256 of what fix,
# make and pack write).
#
# Usage: scripts/package.sh            (build scratch: .build-release, override with
#                                        LIVELINT_PACKAGE_SCRATCH; prints the .deb's path last)
# Needs: swift, libexiv2-dev libmediainfo-dev libssl-dev, dpkg-dev (dpkg-shlibdeps), gzip.
set -euo pipefail
cd "$(dirname "$0")/.."
scratch="${LIVELINT_PACKAGE_SCRATCH:-.build-release}"
say() { echo "package: $*" >&2; }

say "release build (static Swift runtime) in $scratch"
swift build -c release --static-swift-stdlib --product livelint --scratch-path "$scratch" >&2
bin="$(swift build -c release --static-swift-stdlib --scratch-path "$scratch" --show-bin-path)/livelint"
version="$("$bin" --version)"
arch="$(dpkg --print-architecture)"
if ldd "$bin" | grep -q 'libswift'; then
  say "the binary still links a Swift runtime library:"; ldd "$bin" | grep libswift >&2; exit 1
fi

stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT
root="$stage/livelint_${version}_${arch}"
# The binary is staged before the man page is made: the plugin builds every product again in
# release without --static-swift-stdlib, relinking the one in $scratch.
install -D -m 0755 "$bin" "$root/usr/bin/livelint"
strip --strip-unneeded "$root/usr/bin/livelint"
bin="$root/usr/bin/livelint"

say "man page (argument-parser generate-manual)"
swift package --scratch-path "$scratch" generate-manual --configuration release >&2
manual="$(find "$scratch/plugins" -path '*GenerateManual*' -name 'livelint.1' -print -quit)"
[ -n "$manual" ] || { say "generate-manual made no livelint.1"; exit 1; }
install -D -m 0644 "$manual" "$root/usr/share/man/man1/livelint.1"
gzip -9n "$root/usr/share/man/man1/livelint.1"
install -d "$root/usr/share/bash-completion/completions" "$root/usr/share/zsh/vendor-completions" \
  "$root/usr/share/fish/vendor_completions.d" "$root/usr/share/doc/livelint"
"$bin" --generate-completion-script bash > "$root/usr/share/bash-completion/completions/livelint"
"$bin" --generate-completion-script zsh > "$root/usr/share/zsh/vendor-completions/_livelint"
"$bin" --generate-completion-script fish > "$root/usr/share/fish/vendor_completions.d/livelint.fish"
gzip -9nc README.md > "$root/usr/share/doc/livelint/README.md.gz"
cat > "$root/usr/share/doc/livelint/copyright" <<'COPYRIGHT'
livelint: see the project's repository for its licence.
It includes the Swift runtime and standard library (Apache-2.0 with Runtime Library Exception),
swift-argument-parser (Apache-2.0), Yams (MIT, with libYAML: MIT) and ZIPFoundation (MIT),
linked statically.
COPYRIGHT

# Shared libraries from the ELF header, as Debian's own packaging computes them.
mkdir -p "$stage/shlibs/debian"
printf 'Source: livelint\n\nPackage: livelint\nArchitecture: any\n' > "$stage/shlibs/debian/control"
shlibs="$(cd "$stage/shlibs" && dpkg-shlibdeps -O "$root/usr/bin/livelint" 2>/dev/null | sed -n 's/^shlibs:Depends=//p')"
[ -n "$shlibs" ] || { say "dpkg-shlibdeps found no dependencies"; exit 1; }
# dpkg-shlibdeps reads the symbols a binary uses, not the versions it needs without a symbol:
# linked with packed relative relocations (DT_RELR, Package.swift), the loader must provide
# GLIBC_ABI_DT_RELR, which glibc has since 2.36, so libc6 is raised to that (Ubuntu 22.04's 2.35
# would install the package, then fail to start it).
# (readelf's labels are translated, so only the version's name is matched, in the C locale; grep
# reads all of it, so readelf never meets a closed pipe under pipefail.)
if LC_ALL=C readelf -V "$root/usr/bin/livelint" | grep 'GLIBC_ABI_DT_RELR' >/dev/null; then
  shlibs="$(printf '%s' "$shlibs" | sed -E 's/libc6 \(>= 2\.(3[0-5]|[12][0-9]|[0-9])(\.[0-9]+)?\)/libc6 (>= 2.36)/')"
  case "$shlibs" in *"libc6 (>= 2.3"[6-9]*|*"libc6 (>= 2.[4-9]"*) ;; *) say "libc6 is not at least 2.36 in: $shlibs"; exit 1 ;; esac
fi
depends="$shlibs, libmediainfo0v5, libssl3 | libssl3t64"

mkdir -p "$root/DEBIAN"
cat > "$root/DEBIAN/control" <<CONTROL
Package: livelint
Version: $version
Architecture: $arch
Maintainer: livelint maintainers <livelint@example.invalid>
Installed-Size: $(du -sk --exclude=DEBIAN "$root" | cut -f1)
Depends: $depends
Section: graphics
Priority: optional
Homepage: https://github.com/livelint/livelint
Description: inspect, lint and repair Apple Live Photos
 livelint reads what each half of a Live Photo carries (the still's Apple
 makernote, the movie's QuickTime keys and still-image-time track), pairs the
 halves across a folder tree and checks each pair against documented rules,
 for people (text, HTML) and for CI (JSON, SARIF, JUnit, GitHub annotations).
 It also repairs what it finds (fix), assembles Live Photos (make) and packs
 and unpacks .livp archives.
CONTROL

mkdir -p dist
deb="dist/livelint_${version}_${arch}.deb"
dpkg-deb --build --root-owner-group -Zxz "$root" "$deb" >&2
say "$(du -h "$deb" | cut -f1) $deb; Depends: $depends"
echo "$deb"
