#!/usr/bin/env bash
# tests/integration/test_serve_memory.sh - `lockscope serve` as the shipped
# unit runs it (packaging/lockscope.service.in's ExecStart, on a free port)
# under lock churn: lock_spread runs back to back, each run with new pipes,
# so new contended mutexes keep coming and old ones go idle.  Its RSS must
# stay flat (it forgets idle locks by default), what it forgets must leave
# no counter going back, and once its lock table is full it must say so
# on stderr with the reason and a hint.  --forget counts collections, so
# -i 0.05 runs the unit twenty times faster: the 16 s of churn are 5.3
# minutes of the unit, its forget window of 60 intervals (3 s here) five
# times.
set -u
. "$(dirname "$0")/../lib.sh"

T=serve_memory
need_tracepoints "$T" || exit 0
for c in curl python3; do
	need_cmd "$T: $c" "$c" || exit 0
done
W=$LS_ROOT/build
unit=$LS_ROOT/packaging/lockscope.service.in
SECS=${LS_SERVE_MEMORY_S:-16}

work=$(mktemp -d /tmp/lockscope-serve-memory.XXXXXX)
chmod 755 "$work"
pids=()
churn=
cleanup() {
	[ -n "$churn" ] && kill "$churn" 2>/dev/null
	for p in "${pids[@]}"; do
		kill "$p" 2>/dev/null
	done
	wait 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT

# start_serve LOG ARGS...: serve ARGS on a free loopback port; sets SPID
# and URL once it prints its address.
start_serve() {
	local log=$1
	shift
	# ahead of the churn, so that it collects on time on a busy machine
	nice -n -10 "$LS" serve "$@" >"$log" 2>&1 &
	SPID=$!
	pids+=("$SPID")
	# serve_url prints the log instead of an address when serve fails
	URL=$(serve_url "$log" "$SPID" 127.0.0.1) && return 0
	echo "$URL"
	URL=
	return 1
}

# The unit's arguments, its port replaced by a free one.
read -r -a args < <(sed -n 's/^ExecStart=@SBINDIR@\/lockscope serve //p' "$unit")
for i in "${!args[@]}"; do
	[ "${args[$i]}" = --listen ] && args[i + 1]=127.0.0.1:0
done
echo "  the unit runs: serve ${args[*]}; here with -i 0.05"

if ! start_serve "$work/serve.log" "${args[@]}" -i 0.05; then
	fail "$T: serve starts as the unit runs it"
	exit 0
fi

# lock churn: new pipes (new pipe mutexes) every run, until stopped
(
	trap 'kill $(jobs -p) 2>/dev/null; exit 0' TERM
	while :; do
		"$W/lock_spread" 3000 2 4 >/dev/null 2>&1 &
		wait $!
	done
) &
churn=$!

# once a second: seconds, RSS (kB), the sum of every lock contention
# counter, and the locks seen so far (in the table, or forgotten)
: >"$work/samples"
start=$SECONDS
while [ $((SECONDS - start)) -lt "$SECS" ] && kill -0 "$SPID" 2>/dev/null; do
	t0=$SECONDS
	rss=$(awk '/^VmRSS:/ { print $2 }' "/proc/$SPID/status" 2>/dev/null)
	curl -s --max-time 2 "$URL/metrics" | awk -v t=$((SECONDS - start)) -v rss="${rss:-0}" '
		/^lockscope_lock_contentions_total\{/ { s += $2 }
		/^lockscope_lock_table_entries / || /^lockscope_locks_forgotten_total / { n += $2 }
		END { printf "%d %d %d %d\n", t, rss, s, n }' >>"$work/samples"
	while [ "$SECONDS" = "$t0" ]; do sleep 0.1; done
done
kill "$churn" 2>/dev/null
wait "$churn" 2>/dev/null
churn=
curl -s --max-time 2 "$URL/metrics" >"$work/metrics.txt"
m() { awk -v k="$1" '$1 == k { print $2; exit }' "$work/metrics.txt"; }
forgotten=$(m lockscope_locks_forgotten_total)
entries=$(m lockscope_lock_table_entries)
begins=$(m 'lockscope_events_total{event="begins"}')
colls=$(m lockscope_collections_total)
cp "$work/samples" "$LS_OUT/serve_memory.samples"

if ! kill -0 "$SPID" 2>/dev/null; then
	fail "$T: serve died under churn: $(tail -3 "$work/serve.log")"
	exit 0
fi
echo "  after ${SECS}s: ${colls:-?} collections, ${begins:-?} begins, ${forgotten:-none} locks forgotten, ${entries:-?} in the table"
# the churn made enough new locks to fill memory without forgetting
if [ "${forgotten:-0}" -ge 2000 ]; then
	pass "$T: forgets idle locks by default ($forgotten forgotten)"
else
	fail "$T: forgets idle locks by default: '${forgotten:-no such metric}' forgotten, want >= 2000"
fi
# flat: from the third quarter's largest RSS to the last quarter's, at
# most 2 MiB plus 2 kB per lock that came meanwhile (the first half fills
# the forget window more than twice over).  Without forgetting, every new lock
# costs at least its two rows of 2680 bytes (5.2 kB): unless enough came
# for that to show above the allowance, this machine is too busy to tell.
python3 - "$work/samples" "$SECS" <<'EOF'
import sys
rows = [[int(x) for x in l.split()] for l in open(sys.argv[1])]
secs = int(sys.argv[2])
mid = [r for r in rows if secs / 2 <= r[0] < 3 * secs / 4]
end = [r for r in rows if r[0] >= 3 * secs / 4]
if not mid or not end:
    print("  too few samples")
    sys.exit(2)
rm, re = max(r[1] for r in mid), max(r[1] for r in end)
made = end[-1][3] - mid[0][3]
allow = 2048 + 2 * made
print("  RSS: %d kB at start, %d kB most in the third quarter, %d kB most "
      "in the last, while %d new locks came (%.2f kB each; allowed %d kB)" %
      (rows[0][1], rm, re, made, (re - rm) / max(made, 1), allow))
if made * 5.23 < allow:
    print("  %d new locks would cost %.0f kB without forgetting: too few "
          "to tell against %d kB" % (made, made * 5.23, allow))
    sys.exit(3)
sys.exit(0 if re <= rm + allow else 1)
EOF
case $? in
0) pass "$T: RSS stays flat under lock churn" ;;
3) skip "$T: RSS under lock churn: too few new locks on this busy machine" ;;
*) fail "$T: RSS grows under lock churn (samples in $LS_OUT/serve_memory.samples)" ;;
esac
# forgetting takes nothing back from what was exported
if awk 'NR > 1 && $3 < prev { bad = 1; print "  went back at " $1 "s: " prev " -> " $3 } { prev = $3 } END { exit bad }' "$work/samples"; then
	pass "$T: the lock contention counters never go back while locks are forgotten"
else
	fail "$T: a lock contention counter went back"
fi
kill "$SPID" 2>/dev/null
wait "$SPID" 2>/dev/null

# ---- a full lock table is said on stderr, with the reason and a hint ----
if ! start_serve "$work/full.log" "${args[@]}" -i 0.1 --max-locks 8; then
	fail "$T: serve --max-locks 8 starts"
	exit 0
fi
"$W/lock_spread" 64 2 2 >/dev/null 2>&1
for _ in $(seq 50); do
	grep -q '^hint: ' "$work/full.log" && break
	sleep 0.1
done
grep '^lockscope: lost\|^hint' "$work/full.log" | sed 's/^/  /'
if grep -q '^lockscope: lost data in the last [0-9.]*s: .*lock map full [0-9]' "$work/full.log" &&
	grep -q '^hint: lock table full: raise --max-locks' "$work/full.log"; then
	pass "$T: a full lock table is said on stderr (reason, count, hint)"
else
	fail "$T: no loss line on stderr with --max-locks 8: $(tail -3 "$work/full.log")"
fi
