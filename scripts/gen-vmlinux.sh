#!/bin/sh
# Regenerate vmlinux/<arch>/vmlinux.h from a kernel's BTF.
# usage: scripts/gen-vmlinux.sh [BTF_FILE] [ARCH]   (defaults: running kernel, x86)
set -eu
btf=${1:-/sys/kernel/btf/vmlinux}
arch=${2:-x86}
[ -r "$btf" ] || { echo "gen-vmlinux: failed to read $btf: no such BTF file" >&2; exit 1; }
mkdir -p "vmlinux/$arch"
bpftool btf dump file "$btf" format c > "vmlinux/$arch/vmlinux.h.tmp"
mv "vmlinux/$arch/vmlinux.h.tmp" "vmlinux/$arch/vmlinux.h"
echo "wrote vmlinux/$arch/vmlinux.h from $btf"
