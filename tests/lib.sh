# tests/lib.sh - sourced by integration tests.
# Each check reports exactly one of pass/fail/skip; tests/run.sh counts them.
# A check that needs something the kernel or machine lacks calls skip with
# the reason: it counts as skipped, never as passed.

LS_ROOT=${LS_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
LS=${LS:-$LS_ROOT/lockscope}
LS_RESULTS=${LS_RESULTS:-/dev/null}
LS_OUT=${LS_OUT:-$LS_ROOT/tests/out}
mkdir -p "$LS_OUT"

pass() { echo "PASS: $*"; echo pass >>"$LS_RESULTS"; }
fail() { echo "FAIL: $*"; echo fail >>"$LS_RESULTS"; }
skip() { echo "SKIP: $*"; echo skip >>"$LS_RESULTS"; }

# check NAME CMD...: pass when CMD succeeds, else fail.
check() {
	local name=$1
	shift
	if "$@"; then pass "$name"; else fail "$name"; fi
}

# verdicts PREFIX: one check per "pass|TEXT" or "fail|TEXT" line of stdin
# (what a python3 check script prints), named "PREFIX: TEXT".
verdicts() {
	local verdict text
	while IFS='|' read -r verdict text; do
		case $verdict in
		pass) pass "$1: $text" ;;
		*) fail "$1: $text" ;;
		esac
	done
}

# need_root NAME: skip NAME and return 1 unless running as root.
need_root() {
	if [ "$(id -u)" != 0 ]; then
		skip "$1: needs root (CAP_BPF, CAP_PERFMON)"
		return 1
	fi
}

# need_tracepoints NAME: skip unless lock:contention_begin exists in BTF.
need_tracepoints() {
	need_root "$1" || return 1
	if ! grep -q . /sys/kernel/btf/vmlinux 2>/dev/null; then
		skip "$1: no kernel BTF"
		return 1
	fi
	if ! "$LS" doctor 2>/dev/null | grep -q '^tracepoints .* yes '; then
		skip "$1: lock:contention tracepoints unavailable (see lockscope doctor)"
		return 1
	fi
}

# need_cmd NAME CMD: skip unless CMD is installed.
need_cmd() {
	if ! command -v "$2" >/dev/null 2>&1; then
		skip "$1: $2 is not installed"
		return 1
	fi
}

# jq-like field access with python3: jget FILE EXPR (EXPR uses d = the JSON)
jget() {
	python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$1" "$2"
}

mount_tracefs() {
	[ -e /sys/kernel/tracing/events ] ||
		mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null || true
}
