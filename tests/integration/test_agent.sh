#!/usr/bin/env bash
# tests/integration/test_agent.sh - the agent at many locks, all changing:
# lock_spread walks LS_AGENT_LOCKS pipes (each pass contends every pipe's
# mutex) under `lockscope top -b -i 1`.  Once the lock table holds them,
# ten frames in a row must keep time (each frame's interval, as its header
# prints it, adds up to at most 11 s: a frame every interval, not an
# interval after the last frame was printed), and the agent's RSS must
# stay under its base plus the bytes per lock docs/overhead.md states.
# bench/bench.py --phases agent measures the whole curve; this is the
# check `make test` can afford.
set -u
. "$(dirname "$0")/../lib.sh"

T=agent
need_root "$T" || exit 0
need_tracepoints "$T" || exit 0
need_cmd "$T: python3" python3 || exit 0
W=$LS_ROOT/build
N=${LS_AGENT_LOCKS:-10000}
# docs/overhead.md: the agent's RSS is its base plus at most this many
# bytes per lock in the table (the rows of its snapshots and the mapped
# lock_rows); the base is what it holds with a near-empty table
PER_LOCK=${LS_AGENT_BYTES_PER_LOCK:-12000}
BASE_KB=32768

out=$LS_OUT/agent
rm -rf "$out"
mkdir -p "$out"
pids=()
cleanup() {
	for p in "${pids[@]}"; do
		kill "$p" 2>/dev/null
	done
	wait 2>/dev/null
}
trap cleanup EXIT

# a descriptor pair per pipe; lock_spread shares the pipes out over
# processes when the limit is lower
ulimit -n $((3 * N + 256)) 2>/dev/null || ulimit -n "$(ulimit -Hn)"
"$W/lock_spread" $((N + N / 2)) 600 >/dev/null 2>"$out/spread.err" &
pids+=($!)
"$LS" top -b -i 1 --max-locks 16384 >"$out/top.txt" 2>"$out/top.err" &
tpid=$!
pids+=("$tpid")

# entries: the lock_stats entries top's collector holds now
entries() {
	python3 "$LS_ROOT/bench/mapfill.py" "$tpid" lock_stats 2>/dev/null |
		python3 -c 'import json,sys; print(json.load(sys.stdin)["lock_stats"]["entries"])' 2>/dev/null
}
filled() {
	local e
	e=$(entries)
	[ "${e:-0}" -ge "$N" ]
}
if ! wait_for filled 60; then
	fail "$T: the table never held $N locks ($(entries) entries; $(tail -2 "$out/spread.err" "$out/top.err"))"
	exit 0
fi
frames() { grep -c '^lockscope top - ' "$out/top.txt"; }
f0=$(frames)
if ! wait_for '[ "$(frames)" -ge $((f0 + 11)) ]' 40; then
	fail "$T: $((f0 + 11)) frames never came ($(frames) in 40 s at $N locks)"
	exit 0
fi
rss=$(awk '/^VmRSS:/ {print $2}' "/proc/$tpid/status")
locks=$(entries)
# the ten frames after the first one seen full, as their headers say
span=$(grep '^lockscope top - ' "$out/top.txt" | sed -n "$((f0 + 2)),$((f0 + 11))p" |
	sed -n 's/.* interval \([0-9.]*\)s .*/\1/p' | awk '{s += $1} END {printf "%.1f", s}')
if awk -v s="$span" 'BEGIN {exit !(s > 0 && s <= 11.0)}'; then
	pass "$T: ten frames at $locks locks took ${span} s of intervals (at most 11)"
else
	fail "$T: ten frames at $locks locks took ${span} s of intervals (more than 11: frames fall behind)"
fi
bound=$((BASE_KB + locks * PER_LOCK / 1024))
if [ "${rss:-0}" -gt 0 ] && [ "$rss" -le "$bound" ]; then
	pass "$T: RSS $rss kB at $locks locks, within $bound kB ($BASE_KB kB + $PER_LOCK bytes a lock)"
else
	fail "$T: RSS ${rss:-?} kB at $locks locks, over $bound kB ($BASE_KB kB + $PER_LOCK bytes a lock)"
fi
