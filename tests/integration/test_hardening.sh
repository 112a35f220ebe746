#!/usr/bin/env bash
# Hardening: losses with tiny maps add up, signals end every command within
# 1 s with output flushed (a PROGRAM that ignores SIGTERM: within the 2 s
# grace and 1 s), SIGKILL leaves no program or link behind, two
# instances see the same events, and without CAP_BPF/CAP_PERFMON every
# command fails with one line naming what is missing.
. "$(dirname "$0")/../lib.sh"
W=$LS_ROOT/build
out=$LS_OUT/hardening
# a fresh directory: readiness is read from these files
rm -rf "$out"
mkdir -p "$out"
kids=()
cleanup() {
	for p in "${kids[@]}"; do kill -KILL "$p" 2>/dev/null; done
	return 0
}
trap cleanup EXIT

# wait_child PID SECONDS: until PID has a child process
wait_child() {
	local end=$((SECONDS + $2))
	while [ $SECONDS -le $end ]; do
		[ -n "$(pgrep -P "$1")" ] && return 0
		sleep 0.05
	done
	return 1
}

# gated WORKLOAD ARGS...: start WORKLOAD held at a fifo; $gpid is its pid
# (kept across exec, so -p can name it before it runs); open_gate runs it.
gated() {
	rm -f "$out/gate"
	mkfifo "$out/gate"
	sh -c 'read _ <"$0"; exec "$@"' "$out/gate" "$@" >"$out/gated.out" 2>&1 &
	gpid=$!
	kids+=("$gpid")
}
open_gate() { echo go >"$out/gate"; }

# ---- no CAP_BPF / CAP_PERFMON: one clear line (checks need root to drop) --
if need_root "caps"; then
	tmp=$(mktemp -d)
	cp "$LS" "$tmp/lockscope"
	chmod 755 "$tmp" "$tmp/lockscope"
	for args in "top" "top -b -n 1" "hist -d 1" "hist --json -- true"; do
		# shellcheck disable=SC2086
		setpriv --reuid=nobody --regid=nogroup --clear-groups \
			"$tmp/lockscope" $args >"$out/caps.out" 2>"$out/caps.err"
		rc=$?
		if [ $rc -ne 0 ] && [ "$(wc -l <"$out/caps.err")" -eq 1 ] &&
			grep -q '^lockscope: failed to start tracing: missing CAP_BPF and CAP_PERFMON' "$out/caps.err" &&
			[ ! -s "$out/caps.out" ]; then
			pass "caps: '$args' as nobody -> exit $rc, one line: $(cat "$out/caps.err")"
		else
			fail "caps: '$args' as nobody -> exit $rc, stderr: $(head -3 "$out/caps.err")"
		fi
	done
	# doctor as nobody: what can be known unprivileged, then the
	# capability line (and exit 1: nothing could be tried)
	setpriv --reuid=nobody --regid=nogroup --clear-groups \
		"$tmp/lockscope" doctor >"$out/caps.out" 2>"$out/caps.err"
	rc=$?
	miss=
	for want in '^tracepoints  *tp_btf  *yes  *no ' '^holder state at wait start' \
		'^kernel BTF: /sys/kernel/btf/vmlinux$' '^kernel config' '^  CONFIG_DEBUG_INFO_BTF  *y ' \
		'^tracepoint format: ' '^kallsyms: ' '^map sizes: '; do
		grep -q -- "$want" "$out/caps.out" || miss="$miss '$want'"
	done
	if [ $rc -eq 1 ] && [ -z "$miss" ] &&
		[ "$(tail -1 "$out/caps.out")" = "capabilities: missing CAP_BPF and CAP_PERFMON: the sources above were not tried" ] &&
		grep -q "hint: run 'lockscope doctor' as root" "$out/caps.err"; then
		pass "caps: doctor as nobody prints what BTF, kallsyms and the kernel's files tell, then the capability line (exit 1)"
	else
		fail "caps: doctor as nobody: exit $rc, missing:$miss; last line '$(tail -1 "$out/caps.out")'; stderr $(head -2 "$out/caps.err")"
	fi
	# root without one of them: the line names exactly that one
	for drop in perfmon bpf; do
		setpriv --bounding-set="-$drop,-sys_admin" "$tmp/lockscope" hist -d 1 \
			>"$out/caps.out" 2>"$out/caps.err"
		rc=$?
		want=CAP_${drop^^}
		if [ $rc -ne 0 ] && [ "$(wc -l <"$out/caps.err")" -eq 1 ] &&
			grep -q "missing $want (" "$out/caps.err"; then
			pass "caps: root without $want -> $(cat "$out/caps.err")"
		else
			fail "caps: root without $want -> exit $rc: $(head -3 "$out/caps.err")"
		fi
	done
	# both present, CAP_SYS_ADMIN dropped: it works
	setpriv --bounding-set=-sys_admin "$tmp/lockscope" hist -F 0 -d 0.5 \
		>"$out/caps.out" 2>"$out/caps.err"
	rc=$?
	if [ $rc -eq 0 ] && grep -q '^lockscope hist:' "$out/caps.out"; then
		pass "caps: CAP_BPF + CAP_PERFMON without CAP_SYS_ADMIN is enough"
	else
		fail "caps: without CAP_SYS_ADMIN: exit $rc: $(head -3 "$out/caps.err")"
	fi
	rm -rf "$tmp"
fi

need_tracepoints "hardening" || exit 0

# ---- tiny maps under load: losses counted, shown, and they add up ----------
# -p on a gated workload: only its events, all ended before the last read,
# so begun = recorded + lost + still waiting holds exactly, short of the
# program runs the kernel itself skipped (recursion misses: an interrupt's
# contention while our program runs on that CPU), shown by --cost.
accounting='(lambda c, l, locks: (c["begins"] - c["spin-to-sleep"],
	c["recorded"] + l["task map full"] + l["nesting too deep"] +
	l["lock map full"] + l["begin without end"] +
	sum(max(r["waiters"], 0) for r in locks)))(d["counters"], d["losses"], d["locks"])'
# (the mmap hammer for 1 s: its losses need only a few waits, the sums
# hold at any length; the 300 pipes need their 2 s to contend at all)
for w in "lock_spread 300 2" "mmap_hammer 4 1"; do
	name=${w%% *}
	# shellcheck disable=SC2086
	gated "$W/${w%% *}" ${w#* }
	"$LS" hist --json --cost -p "$gpid" --max-locks 1 --max-tasks 1 --max-callers 1 \
		--max-stacks 1 >"$out/tiny-$name.json" 2>"$out/tiny-$name.err" &
	ls=$!
	kids+=("$ls")
	if ! wait_line "$out/tiny-$name.err" 'tracing lock contention' 15; then
		fail "tiny maps $name: lockscope did not start: $(cat "$out/tiny-$name.err")"
		kill "$gpid" 2>/dev/null
		continue
	fi
	open_gate
	wait "$gpid"
	sleep 0.2
	kill -INT "$ls"
	wait "$ls"
	f=$out/tiny-$name.json
	missed="sum(p['recursion_misses'] for p in d['cost'] if p['program'] != 'cpu_sample')"
	lost= eq= miss= ok=
	{ read -r lost && read -r eq && read -r miss && read -r ok; } < <(jgets "$f" \
		"sum(d['losses'][k] for k in ('task map full', 'lock map full', 'caller map full', 'stack failed'))" \
		"$accounting" "$missed" \
		"(lambda e, m: int(abs(e[0] - e[1]) <= m and e[0] > 0))($accounting, $missed)")
	if [ "${lost:-0}" -gt 0 ] && [ "$ok" = 1 ]; then
		pass "tiny maps $name: $lost losses counted; (begun, recorded + lost + waiting) = $eq, $miss runs skipped by the kernel"
	else
		fail "tiny maps $name: lost=$lost (begun, accounted)=$eq, $miss skipped, losses $(jget "$f" "d['losses']")"
	fi
done
# ... and shown in the text views
"$LS" hist -F 0 --max-locks 1 --max-tasks 1 -- "$W/mmap_hammer" 4 1 \
	>"$out/tiny.txt" 2>&1
if grep -Eq '^losses: [1-9][0-9]* \(.*(lock map full|task map full) [1-9]' "$out/tiny.txt"; then
	pass "tiny maps: hist shows $(grep '^losses:' "$out/tiny.txt")"
else
	fail "tiny maps: hist shows no losses: $(head -3 "$out/tiny.txt")"
fi
"$LS" top -b -i 0.5 -n 2 -F 0 --max-locks 1 --max-tasks 1 -- "$W/mmap_hammer" 4 2 \
	>"$out/tiny-top.txt" 2>&1
if grep -Eq 'losses: [1-9][0-9]* \(' "$out/tiny-top.txt"; then
	pass "tiny maps: top shows $(grep -Eo 'losses: [1-9].*' "$out/tiny-top.txt" | tail -1)"
else
	fail "tiny maps: top shows no losses: $(grep losses "$out/tiny-top.txt" | head -2)"
fi

# ---- signals: every command ends within 1 s, output complete -------------
# (lockscope ends a PROGRAM that ignores SIGTERM with SIGKILL after a grace
# of 2 s, LS_CHILD_GRACE_S: exit 0, since lockscope ended it)
ignorer=(python3 -c 'import signal, time
signal.signal(signal.SIGTERM, signal.SIG_IGN)
signal.signal(signal.SIGINT, signal.SIG_IGN)
time.sleep(30)')
# ignoring PID: the child of lockscope PID is the ignorer, SIGINT and
# SIGTERM ignored (bits 2 and 15 of its SigIgn)
ignoring() {
	local c m
	c=$(pgrep -P "$1") && grep -aq signal.SIG_IGN "/proc/$c/cmdline" 2>/dev/null &&
		m=$(awk '/^SigIgn:/ { print $2 }' "/proc/$c/status" 2>/dev/null) &&
		[[ "$m" =~ ^[0-9a-f]+$ ]] && [ $((16#$m & 0x4002)) = $((0x4002)) ]
}
# sig_start SIG CMD: start CMD of the list below in the background ($p), and
# wait until it is ready ($ready, 0 when it is)
sig_start() {
	local o=$out/sig-$1-$2
	rm -f "$o.out" "$o.err"
	case $2 in
	hist) "$LS" hist >"$o.out" 2>"$o.err" & ;;
	hist-json) "$LS" hist --json >"$o.out" 2>"$o.err" & ;;
	top) "$LS" top -b >"$o.out" 2>"$o.err" & ;;
	top-prog) "$LS" top -b -- "${ignorer[@]}" >"$o.out" 2>"$o.err" & ;;
	hist-prog) "$LS" hist -- "${ignorer[@]}" >"$o.out" 2>"$o.err" & ;;
	doctor) "$LS" doctor >"$o.out" 2>"$o.err" & ;;
	esac
	p=$!
	kids+=("$p")
	case $2 in
	hist | hist-json) wait_line "$o.err" 'tracing lock contention' 15 ;;
	top) wait_line "$o.out" '^LOCK ' 15 ;;
	*-prog) wait_child "$p" 15 && wait_for "ignoring $p" 10 ;;
	doctor) sleep 0.1 ;; # deliberate: signalled while it runs (about 0.3 s)
	esac
	ready=$?
}
# sig_verdict SIG CMD PID T0 READY: CMD's lockscope PID, sent SIG at T0
# ($EPOCHREALTIME), ended in time (from T0 to when it is reaped), exit 0,
# output complete
sig_verdict() {
	local o=$out/sig-$1-$2 rc dt ok want n h limit
	wait "$3"
	rc=$?
	dt=$(elapsed "$4" "$EPOCHREALTIME")
	case $2 in
	hist) ok=$(grep -c '^lockscope hist:\|^events: ' "$o.out") want=2 ;;
	hist-json) ok=$(python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(int('locks' in d and 'duration_s' in d))" "$o.out" 2>/dev/null) want=1 ;;
	top | top-prog)
		# every frame complete: as many table headers as frame titles
		n=$(grep -c '^lockscope top -' "$o.out")
		h=$(grep -c '^LOCK ' "$o.out")
		ok=$((n >= 1 && n == h)) want=1 ;;
	hist-prog) ok=$(grep -c '^lockscope hist:' "$o.out") want=1 ;;
	doctor) ok=$(grep -c '^spin functions for the sampler' "$o.out") want=1 ;;
	esac
	case $2 in *-prog) limit=3.0 ;; *) limit=1.0 ;; esac
	if [ "$5" -eq 0 ] && [ "$ok" = "$want" ] && [ $rc -eq 0 ] && under "$dt" $limit; then
		pass "signals: SIG$1 ends $2 in ${dt}s, exit $rc, output complete"
	else
		fail "signals: SIG$1 $2: ready=$5 exit $rc (want 0) after ${dt}s (limit $limit), output ok=$ok: $(tail -2 "$o.err")"
	fi
}
for sig in INT TERM; do
	for cmd in hist hist-json top doctor; do
		sig_start "$sig" "$cmd"
		t0=$EPOCHREALTIME
		kill -"$sig" "$p"
		sig_verdict "$sig" "$cmd" "$p" "$t0" "$ready"
	done
done
# The four runs with an ignoring PROGRAM at once: each spends the grace
# waiting.  Each is reaped in turn: a run's time counts until its turn.
progs=()
for sig in INT TERM; do
	for cmd in top-prog hist-prog; do
		sig_start "$sig" "$cmd"
		progs+=("$sig $cmd $p $ready")
	done
done
t0s=()
for r in "${progs[@]}"; do
	read -r sig cmd p ready <<<"$r"
	t0s+=("$EPOCHREALTIME")
	kill -"$sig" "$p"
done
for i in "${!progs[@]}"; do
	read -r sig cmd p ready <<<"${progs[$i]}"
	sig_verdict "$sig" "$cmd" "$p" "${t0s[$i]}" "$ready"
done

# ---- SIGKILL: the kernel drops every program and link ---------------------
"$LS" top -b >"$out/kill.out" 2>&1 &
p=$!
kids+=("$p")
if wait_line "$out/kill.out" '^LOCK ' 15; then
	progs=$(cat /proc/$p/fdinfo/* 2>/dev/null | awk '/^prog_id:/ {print $2}' | sort -u)
	links=$(cat /proc/$p/fdinfo/* 2>/dev/null | awk '/^link_id:/ {print $2}' | sort -u)
	np=$(echo "$progs" | wc -w)
	nl=$(echo "$links" | wc -w)
	names=$(for id in $progs; do bpftool prog show id "$id" | sed -n 's/.* name \([^ ]*\) .*/\1/p'; done | sort | tr '\n' ' ')
	kill -KILL "$p"
	wait "$p" 2>/dev/null
	t0=$EPOCHREALTIME
	left=1
	for _ in $(seq 60); do
		left=0
		for id in $progs; do bpftool prog show id "$id" >/dev/null 2>&1 && left=$((left + 1)); done
		for id in $links; do bpftool link show id "$id" >/dev/null 2>&1 && left=$((left + 1)); done
		[ $left -eq 0 ] && break
		sleep 0.05
	done
	dt=$(elapsed "$t0" "$EPOCHREALTIME")
	if [ "$np" -ge 3 ] && [ "$nl" -ge 3 ] && [ $left -eq 0 ]; then
		pass "SIGKILL: all $np programs ($names) and $nl links gone ${dt}s after the kill"
	else
		fail "SIGKILL: $np programs, $nl links before; $left left ${dt}s after"
	fi
else
	fail "SIGKILL: top printed no frame: $(head -3 "$out/kill.out")"
fi

# ---- two instances at once see the same events ---------------------------
# Identical but for the runs each one's own programs were denied by the
# kernel's recursion guard (a contention in an interrupt that came while
# that instance's program ran): --cost reports them.
# (1 s runs: the counts agree at any length)
for w in "pipe_hammer 2 1" "mmap_hammer 4 1"; do
	name=${w%% *}
	# shellcheck disable=SC2086
	gated "$W/${w%% *}" ${w#* }
	"$LS" hist --json --cost -p "$gpid" >"$out/two-a-$name.json" 2>"$out/two-a-$name.err" &
	a=$!
	"$LS" hist --json --cost -p "$gpid" -F 0 >"$out/two-b-$name.json" 2>"$out/two-b-$name.err" &
	b=$!
	kids+=("$a" "$b")
	if ! wait_line "$out/two-a-$name.err" 'tracing' 15 ||
		! wait_line "$out/two-b-$name.err" 'tracing' 15; then
		fail "two instances $name: did not start"
		kill "$gpid" "$a" "$b" 2>/dev/null
		continue
	fi
	open_gate
	wait "$gpid"
	sleep 0.2
	kill -INT "$a" "$b"
	wait "$a" "$b"
	sig='(d["counters"]["begins"], d["counters"]["ends"], d["counters"]["recorded"], sum(r["contentions"] for r in d["locks"]))'
	miss='sum(p["recursion_misses"] for p in d["cost"] if p["program"] != "cpu_sample")'
	ra= rb= ma= mb=
	{ read -r ra && read -r ma; } < <(jgets "$out/two-a-$name.json" "$sig" "$miss")
	{ read -r rb && read -r mb; } < <(jgets "$out/two-b-$name.json" "$sig" "$miss")
	m=$((ma + mb))
	if [ -n "$ra" ] && [ -n "$rb" ] && python3 -c "
import sys
a, b, m = eval(sys.argv[1]), eval(sys.argv[2]), int(sys.argv[3])
sys.exit(0 if a[0] > 0 and all(abs(x - y) <= m for x, y in zip(a, b)) else 1)" "$ra" "$rb" "$m"; then
		pass "two instances $name: (begins, ends, recorded, contentions) A $ra, B $rb: equal within the $m runs the kernel skipped"
	else
		fail "two instances $name: A $ra vs B $rb, $m runs skipped"
	fi
done

# ---- top forgets idle locks: the tables do not fill up over time ----------
"$LS" top -b -i 0.2 --forget 5 >"$out/forget.out" 2>&1 &
p=$!
kids+=("$p")
if wait_line "$out/forget.out" '^LOCK ' 15; then
	"$W/lock_spread" 400 1 >/dev/null 2>&1
	entries() {
		python3 "$LS_ROOT/bench/mapfill.py" "$p" lock_stats |
			python3 -c "import json,sys; print(json.load(sys.stdin)['lock_stats']['entries'])"
	}
	busy=$(entries)
	# idle pipes are forgotten after 5 refreshes of 0.2 s: read the
	# table until under a quarter, 10 s at most
	t0=$EPOCHREALTIME
	wait_for 'idle=$(entries); [ "${idle:-99999}" -lt $((${busy:-0} / 4)) ]' 10
	dt=$(elapsed "$t0" "$EPOCHREALTIME")
	kill -INT "$p"
	wait "$p"
	if [ "${busy:-0}" -ge 100 ] && [ "${idle:-99999}" -lt $((busy / 4)) ]; then
		pass "forget: lock table $busy entries after 400 contended pipes, $idle ${dt} s later (forgotten after 5 refreshes of 0.2 s)"
	else
		fail "forget: lock table $busy entries busy, $idle idle"
	fi
else
	fail "forget: top printed no frame: $(head -3 "$out/forget.out")"
fi
