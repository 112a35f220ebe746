#!/usr/bin/env bash
# tests/integration/test_stats.sh - compare's statistics: the expected
# values of tests/unit/analysis/test_stats.c are what scipy computes today,
# and on real records (tests/data/real, recorded on this project's 6.18
# machine) an A/A comparison exits 0 and a real change exits 1.  No root.
. "$(dirname "$0")/../lib.sh"

O=$LS_OUT/stats
R=$LS_ROOT/tests/data/real
rm -rf "$O"
mkdir -p "$O"

# the first Python 3 with scipy (a pyenv python3 may shadow Debian's)
py=""
for p in python3 /usr/bin/python3; do
	if "$p" -c 'import scipy' 2>/dev/null; then
		py=$p
		break
	fi
done
if [ -n "$py" ]; then
	(cd "$LS_ROOT/tests/unit/analysis" &&
		"$py" gen-stats-expected.py "$O/stats_expected.h")
	# the header names the scipy version; the values must agree, to
	# 1e-12 of each: numpy's sums round differently on another CPU (its
	# SIMD width), in the last digits of a double
	check "stats: committed expected values are scipy's (to 1e-12)" \
		python3 - "$O/stats_expected.h" \
		"$LS_ROOT/tests/unit/analysis/stats_expected.h" <<'PY'
import re, sys
num = re.compile(r"-?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?")
got, want = (open(f).read().split("\n", 1)[1] for f in sys.argv[1:])
if num.sub("#", got) != num.sub("#", want):
    sys.exit("the cases differ, not only their values")
worst = 0.0
for a, b in zip(num.findall(got), num.findall(want)):
    a, b = float(a), float(b)
    worst = max(worst, abs(a - b) / max(abs(a), abs(b), 1e-300))
print("  largest relative difference: %.2g" % worst)
sys.exit(worst > 1e-12)
PY
else
	skip "stats: expected values against scipy: python3-scipy is not installed (scripts/setup.sh test)"
fi

# A/A: stress-ng --netlink-task 2 -t 3s, six runs of the README's example,
# 3 against 3: noise only
"$LS" compare "$R"/netlink-0[123].json -- "$R"/netlink-0[456].json >"$O/aa.txt" 2>&1
rc=$?
cat "$O/aa.txt"
check "stats: A/A netlink, 3 runs a side, exits 0" test "$rc" -eq 0
check "stats: A/A netlink, no metric changed" \
	grep -q '^0 of [0-9]* metrics changed' "$O/aa.txt"
"$LS" compare "$R"/mmap2-0[123].json -- "$R"/mmap2-0[456].json >/dev/null 2>&1
check "stats: A/A mmap_hammer 2, 3 runs a side, exits 0" test $? -eq 0

# A/B: mmap_hammer 2 threads -> 4 threads, 5 runs a side: mmap_lock's
# writers queue, its wait time grows
"$LS" compare "$R"/mmap2-0[12345].json -- "$R"/mmap4-0[12345].json >"$O/ab.txt" 2>&1
rc=$?
cat "$O/ab.txt"
check "stats: A/B mmap_hammer 2 -> 4 threads, 5 runs a side, exits 1" test "$rc" -eq 1
check "stats: A/B flags mmap_lock's writer wait as worse" \
	grep -Eq ' worse +lockscope\.mmap_lock\(rwsem:W\)\.wait_time\.total\.ms$' "$O/ab.txt"
"$LS" compare --format json "$R"/mmap2-0[12345].json -- "$R"/mmap4-0[12345].json >"$O/ab.json" 2>/dev/null
check "stats: A/B interval excludes 0 and the effect is the geometric-mean ratio" python3 - "$O/ab.json" "$R" <<'PY'
import json, math, statistics, sys
d = json.load(open(sys.argv[1]))
r = [r for r in d["rows"] if r["key"] == "lockscope.mmap_lock(rwsem:W).wait_time.total.ms"][0]
def w(f):
    return sum(l["total_ns"] for l in json.load(open(f))["totals"]["locks"]
               if l["name"] == "mmap_lock" and l["kind"] == "rwsem:W") / 1e6
b = [w("%s/mmap2-0%d.json" % (sys.argv[2], i)) for i in range(1, 6)]
n = [w("%s/mmap4-0%d.json" % (sys.argv[2], i)) for i in range(1, 6)]
gm = lambda v: math.exp(statistics.mean(math.log(x) for x in v))
eff = 100 * (gm(n) / gm(b) - 1)
print("  mmap_lock writer wait: base %s new %s ms: %+.1f%% [%+.1f%%, %+.1f%%], p adj %.2g" % (
    [round(x) for x in b], [round(x) for x in n], r["effect_pct"], r["effect_lo_pct"],
    r["effect_hi_pct"], r["p_adj"]))
ok = (r["verdict"] == "worse" and r["scale"] == "log" and r["effect_lo_pct"] > 0
      and abs(r["effect_pct"] - eff) < 1e-6 and r["p_adj"] < 0.05)
sys.exit(0 if ok else 1)
PY
# two runs a side: reported, never failing
"$LS" compare "$R"/mmap2-0[12].json -- "$R"/mmap4-0[12].json >"$O/ab2.txt" 2>&1
rc=$?
check "stats: A/B with 2 runs a side exits 0 and says why" bash -c "
[ $rc -eq 0 ] && grep -q '^fewer than 3 runs on a side' '$O/ab2.txt'"

# the compare example of docs/record.md is this output, on these files, exit 0
mkdir -p "$O/readme"
for i in 1 2 3; do
	cp "$R/netlink-0$i.json" "$O/readme/base$i.json"
	cp "$R/netlink-0$((i + 3)).json" "$O/readme/new$i.json"
done
(cd "$O/readme" && "$LS" compare base1.json base2.json base3.json -- new1.json new2.json new3.json) >"$O/readme.txt" 2>&1
rc=$?
sed -n '/^\$ lockscope compare base1.json base2.json base3.json -- new1.json new2.json new3.json$/,/^\$ echo \$?$/p' \
	"$LS_ROOT/docs/record.md" | sed '1d;$d' >"$O/readme-want.txt"
check "stats: the A/A example of docs/record.md is what compare prints, exit 0" bash -c "
[ $rc -eq 0 ] && [ -s '$O/readme-want.txt' ] && diff '$O/readme-want.txt' '$O/readme.txt'"
