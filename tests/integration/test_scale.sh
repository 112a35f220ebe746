#!/usr/bin/env bash
# The lock table at scale (issue 15): each lock's counters and histograms
# live in a row of lock_rows, read in place, which the lock_stats entry
# names; every lock's whole-wait histogram counts exactly its contentions,
# in hist's JSON, with a table too small for the workload (whose losses
# carry a hint naming the option to raise, in the text and the JSON); and
# forgotten locks' rows are handed back and taken again by new locks, in
# both builds of the BPF object.
. "$(dirname "$0")/../lib.sh"
out=$LS_OUT/scale
rm -rf "$out"
mkdir -p "$out"
W=$LS_ROOT/build

need_root "scale" || exit 0
need_tracepoints "scale" || exit 0

# hists_exact NAME FILE: every lock of hist's JSON FILE has a whole-wait
# histogram summing to its contentions, and some lock contended
hists_exact() {
	local r
	r=$(python3 - "$2" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
bad = [(l["name"], l["contentions"], sum(l["hist_log2_ns"]))
       for l in d["locks"] if sum(l["hist_log2_ns"]) != l["contentions"]]
most = max([l["contentions"] for l in d["locks"]] or [0])
print("%d locks, most contended %d, %d mismatched %s"
      % (len(d["locks"]), most, len(bad), bad[:3]))
sys.exit(1 if bad or most < 100 else 0)
EOF
	)
	if [ $? -eq 0 ]; then pass "$1: $r"; else fail "$1: $r"; fi
}

# --- histograms from lock_rows: exact per lock -- -----------------------------
"$LS" hist --json -- "$W/pipe_hammer" 2 2 >"$out/pipe.json" 2>"$out/pipe.err"
rc=$?
if [ $rc -eq 0 ]; then
	hists_exact "hist: each lock's histogram counts its contentions" "$out/pipe.json"
else
	fail "hist: lockscope exit $rc: $(tail -3 "$out/pipe.err")"
fi

# --- a full lock table: counted losses, a hint, histograms still exact ------
"$LS" hist --json --max-locks 8 -- "$W/lock_spread" 64 2 \
	>"$out/tiny.json" 2>"$out/tiny.err"
rc=$?
if [ $rc -eq 0 ]; then
	lost=$(jget "$out/tiny.json" "d['losses']['lock map full']")
	hint=$(jget "$out/tiny.json" "d.get('loss_hint')")
	if [ "${lost:-0}" -gt 0 ] && [ "$hint" = "lock table full: raise --max-locks" ]; then
		pass "full table: $lost waits lost, counted; JSON hint '$hint'"
	else
		fail "full table: lost=$lost hint='$hint'"
	fi
	hists_exact "full table: histograms of the locks kept stay exact" "$out/tiny.json"
else
	fail "full table: lockscope exit $rc: $(tail -3 "$out/tiny.err")"
fi
"$LS" hist --max-locks 8 -- "$W/lock_spread" 64 1 >"$out/tiny.txt" 2>&1
if grep -q '^losses: .*lock map full' "$out/tiny.txt" &&
	grep -qx 'hint: lock table full: raise --max-locks' "$out/tiny.txt"; then
	pass "full table: text says the losses and the option on the next line"
else
	fail "full table: text: $(grep -A1 '^losses' "$out/tiny.txt")"
fi

# --- forgotten locks' rows handed back and taken again ----------------------
# top forgets locks idle for one 0.3 s interval; 4 rounds of 24 fresh pipes
# (with the locks around them, over 32 a round) make over 100 entries
# where the table has 64 rows: unless the rows of forgotten locks come
# back, later locks find none ("lock rows full").  The compat build (no
# fetch atomics) hands out fresh rows per CPU; recycled ones are shared.
# Both builds' tops run at once, through the same rounds.
tpids=()
for build in main compat; do
	LOCKSCOPE_BPF_OBJECT=$build "$LS" top -b -i 0.3 --forget 1 --max-locks 64 \
		>"$out/top-$build.txt" 2>&1 &
	tpids+=($!)
done
# frames BUILD: the frames its top printed so far
frames() { grep -c "^events/s:" "$out/top-$1.txt"; }
wait_for '[ "$(frames main)" -ge 2 ] && [ "$(frames compat)" -ge 2 ]' 10
for _ in 1 2 3 4; do
	"$W/lock_spread" 24 1 2>/dev/null
	# the interval the pipes ended in, then a whole idle one: at its
	# refresh they are forgotten; one more for good measure
	nm=$(frames main) nc=$(frames compat)
	wait_for '[ "$(frames main)" -ge $((nm + 3)) ] &&
		[ "$(frames compat)" -ge $((nc + 3)) ]' 10
done
kill -INT "${tpids[@]}"
wait "${tpids[@]}" 2>/dev/null
for build in main compat; do
	t=$out/top-$build.txt
	frames=$(grep -c "^events/s:" "$t")
	busy=$(grep -c '^events/s: [1-9][0-9]* begins' "$t")
	last=$(grep "^events/s:" "$t" | tail -1)
	if [ "$frames" -ge 10 ] && [ "$busy" -ge 3 ] && ! grep -q 'lock rows full' "$t"; then
		pass "recycled rows ($build build): over 100 locks through a 64-row table, none refused ($frames frames, $busy busy; $last)"
	else
		fail "recycled rows ($build build): $frames frames, $busy busy; $last; $(grep -m1 'lock rows full' "$t")"
	fi
done
