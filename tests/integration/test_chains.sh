#!/usr/bin/env bash
# Wait-for chains on this kernel: a chain made on purpose (build/chain_hammer:
# pipe writers whose copies fault while an mprotect loop holds mmap_lock for
# writing) against the plain pipe hammer, the conservation rules on every
# lock row, bpftrace in the same run (the pipe mutex's first begins while a
# writer waits on mmap_lock inside write(), and which tids did), and the
# kill switch (--no-chains).
. "$(dirname "$0")/../lib.sh"
W=$LS_ROOT/build
out=$LS_OUT/chains
mkdir -p "$out"
rm -f "$out"/*

need_tracepoints "chains" || exit 0
for w in chain_hammer pipe_hammer; do
	[ -x "$W/$w" ] || { fail "chains: $W/$w not built (make tests-build)"; exit 0; }
done

# observe NAME SECS WORKLOAD [ARGS...]: WORKLOAD runs SECS+2 s in the
# background, lockscope hist --json -p its pid for SECS s (only its waits:
# other helpers' pipes stay out); the workload's stderr in NAME.werr
observe() {
	local name=$1 secs=$2 pid
	shift 2
	"$@" >/dev/null 2>"$out/$name.werr" &
	pid=$!
	"$LS" hist --json --addr -F 0 -p "$pid" -d "$secs" $LS_CHAIN_OPTS \
		>"$out/$name.json" 2>"$out/$name.err"
	local rc=$?
	wait "$pid"
	return $rc
}

# traced NAME WORKLOAD [ARGS...]: lockscope hist --json -- WORKLOAD (the
# whole run, every process: bpftrace sees the same window); the workload's
# stderr is lockscope's
traced() {
	local name=$1
	shift
	"$LS" hist --json --addr -F 0 -- "$@" >"$out/$name.json" \
		2>"$out/$name.werr"
}

# The pipe mutex row of a run (PIPE_ROW, python; argv: the JSON and the
# workload's stderr): the workload's own, whose chains name one of its
# writers as holder, else the one with the most contentions (a -p run
# has only the workload's); r: the row, c: its chains
PIPE_ROW='
import json, re, sys
d = json.load(open(sys.argv[1]))
m = re.search(r"writers: (\d+) (\d+)", open(sys.argv[2]).read())
writers = set(int(t) for t in m.groups()) if m else set()
rows = [r for r in d["locks"] if r["name"].startswith("pipe_inode_info.mutex")
        and r["kind"] == "mutex"]
own = [r for r in rows if r["chains"] and
       any(x["holder_tid"] in writers for x in r["chains"]["chains"])]
r = max(own or rows, key=lambda r: r["contentions"])
c = r["chains"]
'

# pipe NAME EXPR: EXPR of NAME's pipe mutex row
pipe() {
	python3 -c "$PIPE_ROW
print(eval(sys.argv[3]))" "$out/$1.json" "$out/$1.werr" "$2"
}

# --- (a) the chain made on purpose, bpftrace in the same run -----------------
# bpftrace marks a chain_hammer thread inside write() that begins a rwsem
# wait (flags without SPIN or MUTEX: mmap_lock, taken by the copy's fault
# under the pipe mutex) until its end, and counts those switched off their
# CPU meanwhile (sched_switch); a pipe mutex first begin (MUTEX|SPIN = 33)
# while one is off its CPU is a wait whose holder, not running, waits on
# mmap_lock: lockscope's definition, seen from tracepoints alone.  Up to 3 rounds: a 2-vCPU machine shared with other tests
# sometimes runs the writers and mprotect apart.
mount_tracefs
have_bt=0
if need_cmd "chains: bpftrace reference" bpftrace &&
	{ [ -e /sys/kernel/tracing/events/lock ] || { skip "chains: bpftrace reference: tracefs lock events unavailable"; false; }; }; then
	have_bt=1
fi
for round in 1 2 3; do
	if [ $have_bt = 1 ]; then
		bpftrace -e 'BEGIN { @off = 0; printf("ready\n"); }
tracepoint:syscalls:sys_enter_write /comm == "chain_hammer"/ { @inw[tid] = 1; }
tracepoint:syscalls:sys_exit_write /comm == "chain_hammer"/ { delete(@inw[tid]); }
tracepoint:lock:contention_begin /comm == "chain_hammer" && @inw[tid] && (args->flags & 0x21) == 0 && @mmw[tid] == 0/ {
	@mmw[tid] = args->lock_addr; @waited[tid, args->lock_addr] = count(); }
tracepoint:lock:contention_end /comm == "chain_hammer" && @mmw[tid] == args->lock_addr/ { delete(@mmw[tid]); }
tracepoint:sched:sched_switch /@mmw[args->prev_pid] != 0 && @isoff[args->prev_pid] == 0/ { @isoff[args->prev_pid] = 1; @off = @off + 1; }
tracepoint:sched:sched_switch /@isoff[args->next_pid] == 1/ { @isoff[args->next_pid] = 0; @off = @off - 1; }
tracepoint:lock:contention_begin /comm == "chain_hammer" && args->flags == 33/ {
	@pmall[args->lock_addr] = count(); if (@off > 0) { @pm[args->lock_addr] = count(); } }' \
			>"$out/bpftrace.txt" 2>&1 &
		ref=$!
		for _ in $(seq 300); do
			grep -q '^ready' "$out/bpftrace.txt" && break
			sleep 0.1
		done
	fi
	traced chain "$W/chain_hammer" 5
	rc=$?
	if [ $have_bt = 1 ]; then
		# TERM: a background job of a script ignores SIGINT; bpftrace
		# prints its maps on either
		kill -TERM "$ref"
		for _ in $(seq 100); do
			kill -0 "$ref" 2>/dev/null || break
			sleep 0.1
		done
		kill -KILL "$ref" 2>/dev/null
		wait "$ref"
	fi
	[ $rc = 0 ] || break
	n=$(pipe chain "c['waits']" 2>/dev/null)
	[ "${n:-0}" -gt 0 ] && break
done
if [ $rc != 0 ]; then
	fail "chain: lockscope hist failed ($rc): $(tail -2 "$out/chain.err")"
else
	python3 -c "$PIPE_ROW
$(cat <<'EOF'
mm = [x for x in c["chains"] if "mm_struct.mmap_lock" in x["blocked_on"]]
print("%s: %d of %d waits (%.1f%%), %.1f%% of wait time behind a holder "
      "waiting on another lock; top chain %s: %d waits, root holder %s"
      % (r["name"], c["waits"], r["contentions"], 100 * c["waits_share"],
         100 * c["wait_time_share"], mm[0]["path"] if mm else "-",
         mm[0]["waits"] if mm else 0, mm[0]["root_holder"] if mm else "-"))
sys.exit(0 if mm and c["waits_share"] > 0 else 1)
EOF
)" "$out/chain.json" "$out/chain.werr" >"$out/chain.check" 2>&1
	if [ $? -eq 0 ]; then
		pass "chain: $(cat "$out/chain.check")"
	else
		fail "chain: no chain from the pipe mutex to mm_struct.mmap_lock: $(tail -2 "$out/chain.check")"
	fi
fi

# --- (b) the plain pipe hammer: no fault, no chain ----------------------------
if observe plain 3 "$W/pipe_hammer" 2 5; then
	cs=$(pipe chain "c['waits_share']" 2>/dev/null)
	ps=$(pipe plain "c['waits_share']" 2>"$out/plain.py.err")
	pn=$(pipe plain "r['contentions']" 2>/dev/null)
	if python3 -c "import sys; c, p = float(sys.argv[1]), float(sys.argv[2]); sys.exit(0 if p <= 0.01 and c > p else 1)" "${cs:-0}" "${ps:-1}" 2>/dev/null; then
		pass "order: pipe mutex blocked-holder share $(python3 -c "print('%.2f%%' % (100 * $ps))") of $pn waits with pipe_hammer, $(python3 -c "print('%.2f%%' % (100 * ${cs:-0}))") with chain_hammer"
	else
		fail "order: pipe_hammer's share ${ps:-?} (of ${pn:-?} waits) not <= 1% and below chain_hammer's ${cs:-?}: $(tail -2 "$out/plain.py.err")"
	fi
else
	fail "order: lockscope hist of pipe_hammer failed: $(tail -2 "$out/plain.err")"
fi

# --- (c) conservation on every lock row ----------------------------------------
for run in chain plain; do
	[ -s "$out/$run.json" ] || continue
	python3 - "$out/$run.json" >"$out/$run.cons" 2>&1 <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
bad, rows, walks = [], 0, d["counters"]["chain walks"]
for r in d["locks"]:
    c, h = r["chains"], r["holder"]["waits"]
    rows += 1
    stopped = h["preempted"] + h["sleeping"]
    if c["waits"] > stopped:
        bad.append("%s: %d chain waits > %d with a holder not running" % (r["name"], c["waits"], stopped))
    if c["wait_ns"] > r["total_ns"]:
        bad.append("%s: chain wait %d ns > total %d" % (r["name"], c["wait_ns"], r["total_ns"]))
    if not c["max_depth"] <= c["depth_bound"] <= 4:
        bad.append("%s: depth %d, bound %d" % (r["name"], c["max_depth"], c["depth_bound"]))
    if sum(x["waits"] for x in c["chains"]) != c["waits"]:
        bad.append("%s: chains do not sum to the lock's chain waits" % r["name"])
    for x in c["chains"]:
        if sum(x["root_holder_waits"].values()) != x["waits"] or x["max_depth"] > 4:
            bad.append("%s: chain %s root states or depth" % (r["name"], x["path"]))
print("%d rows, %d chain walks, %d chained waits; %s" % (
    rows, walks, sum(r["chains"]["waits"] for r in d["locks"]),
    "; ".join(bad[:3]) if bad else "chained waits <= waits with a holder not running, chain time <= total, depth <= 4"))
sys.exit(1 if bad else 0)
EOF
	if [ $? -eq 0 ]; then
		pass "conservation ($run): $(cat "$out/$run.cons")"
	else
		fail "conservation ($run): $(tail -2 "$out/$run.cons")"
	fi
done

# --- (d) bpftrace agreement, same run as (a) ------------------------------------
# The pipe mutex is one bpftrace saw chain_hammer begin; lockscope's chained
# waits to mmap_lock within 15% (5 at least) of bpftrace's begins behind a
# writer off its CPU waiting on it (lockscope counts the waits that ended,
# and reads the holder's state a moment later than its begin); each
# chain's holder tid is a writer that bpftrace saw wait on that very
# mmap_lock inside write().
if [ $have_bt = 1 ] && [ -s "$out/chain.json" ]; then
	python3 -c "$PIPE_ROW
$(cat <<'EOF'
bt = open(sys.argv[3]).read()
pm = {int(a, 16): int(n) for a, n in re.findall(r"@pm\[(0x[0-9a-f]+)\]: (\d+)", bt)}
pmall = {int(a, 16): int(n) for a, n in re.findall(r"@pmall\[(0x[0-9a-f]+)\]: (\d+)", bt)}
waited = {}
for t, a, n in re.findall(r"@waited\[(\d+), (0x[0-9a-f]+)\]: (\d+)", bt):
    waited.setdefault(int(a, 16), set()).add(int(t))
addr = int(r["addr"], 16)
mm = [x for x in r["chains"]["chains"] if "mm_struct.mmap_lock" in x["blocked_on"]]
ls = sum(x["waits"] for x in mm)
ref = pm.get(addr, 0)
tids = {x["holder_tid"]: int(x["blocked_on_addr"], 16) for x in mm}
bad_tids = [t for t, a in tids.items() if t not in writers or t not in waited.get(a, set())]
print("pipe mutex %s: lockscope %d chained waits to mmap_lock (holder tids %s); "
      "bpftrace %d first begins behind a writer off its CPU waiting on mmap_lock, of %d; "
      "writers %s, bpftrace's mmap_lock waiters %s"
      % (r["addr"], ls, sorted(tids), ref, pmall.get(addr, 0), sorted(writers),
         {hex(a): sorted(t) for a, t in waited.items()}))
ok = (addr in pmall and ref > 0 and ls > 0
      and abs(ls - ref) <= max(5, 0.15 * ref) and not bad_tids)
sys.exit(0 if ok else 1)
EOF
)" "$out/chain.json" "$out/chain.werr" "$out/bpftrace.txt" >"$out/bt.check" 2>&1
	if [ $? -eq 0 ]; then
		pass "bpftrace: $(cat "$out/bt.check")"
	else
		fail "bpftrace: $(tail -2 "$out/bt.check") $(grep -v '^@' "$out/bpftrace.txt" | tail -2)"
	fi
fi

# --- (e) the kill switch -------------------------------------------------------
if LS_CHAIN_OPTS=--no-chains observe off 2 "$W/chain_hammer" 4; then
	walks=$(jget "$out/off.json" "d['counters']['chain walks']" 2>/dev/null)
	nulls=$(jget "$out/off.json" "all(r['chains'] is None for r in d['locks'])" 2>/dev/null)
	if [ "$walks" = 0 ] && [ "$nulls" = True ]; then
		pass "--no-chains: no walk, chains null on every row"
	else
		fail "--no-chains: ${walks:-?} walks, chains null on every row: ${nulls:-?}"
	fi
else
	fail "--no-chains: lockscope hist failed: $(tail -2 "$out/off.err")"
fi
