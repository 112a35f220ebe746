#!/usr/bin/env bash
# The agent with a big table, all of it changing: `top -b -i 1` while
# lock_spread contends 10k pipe mutexes a pass.  Its frames keep time (one
# a second, none behind) and its RSS stays under a bound scaled from the
# per-lock figure of docs/overhead.md (35.4 MB + 4.70 kB a lock, the fit of
# the agent's memory over 1k..120k locks in make bench's agent phase): at
# most 1.35 times the fit at the number of locks in the table (this check
# reads RSS after 6 s, while the snapshots' arrays may still grow: 107 to
# 113 MB at 12k locks, the fit 92 MB), so a row that grows by half fails.
# make bench runs the same at 120k locks; this is its light check.
. "$(dirname "$0")/../lib.sh"
T="agent scale"
out=$LS_OUT/agent_scale
rm -rf "$out"
mkdir -p "$out"
W=$LS_ROOT/build
LOCKS=10000
PIPES=$((LOCKS + LOCKS / 5))
WINDOW=6

need_root "$T" || exit 0
need_tracepoints "$T" || exit 0
if [ "$(uname -m)" != x86_64 ]; then
	# bench/mapfill.py counts the table's entries by system call number
	skip "$T: bench/mapfill.py knows the bpf system call of x86_64 only"
	exit 0
fi

# lock_spread in its own process group, with room for its pipes
(
	ulimit -n $((2 * PIPES + 256)) 2>/dev/null
	exec setsid "$W/lock_spread" "$PIPES" 120
) >/dev/null 2>"$out/spread.err" &
spread=$!
"$LS" top -b -i 1 --max-locks 16384 >"$out/top.out" 2>"$out/top.err" &
top=$!
trap 'kill -- "-$spread" 2>/dev/null; kill_pids "$top" "$spread"' EXIT

entries() {
	python3 "$LS_ROOT/bench/mapfill.py" "$top" lock_stats 2>/dev/null |
		python3 -c 'import json,sys; print(json.load(sys.stdin)["lock_stats"]["entries"])' 2>/dev/null
}
frames() { grep -ac '^lockscope top -' "$out/top.out"; }
rss_kb() { awk '/^VmRSS:/ { print $2 }' "/proc/$top/status"; }

if ! wait_for '[ "$(entries)" -ge "$LOCKS" ] 2>/dev/null' 90; then
	fail "$T: the table never held $LOCKS locks in 90 s ($(entries) entries; $(tail -2 "$out/top.err" "$out/spread.err" | tr '\n' ' '))"
	exit 0
fi
f0=$(frames)
t0=${EPOCHREALTIME/./}
wait_for "[ \$(( \${EPOCHREALTIME/./} - $t0 )) -ge $((WINDOW * 1000000)) ]" $((WINDOW + 5))
f1=$(frames)
rss=$(rss_kb)
n=$(entries)
alive=$(kill -0 "$spread" 2>/dev/null && echo yes)

# frames: one an interval, at most one short of the window (its edges)
if [ "$alive" = yes ] && [ $((f1 - f0)) -ge $((WINDOW - 1)) ]; then
	pass "$T: $((f1 - f0)) frames in ${WINDOW} s with $n locks changing"
else
	fail "$T: $((f1 - f0)) frames in ${WINDOW} s with $n locks (lock_spread running: ${alive:-no}; $(tail -1 "$out/top.err"))"
fi
bound=$(((35400 + 470 * n / 100) * 27 / 20))
if [ -n "$rss" ] && [ "$rss" -le "$bound" ]; then
	pass "$T: RSS ${rss} KB with $n locks ($((rss * 1024 / n)) bytes a lock in all), bound ${bound} KB"
else
	fail "$T: RSS ${rss:-?} KB with $n locks, above the bound ${bound} KB (1.35 x (35.4 MB + 4.70 kB a lock))"
fi
