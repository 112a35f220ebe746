#!/bin/bash
# Usage: fetch-kernel.sh FLAVOUR [SUITE]
#   FLAVOUR: amd64 | rt-amd64 | cloud-amd64 | arm64 ...
#   SUITE:   another Debian suite than the host's (e.g. bullseye: Debian 11's
#            5.10), read through a private apt state, never the host's sources
# Downloads Debian's current linux-image-FLAVOUR into
# ${LS_VM_CACHE:-/var/cache/lockscope-vm}/FLAVOUR/ (SUITE-FLAVOUR/ for a
# suite) and prints the path of vmlinuz.  Reuses the cache when that kernel
# version is already extracted.
set -euo pipefail

die() { echo "lockscope-vm: failed to $*" >&2; exit 1; }

[ $# -ge 1 ] && [ $# -le 2 ] ||
    die "parse arguments: usage: $0 FLAVOUR [SUITE] (amd64 | rt-amd64; bullseye)"
flavour=$1
suite=${2:-}
case $flavour in *[!a-z0-9-]*|'') die "parse flavour '$flavour': bad characters";; esac
case $suite in *[!a-z0-9-]*) die "parse suite '$suite': bad characters";; esac
meta=linux-image-$flavour
top=${LS_VM_CACHE:-/var/cache/lockscope-vm}
cache=$top/${suite:+$suite-}$flavour
apt_opts=()
if [ -n "$suite" ]; then
    # A private apt state for SUITE: its own sources list, lists and archive
    # cache under $top/apt-SUITE/, one architecture, the host's sources.list
    # and sources.list.d ignored.  apt checks the InRelease signature against
    # Debian's archive keyring (package debian-archive-keyring), the Packages
    # index's SHA256 against InRelease, and the .deb's against Packages.
    arch=${flavour##*-}
    keyring=/usr/share/keyrings/debian-archive-keyring.gpg
    [ -r "$keyring" ] || die "read $keyring: install debian-archive-keyring"
    st=$top/apt-$suite
    mkdir -p "$st/lists/partial" "$st/archives/partial" "$st/parts" ||
        die "create $st: mkdir failed"
    echo "deb [arch=$arch signed-by=$keyring] ${LS_VM_MIRROR:-http://deb.debian.org/debian} $suite main" \
        >"$st/sources.list"
    apt_opts=(-o "Dir::Etc::SourceList=$st/sources.list"
              -o "Dir::Etc::SourceParts=$st/parts"
              -o "Dir::State::Lists=$st/lists"
              -o "Dir::Cache=$st" -o "Dir::Cache::Archives=$st/archives"
              -o "APT::Architecture=$arch" -o "APT::Architectures=$arch"
              -o "Acquire::Languages=none")
    # Refresh the index once a day (bounded: CI machines may be offline).
    if [ -z "$(find "$st/lists" -maxdepth 1 -name '*_InRelease' -mmin -1440 2>/dev/null)" ]; then
        timeout "${LS_VM_FETCH_TIMEOUT:-300}" apt-get "${apt_opts[@]}" -q update >&2 ||
            echo "lockscope-vm: apt-get update of $suite failed (offline?)" >&2
    fi
fi

# The meta package depends on exactly one versioned image package.
pkg=$(apt-cache "${apt_opts[@]}" depends "$meta" 2>/dev/null |
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
    (cd "$tmp" && timeout "${LS_VM_FETCH_TIMEOUT:-300}" \
        apt-get "${apt_opts[@]}" download "$pkg" >&2) ||
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
