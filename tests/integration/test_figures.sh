#!/usr/bin/env bash
# tests/integration/test_figures.sh - no impossible figure in any output of
# real runs: record JSON (totals and every interval), hist --json and text,
# compare (text and JSON), the report pages, a /metrics scrape and top's
# detail page, all under genetlink contention, walked by figures.py (shares
# in [0, 100], counts not negative, no NaN or infinity, callers within the
# samples they share).
. "$(dirname "$0")/../lib.sh"
T=figures
O=$LS_OUT/figures
rm -rf "$O"
mkdir -p "$O"
FIG=$LS_ROOT/tests/integration/figures.py
NL=(stress-ng --netlink-task 2 -t 6s)
NLH=(stress-ng --netlink-task 2 -t 3s)

need_cmd "$T" python3 || exit 0
need_cmd "$T" stress-ng || exit 0
need_tracepoints "$T" || exit 0
mount_tracefs

pids=()
S=lsfig$$ # a tmux server of our own, on its own socket
cleanup() {
	command -v tmux >/dev/null && tmux -L "$S" kill-server 2>/dev/null
	for p in "${pids[@]}"; do
		kill "$p" 2>/dev/null
		wait "$p" 2>/dev/null
	done
}
trap cleanup EXIT

# figures NAME MODE FILE...: figures.py MODE finds nothing impossible
figures() {
	local name=$1 out
	shift
	if out=$(python3 "$FIG" "$@" 2>&1); then
		pass "$T: $name: $(tail -1 <<<"$out")"
	else
		fail "$T: $name: $(head -5 <<<"$out" | tr '\n' ' ')"
	fi
}

# --- record -i 1: callers within caller_samples, interval by interval ------
for r in 1 2; do
	"$LS" record -o "$O/r$r.json" -i 1 -- "${NL[@]}" >"$O/r$r.err" 2>&1 ||
		fail "$T: record $r: exit $?: $(tail -2 "$O/r$r.err")"
done
if [ -s "$O/r1.json" ]; then
	# the bug's shape: a lock read again kept adding onto its callers, so
	# they summed to several times caller_samples; the genl mutex must have
	# callers in most intervals for the check to mean anything
	res=$(python3 - "$O/r1.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
over = with_callers = genl = 0
worst = ""
for i, iv in enumerate(d["intervals"]):
    for l in iv["locks"]:
        s = sum(c["samples"] for c in l.get("callers", []))
        if l.get("callers"):
            with_callers += 1
            genl += l["name"] == "mutex@genl_rcv_msg"
        if s > l.get("caller_samples", 0):
            over += 1
            worst = worst or "interval %d %s: %d of %d" % (
                i, l["name"], s, l["caller_samples"])
print(over, with_callers, genl, len(d["intervals"]), worst)
PY
)
	read -r over with genl nint worst <<<"$res"
	if [ "${over:-1}" = 0 ] && [ "${genl:-0}" -ge 3 ]; then
		pass "$T: record -i 1: callers within caller_samples in all $with rows with callers of $nint intervals (genl mutex in $genl)"
	else
		fail "$T: record -i 1: $over rows' callers above caller_samples ($worst); genl mutex with callers in ${genl:-0} intervals"
	fi
	figures "record -i 1 JSON" json "$O/r1.json" "$O/r2.json"
fi

# --- hist, and /metrics: one run seen by three instances at once ----------
# (serve, hist --json as the PROGRAM of hist's text view: each sees the
# whole workload, as two instances do in test_hardening.sh)
"$LS" serve --listen 127.0.0.1:0 -i 0.5 >"$O/serve.log" 2>&1 &
spid=$!
pids+=("$spid")
URL=$(serve_url "$O/serve.log" "$spid" 127.0.0.1) || {
	fail "$T: serve did not start: $(tail -2 "$O/serve.log")"
	URL=
}
"$LS" hist -- sh -c 'j=$1 e=$2; shift 2; exec "$0" hist --json -- "$@" >"$j" 2>"$e"' \
	"$LS" "$O/h.json" "$O/h.err" "${NLH[@]}" >"$O/h.txt" 2>&1
rc=$?
[ "$rc" = 0 ] && [ -s "$O/h.json" ] &&
	figures "hist --json" json "$O/h.json" ||
	fail "$T: hist --json: exit $rc: $(tail -2 "$O/h.err")"
[ "$rc" = 0 ] && grep -q 'callers (' "$O/h.txt" &&
	figures "hist text (caller shares)" text "$O/h.txt" ||
	fail "$T: hist: no callers line or exit $rc: $(tail -2 "$O/h.txt")"
if [ -z "$URL" ]; then
	:
elif ! command -v curl >/dev/null; then
	skip "$T: /metrics: curl is not installed"
else
	scrape_fresh "$URL" "$O/m.txt" &&
		grep -q '^lockscope_lock_contentions_total{lock="mutex@genl_rcv_msg"' "$O/m.txt" &&
		figures "/metrics" prom "$O/m.txt" ||
		fail "$T: /metrics: no scrape or no genl mutex: $(head -c 200 "$O/m.txt")"
fi

# --- compare and report of the two records ------------------------------
if [ -s "$O/r1.json" ] && [ -s "$O/r2.json" ]; then
	"$LS" compare --format json "$O/r1.json" -- "$O/r2.json" >"$O/c.json" &&
		figures "compare --format json" json "$O/c.json" ||
		fail "$T: compare --format json: exit $?"
	"$LS" compare "$O/r1.json" -- "$O/r2.json" >"$O/c.txt" &&
		figures "compare text" text "$O/c.txt" ||
		fail "$T: compare: exit $?"
	"$LS" report -o "$O/one.html" "$O/r1.json" &&
		"$LS" report -o "$O/ab.html" "$O/r1.json" -- "$O/r2.json" &&
		figures "report pages" text "$O/one.html" "$O/ab.html" ||
		fail "$T: report: exit $?"
fi

# the fixed records: the genl mutex never failed a spin in BASE and did in
# NEW, a change from 0 that has no ratio (the page once said +inf%)
D=$LS_ROOT/tests/data
"$LS" report -o "$O/fixed.html" "$D"/record-base{1,2,3}.json -- \
	"$D"/record-new{1,2,3}.json &&
	grep -q '(was 0)' "$O/fixed.html" &&
	figures "report page of the fixed records" text "$O/fixed.html" ||
	fail "$T: report of the fixed records: no '(was 0)' or exit $?"

# --- top's detail page, refreshed for a while ---------------------------
if ! command -v tmux >/dev/null; then
	skip "$T: top detail: tmux is not installed"
else
	stress-ng --netlink-task 2 -t 30s >/dev/null 2>&1 &
	pids+=($!)
	tmux -L "$S" new-session -d -s d -x 160 -y 50 \
		"$LS top -i 0.3 -L genl_rcv_msg 2>$O/top.err; sleep 60"
	# open the genl mutex: paused, so that its row stays listed, then
	# resume on its page
	row=""
	for _ in $(seq 100); do
		tmux -L "$S" capture-pane -p -t d >"$O/top.screen"
		row=$(grep -m1 '^mutex@genl_rcv_msg ' "$O/top.screen") && break
		sleep 0.1
	done
	tmux -L "$S" send-keys -t d p
	for _ in $(seq 50); do
		tmux -L "$S" capture-pane -p -t d | grep -q '^mutex@genl_rcv_msg ' &&
			break
		sleep 0.1
	done
	tmux -L "$S" send-keys -t d Enter
	for _ in $(seq 50); do
		tmux -L "$S" capture-pane -p -t d |
			grep -q '^mutex@genl_rcv_msg (mutex)' && break
		sleep 0.1
	done
	tmux -L "$S" send-keys -t d p
	# twenty refreshes: each re-read of the changed row added its callers'
	# whole counts again (285% after a few seconds)
	seen=0
	: >"$O/detail.screens"
	for _ in $(seq 200); do
		tmux -L "$S" capture-pane -p -t d >"$O/top.screen"
		if grep -Eq '^callers \([0-9]+ sampled stacks' "$O/top.screen"; then
			cat "$O/top.screen" >>"$O/detail.screens"
			seen=$((seen + 1))
			[ "$seen" -ge 20 ] && break
		fi
		sleep 0.3
	done
	if [ -n "$row" ] && [ "$seen" -ge 20 ]; then
		figures "top detail page, $seen captures" text "$O/detail.screens"
	else
		fail "$T: top detail: genl row '${row:0:40}', $seen captures with callers: $(head -5 "$O/top.screen")"
	fi
fi
