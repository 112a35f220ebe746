#!/usr/bin/env bash
# Per-cgroup attribution on this kernel: two cgroups made here under the
# cgroup v2 mount (found in mountinfo), the pipe hammer in A and stress-ng
# netlink-task in B.  --by cgroup gives each lock's waits to the right
# cgroup (>= 95% of its count), every wait to some cgroup, and the pipe
# mutex's holders to A; --cgroup A
# sees none of B's locks; a cgroup removed before the read shows as
# (gone); bad --cgroup paths are bad input; serve --by cgroup labels A's
# waits cgroup="A" and stays within --max-cgroups 2 (the rest in "other")
# when six cgroups wait; record's cgroups; top -b --by cgroup lists the
# pipe mutex's waiters and holders in A; compare --by cgroup.  About 21 s.
. "$(dirname "$0")/../lib.sh"
W=$LS_ROOT/build
out=$LS_OUT/cgroups
mkdir -p "$out"

need_tracepoints "cgroups" || exit 0
need_cmd "cgroups" stress-ng || exit 0
root=$(awk '{ for (i = 1; i <= NF; i++) if ($i == "-") { if ($(i + 1) == "cgroup2") print $5; break } }' /proc/self/mountinfo | head -1)
if [ -z "$root" ]; then
	skip "cgroups: no cgroup v2 mount here"
	"$LS" hist --by cgroup -d 1 >/dev/null 2>"$out/nov2.err"
	rc=$?
	check "cgroups: --by cgroup without cgroup v2 fails (exit $rc): $(head -1 "$out/nov2.err")" [ $rc -eq 1 ]
	exit 0
fi
A=/lockscope-test-$$-A
B=/lockscope-test-$$-B
C=/lockscope-test-$$-C
D=/lockscope-test-$$-D
E=/lockscope-test-$$-E
F=/lockscope-test-$$-F
SPID=
cleanup() {
	[ -n "$SPID" ] && kill "$SPID" 2>/dev/null && wait "$SPID" 2>/dev/null
	for c in A B C D E F; do
		rmdir "$root/lockscope-test-$$-$c" 2>/dev/null
	done
}
trap cleanup EXIT
if ! mkdir "$root$A" "$root$B"; then
	skip "cgroups: cannot make cgroups under $root"
	exit 0
fi
# in CG CMD...: run CMD inside cgroup CG (a path below the mount)
in_cg='cg=$1; shift; echo $$ >"'"$root"'$cg/cgroup.procs" && exec "$@"'
workload="sh -c '$in_cg' - $A $W/pipe_hammer 2 3 >/dev/null 2>&1 &
	sh -c '$in_cg' - $B stress-ng --netlink-task 2 -t 3s >/dev/null 2>&1 &
	wait"

"$LS" hist --by cgroup --json -F 0 -- sh -c "$workload" >"$out/by.json" 2>"$out/by.err"
rc=$?
if [ $rc -ne 0 ] || ! jget "$out/by.json" 'len(d["locks"])' >/dev/null 2>&1; then
	fail "cgroups: hist --by cgroup --json exit $rc: $(tail -2 "$out/by.err")"
	exit 0
fi
py() { jget "$out/by.json" "$1"; }
# share LOCKEXPR CGROUP: waits of the matching locks in CGROUP, in percent
# of their contentions, then the counts
share() {
	py "(lambda ls: (lambda n, t: '%.2f %d %d' % (100.0 * n / t if t else 0, n, t))(sum(c['waits'] for r in ls for c in r['cgroups'] if c['cgroup'] == '$2'), sum(r['contentions'] for r in ls)))([r for r in d['locks'] if $1])"
}
read -r pct n t <<<"$(share 'r["class"].startswith("pipe_inode_info.mutex") and r["kind"] == "mutex"' "$A")"
if [ "${t:-0}" -ge 1000 ] && python3 -c "import sys; sys.exit(not $pct >= 95)"; then
	pass "cgroups: the pipe mutex's waits are in $A: $n of $t ($pct%)"
else
	fail "cgroups: pipe mutex in $A: $n of ${t:-0} (${pct:-?}%): $(py '[(r["name"], r["contentions"], [(c["cgroup"], c["waits"]) for c in r["cgroups"]]) for r in d["locks"]][:4]')"
fi
read -r pct n t <<<"$(share '"genl" in r["name"] and r["kind"] == "mutex"' "$B")"
if [ "${t:-0}" -ge 1000 ] && python3 -c "import sys; sys.exit(not $pct >= 95)"; then
	pass "cgroups: the genetlink mutex's waits are in $B: $n of $t ($pct%)"
else
	fail "cgroups: genetlink mutex in $B: $n of ${t:-0} (${pct:-?}%): $(py '[(r["name"], r["contentions"], [(c["cgroup"], c["waits"]) for c in r["cgroups"]]) for r in d["locks"]][:4]')"
fi
# the holder side: waits begun while a task of A held the pipe mutex
hp=$(py '(lambda ls: (lambda a, t: "%.2f %d %d" % (100.0 * a / t if t else 0, a, t))(sum(c["begins"] for r in ls for c in r["holder_cgroups"] if c["cgroup"] == "'"$A"'"), sum(c["begins"] for r in ls for c in r["holder_cgroups"])))([r for r in d["locks"] if r["class"].startswith("pipe_inode_info.mutex") and r["kind"] == "mutex"])')
read -r pct n t <<<"$hp"
if [ "${t:-0}" -ge 100 ] && python3 -c "import sys; sys.exit(not $pct >= 95)"; then
	pass "cgroups: the pipe mutex's holders were in $A: $n of $t waits with a holder task ($pct%)"
else
	fail "cgroups: pipe mutex holders in $A: ${n:-0} of ${t:-0} (${pct:-?}%): $(py '[(r["name"], r["holder_cgroups"]) for r in d["locks"] if r["kind"] == "mutex"][:3]')"
fi
# every recorded wait went to a cgroup (no loss counted here): lock_cgroups
# is read after lock_stats, so waits that ended in between may add a few
lost=$(py 'd["losses"]["cgroup map full"]')
bad=$(py '[(r["name"], r["contentions"], sum(c["waits"] for c in r["cgroups"])) for r in d["locks"] if not r["contentions"] <= sum(c["waits"] for c in r["cgroups"]) <= r["contentions"] * 1.01 + 5]')
if [ "$lost" = 0 ] && [ "$bad" = "[]" ]; then
	pass "cgroups: each lock's cgroup waits add up to its contentions ($(py 'len(d["locks"])') locks, $(py 'len({c["cgroup"] for r in d["locks"] for c in r["cgroups"]})') cgroups)"
else
	fail "cgroups: cgroup waits do not add up (loss $lost): ${bad:0:300}"
fi

# --cgroup A: the tasks of B are not seen at all (text output this time)
"$LS" hist --cgroup "$A" --by cgroup -n 50 -F 0 -- sh -c "$workload" >"$out/sel.txt" 2>"$out/sel.err"
rc=$?
others=$(grep -A40 '^  waits by waiter cgroup' "$out/sel.txt" | awk '$1 ~ /^\// && $1 != "'"$A"'" { print $1 }' | sort -u)
if [ $rc -eq 0 ] && grep -q "^#1 pipe_inode_info.mutex" "$out/sel.txt" &&
	! grep -q '^#[0-9]* .*genl' "$out/sel.txt" && [ -z "$others" ] &&
	grep -q "^    $A " "$out/sel.txt"; then
	pass "cgroups: --cgroup $A sees the pipe mutex and none of $B's locks ($(grep -c '^#' "$out/sel.txt") locks, all waits in $A)"
else
	fail "cgroups: --cgroup $A (exit $rc): $(grep '^#' "$out/sel.txt" | head -5 | tr '\n' ' ') other cgroups: $others $(tail -2 "$out/sel.err")"
fi

# top -b --by cgroup: under the pipe mutex's row, its waiters and holders
# by cgroup over each interval; A has them all (>= 95% of the waits/s)
"$LS" top -b --by cgroup -i 0.5 -n 3 -F 0 -- sh -c "$in_cg" - "$A" "$W/pipe_hammer" 2 2 >"$out/top.txt" 2>"$out/top.err"
rc=$?
# ROLE CGROUP RATE SHARE of the pipe mutex's cgroup lines, every frame
awk '/^[^ ]/ { pipe = $1 ~ /^pipe_inode_info\.mutex(#[0-9a-z]+)?$/; role = ""; next }
	pipe && /waits by waiter cgroup/ { role = "w"; next }
	pipe && /waits begun by holder cgroup/ { role = "h"; next }
	pipe && role != "" && $1 !~ /^CGROUP$/ { print role, $1, $2, $3 }' "$out/top.txt" >"$out/top.cg"
tw=$(awk '$1 == "w" { s += $3 } END { print s + 0 }' "$out/top.cg")
aw=$(awk -v a="$A" '$1 == "w" && $2 == a { s += $3 } END { print s + 0 }' "$out/top.cg")
ah=$(awk -v a="$A" '$1 == "h" && $2 == a { s += $3 } END { print s + 0 }' "$out/top.cg")
if [ $rc -eq 0 ] && [ "$tw" -ge 1000 ] && [ "$ah" -gt 0 ] &&
	python3 -c "import sys; sys.exit(not $aw >= 0.95 * $tw)"; then
	pass "cgroups: top -b --by cgroup lists the pipe mutex's waiters in $A ($aw of $tw waits/s summed over $(grep -c '^lockscope top' "$out/top.txt") frames) and holders in $A ($ah begun/s)"
else
	fail "cgroups: top -b --by cgroup (exit $rc): waiters in $A $aw of $tw waits/s, holders $ah: $(head -6 "$out/top.cg" | tr '\n' ' ') $(tail -1 "$out/top.err")"
fi

# a cgroup that is gone by the read is "(gone)", never another path
"$LS" hist --by cgroup --json -F 0 -- sh -c "mkdir $root$C && sh -c '$in_cg' - $C $W/pipe_hammer 2 1 >/dev/null 2>&1; rmdir $root$C" >"$out/gone.json" 2>"$out/gone.err"
g=$(jget "$out/gone.json" '[c["cgroup"] for r in d["locks"] if r["class"].startswith("pipe_inode_info.mutex") and r["kind"] == "mutex" for c in r["cgroups"]]' 2>/dev/null)
if [ ! -e "$root$C" ] && [ "$g" = "['(gone)']" ]; then
	pass "cgroups: waits of a removed cgroup show as (gone)"
else
	fail "cgroups: removed cgroup shows as ${g:-nothing}: $(tail -2 "$out/gone.err")"
fi

# record --by cgroup: the schema's cgroups, intervals adding up to totals
"$LS" record --by cgroup -o "$out/rec.json" -i 1 -F 0 -- sh -c "$in_cg" - "$A" "$W/pipe_hammer" 2 2 >/dev/null 2>"$out/rec.err"
rc=$?
sel='[r for r in L if r["class"].startswith("pipe_inode_info.mutex") and r["kind"] == "mutex"]'
tot=$(jget "$out/rec.json" "(lambda L: sum(c['waits'] for r in $sel for c in r['cgroups'] if c['cgroup'] == '$A'))(d['totals']['locks'])" 2>/dev/null)
ivs=$(jget "$out/rec.json" "sum((lambda L: sum(c['waits'] for r in $sel for c in r['cgroups'] if c['cgroup'] == '$A'))(iv['locks']) for iv in d['intervals'])" 2>/dev/null)
schema=ok
if python3 -c 'import jsonschema' 2>/dev/null; then
	python3 - "$LS_ROOT/docs/record-schema.json" "$out/rec.json" >"$out/rec.schema" 2>&1 <<'PY' || schema=$(tail -1 "$out/rec.schema")
import json, sys, jsonschema
jsonschema.Draft202012Validator(json.load(open(sys.argv[1]))).validate(json.load(open(sys.argv[2])))
PY
fi
if [ $rc -eq 0 ] && [ "$schema" = ok ] && [ "${tot:-0}" -gt 1000 ] 2>/dev/null &&
	python3 -c "import sys; sys.exit(not 0.95 * $tot <= $ivs <= $tot)"; then
	pass "cgroups: record --by cgroup: pipe mutex waits in $A $tot in totals, $ivs over the intervals, schema valid"
else
	fail "cgroups: record --by cgroup (exit $rc, schema $schema): totals ${tot:-?}, intervals ${ivs:-?}: $(tail -1 "$out/rec.err")"
fi

# compare --by cgroup: the pipe mutex's waits in A compared between two
# records (base: the one above); a record without cgroups is bad input
"$LS" record --by cgroup -o "$out/rec2.json" -F 0 -- sh -c "$in_cg" - "$A" "$W/pipe_hammer" 2 1 >/dev/null 2>"$out/rec2.err"
"$LS" compare --by cgroup --format csv "$out/rec.json" -- "$out/rec2.json" >"$out/cmp.csv" 2>"$out/cmp.err"
rc=$?
# base and new means of the pipe mutex's cgroup[A].waits row
row=$(awk -F, -v k="lockscope.pipe_inode_info.mutex(mutex).cgroup[$A].waits" '$1 == k { print $5, $9 }' "$out/cmp.csv")
tot2=$(jget "$out/rec2.json" "(lambda L: sum(c['waits'] for r in $sel for c in r['cgroups'] if c['cgroup'] == '$A'))(d['totals']['locks'])" 2>/dev/null)
if [ $rc -le 1 ] && [ "$row" = "$tot ${tot2:-?}" ] &&
	grep -q "cgroup\[$A\].wait_time.total.ms" "$out/cmp.csv"; then
	pass "cgroups: compare --by cgroup compares the pipe mutex's waits in $A: $tot -> $tot2"
else
	fail "cgroups: compare --by cgroup (exit $rc): row '${row:-none}', want '$tot ${tot2:-?}': $(head -1 "$out/cmp.err")"
fi
python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
for s in [d["totals"]] + d["intervals"]:
    for l in s["locks"]:
        l.pop("cgroups", None); l.pop("holder_cgroups", None)
json.dump(d, open(sys.argv[2], "w"))' "$out/rec.json" "$out/plain.json"
"$LS" compare --by cgroup "$out/rec.json" -- "$out/plain.json" >/dev/null 2>"$out/cmpbad.err"
rc=$?
if [ $rc -eq 2 ] && [ "$(grep -c '^lockscope: ' "$out/cmpbad.err")" = 1 ] &&
	grep -q "plain.json' by cgroup: its locks have no cgroups" "$out/cmpbad.err"; then
	pass "cgroups: compare --by cgroup with a record without cgroups is bad input (exit 2): $(head -1 "$out/cmpbad.err")"
else
	fail "cgroups: compare --by cgroup, a record without cgroups: exit $rc: $(cat "$out/cmpbad.err")"
fi

# bad paths are bad input (exit 2), before anything runs
for arg in /lockscope-no-such-cgroup "$A/../.."; do
	"$LS" hist --cgroup "$arg" -d 1 >/dev/null 2>"$out/bad.err"
	rc=$?
	check "cgroups: --cgroup $arg is bad input (exit $rc): $(head -1 "$out/bad.err")" [ $rc -eq 2 ]
done

# ---- serve --by cgroup: the label, its bound, monotonic counters --------
"$LS" serve --by cgroup --max-cgroups 2 --max-series 5 -i 0.5 -F 0 \
	--listen 127.0.0.1:0 >"$out/serve.log" 2>&1 &
SPID=$!
if ! URL=$(serve_url "$out/serve.log" "$SPID" 127.0.0.1); then
	fail "cgroups: serve --by cgroup starts: $(tail -2 "$out/serve.log")"
	exit 0
fi
scrape() { scrape_fresh "$URL" "$out/$1"; }
# cgvals FILE: "label value" of every lockscope_cgroup_waits_total sample
cgvals() {
	# values as integers: the exposition writes the shortest exact float
	# (26380 is 2.638e+04)
	sed -n 's/^lockscope_cgroup_waits_total{cgroup="\(.*\)"} \(.*\)$/\1 \2/p' "$out/$1" |
		awk '{ printf "%s %.0f\n", $1, $2 }'
}
sh -c "$in_cg" - "$A" "$W/pipe_hammer" 2 2 >/dev/null 2>&1
scrape m1.txt
a1=$(cgvals m1.txt | awk -v c="$A" '$1 == c { print $2 }')
pipe1=$(awk '/^lockscope_lock_contentions_total\{lock="pipe_inode_info.mutex"/ { s += $2 } END { print s + 0 }' "$out/m1.txt")
if [ "${a1:-0}" -ge 1000 ] 2>/dev/null && python3 -c "import sys; sys.exit(not $a1 >= 0.95 * $pipe1)"; then
	pass "cgroups: serve labels the pipe hammer's waits cgroup=\"$A\": $a1 (the pipe mutex series: $pipe1)"
else
	fail "cgroups: serve cgroup=\"$A\" has ${a1:-no series} (pipe mutex $pipe1): $(cgvals m1.txt | head -5 | tr '\n' ' ')"
fi
mkdir "$root$D" "$root$E" "$root$F"
# four hammers at once on 2 CPUs: the scheduler may keep each one's reader
# and writer on one CPU (wake-affine), so that a round can pass with next
# to no contention; the counts add up, so run again until 3 cgroups waited
for _ in 1 2 3; do
	for c in "$B" "$D" "$E" "$F"; do
		sh -c "$in_cg" - "$c" "$W/pipe_hammer" 2 1 >/dev/null 2>&1 &
	done
	wait $(jobs -p | grep -v "^$SPID$") 2>/dev/null
	scrape m2.txt
	nother=$(awk '/^lockscope_cgroups\{series="other"\}/ { print $2 }' "$out/m2.txt")
	[ "${nother:-0}" -ge 3 ] && break
done
own=$(cgvals m2.txt | awk '$1 != "other"' | wc -l)
other=$(cgvals m2.txt | awk '$1 == "other" { print $2 }')
a2=$(cgvals m2.txt | awk -v c="$A" '$1 == c { print $2 }')
bad=$(cgvals m2.txt | awk -v r="$root" '$1 != "other" && $1 != "/" { print $1 }' | while read -r l; do [ -d "$root$l" ] || echo "$l"; done)
if [ "$own" -le 2 ] && [ "${other:-0}" -gt 0 ] && [ -z "$bad" ] &&
	[ "${nother:-0}" -ge 3 ]; then
	pass "cgroups: $((own + nother)) cgroups waited, serve kept $own own cgroup series (--max-cgroups 2), $nother in other ($other waits); labels are paths: $(cgvals m2.txt | awk '{ print $1 }' | tr '\n' ' ')"
else
	fail "cgroups: serve cgroup series: own $own, other ${other:-none} waits of ${nother:-?} cgroups, not paths: $bad: $(cgvals m2.txt | tr '\n' ' ')"
fi
if [ -n "$a2" ] && [ "$a2" -ge "$a1" ] 2>/dev/null; then
	pass "cgroups: cgroup=\"$A\"'s counter only grows ($a1 -> $a2)"
else
	fail "cgroups: cgroup=\"$A\" went from ${a1:-none} to ${a2:-none}"
fi
if grep -Eq 'cgroup="[0-9]+"' "$out/m2.txt"; then
	fail "cgroups: a raw cgroup id is exported: $(grep -E 'cgroup="[0-9]+"' "$out/m2.txt" | head -2)"
else
	pass "cgroups: no raw cgroup id in the labels"
fi
