#!/bin/sh
# scripts/setup.sh [build|test] - install what lockscope needs from Debian.
#   build: compilers and libraries to build ./lockscope
#   test:  build + what the test suite runs (cmocka, workloads, references)
set -eu
what=${1:-build}
build_pkgs="make gcc clang llvm libbpf-dev bpftool libelf-dev zlib1g-dev
	libjson-c-dev libncurses-dev libmicrohttpd-dev libcap-ng-dev pkg-config"
test_pkgs="libcmocka-dev clang-format stress-ng bpftrace python3 tmux qemu-system-x86
	busybox-static cpio curl prometheus python3-prometheus-client"
# record/compare: schema validation, libFuzzer (clang's compiler-rt)
test_pkgs="$test_pkgs python3-jsonschema libclang-rt-14-dev"
# compare's statistics: expected values from scipy (tests/integration/test_stats.sh)
test_pkgs="$test_pkgs python3-scipy"
# make bench: perf lock record as a reference observer
test_pkgs="$test_pkgs linux-perf"
# report screenshots (headless Chromium, pixels checked with PIL) and the
# Debian package (build, lintian)
test_pkgs="$test_pkgs chromium python3-pil dpkg-dev debhelper lintian"
# the arm64 guest (make guest-arm64, tests/integration/test_vm_arm64.sh):
# qemu-system-aarch64, and on another host a cross compiler with arm64
# libraries from Debian multiarch (dpkg --add-architecture arm64).  The
# arm64 busybox and kernel are downloaded by tests/vm, not installed.
arm64_pkgs="qemu-system-arm"
if [ "$(dpkg --print-architecture)" != arm64 ]; then
	arm64_pkgs="$arm64_pkgs gcc-aarch64-linux-gnu libc6-dev:arm64
		libbpf-dev:arm64 libelf-dev:arm64 zlib1g-dev:arm64
		libjson-c-dev:arm64 libncurses-dev:arm64
		libmicrohttpd-dev:arm64 libcap-ng-dev:arm64"
fi
test_pkgs="$test_pkgs $arm64_pkgs"
case "$what" in
build) pkgs=$build_pkgs ;;
test) pkgs="$build_pkgs $test_pkgs" ;;
*) echo "setup: failed to parse argument '$what': expected build or test" >&2; exit 2 ;;
esac
missing=""
for p in $pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
		missing="$missing $p"
done
if [ -n "$missing" ]; then
	export DEBIAN_FRONTEND=noninteractive
	case $missing in
	*:arm64*)
		dpkg --print-foreign-architectures | grep -qx arm64 ||
			dpkg --add-architecture arm64
		;;
	esac
	apt-get update -qq
	# shellcheck disable=SC2086
	apt-get install -y -qq --no-install-recommends $missing
fi
