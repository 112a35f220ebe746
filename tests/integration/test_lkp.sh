#!/usr/bin/env bash
# tests/integration/test_lkp.sh - packaging/lkp/programs/lockscope/ run the
# way lkp-tests runs a monitor (tests/lkp/: environment, activate-monitor,
# post-test, stdout captured to a file) around stress-ng --netlink-task,
# then its parse: the robot's key grammar, the genetlink mutex, a clean
# end, the degraded exit and the time series.
set -u
. "$(dirname "$0")/../lib.sh"
cd "$LS_ROOT" || exit 1

O=$LS_OUT/lkp
PROG=$LS_ROOT/packaging/lkp/programs/lockscope
rm -rf "$O"
mkdir -p "$O"

need_tracepoints "lkp monitor" || exit 0
need_cmd "lkp monitor" stress-ng || exit 0
need_cmd "lkp monitor" bpftool || exit 0

# job NAME PARAM=VALUE...: one job under the stand-in, the benchmark in
# BENCH, lockscope found first in JOB_PATH (default: the build).  Sets J (its directory), MON_RC, BENCH_RC, PARSE_RC, LS_PID (the
# monitor's lockscope, if it started), IDS (its BPF objects: "prog 12"),
# T0 and T1 (epoch seconds at activate-monitor and after post-run).
job() {
	local name=$1 rm_pid f
	shift
	J=$O/$name
	mkdir -p "$J/tmp" "$J/result" "$J/src/programs" "$J/bench"
	cp -r tests/lkp/bin tests/lkp/lib "$J/src/"
	ln -s "$PROG" "$J/src/programs/lockscope"
	export LKP_SRC=$J/src TMP=$J/tmp RESULT_ROOT=$J/result \
		TMP_RESULT_ROOT=$J/result BENCHMARK_ROOT=$J/bench
	(
		for kv; do export "${kv?}"; done
		PATH=${JOB_PATH:-$LS_ROOT}:$PATH exec "$LKP_SRC/bin/run-monitor" lockscope
	) 2>"$J/monitor.err" &
	rm_pid=$!
	T0=$(date +%s.%N)
	"$LKP_SRC/bin/event/wakeup" activate-monitor
	# the head start: until lockscope is attached, failed, or the monitor ended
	LS_PID= f=
	for _ in $(seq 600); do
		kill -0 "$rm_pid" 2>/dev/null || break
		f=$(compgen -G "$TMP/lockscope.*/err" | head -n 1)
		# its pid once it says so (polled too: one child, named)
		if [ -n "$f" ] && grep -q 'recording lock contention' "$f"; then
			LS_PID=$(pgrep -P "$rm_pid" -x lockscope)
			[[ "$LS_PID" =~ ^[0-9]+$ ]] && break
			LS_PID=
		fi
		# lockscope failed to start (its line "recording lock contention"
		# is no failure: its pid is polled on)
		[ -n "$f" ] && grep -v 'recording lock contention' "$f" | grep -q '^lockscope: ' && break
		sleep 0.05
	done
	IDS=
	if [ -z "$LS_PID" ]; then
		[ -n "$f" ] && grep -q 'recording lock contention' "$f" && echo "lkp: no lockscope child of the monitor (pid $rm_pid) found: its children: $(ps -o pid=,comm= --ppid "$rm_pid" | tr '\n' ' '); its err: $(cat "$f" 2>/dev/null | tr '\n' ' ')" >&2
	else
		# one read of all its fds (cat goes on past one closed meanwhile)
		IDS=$(cat /proc/"$LS_PID"/fdinfo/* 2>/dev/null |
			awk '/^(prog|map|link)_id:/ { sub(/_id:/, ""); print $1, $2 }')
	fi
	"${BENCH[@]}" >"$J/bench.out" 2>&1
	BENCH_RC=$?
	"$LKP_SRC/bin/post-run" 2>"$J/post-run.err"
	wait "$rm_pid"
	MON_RC=$?
	T1=$(date +%s.%N)
	"$PROG/parse" <"$RESULT_ROOT/lockscope" >"$J/parsed" 2>"$J/parse.err"
	PARSE_RC=$?
}

# bpf_gone: none of IDS is still loaded (the kernel frees them shortly
# after the last fd closes: polled for 5 s)
bpf_gone() {
	local left
	[ -n "$(tr -d '\n' <<<"$IDS")" ] || return 1
	for _ in $(seq 100); do
		left=0
		while read -r type id; do
			[ -n "$type" ] || continue
			bpftool "$type" show id "$id" >/dev/null 2>&1 && left=$((left + 1))
		done <<<"$IDS"
		[ $left -eq 0 ] && return 0
		sleep 0.05
	done
	echo "lkp: $left BPF objects of lockscope pid $LS_PID still loaded" >&2
	return 1
}

# job_bg NAME PARAM=VALUE...: job in the background, its J, MON_RC,
# BENCH_RC, PARSE_RC and LS_PID kept in $O/NAME.vars for job_vars NAME,
# which waits for it and sets them (to "-", failing every check, if the
# job left none)
declare -A bg_pid
job_bg() {
	(
		job "$@"
		printf 'J=%q MON_RC=%q BENCH_RC=%q PARSE_RC=%q LS_PID=%q\n' \
			"$J" "$MON_RC" "$BENCH_RC" "$PARSE_RC" "$LS_PID" >"$O/$1.vars"
	) &
	bg_pid[$1]=$!
}
job_vars() {
	J=$O/$1 MON_RC=- BENCH_RC=- PARSE_RC=- LS_PID=-
	wait "${bg_pid[$1]}"
	# shellcheck source=/dev/null
	[ -s "$O/$1.vars" ] && . "$O/$1.vars" ||
		echo "lkp: job $1 left no results" >&2
}

GRAMMAR='^[^[:space:]]+: -?[0-9]+(\.[0-9]+)?$'

# the jobs whose monitor starts no tracing lockscope (checked below) run
# beside the snapshot's
BENCH=(sh -c 'stress-ng --netlink-task 2 -t 2s; exit 3')
job_bg degraded tracepoints=off
BENCH=(stress-ng --netlink-task 2 -t 1s)
job_bg badmode mode=turbo
mkdir -p "$O/failing"
printf '#!/bin/sh\necho "lockscope: failed to load BPF object: Operation not permitted" >&2\nexit 1\n' >"$O/failing/lockscope"
chmod +x "$O/failing/lockscope"
JOB_PATH=$O/failing job_bg failing

# --- one snapshot of the whole test
BENCH=(stress-ng --netlink-task 2 -t 5s)
job snapshot
check "lkp monitor: exits 0" [ "$MON_RC" -eq 0 ]
check "lkp monitor: the benchmark exits 0 under it" [ "$BENCH_RC" -eq 0 ]
check "lkp monitor: lockscope ran and left none of its BPF objects" bpf_gone
check "lkp monitor: lockscope ended" bash -c "[ -n '$LS_PID' ] && ! kill -0 '$LS_PID' 2>/dev/null"
check "lkp monitor: one snapshot, no time: lines" bash -c "
	[ -s '$J/result/lockscope' ] && ! grep -q '^time: ' '$J/result/lockscope'"
check "lkp parse: exits 0, key: value lines, no whitespace in keys, plain decimals" bash -c "
	[ $PARSE_RC -eq 0 ] && [ -s '$J/parsed' ] && ! grep -Evq '$GRAMMAR' '$J/parsed'"
check "lkp parse: no lockscope. prefix (lkp-tests adds it)" bash -c "
	! grep -q '^lockscope\.' '$J/parsed' '$J/result/lockscope'"
check "lkp parse: the genetlink mutex with contentions > 0" \
	grep -Eq '^mutex@genl_rcv_msg\.contentions: [1-9][0-9]*$' "$J/parsed"
check "lkp parse: its wait, spin, sleep, peak waiters and holder-preempted share" bash -c "
	for m in wait_time.total.ms wait_time.avg.ms wait_time.max.ms spin_time.total.ms \
		sleep_time.total.ms peak_waiters holder_preempted.pct; do
		grep -Eq \"^mutex@genl_rcv_msg\.\$m: \" '$J/parsed' || exit 1
	done"
check "lkp parse: at most 10 locks, the top by total wait" python3 - "$J/parsed" "$J/result/lockscope" <<'PY'
import sys
def kv(path):
    return [l.rstrip("\n").split(": ", 1) for l in open(path) if ": " in l]
got = [k[: -len(".wait_time.total.ms")] for k, _ in kv(sys.argv[1])
       if k.endswith(".wait_time.total.ms")]
raw = {k[: -len(".wait_time.total.ms")]: float(v) for k, v in kv(sys.argv[2])
       if k.endswith(".wait_time.total.ms") and k != "wait_time.total.ms"}
best = sorted(raw, key=lambda i: (-raw[i], i))[:10]
ok = len(got) <= 10 and sorted(got) == sorted(best)
print("kept", len(got), "of", len(raw), "locks")
sys.exit(0 if ok else 1)
PY
check "lkp parse: losses in one total key, the sampler's samples and rate" bash -c "
	[ \$(grep -c '^loss\.' '$J/parsed') -eq 1 ] && grep -Eq '^loss\.total: [0-9]+$' '$J/parsed' &&
	grep -Eq '^sampler\.samples: [1-9]' '$J/parsed' && grep -Eq '^sampler\.hz: [0-9]' '$J/parsed' &&
	grep -Eq '^spin_share\.osq_lock: ' '$J/parsed'"
check "lkp parse: lock classes, never addresses" bash -c "
	! grep -Eq '0x[0-9a-f]{8,}|ffff[0-9a-f]{8}|#[0-9]' '$J/parsed'"

# --- degraded: tracepoints forced off, and the cheap mode runs no probes
job_vars degraded
check "lkp monitor degraded: exits 0" [ "$MON_RC" -eq 0 ]
check "lkp monitor degraded: one line on stderr" bash -c "
	[ \$(wc -l <'$J/monitor.err') -eq 1 ] &&
	grep -q '^lockscope monitor: failed to pick a contention source: tracepoints=off, and mode=cheap runs no probes; no lockscope stats$' '$J/monitor.err'"
check "lkp monitor degraded: started no lockscope, printed nothing" bash -c "
	[ -z '$LS_PID' ] && [ ! -s '$J/result/lockscope' ] && [ $PARSE_RC -eq 0 ] && [ ! -s '$J/parsed' ]"
check "lkp monitor degraded: the benchmark's exit status (3) untouched" [ "$BENCH_RC" -eq 3 ]

# --- a parameter it cannot honour, and a lockscope that fails
job_vars badmode
check "lkp monitor mode=turbo: exits 0 with one line, before the test" bash -c "
	[ $MON_RC -eq 0 ] && [ -z '$LS_PID' ] && [ $BENCH_RC -eq 0 ] &&
	[ \$(wc -l <'$J/monitor.err') -eq 1 ] &&
	grep -q \"^lockscope monitor: failed to parse mode 'turbo': expected cheap or full; no lockscope stats\$\" '$J/monitor.err'"
job_vars failing
check "lkp monitor, lockscope failing: exits 0 with its error in one line, prints nothing" bash -c "
	[ $MON_RC -eq 0 ] && [ $BENCH_RC -eq 0 ] && [ ! -s '$J/result/lockscope' ] && [ ! -s '$J/parsed' ] &&
	[ \$(wc -l <'$J/monitor.err') -eq 1 ] &&
	grep -q '^lockscope monitor: failed to run lockscope: exit 1 (lockscope: failed to load BPF object: Operation not permitted); no lockscope stats\$' '$J/monitor.err'"

# --- a time series: interval=1
BENCH=(stress-ng --netlink-task 2 -t 5s)
job series interval=1
check "lkp monitor series: exits 0, lockscope ended" bash -c "
	[ $MON_RC -eq 0 ] && [ -n '$LS_PID' ] && ! kill -0 '$LS_PID' 2>/dev/null"
check "lkp parse series: key: value lines" bash -c "
	[ $PARSE_RC -eq 0 ] && [ -s '$J/parsed' ] && ! grep -Evq '$GRAMMAR' '$J/parsed'"
awk '/^time: /{exit} {print}' "$J/result/lockscope" | "$PROG/parse" >"$J/snapshot"
check "lkp parse series: one sample per interval at epoch times, each with the same keys, summing to the snapshot" \
	python3 - "$J/parsed" "$J/snapshot" "$J/result/lockscope" "$T0" "$T1" <<'PY'
import math, sys
samples = []
for line in open(sys.argv[1]):
    k, v = line.rstrip("\n").split(": ", 1)
    if k == "time":
        samples.append({"time": float(v)})
    elif samples:
        samples[-1][k] = float(v)
    else:
        sys.exit("a key before the first time: line")
snap = dict(l.rstrip("\n").split(": ", 1) for l in open(sys.argv[2]))
dur = [float(l.split(": ")[1]) for l in open(sys.argv[3])
       if l.startswith("run.duration_s: ")][0]
t0, t1 = float(sys.argv[4]), float(sys.argv[5])
n = len(samples)
t = [s["time"] for s in samples]
# epoch seconds at each interval's end, from lockscope's start (the
# last end less the run's duration)
gaps = [round(b - a, 3) for a, b in zip([t[-1] - dur] + t, t)]
print(f"{n} samples over {dur} s, {t[0]:.3f} to {t[-1]:.3f} in {t0:.3f}..{t1:.3f}; gaps {gaps}")
ok = dur - 0.01 <= n <= dur + 1
ok &= t0 <= t[0] and t[-1] <= t1
ok &= all(0.9 <= g <= 1.1 for g in gaps[:-1]) and 0 < gaps[-1] <= 1.1
ok &= all(set(s) == set(samples[0]) for s in samples)
summed = ("contentions", "wait_time.total.ms", "spin_time.total.ms",
          "sleep_time.total.ms", "loss.total", "sampler.samples")
checked = 0
for k, v in snap.items():
    if not (k in summed or any(k.endswith("." + m) for m in summed[:4])):
        continue
    if k not in samples[0]:
        print("missing in the series:", k); ok = False; continue
    got, want = sum(s[k] for s in samples), float(v)
    tol = 0 if "." not in v and all(s[k] == int(s[k]) for s in samples) \
        else n * 0.005 + 1e-3 * abs(want)
    if abs(got - want) > tol:
        print(f"{k}: series sum {got} != snapshot {want}"); ok = False
    checked += 1
print(checked, "keys summed")
ok &= snap.get("mutex@genl_rcv_msg.contentions", "0") != "0" and checked > 5
sys.exit(0 if ok else 1)
PY
