#!/bin/bash
# Usage: fetch-kernel.sh FLAVOUR   (FLAVOUR: amd64 | rt-amd64 | cloud-amd64 | arm64 ...)
# Downloads Debian's current linux-image-FLAVOUR into
# ${LS_VM_CACHE:-/var/cache/lockscope-vm}/FLAVOUR/ and prints the path of vmlinuz.
# Reuses the cache when that kernel version is already extracted.
set -euo pipefail

die() { echo "lockscope-vm: failed to $*" >&2; exit 1; }

[ $# -eq 1 ] || die "parse arguments: usage: $0 FLAVOUR (amd64 | rt-amd64)"
flavour=$1
case $flavour in *[!a-z0-9-]*|'') die "parse flavour '$flavour': bad characters";; esac
meta=linux-image-$flavour
cache=${LS_VM_CACHE:-/var/cache/lockscope-vm}/$flavour

# The meta package depends on exactly one versioned image package.
pkg=$(apt-cache depends "$meta" 2>/dev/null |
      sed -n 's/^ *Depends: \(linux-image-[0-9][^ ]*\)$/\1/p' | head -n1) ||
      true
if [ -z "$pkg" ] && [ -L "$cache/current" ]; then     # offline: reuse the cache
    pkg=$(readlink "$cache/current")
    echo "lockscope-vm: apt-cache knows no $meta, using cached $pkg" >&2
fi
[ -n "$pkg" ] || die "resolve $meta: apt-cache depends names no linux-image-<version> (run apt-get update?)"
# A foreign architecture's package comes qualified (name:arm64): apt-get
# download keeps the qualifier, file names drop it.
name=${pkg%%:*}
release=${name#linux-image-}
release=${release%-unsigned}

root=$cache/$name
vmlinuz=$root/boot/vmlinuz-$release
if [ ! -f "$vmlinuz" ]; then
    mkdir -p "$cache" || die "create $cache: mkdir failed"
    tmp=$(mktemp -d "$cache/.dl.XXXXXX") || die "create $cache/.dl.*: mktemp failed"
    trap 'rm -rf "$tmp"' EXIT
    (cd "$tmp" && apt-get download "$pkg" >&2) ||
        die "download $pkg: apt-get download failed"
    debs=("$tmp"/*.deb)
    deb=${debs[0]}
    [ -f "$deb" ] || die "download $pkg: no .deb produced"
    mkdir -p "$tmp/x"
    dpkg-deb -x "$deb" "$tmp/x" || die "extract $deb: dpkg-deb -x failed"
    [ -f "$tmp/x/boot/vmlinuz-$release" ] ||
        die "find vmlinuz-$release in $pkg: not in package"
    rm -rf "$root"
    mv "$tmp/x" "$root" || die "move kernel to $root: mv failed"
    ln -sfn "$name" "$cache/current"
    echo "lockscope-vm: cached $pkg in $root" >&2
fi
# System.map ships in the image package on Debian: note it for callers.
[ -f "$root/boot/System.map-$release" ] &&
    echo "lockscope-vm: System.map: $root/boot/System.map-$release" >&2
echo "$vmlinuz"
