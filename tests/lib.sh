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

# doctor_once: `lockscope doctor`'s output, run once per tests/run.sh (it
# sets LS_DOCTOR_CACHE, a file; about 0.4 s a script otherwise)
doctor_once() {
	if [ -z "${LS_DOCTOR_CACHE:-}" ]; then
		"$LS" doctor 2>/dev/null
		return
	fi
	if [ ! -s "$LS_DOCTOR_CACHE" ]; then
		"$LS" doctor >"$LS_DOCTOR_CACHE.$$" 2>/dev/null
		mv -f "$LS_DOCTOR_CACHE.$$" "$LS_DOCTOR_CACHE"
	fi
	cat "$LS_DOCTOR_CACHE"
}

# need_tracepoints NAME: skip unless lock:contention_begin exists in BTF.
need_tracepoints() {
	need_root "$1" || return 1
	if ! grep -q . /sys/kernel/btf/vmlinux 2>/dev/null; then
		skip "$1: no kernel BTF"
		return 1
	fi
	if ! doctor_once | grep -q '^tracepoints .* yes '; then
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
# jgets FILE EXPR...: jget of each EXPR, a line each, in one python3 run
jgets() {
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
for e in sys.argv[2:]:
    print(eval(e))' "$@"
}

# elapsed T0 T1: seconds between two $EPOCHREALTIME values
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f\n", b - a }'; }
# under A B: whether the number A is below B
under() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a + 0 < b + 0) }'; }

mount_tracefs() {
	[ -e /sys/kernel/tracing/events ] ||
		mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null || true
}

# wait_for CONDITION TIMEOUT: evaluate the shell command CONDITION every
# 0.05 s until it succeeds (return 0) or TIMEOUT seconds (fractions allowed)
# pass (return 1).  Replaces a fixed sleep before a check.
wait_for() {
	local _wait_end
	_wait_end=$((${EPOCHREALTIME/./} + $(awk -v d="$2" 'BEGIN { printf "%d", d * 1000000 }')))
	until eval "$1"; do
		[ "${EPOCHREALTIME/./}" -lt "$_wait_end" ] || return 1
		sleep 0.05
	done
}

# wait_line FILE REGEX TIMEOUT: wait_for a line of FILE to match REGEX (grep -E)
wait_line() {
	local _file=$1 _re=$2 # seen by CONDITION: bash scopes locals dynamically
	wait_for 'grep -Eq -- "$_re" "$_file" 2>/dev/null' "$3"
}

# free_port: a loopback TCP port free at the time of the call
free_port() {
	python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}

# kill_pids PID...: end the background processes a test started, and reap them
kill_pids() {
	local p
	for p; do kill "$p" 2>/dev/null; done
	for p; do wait "$p" 2>/dev/null; done
}

# serve_url LOG PID HOST: wait (10 s at most) until `lockscope serve` PID
# writes its address http://HOST:PORT to LOG, and print it; return 1 (the
# log on stdout) if it exits or stays silent.
serve_url() {
	local _log=$1 _pid=$2 _re="http://${3//./\\.}:[0-9]*"
	if wait_for 'grep -q "$_re" "$_log" || ! kill -0 "$_pid" 2>/dev/null' 10 &&
		grep -q "$_re" "$1"; then
		grep -o "$_re" "$1" | head -1
		return 0
	fi
	cat "$1"
	return 1
}

# scrape_fresh URL FILE: wait (10 s at most) until `lockscope serve` at URL
# has made two more collections, so that one began after this call, and
# save that /metrics page in FILE
scrape_fresh() {
	local _url=$1 _file=$2 _c0
	_c0=$(curl -sf "$1/metrics" | _ls_collections -)
	wait_for 'curl -sf "$_url/metrics" -o "$_file" &&
		[ "$(_ls_collections "$_file")" -ge $((${_c0:-0} + 2)) ]' 10
}
# _ls_collections FILE: lockscope_collections_total in a /metrics page (- for stdin)
_ls_collections() {
	awk '$1 == "lockscope_collections_total" { n = $2 } END { printf "%d\n", n }' "$1"
}
