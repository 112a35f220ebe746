#!/usr/bin/env bash
# The lock table at scale (issue 15): each lock's histograms live in
# lock_hists, a row the lock_stats entry names, read in place; every lock's
# whole-wait histogram counts exactly its contentions, in hist's JSON, with
# a table too small for the workload (whose losses carry a hint naming the
# option to raise, in the text and the JSON), and in serve after forgotten
# locks' rows were handed back and taken again by new locks.
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

# --- histograms from lock_hists: exact per lock -----------------------------
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
# serve forgets locks idle for one 0.3 s interval; 3 rounds of 24 fresh
# pipes need 72 rows where the table has 32: without the rows coming back,
# later locks would have no histogram, and a row handed back unzeroed would
# count waits its new lock never had.
log=$out/serve.log
"$LS" serve --listen 127.0.0.1:0 -i 0.3 --forget 1 --max-locks 32 >"$log" 2>&1 &
spid=$!
trap 'kill $spid 2>/dev/null; wait $spid 2>/dev/null' EXIT
URL=
for _ in $(seq 100); do
	URL=$(grep -o 'http://127\.0\.0\.1:[0-9]*' "$log" | head -1)
	[ -n "$URL" ] && break
	sleep 0.1
done
if [ -z "$URL" ]; then
	fail "recycled rows: serve did not start: $(tail -3 "$log")"
	exit 0
fi
for _ in 1 2 3; do
	"$W/lock_spread" 24 1 2>/dev/null
	sleep 1.2
done
curl -sf "$URL/metrics" -o "$out/m.txt"
kill $spid
wait $spid 2>/dev/null
trap - EXIT
r=$(python3 - "$out/m.txt" <<'EOF'
import re, sys
cont, count, forgotten = {}, {}, 0
for line in open(sys.argv[1]):
    m = re.match(r'(lockscope_lock_contentions|lockscope_lock_wait_seconds_count)(\{.*\}) (\S+)$', line)
    if m:
        (cont if m.group(1) == "lockscope_lock_contentions" else count)[m.group(2)] = float(m.group(3))
bad = [k for k in cont if count.get(k) != cont[k]]
pipes = sum(1 for k in cont if cont[k] > 0)
print("%d lock series, %d mismatched %s" % (len(cont), len(bad),
      [(k, cont[k], count.get(k)) for k in bad[:2]]))
sys.exit(1 if bad or pipes < 40 else 0)
EOF
)
if [ $? -eq 0 ]; then
	pass "recycled rows: every lock's histogram counts its contentions ($r)"
else
	fail "recycled rows: $r"
fi
