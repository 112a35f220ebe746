#!/bin/sh
# Regenerate vmlinux/<arch>/vmlinux.h from a kernel's BTF.
# usage: scripts/gen-vmlinux.sh [BTF_FILE|KERNEL_IMAGE] [ARCH]
#   (defaults: the running kernel's /sys/kernel/btf/vmlinux, x86)
# A raw BTF file or an ELF vmlinux goes to bpftool as it is.  A kernel boot
# image (arm64 Image, gzip'd or not) carries its .BTF section as a plain
# blob: it is cut out by its header (magic 0xeb9f, version 1, hdr_len 24;
# length hdr_len + str_off + str_len) and must occur exactly once.
# arm64, from Debian's stock kernel (what vmlinux/arm64 was made from):
#   scripts/gen-vmlinux.sh "$(tests/vm/fetch-kernel.sh arm64)" arm64
set -eu
btf=${1:-/sys/kernel/btf/vmlinux}
arch=${2:-x86}
die() { echo "gen-vmlinux: failed to $*" >&2; exit 1; }
[ -r "$btf" ] || die "read $btf: no such BTF file"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gen-vmlinux.XXXXXX") || die "create temp dir: mktemp failed"
trap 'rm -rf "$tmp"' EXIT

magic=$(od -An -tx1 -N4 "$btf" | tr -d ' \n')
case $magic in
9feb01*|7f454c46) src=$btf ;; # raw BTF, ELF
*)
	if [ "${magic%????}" = 1f8b ]; then
		gzip -dc "$btf" >"$tmp/image" || die "decompress $btf: gzip failed"
	else
		cp "$btf" "$tmp/image"
	fi
	python3 - "$tmp/image" "$tmp/btf" <<'EOF' || die "extract BTF from $btf"
import struct, sys
img = open(sys.argv[1], "rb").read()
hdr = b"\x9f\xeb\x01\x00\x18\x00\x00\x00"  # magic, version 1, flags 0, hdr_len 24
at = []
i = img.find(hdr)
while i >= 0:
    at.append(i)
    i = img.find(hdr, i + 1)
if len(at) != 1:
    sys.exit("gen-vmlinux: want exactly one BTF header in the image, found %d" % len(at))
_, type_off, type_len, str_off, str_len = struct.unpack_from("<5I", img, at[0] + 4)
if type_off != 0 or str_off != type_off + type_len:
    sys.exit("gen-vmlinux: BTF header at %#x is not vmlinux BTF (types, then strings)" % at[0])
end = at[0] + 24 + str_off + str_len
if end > len(img):
    sys.exit("gen-vmlinux: BTF at %#x runs past the image's end" % at[0])
open(sys.argv[2], "wb").write(img[at[0]:end])
print("gen-vmlinux: BTF at offset %#x, %d bytes" % (at[0], end - at[0]), file=sys.stderr)
EOF
	src=$tmp/btf
	;;
esac
mkdir -p "vmlinux/$arch"
bpftool btf dump file "$src" format c >"vmlinux/$arch/vmlinux.h.tmp" ||
	die "dump BTF of $btf: bpftool failed"
mv "vmlinux/$arch/vmlinux.h.tmp" "vmlinux/$arch/vmlinux.h"
echo "wrote vmlinux/$arch/vmlinux.h from $btf"
