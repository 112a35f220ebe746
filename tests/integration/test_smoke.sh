#!/usr/bin/env bash
# tests/integration/test_smoke.sh - the few seconds `make check-quick` spends
# on this kernel: doctor names an active source, hist traces the pipe
# hammer and finds its mutex with counts that add up, top -b prints a frame.
# The features themselves are checked by the other scripts.
set -u
. "$(dirname "$0")/../lib.sh"

T=smoke
need_tracepoints "$T" || exit 0
O=$LS_OUT/smoke
mkdir -p "$O"

"$LS" doctor >"$O/doctor.txt" 2>&1
rc=$?
check "$T: doctor exits 0 with the tracepoints active" \
	bash -c "[ $rc = 0 ] && grep -Eq '^tracepoints +(tp_btf|raw_tp) +yes +yes' '$O/doctor.txt'"

# the scheduler may keep a pair's reader and writer on one CPU for a whole
# run (no contention at all): up to three runs
row='[r for r in d["locks"] if r["class"].startswith("pipe_inode_info.mutex") and r["kind"] == "mutex"]'
for _ in 1 2 3; do
	"$LS" hist --json -F 0 -- "$LS_ROOT/build/pipe_hammer" 2 1 >"$O/hist.json" 2>"$O/hist.err"
	rc=$?
	n=$(jget "$O/hist.json" "sum(r['contentions'] for r in $row)" 2>/dev/null)
	[ "$rc" = 0 ] && [ "${n:-0}" -gt 0 ] && break
done
ok=$(jget "$O/hist.json" "all(r['spin_ns'] + r['sleep_ns'] == r['total_ns'] and sum(r['hist_log2_ns']) == r['contentions'] for r in $row)" 2>/dev/null)
if [ "$rc" = 0 ] && [ "${n:-0}" -gt 0 ] && [ "$ok" = True ]; then
	pass "$T: hist -- pipe_hammer: the pipe mutex contended $n times, spin + sleep = wait, histogram = count"
else
	fail "$T: hist -- pipe_hammer (exit $rc): pipe mutex ${n:-absent}, sums $ok: $(tail -2 "$O/hist.err")"
fi

"$LS" top -b -n 2 -i 0.3 -F 0 >"$O/top.txt" 2>"$O/top.err"
rc=$?
check "$T: top -b -n 2 prints two frames, exit 0" \
	bash -c "[ $rc = 0 ] && [ \"\$(grep -c '^lockscope top' '$O/top.txt')\" = 2 ] && grep -q '^LOCK ' '$O/top.txt'"
