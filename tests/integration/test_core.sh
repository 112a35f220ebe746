#!/usr/bin/env bash
# Core observer on this kernel: CLI errors, doctor, and the three contention
# workloads checked against what they must produce, plus an independent
# reference (bpftrace on the same tracepoints) running at the same time.
. "$(dirname "$0")/../lib.sh"
W=$LS_ROOT/build
out=$LS_OUT/core
mkdir -p "$out"

# --- bad input: one line, exit 2 (no root needed) ---------------------------
for args in "hist -d abc" "hist -n 0" "bogus" "hist -T nosuch" "top -i -1"; do
	# shellcheck disable=SC2086
	"$LS" $args >"$out/cli.out" 2>"$out/cli.err"
	rc=$?
	if [ "$rc" -eq 2 ] && [ "$(wc -l <"$out/cli.err")" -eq 1 ] &&
		grep -q '^lockscope: failed to ' "$out/cli.err"; then
		pass "cli: '$args' -> exit 2, one line: $(cat "$out/cli.err")"
	else
		fail "cli: '$args' -> exit $rc, stderr: $(cat "$out/cli.err")"
	fi
done
if "$LS" --help | grep -q 'lockscope hist -- stress-ng'; then
	pass "cli: --help shows examples"
else
	fail "cli: --help lacks examples"
fi

# --- doctor ------------------------------------------------------------------
if need_root "doctor"; then
	"$LS" doctor >"$out/doctor.txt" 2>&1
	rc=$?
	if [ $rc -eq 0 ] && grep -q '^tracepoints ' "$out/doctor.txt"; then
		pass "doctor: exit 0 with a tracepoints row"
	else
		fail "doctor: exit $rc: $(head -5 "$out/doctor.txt")"
	fi
	# every row carries a reason; probe rows say why they are (not) on
	rows=$(sed -n '/^SOURCE /,/^$/p' "$out/doctor.txt" | sed '1d;/^$/d')
	bad=$(awk 'NF < 5' <<<"$rows" | wc -l)
	nprobe=$(grep -Ec '^probe (osq_lock|__mutex_lock|rwsem_down_write_slowpath|rwsem_down_read_slowpath) ' <<<"$rows")
	if [ "$bad" -eq 0 ] && [ "$nprobe" -eq 4 ] &&
		! grep -E '^probe ' <<<"$rows" | grep -Evq '(fentry|kprobe|none) +(yes|no) +(yes|no) +[^ ]'; then
		pass "doctor: 4 function-probe rows, each with mechanism and reason"
	else
		fail "doctor: rows: $rows"
	fi
	if [ ! -e /sys/bus/event_source/devices/kprobe ]; then
		if grep -q '^probe osq_lock .*kprobe: no kprobe PMU' "$out/doctor.txt"; then
			pass "doctor: explains that kprobes are missing here"
		else
			fail "doctor: no kprobe explanation: $(grep '^probe osq_lock' "$out/doctor.txt")"
		fi
	fi
	if grep -q '__mutex_lock.constprop' /proc/kallsyms; then
		if grep -Eq '^probe __mutex_lock .*found __mutex_lock\.constprop|^probe __mutex_lock .*on __mutex_lock\.constprop' "$out/doctor.txt"; then
			pass "doctor: resolves __mutex_lock to its clone"
		else
			fail "doctor: __mutex_lock clone not shown"
		fi
	fi
fi

need_tracepoints "workloads" || exit 0
mount_tracefs

# --- netlink-task: genl mutex, spin/sleep split, sampler, reference ----------
if need_cmd "netlink-task" stress-ng; then
	"$LS" hist -F 999 --json -- stress-ng --netlink-task 2 -t 3s \
		>"$out/netlink.json" 2>"$out/netlink.err"
	rc=$?
	if [ $rc -ne 0 ]; then
		fail "netlink: lockscope exit $rc: $(tail -3 "$out/netlink.err")"
	else
		row='[r for r in d["locks"] if r["name"]=="mutex@genl_rcv_msg" and r["kind"]=="mutex"]'
		n=$(jget "$out/netlink.json" "sum(r['contentions'] for r in $row)")
		if [ "${n:-0}" -gt 0 ]; then
			pass "netlink: mutex@genl_rcv_msg named by caller, $n contentions"
		else
			fail "netlink: no mutex@genl_rcv_msg row: $(jget "$out/netlink.json" '[(r["name"],r["contentions"]) for r in d["locks"]][:5]')"
		fi
		spin=$(jget "$out/netlink.json" "sum(r['spin_ns'] for r in $row)")
		sleep_=$(jget "$out/netlink.json" "sum(r['sleep_ns'] for r in $row)")
		total=$(jget "$out/netlink.json" "sum(r['total_ns'] for r in $row)")
		if [ "${spin:-0}" -gt 0 ] && [ $((spin + sleep_)) -le "$total" ] &&
			[ $((spin + sleep_)) -ge $((total * 99 / 100)) ]; then
			pass "netlink: spin ${spin}ns + sleep ${sleep_}ns = total ${total}ns (spin > 0)"
		else
			fail "netlink: spin $spin sleep $sleep_ total $total"
		fi
		won=$(jget "$out/netlink.json" "sum(r['spin_won']+r['spin_failed'] for r in $row)")
		if [ "${won:-0}" -gt 0 ]; then
			pass "netlink: $won spin phases counted (won + fell back)"
		else
			fail "netlink: no spin phases counted"
		fi
		share=$(jget "$out/netlink.json" "sum(f['samples'] for f in d['sampler']['spin_functions'] if f['function'] in ('osq_lock','mutex_spin_on_owner'))")
		callers=$(jget "$out/netlink.json" "sorted({c['function'] for f in d['sampler']['spin_functions'] if f['function'] in ('osq_lock','mutex_spin_on_owner') for c in f['callers']})")
		if [ "${share:-0}" -gt 0 ]; then
			pass "netlink: sampler sees $share samples in osq_lock/mutex_spin_on_owner, callers $callers"
		else
			fail "netlink: sampler spin share is 0"
		fi
	fi
fi

# --- the same events seen by an independent reference at the same time ----
# bpftrace counts contention_end per lock address for the hammer's threads;
# the pipe's mutex lives and dies inside the hammer, so both observers see
# its whole life and must agree on its count (within 10%).
if need_cmd "reference" bpftrace &&
	{ [ -e /sys/kernel/tracing/events/lock ] || { skip "reference: tracefs lock events unavailable"; false; }; }; then
	# BEGIN fires once every probe is attached: wait for its line
	bpftrace -e 'BEGIN { printf("ready\n"); }
		tracepoint:lock:contention_end /comm == "pipe_hammer"/ { @[args->lock_addr] = count(); }' \
		>"$out/bpftrace.txt" 2>&1 &
	ref=$!
	wait_line "$out/bpftrace.txt" '^ready' 30
	"$LS" hist --addr -F 0 -T mutex --json -- "$W/pipe_hammer" 2 2 >"$out/ref.json" 2>"$out/ref.err"
	sleep 0.5
	kill -INT "$ref"
	wait "$ref"
	addr=$(jget "$out/ref.json" "max([r for r in d['locks'] if 'pipe' in r['name']], key=lambda r: r['contentions'])['addr']" 2>/dev/null)
	ours=$(jget "$out/ref.json" "sum(r['contentions'] for r in d['locks'] if r.get('addr')=='$addr')" 2>/dev/null)
	theirs=$(sed -n "s/^@\[0x$addr\]: //p" "$out/bpftrace.txt")
	if [ -n "$addr" ] && [ -n "$theirs" ] && [ "${ours:-0}" -gt 0 ] &&
		python3 -c "import sys; a,b=int(sys.argv[1]),int(sys.argv[2]); sys.exit(0 if abs(a-b) <= 0.10*b else 1)" "$ours" "$theirs"; then
		pass "reference: pipe mutex contentions agree with bpftrace within 10% (lockscope $ours, bpftrace $theirs)"
	else
		fail "reference: pipe mutex ${addr:-?}: lockscope ${ours:-?} vs bpftrace ${theirs:-none}: $(grep -v '^@' "$out/bpftrace.txt" | tail -2)"
	fi
fi

# --- pipe mutex hammer -------------------------------------------------------
"$LS" hist --json -T mutex -- "$W/pipe_hammer" 2 2 >"$out/pipe.json" 2>"$out/pipe.err"
rc=$?
if [ $rc -eq 0 ]; then
	n=$(jget "$out/pipe.json" "sum(r['contentions'] for r in d['locks'] if r['kind']=='mutex' and 'pipe' in r['name'])")
	kinds=$(jget "$out/pipe.json" "sorted({r['kind'] for r in d['locks']})")
	if [ "${n:-0}" -gt 0 ]; then
		pass "pipe: pipe mutex seen, $n contentions"
	else
		fail "pipe: no *pipe* mutex row: $(jget "$out/pipe.json" '[r["name"] for r in d["locks"]][:5]')"
	fi
	if [ "$kinds" = "['mutex']" ]; then
		pass "pipe: -T mutex keeps only mutexes"
	else
		fail "pipe: -T mutex left kinds $kinds"
	fi
else
	fail "pipe: lockscope exit $rc: $(tail -3 "$out/pipe.err")"
fi

# --- mmap rwsem hammer -------------------------------------------------------
"$LS" hist --json -- "$W/mmap_hammer" 4 2 >"$out/mmap.json" 2>"$out/mmap.err"
rc=$?
if [ $rc -eq 0 ]; then
	n=$(jget "$out/mmap.json" "sum(r['contentions'] for r in d['locks'] if r['class']=='mm_struct.mmap_lock' and r['kind']=='rwsem:W')")
	peak=$(jget "$out/mmap.json" "max([r['peak_waiters'] for r in d['locks'] if r['class']=='mm_struct.mmap_lock'] or [0])")
	if [ "${n:-0}" -gt 0 ]; then
		pass "mmap: mm_struct.mmap_lock seen as rwsem:W, $n contentions"
	else
		fail "mmap: no mm_struct.mmap_lock rwsem:W row: $(jget "$out/mmap.json" '[(r["name"],r["kind"]) for r in d["locks"]][:5]')"
	fi
	if [ "${peak:-0}" -ge 2 ]; then
		pass "mmap: peak waiters $peak >= 2"
	else
		fail "mmap: peak waiters ${peak:-?} < 2"
	fi
	addr=$(grep -c '"addr"' "$out/mmap.json")
	if [ "$addr" -eq 0 ] && ! grep -Eq 'ffff[0-9a-f]{12}' "$out/mmap.json"; then
		pass "mmap: no raw kernel address in the output without --addr"
	else
		fail "mmap: kernel addresses leaked into the output"
	fi
else
	fail "mmap: lockscope exit $rc: $(tail -3 "$out/mmap.err")"
fi

# --- losses with tiny maps: recorded + lost + in flight = begun --------------
"$LS" hist --json --max-locks 4 --max-tasks 2 -- "$W/mmap_hammer" 4 2 \
	>"$out/tiny.json" 2>"$out/tiny.err"
if [ $? -eq 0 ]; then
	lost=$(jget "$out/tiny.json" "d['losses']['lock map full'] + d['losses']['task map full']")
	eq=$(jget "$out/tiny.json" "(lambda c,l: (c['begins']-c['spin-to-sleep'], c['recorded']+l['task map full']+l['nesting too deep']+l['lock map full']+l['begin without end']+sum(max(r['waiters'],0) for r in d['locks'])))(d['counters'], d['losses'])")
	if [ "${lost:-0}" -gt 0 ] && python3 -c "import sys; a,b=eval(sys.argv[1]); sys.exit(0 if abs(a-b) <= 8 else 1)" "$eq"; then
		pass "losses: tiny maps lose $lost waits, counted; (begun, recorded+lost+in flight) = $eq"
	else
		fail "losses: lost=$lost (begun, accounted)=$eq"
	fi
else
	fail "losses: lockscope exit $?: $(tail -3 "$out/tiny.err")"
fi

# --- exit status of the traced program becomes lockscope's -------------------
"$LS" hist -F 0 -- sh -c 'exit 7' >/dev/null 2>&1
rc=$?
if [ $rc -eq 7 ]; then pass "hist: PROGRAM's exit status 7 returned"; else fail "hist: returned $rc, not 7"; fi
"$LS" hist -F 0 -- /nonexistent/prog >/dev/null 2>"$out/noprog.err"
rc=$?
if [ $rc -ne 0 ] && grep -q "failed to run program '/nonexistent/prog'" "$out/noprog.err"; then
	pass "hist: missing PROGRAM -> one-line error, exit $rc"
else
	fail "hist: missing PROGRAM -> exit $rc: $(cat "$out/noprog.err")"
fi
