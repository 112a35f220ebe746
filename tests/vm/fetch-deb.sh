#!/bin/bash
# Usage: fetch-deb.sh PACKAGE[:ARCH]   (e.g. busybox-static:arm64)
# Downloads one Debian package without installing it (a foreign arch's
# package may conflict with the host's own, as busybox-static does), unpacks
# it into ${LS_VM_CACHE:-/var/cache/lockscope-vm}/debs/<name>_<version>_<arch>/
# and prints that directory.  Reuses the cache when that version is there.
set -euo pipefail

die() { echo "lockscope-vm: failed to $*" >&2; exit 1; }

[ $# -eq 1 ] || die "parse arguments: usage: $0 PACKAGE[:ARCH]"
pkg=$1
case $pkg in *[!a-z0-9.+:-]*|'') die "parse package '$pkg': bad characters";; esac
ver=$(apt-cache policy "$pkg" 2>/dev/null | sed -n 's/^ *Candidate: //p' | head -n1) || true
[ -n "$ver" ] && [ "$ver" != "(none)" ] ||
    die "resolve $pkg: apt-cache knows no candidate (dpkg --add-architecture? apt-get update?)"
arch=${pkg#*:}
[ "$arch" != "$pkg" ] || arch=$(dpkg --print-architecture)
root=${LS_VM_CACHE:-/var/cache/lockscope-vm}/debs/${pkg%%:*}_${ver//:/%}_$arch
if [ ! -d "$root" ]; then
    mkdir -p "$(dirname "$root")" || die "create $(dirname "$root"): mkdir failed"
    tmp=$(mktemp -d "$(dirname "$root")/.dl.XXXXXX") || die "create download dir: mktemp failed"
    trap 'rm -rf "$tmp"' EXIT
    (cd "$tmp" && apt-get download "$pkg=$ver" >&2) ||
        die "download $pkg=$ver: apt-get download failed"
    debs=("$tmp"/*.deb)
    [ -f "${debs[0]}" ] || die "download $pkg: no .deb produced"
    mkdir -p "$tmp/x"
    dpkg-deb -x "${debs[0]}" "$tmp/x" || die "extract ${debs[0]}: dpkg-deb -x failed"
    mv "$tmp/x" "$root" || die "move package to $root: mv failed"
    echo "lockscope-vm: cached $pkg $ver in $root" >&2
fi
echo "$root"
