#!/usr/bin/env bash
# tests/integration/test_record_scale.sh - record load, compare and report
# of 50k locks (a class each, tests/data/gen-records.py) take CPU time and
# memory in proportion to the locks: the CPU time of a 5k run, scaled by
# ten with room for n log n and noise, bounds the 50k run (the quadratic
# reader took 35 times from 2.5k to 25k locks, 1.6 s to 56 s), and so
# does its peak RSS, which also stays within a few bytes of memory per
# byte of the records.  CPU time, not wall time: the machine is shared.
# No root needed.  LS_SCALE_LOCKS="S L" runs S and L locks instead of
# 5000 and 50000 (L = 10 S; "10000 100000", the sizes docs/numbers.md
# measured, takes 20 s more).
. "$(dirname "$0")/../lib.sh"
T=record_scale
O=$LS_OUT/$T
rm -rf "$O"
mkdir -p "$O"
GEN=$LS_ROOT/tests/data/gen-records.py
read -r S L <<<"${LS_SCALE_LOCKS:-5000 50000}"

need_cmd "$T" python3 || exit 0
if [ ! -x /usr/bin/time ]; then
	skip "$T: /usr/bin/time is not installed (package time)"
	exit 0
fi

# the four records at once, each checked: written one after the other
# they were most of the script's time
gen=()
for n in $S $L; do
	python3 "$GEN" --locks $n "$O/a$n.json" &
	gen+=("$!:a$n")
	python3 "$GEN" --locks $n --seed 2 "$O/b$n.json" &
	gen+=("$!:b$n")
done
bad=""
for g in "${gen[@]}"; do
	wait "${g%%:*}" || bad="$bad ${g#*:}"
done
if [ -n "$bad" ]; then
	fail "$T: gen-records.py failed for$bad"
	exit 0
fi

# measure NAME ARGS...: lockscope ARGS under /usr/bin/time; adds its CPU (user +
# system seconds) to cpu_sum and keeps the highest peak RSS (KB) in rss_max
cpu_sum=0
rss_max=0
measure() {
	local name=$1
	shift
	if ! /usr/bin/time -f '%U %S %M' -o "$O/$name.time" "$LS" "$@" \
		>"$O/$name.out" 2>"$O/$name.err"; then
		fail "$T: $name: exit $?: $(tail -2 "$O/$name.err")"
		return 1
	fi
	read -r u s m < <(tail -1 "$O/$name.time")
	cpu_sum=$(python3 -c "print(round($cpu_sum + $u + $s, 2))")
	[ "$m" -gt "$rss_max" ] && rss_max=$m
	return 0
}

declare -A cpu rss
for n in $S $L; do
	cpu_sum=0
	rss_max=0
	measure "compare$n" compare "$O/a$n.json" -- "$O/b$n.json" &&
		measure "report$n" report -o "$O/report$n.html" "$O/a$n.json" -- "$O/b$n.json" ||
		exit 0
	cpu[$n]=$cpu_sum
	rss[$n]=$rss_max
	echo "$n locks: compare and report: ${cpu[$n]} s CPU, peak RSS ${rss[$n]} KB"
done
# the A/A compare (the same file both sides) at the small size only: it
# reads what compare reads, and the suite's time matters
measure "aa$S" compare "$O/a$S.json" -- "$O/a$S.json" || exit 0

# what was read is the whole record: 8 metrics a lock and 4 of the run; an
# A/A compare finds nothing; the page draws the most waited-on lock
m=$((8 * L + 4))
ms=$((8 * S + 4))
top=$(python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
print(max(d['totals']['locks'], key=lambda l: l['total_ns'])['name'])" "$O/a$L.json")
if grep -q "^0 of $ms metrics changed" "$O/aa$S.out" &&
	grep -q " of $m metrics changed" "$O/compare$L.out" &&
	grep -q "$top" "$O/report$L.html"; then
	pass "$T: $L locks read whole: $m metrics compared, $top drawn; A/A of $S locks quiet"
else
	fail "$T: $L locks: $(head -1 "$O/compare$L.out"); A/A of $S: $(head -1 "$O/aa$S.out"); $(grep -c "$top" "$O/report$L.html") mentions of $top"
fi

# linear: ten times the locks, at most 25 times the CPU time (9 to 11
# measured; a quadratic pass makes it 35 or more); a small run too fast to
# measure counts as 0.2 s
bound=$(python3 -c "print(round(25 * max(${cpu[$S]}, 0.2), 2))")
if python3 -c "import sys; sys.exit(not ${cpu[$L]} <= $bound)"; then
	pass "$T: $L locks in ${cpu[$L]} s CPU, within 25x the $S run's ${cpu[$S]} s ($bound s)"
else
	fail "$T: $L locks took ${cpu[$L]} s CPU, above 25x the $S run's ${cpu[$S]} s ($bound s): not linear"
fi

# memory: at most 12 times the small run's peak, and at most 3 bytes of RSS
# per byte of the records read (json-c's tree of a whole file took 12 a
# file, before any of the comparison)
size=$(($(stat -c %s "$O/a$L.json") + $(stat -c %s "$O/b$L.json")))
if [ "${rss[$L]}" -le $((12 * ${rss[$S]})) ] &&
	[ $((rss[$L] * 1024)) -le $((3 * size)) ]; then
	pass "$T: $L locks a side in ${rss[$L]} KB peak RSS ($((rss[$L] * 1024 / (2 * L))) bytes a lock; $S: ${rss[$S]} KB; records $((size / 1024)) KB)"
else
	fail "$T: $L locks a side took ${rss[$L]} KB peak RSS ($S: ${rss[$S]} KB, records $((size / 1024)) KB): not in proportion"
fi
