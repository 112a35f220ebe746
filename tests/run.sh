#!/usr/bin/env bash
# tests/run.sh [TIER [MATCH]] - run one test tier, or all of them (the
# default); MATCH keeps only the test scripts whose path contains it:
#   static       tests/static/*.sh: formatting and layout (no build needed)
#   unit         build/tests/*/test_*: cmocka, no root
#   integration  tests/integration/*.sh but the guest tier: this kernel,
#                root; some of them in two streams at once (see below)
#   vm           tests/integration/test_vm*.sh: Debian kernels under qemu
#                (x86 generic and rt, arm64)
#   all          every tier above: static, unit, the guest tier beside
#                some integration scripts, then the others (some of them
#                in two streams at once)
#   quick        static, unit and one smoke run on this kernel
#                (tests/integration/test_smoke.sh): make check-quick
# Prints each script's seconds (wall clock and CPU) as it ends, the
# slowest five, then one
# closing line "N passed, N failed, N skipped"; exits 1 if anything failed.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
export LS_ROOT=$root LS=$root/lockscope
tmpd=$(mktemp -d)
export LS_RESULTS=$tmpd/results LS_DOCTOR_CACHE=$tmpd/doctor.txt
times=$tmpd/times
: >"$LS_RESULTS"
trap 'rm -rf "$tmpd"' EXIT

tier=${1:-all}
match=${2:-}
case "$tier" in
static | unit | integration | vm | all | quick) ;;
*)
	echo "tests/run.sh: failed to parse tier '$tier': expected static, unit, integration, vm, all or quick" >&2
	exit 2
	;;
esac
want() {
	[ "$tier" = all ] || [ "$tier" = "$1" ] ||
		{ [ "$tier" = quick ] && [ "$1" != vm ]; }
}
picked() { [ -z "$match" ] || [[ "$1" == *"$match"* ]]; }
# cpu VAR: the CPU seconds (user + system) of this shell's ended children
# into VAR (times must run in this shell, not in a $(...) of it)
cpu() {
	local f=$tmpd/cpu.$BASHPID
	times >"$f"
	printf -v "$1" %s "$(awk 'NR == 2 { split($0, f, /[ms ]+/)
		printf "%.2f", f[1] * 60 + f[2] + f[3] * 60 + f[4] }' "$f")"
}
# timed NAME CMD...: run CMD, print its wall-clock and CPU seconds, and
# keep the wall-clock ones
timed() {
	local name=$1 t0=$EPOCHREALTIME c0 c1 t
	cpu c0
	shift
	"$@"
	cpu c1
	t=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }')
	echo "-- $name: ${t}s ($(awk -v a="$c0" -v b="$c1" 'BEGIN { printf "%.1f", b - a }')s CPU)"
	echo "$t $name" >>"$times"
}

# script FILE: run a test script; it reports through its checks and ends
# 0, so any other end (a typo, an unbound variable under set -u) is a
# failure, not checks that silently did not run
script() {
	local rc
	bash "$1"
	rc=$?
	[ "$rc" -eq 0 ] && return 0
	echo "FAIL: $1: ended with exit status $rc, its later checks not run"
	echo fail >>"$LS_RESULTS"
}

if want static; then
	for t in tests/static/*.sh; do
		picked "$t" || continue
		echo "== $t"
		timed "$t" script "$t"
	done
fi
if want unit; then
	for b in build/tests/*/test_*; do
		picked "$b" && timed "$b" tests/run-unit.sh "$b"
	done
fi
# run_buffered SCRIPT: run it, its output (its "== SCRIPT" line, stdout
# and stderr, its seconds) kept in a file and printed whole when it ends,
# under a lock: scripts run at once never interleave
run_buffered() {
	local buf=$tmpd/out.$BASHPID
	{
		echo "== $1"
		timed "$1" script "$1"
	} >"$buf" 2>&1
	flock "$tmpd/print.lock" cat "$buf"
}
# lane QUEUE: run_buffered the scripts of QUEUE (a file, one a line), each
# taken off its top when the last one ends, until it is empty
lane() {
	local t
	while t=$(flock "$1.lock" sh -c 'head -n1 "$1" && sed -i 1d "$1"' _ "$1") &&
		[ -n "$t" ]; do
		run_buffered "$t"
	done
}
# The guest tier in two lanes at once, taking the scripts longest first
# (test_vm.sh's two x86 guests, the arm64 guest, then the rest) off one
# queue.  A guest's limits are of its own CPU time, not of the wall
# clock, and its checks compare numbers of one run inside it, so a guest
# beside another is slower, not wrong.  The KVM guest pins its vCPUs
# beside a hog and compares that with an unpinned run: it runs alone,
# after the lanes.
#
# Under "all" the lanes run beside the integration scripts named below,
# then the other integration scripts run alone.  These ones check files,
# exit statuses, signals, CPU time or equalities inside one run, none of
# which a CPU-bound guest beside them changes.  The others check
# contention rates, throughput, or one tracer against another in the
# same run: beside the guests, a cgroup's genetlink workers once made no
# contention at all, and lockscope's chained waits fell 16% short of
# bpftrace's (15% allowed), so they wait for the guests to end.
beside_guests=(test_collect.sh test_compat.sh test_deb.sh test_files.sh
	test_fuzz.sh test_hardening.sh test_hold.sh test_options.sh
	test_probeonly.sh test_record_scale.sh test_smoke.sh test_stats.sh)
# Then, with no guest beside them, two streams at once: the scripts of
# second_stream one after the other in the background, beside those of
# beside_second in the foreground; then the others alone.  Their workloads
# run for fixed times, so two at once take the time of one.  Neither list
# checks a rate against a bound, a verdict on throughput, or shares of
# everything the kernel shows (other scripts' locks join those): they
# check names, files, screens and retry where a busy machine may make no
# contention.  The two streams share no lock (the background one contends
# on the genetlink mutex, the other on pipes, files and memory of its
# own): a lock's row counts a failed spin when the spin fails, the wait's
# time when the wait ends, so a lock another script still waits on reads
# more spin than wait, and test_vcpu adds up the busiest pipe mutex's
# waits by state exactly.  test_core runs alone: it adds up all begins
# and their ends exactly (its genetlink row once read 27 us more spin and
# sleep than wait, beside test_lkp's netlink-task).  test_serve_memory
# runs alone too: its churn of thousands of pipes fills every system-wide
# record made meanwhile (test_record's schema checks took 21 s, not 2);
# and test_scale, whose 64-row table must take over 100 of its own locks
# with none refused (beside the other stream's netlink-task, one was).
second_stream=(test_figures.sh test_lkp.sh test_record.sh test_report.sh)
beside_second=(test_hostile.sh test_slab_names.sh test_top.sh test_vcpu.sh)
# in_list NAME LIST...: whether NAME is in LIST
in_list() {
	local n=$1 b
	shift
	for b; do
		[ "$b" = "$n" ] && return 0
	done
	return 1
}
# group SCRIPT: which of the lists above SCRIPT is in (guests, second,
# paired), or alone
group() {
	local n
	n=$(basename "$1")
	if in_list "$n" "${beside_guests[@]}"; then
		echo guests
	elif in_list "$n" "${second_stream[@]}"; then
		echo second
	elif in_list "$n" "${beside_second[@]}"; then
		echo paired
	else
		echo alone
	fi
}
lanes=()
alone=()
if want vm; then
	: >"$tmpd/queue"
	for t in tests/integration/test_vm.sh tests/integration/test_vm_arm64.sh \
		tests/integration/test_vm*.sh; do
		picked "$t" || continue
		grep -qxF "$t" "$tmpd/queue" && continue
		case $t in
		*_kvm.sh) alone+=("$t") ;;
		*) echo "$t" >>"$tmpd/queue" ;;
		esac
	done
	lane "$tmpd/queue" &
	lanes+=($!)
	lane "$tmpd/queue" &
	lanes+=($!)
fi
# integration GROUP...: the integration scripts of those groups (see
# group; "all": every one), one after the other; each in a subshell when
# BUSY is set: its CPU seconds are its own, not those of a lane or stream
# that ended meanwhile
integration() {
	local t
	for t in tests/integration/*.sh; do
		[[ "$t" == tests/integration/test_vm*.sh ]] && continue
		[ "$tier" = quick ] && [ "$t" != tests/integration/test_smoke.sh ] && continue
		picked "$t" || continue
		[ "$1" = all ] || in_list "$(group "$t")" "$@" || continue
		if [ -n "${BUSY:-}" ]; then
			(run_buffered "$t")
		else
			echo "== $t"
			timed "$t" script "$t"
		fi
	done
}
# the second stream beside the paired scripts (and, without guests, the
# scripts meant for beside them), then the others alone
streams() {
	local second
	BUSY=1 integration second &
	second=$!
	BUSY=1 integration paired "$@"
	wait "$second"
	integration alone
}
if want integration && want vm; then
	BUSY=1 integration guests
	wait "${lanes[@]}"
	streams
elif want integration && [ "$tier" != quick ]; then
	streams guests
elif want integration; then
	integration all
else
	[ ${#lanes[@]} -gt 0 ] && wait "${lanes[@]}"
fi
for t in "${alone[@]}"; do
	run_buffered "$t"
done

if [ -s "$times" ]; then
	echo "slowest five of $(wc -l <"$times") scripts ($(awk '{ s += $1 } END { printf "%.0f", s }' "$times")s in all):"
	sort -rn "$times" | head -5 | awk '{ printf "  %7.1fs  %s\n", $1, $2 }'
fi
p=$(grep -c '^pass$' "$LS_RESULTS")
f=$(grep -c '^fail$' "$LS_RESULTS")
s=$(grep -c '^skip$' "$LS_RESULTS")
echo "$p passed, $f failed, $s skipped"
[ "$f" -eq 0 ]
