#!/bin/bash
# Usage: tests/vm/kernels.sh [FLAVOUR...]   (default: host amd64 rt-amd64 arm64;
#        SUITE-FLAVOUR, e.g. bullseye-amd64, boots another Debian suite's kernel)
# Measures what each kernel family gives (docs/sources.md, "Kernels"): runs
# tests/vm/kernels-payload.sh on this host ("host") and inside Debian's stock
# kernels under qemu, keeps the logs in ${LS_OUT:-tests/out}/kernels/, and
# prints the two markdown tables of tests/vm/kernels-table.py.  Needs make
# tests-build (./lockscope, build/*_hammer) and, for arm64, make guest-arm64.
# A few minutes of emulation: not part of make test.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
vm=$root/tests/vm
out=${LS_OUT:-$root/tests/out}/kernels
mkdir -p "$out"
die() { echo "lockscope-kernels: failed to $*" >&2; exit 1; }
[ $# -gt 0 ] || set -- host amd64 rt-amd64 arm64
args=()
for fl in "$@"; do
	log=$out/$fl.log
	case $fl in
	host)
		PATH=$root:$root/build:$PATH sh "$vm/kernels-payload.sh" >"$log" 2>&1 ||
			die "run the payload on this host: see $log"
		;;
	arm64)
		b=$root/build-arm64
		k=$("$vm/fetch-kernel.sh" arm64) || die "fetch the arm64 kernel"
		bb=$("$vm/fetch-deb.sh" busybox-static:arm64) || die "fetch the arm64 busybox"
		LS_VM_ARCH=arm64 LS_VM_BUSYBOX=$bb/bin/busybox "$vm/mkinitrd.sh" \
			"$out/$fl.gz" "$vm/kernels-payload.sh" "$b/lockscope" \
			"$b/pipe_hammer" "$b/mmap_hammer" "$b/genl_hammer" >/dev/null
		LS_VM_ARCH=arm64 "$vm/boot.sh" "$k" "$out/$fl.gz" 600 >"$log" ||
			die "run the arm64 guest: see $log"
		;;
	*)
		case $fl in
		bullseye-*) k=$("$vm/fetch-kernel.sh" "${fl#*-}" "${fl%%-*}") ;;
		*) k=$("$vm/fetch-kernel.sh" "$fl") ;;
		esac || die "fetch the $fl kernel"
		bins=("$root/lockscope" "$root/build/pipe_hammer" "$root/build/mmap_hammer")
		if command -v stress-ng >/dev/null; then bins+=("$(command -v stress-ng)"); fi
		"$vm/mkinitrd.sh" "$out/$fl.gz" "$vm/kernels-payload.sh" "${bins[@]}" >/dev/null
		"$vm/boot.sh" "$k" "$out/$fl.gz" 600 >"$log" || die "run the $fl guest: see $log"
		;;
	esac
	args+=("$fl=$log")
done
python3 "$vm/kernels-table.py" "${args[@]}"
