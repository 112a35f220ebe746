#!/usr/bin/env bash
# tests/integration/test_record.sh - lockscope record and compare on this
# kernel: record files against their schema, the time series, signals,
# exit statuses, compare on fixed files (numbers worked out by hand in
# tests/unit/test_compare.c) and on real runs (the reader's fuzzer is in test_fuzz.sh).
. "$(dirname "$0")/../lib.sh"

D=$LS_ROOT/tests/data
O=$LS_OUT/record
rm -rf "$O"
mkdir -p "$O"
NL=(stress-ng --netlink-task 2 -t 3s)

# valid FILE: the file matches docs/record-schema.json and lockscope reads it
valid() {
	python3 - "$LS_ROOT/docs/record-schema.json" "$1" <<'PY' &&
import json, sys, jsonschema
schema = json.load(open(sys.argv[1]))
jsonschema.Draft202012Validator(schema).validate(json.load(open(sys.argv[2])))
PY
		"$LS" compare "$1" -- "$1" >/dev/null
}

have_jsonschema() {
	python3 -c 'import jsonschema' 2>/dev/null && return 0
	skip "$1: python3-jsonschema is not installed (scripts/setup.sh test)"
	return 1
}

# py FILE CODE: exit 0 when CODE, an expression or statements that set ok,
# holds for d = the JSON in FILE
py() {
	python3 - "$@" <<'PY'
import json, sys
g = {"d": json.load(open(sys.argv[1])), "json": json}
try:
    ok = eval("(" + sys.argv[2] + ")", g)
except SyntaxError:
    exec(sys.argv[2], g)
    ok = g["ok"]
if not ok:
    print("  check failed:", sys.argv[2], file=sys.stderr)
sys.exit(0 if ok else 1)
PY
}

# contended_genl FILE NAME: skip NAME unless the netlink workload contended
contended_genl() {
	py "$1" '[l for l in d["totals"]["locks"] if l["name"] == "mutex@genl_rcv_msg" and l["contentions"] > 0]' 2>/dev/null && return 0
	skip "$2: stress-ng --netlink-task caused no genl_rcv_msg contention in this run (machine too busy?)"
	return 1
}

# one_error FILE: stderr in FILE is one "lockscope: failed to" line
one_error() {
	[ "$(wc -l <"$1")" -eq 1 ] && grep -q '^lockscope: failed to ' "$1"
}

# ---- compare on fixed files (no root needed) ----------------------------
B=("$D/record-base1.json" "$D/record-base2.json" "$D/record-base3.json")
N=("$D/record-new1.json" "$D/record-new2.json" "$D/record-new3.json")
"$LS" compare --min-share 0 "${B[@]}" -- "${N[@]}" >"$O/cmp.txt" 2>"$O/cmp.err"
rc=$?
cat "$O/cmp.txt"
# pipe 1000 in every base run, 900 in every new run: -10%, certain
check "compare: mean, stddev, change, effect with interval, p, verdict" \
	grep -qF '      1000 ±  0%     -10.0%        900 ±  0%  -10.0% [-10.0%, -10.0%]      <0.001 better    lockscope.mutex@pipe_write.contentions' "$O/cmp.txt"
# 1110, 1120, 1110 -> 1054, 1036, 1045: log-scale Welch, BH over 16 tests
check "compare: all contentions -6.1%, interval and adjusted p" \
	grep -qF '   1113.33 ±  1%      -6.1%       1045 ±  1%  -6.1% [-7.8%, -4.5%]          0.004 better    lockscope.contentions' "$O/cmp.txt"
# genl_rcv_msg 110 +- 10 -> 140 +- 10 (+27%): p 0.025, adjusted 0.056
check "compare: +27% on three runs a side does not survive the correction" \
	bash -c "! grep -q 'genl_rcv_msg.contentions' '$O/cmp.txt'"
check "compare: summary line" \
	grep -qF "4 of 29 metrics changed: Welch's t-test across runs, Benjamini-Hochberg adjusted p < 0.05 over the 16 tested, and |effect| > 0%; 0 got worse (every metric is lower-is-better)." "$O/cmp.txt"
check "compare: metrics on few events are not tested" \
	grep -qF '13 metrics resting on fewer than 20 events per run (sampler hits, give-ups, sleeps) not tested.' "$O/cmp.txt"
check "compare: locks on one side listed with their verdict" \
	grep -qF 'only in new: siglock (spinlock, 5 contentions, few events)' "$O/cmp.txt"
check "compare: improvements only exit 0" test "$rc" -eq 0
# by default locks under 1% of contentions and wait on both sides are minor
"$LS" compare "${N[@]}" -- "${B[@]}" >"$O/cmp-minor.txt" 2>&1
rc=$?
check "compare: reversed, a regression exits 1, minor locks left out" bash -c "
[ $rc -eq 1 ] && grep -qF '+11.1% [+11.1%, +11.1%]      <0.001 worse     lockscope.mutex@pipe_write.contentions' '$O/cmp-minor.txt' &&
grep -qF 'only in base: siglock (spinlock, 5 contentions, minor)' '$O/cmp-minor.txt' &&
grep -qF '2 locks below 1% of all contentions and of all wait time on both sides left out (--min-share).' '$O/cmp-minor.txt' &&
grep -qF '4 got worse' '$O/cmp-minor.txt'"
"$LS" compare --threshold 5 "${N[@]}" -- "${B[@]}" >/dev/null 2>&1
rc5=$?
"$LS" compare --threshold 20% "${N[@]}" -- "${B[@]}" >"$O/cmp20.txt" 2>&1
rc20=$?
# reversed: pipe 900 -> 1000 is +11.1%, all contentions +6.5%
check "compare: +11% gates at --threshold 5" test "$rc5" -eq 1
check "compare: nothing beyond --threshold 20 exits 0" test "$rc20" -eq 0
"$LS" compare "${B[0]}" "${B[1]}" -- "${N[0]}" "${N[1]}" >"$O/cmp-2.txt" 2>&1
rc=$?
check "compare: two runs a side report, never fail" bash -c "
[ $rc -eq 0 ] && grep -qF 'fewer than 3 runs on a side: rows shown are not counted and the exit status is 0' '$O/cmp-2.txt'"
"$LS" compare "${B[@]}" -- "${B[@]}" >/dev/null 2>&1
check "compare: same runs on both sides exit 0" test $? -eq 0
"$LS" compare --format json --min-share 0 "${N[@]}" -- "${B[@]}" >"$O/cmp.json" 2>/dev/null
check "compare: json rows" py "$O/cmp.json" '
[(abs(r["base_mean"] - 900) < 1e-9 and r["base_stddev_pct"] == 0
  and abs(r["new_mean"] - 1000) < 1e-9 and abs(r["change_pct"] - 11.1111) < 1e-3
  and abs(r["effect_pct"] - 11.1111) < 1e-3 and r["p"] == 0 and r["p_adj"] == 0
  and r["verdict"] == "worse" and r["scale"] == "log" and r["type"] == "amount"
  and r["regressed"] and r["presence"] == "both")
 for r in d["rows"] if r["key"] == "lockscope.mutex@pipe_write.contentions"] == [True]
and [r["verdict"] for r in d["rows"] if r["key"] == "lockscope.rwsem@mmap_region(rwsem:W).contentions"] == ["few events"]
and [r["effect_pct"] for r in d["rows"] if r["key"] == "lockscope.rwsem@mmap_region(rwsem:W).contentions"] == [None]
and d["regressed"] == 4 and d["tested"] == 16 and d["base"]["runs"] == 3
and d["schema_version"] == 2 and d["min_runs"] == 3 and d["min_events"] == 20'
"$LS" compare --format csv "${B[@]}" -- "${N[@]}" >"$O/cmp.csv" 2>/dev/null
check "compare: csv header" grep -qx 'key,lock,kind,metric,base_mean,base_stddev_pct,base_runs_present,change_pct,new_mean,new_stddev_pct,new_runs_present,presence,minor,changed,regressed,effect_pct,effect_lo_pct,effect_hi_pct,p,p_adj,verdict,base_estimate,base_se,new_estimate,new_se' "$O/cmp.csv"
check "compare: csv rows" grep -q '^lockscope.mutex@genl_rcv_msg.contentions,mutex@genl_rcv_msg,mutex,contentions,110,9.09,3,27.27,140,7.14,3,both,0,0,0,27.41,5.36,54.07,0.02457,0.05616,unchanged,exact,0,exact,0$' "$O/cmp.csv"

# bad input: one line, exit 2, nothing on standard output
head -c 700 "$D/record-base1.json" >"$O/truncated.json"
: >"$O/empty.json"
i=0
for args in "$O/truncated.json -- ${N[0]}" "$D/record-malformed.json -- ${N[0]}" \
	"${B[0]} -- $D/record-v2.json" "$O/empty.json -- ${N[0]}" \
	"$O/missing.json -- ${N[0]}" "$D/gen-records.py -- ${N[0]}" \
	"-- ${N[0]}" "${B[0]} --" "${B[0]}" "--format lkp ${B[0]} -- ${N[0]}"; do
	i=$((i + 1))
	# shellcheck disable=SC2086
	"$LS" compare $args >"$O/bad.out" 2>"$O/bad.err"
	rc=$?
	if [ "$rc" -eq 2 ] && one_error "$O/bad.err" && [ ! -s "$O/bad.out" ]; then
		pass "compare: bad input $i: $(cat "$O/bad.err")"
	else
		fail "compare: bad input $i ($args): rc $rc: $(cat "$O/bad.err")"
	fi
done
grep -q 'schema version 2 is not supported' "$O/bad.err" ||
	"$LS" compare "${B[0]}" -- "$D/record-v2.json" 2>&1 |
	grep -q 'schema version 2 is not supported (this lockscope reads version 1)'
check "compare: schema version named in the error" test $? -eq 0

# ---- the reader's fuzzer: run with the others by test_fuzz.sh -----------

# ---- record on this kernel -----------------------------------------------
need_tracepoints "record" || exit 0
need_cmd "record" stress-ng || exit 0
have_jsonschema "record" && schema=1 || schema=0

"$LS" hist --json -d 0.2 >"$O/hist.json" 2>/dev/null
"$LS" record -o "$O/base1.json" -- "${NL[@]}" >/dev/null 2>"$O/rec.err"
rc=$?
check "record: netlink-task exits 0" test "$rc" -eq 0
[ "$schema" = 1 ] && check "record: file matches the schema" valid "$O/base1.json"
contended_genl "$O/base1.json" "record: mutex@genl_rcv_msg contended" &&
	check "record: mutex@genl_rcv_msg contended" py "$O/base1.json" '
[l for l in d["totals"]["locks"]
 if l["name"] == "mutex@genl_rcv_msg" and l["kind"] == "mutex" and l["contentions"] > 100]'
check "record: run metadata" py "$O/base1.json" "
r = d['run']
ok = (r['kernel_release'] == '$(uname -r)' and r['cpus'] == $(nproc) and
r['command'] == ['stress-ng', '--netlink-task', '2', '-t', '3s'] and
r['exit_status'] == 0 and 2.5 < r['duration_s'] < 15 and
r['lockscope_cmdline'][1:4] == ['record', '-o', '$O/base1.json'] and
not r['interrupted'] and r['interval_s'] is None and d['intervals'] == [] and
[s['active'] for s in r['sources'] if s['source'] == 'tracepoints'] == [True] and
set(d['totals']['losses']) == set(json.load(open('$O/hist.json'))['losses']) and
set(d['totals']['counters']) == set(json.load(open('$O/hist.json'))['counters']))"
check "record: counters add up (recorded <= ends, recorded ~ lock rows)" py "$O/base1.json" '
c = d["totals"]["counters"]
n = sum(l["contentions"] for l in d["totals"]["locks"])
# counters and lock rows are read a moment apart (a read of 6600 locks
# on a machine at load 15 let 0.3% more waits into the rows): 1% slack
ok = (0 < c["recorded"] <= c["ends"] and abs(c["recorded"] - n) <= max(10, c["recorded"] / 100))'

"$LS" record -o "$O/exit3.json" -- sh -c 'exit 3' 2>/dev/null
rc=$?
check "record: COMMAND's exit status 3 becomes lockscope's" test "$rc" -eq 3
check "record: exit status 3 in the file" py "$O/exit3.json" 'd["run"]["exit_status"] == 3'
"$LS" record -o "$O/kill.json" -- sh -c 'kill -KILL $$' 2>/dev/null
check "record: COMMAND killed by SIGKILL gives 137" test $? -eq 137
"$LS" record -o "$O/none.json" -- /nonexistent/prog 2>"$O/none.err"
rc=$?
check "record: missing COMMAND gives 127, one error, no file" \
	bash -c "[ $rc -eq 127 ] && [ ! -e '$O/none.json' ] && [ \$(wc -l <'$O/none.err') -eq 1 ]"
start=$(date +%s%N)
"$LS" record -o "$O/no/such/dir.json" -d 5 2>"$O/dir.err"
rc=$?
ms=$((($(date +%s%N) - start) / 1000000))
check "record: bad -o path fails at once ($ms ms), before tracing" \
	bash -c "[ $rc -ne 0 ] && [ $ms -lt 2000 ] && grep -q '^lockscope: failed to create file' '$O/dir.err'"

# netlink_load SECONDS: stress-ng --netlink-task 2 in the background (its
# pid in wl), returning once its workers run
netlink_load() {
	stress-ng --netlink-task 2 -t "$1" >/dev/null 2>&1 &
	wl=$!
	wait_for 'pgrep -P "$wl" >/dev/null' 5
}

# time series: one snapshot per interval; the deltas sum to the totals
netlink_load 6s
"$LS" record -o "$O/iv.json" -d 3 -i 1 2>/dev/null
check "record -i: exits 0" test $? -eq 0
[ "$schema" = 1 ] && check "record -i: file matches the schema" valid "$O/iv.json"
check "record -i: 3 snapshots of about 1 s each" py "$O/iv.json" '
iv = d["intervals"]
ok = (len(iv) == 3 and d["run"]["interval_s"] == 1 and
[i["index"] for i in iv] == [1, 2, 3] and
all(0.9 < i["duration_s"] < 1.5 for i in iv) and
abs(iv[-1]["t_s"] - d["run"]["duration_s"]) < 1e-6)'
check "record -i: interval counters sum to the totals" py "$O/iv.json" '
T = d["totals"]; iv = d["intervals"]
ok = (all(sum(i["counters"][k] for i in iv) == v for k, v in T["counters"].items()) and
all(sum(i["losses"][k] for i in iv) == v for k, v in T["losses"].items()) and
T["counters"]["begins"] > 0)'
check "record -i: per-lock deltas sum to the totals" py "$O/iv.json" '
from collections import Counter
F = ["contentions", "total_ns", "spin_ns", "sleep_ns", "spin_won", "spin_failed", "begins"]
H = ["hist_log2_ns", "hist_spin_log2_ns", "hist_sleep_log2_ns"]
def sums(locks):
    c = Counter()
    for l in locks:
        for f in F:
            c[(l["name"], l["kind"], f)] += l[f]
        for h in H:
            for slot, n in enumerate(l[h]):
                c[(l["name"], l["kind"], h, slot)] += n
    return c
tot = sums(d["totals"]["locks"]); s = Counter()
for i in d["intervals"]:
    s.update(sums(i["locks"]))
ok = (+tot == +s and len(tot) > 0)'
contended_genl "$O/iv.json" "record -i: mutex@genl_rcv_msg in the series" &&
	check "record -i: mutex@genl_rcv_msg in the series" py "$O/iv.json" '
sum(l["contentions"] for i in d["intervals"] for l in i["locks"] if l["name"] == "mutex@genl_rcv_msg") ==
sum(l["contentions"] for l in d["totals"]["locks"] if l["name"] == "mutex@genl_rcv_msg")'

kill_pids "$wl" # the load was needed while recording only
# three records of one load at once: CSV intervals, lkp lines, and -i
# with its scratch file in a TMPDIR of its own
netlink_load 5s
mkdir "$O/tmp"
"$LS" record -o "$O/iv.csv" --format csv -d 2 -i 0.5 2>/dev/null &
csv=$!
TMPDIR=$O/tmp "$LS" record -o "$O/tmp.json" -d 1 -i 0.25 2>/dev/null &
tmp=$!
"$LS" record -o "$O/nl.lkp" --format lkp -d 2 2>/dev/null
wait "$csv" "$tmp"
kill_pids "$wl" # the load was needed while recording only
check "record -i --format csv: one row per lock per interval, summing to the totals" python3 - "$O/iv.csv" <<'PY'
import csv, sys
from collections import Counter
rows = list(csv.DictReader(open(sys.argv[1])))
ivs = sorted({int(r["interval"]) for r in rows})
tot, s = Counter(), Counter()
for r in rows:
    k = (r["lock"], r["kind"])
    (tot if r["interval"] == "0" else s)[k] += int(r["contentions"])
keys = [(r["interval"], r["lock"], r["kind"]) for r in rows]
# an interval in which no lock was contended has no rows
sys.exit(0 if ivs[0] == 0 and set(ivs) <= {0, 1, 2, 3, 4} and len(ivs) >= 2
         and +tot == +s and len(keys) == len(set(keys)) else 1)
PY
# -i keeps its intervals in a scratch file in $TMPDIR: one that cannot be
# made fails before COMMAND starts (exit 2, a hint, no record written);
# one that can holds nothing once the record is written
TMPDIR=$O/no-such-dir "$LS" record -o "$O/notmp.json" -i 0.2 -- touch "$O/notmp.ran" \
	>/dev/null 2>"$O/notmp.err"
rc=$?
check "record -i, TMPDIR missing: exit 2 before COMMAND, with a hint, no record" bash -c "
	[ $rc -eq 2 ] && [ ! -e '$O/notmp.ran' ] && [ ! -e '$O/notmp.json' ] &&
	grep -qx \"lockscope: failed to create a scratch file in '$O/no-such-dir': No such file or directory\" '$O/notmp.err' &&
	grep -q '^  hint: .*set TMPDIR to a directory with room' '$O/notmp.err'"
check "record -i: the scratch file leaves nothing in TMPDIR, the intervals are in the record" \
	py "$O/tmp.json" "len(d['intervals']) >= 3 and __import__('os').listdir('$O/tmp') == []"
check "record --format lkp: key: value lines" bash -c "
grep -Eq '^contentions: [0-9]+$' '$O/nl.lkp' &&
grep -Eq '^spin_share\.osq_lock: [0-9]+(\.[0-9]+)?$' '$O/nl.lkp' &&
! grep -Evq '^[^ ]+: -?[0-9]+(\.[0-9]+)?$' '$O/nl.lkp'"
if grep -q '^mutex@genl_rcv_msg\.contentions: [1-9]' "$O/nl.lkp"; then
	check "record --format lkp: genetlink mutex average wait" \
		grep -Eq '^mutex@genl_rcv_msg\.wait_time\.avg\.ms: [0-9]+(\.[0-9]+)?$' "$O/nl.lkp"
else
	skip "record --format lkp: genetlink mutex average wait: no genl_rcv_msg contention in this run (machine too busy?)"
fi

# Ctrl-C: SIGINT to the whole process group, as a terminal sends it;
# SIGTERM while COMMAND runs: lockscope ends it, records what it saw and
# COMMAND's own end, and exits 0 (it ended COMMAND; tests/integration/
# test_files.sh has the whole exit status rule).  Both 2 s into one load.
netlink_load 6s
setsid "$LS" record -o "$O/int.json" -i 0.5 2>/dev/null &
pid=$!
setsid "$LS" record -o "$O/term.json" -- stress-ng --netlink-task 2 -t 30s >/dev/null 2>&1 &
tpid=$!
sleep 2
kill -INT -- "-$pid"
kill -TERM "$tpid"
wait "$pid"
rc=$?
wait "$tpid"
trc=$?
kill_pids "$wl" # the load was needed while recording only
check "record: Ctrl-C exits 0" test "$rc" -eq 0
[ "$schema" = 1 ] && check "record: Ctrl-C still writes a valid file" valid "$O/int.json"
check "record: Ctrl-C file is marked interrupted, with its data" py "$O/int.json" '
d["run"]["interrupted"] and 1 < d["run"]["duration_s"] < 5 and
d["totals"]["counters"]["begins"] > 0 and len(d["intervals"]) >= 3'
check "record: SIGTERM writes the file, exits 0" py "$O/term.json" "
d['run']['interrupted'] and $trc == 0 and isinstance(d['run']['exit_status'], int) and
d['run']['duration_s'] < 10 and d['totals']['counters']['begins'] > 0"
check "record: no temporary files left" \
	bash -c "[ -z \"\$(find '$O' -name '.*.json.*' -o -name '.*.csv.*' -o -name '.*.lkp.*')\" ]"

# compare real runs: two per side, tool's numbers against the files'
# (the three new records at once: the check is of the arithmetic)
"$LS" record -o "$O/base2.json" -- "${NL[@]}" >/dev/null 2>&1 &
b2=$!
"$LS" record -o "$O/new1.json" -- "${NL[@]}" >/dev/null 2>&1 &
n1=$!
"$LS" record -o "$O/new2.json" -- "${NL[@]}" >/dev/null 2>&1
wait "$b2" "$n1"
"$LS" compare "$O/base1.json" "$O/base2.json" -- "$O/new1.json" "$O/new2.json" >"$O/real.txt"
rc=$?
cat "$O/real.txt"
check "compare real runs: exit 0 or 1" test "$rc" -le 1
"$LS" compare --format json "$O/base1.json" "$O/base2.json" -- "$O/new1.json" "$O/new2.json" >"$O/real.json"
check "compare real runs: means, stddev and %change match the files" python3 - "$O" <<'PY'
import json, statistics, sys
o = sys.argv[1]
def cont(f):
    d = json.load(open(f"{o}/{f}.json"))
    return sum(l["contentions"] for l in d["totals"]["locks"])
b = [cont("base1"), cont("base2")]; n = [cont("new1"), cont("new2")]
c = json.load(open(f"{o}/real.json"))
r = [r for r in c["rows"] if r["key"] == "lockscope.contentions"][0]
bm, nm = statistics.mean(b), statistics.mean(n)
ok = (abs(r["base_mean"] - bm) < 1e-6 and abs(r["new_mean"] - nm) < 1e-6 and
      abs(r["base_stddev"] - statistics.stdev(b)) < 1e-6 and
      abs(r["new_stddev"] - statistics.stdev(n)) < 1e-6 and
      abs(r["change_pct"] - 100 * (nm - bm) / bm) < 1e-6 and
      r["base_runs_present"] == 2 and r["new_runs_present"] == 2)
print(f"  all contentions: base {b} new {n}: {r['change_pct']:+.1f}%")
sys.exit(0 if ok else 1)
PY
