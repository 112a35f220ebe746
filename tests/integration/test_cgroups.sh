#!/usr/bin/env bash
# Per-cgroup attribution on this kernel: two cgroups made here under the
# cgroup v2 mount (found in mountinfo), the pipe hammer in A and stress-ng
# netlink-task in B.  --by cgroup gives each lock's waits to the right
# cgroup (>= 95% of its count) and every wait to some cgroup; --cgroup A
# sees none of B's locks; a cgroup removed before the read shows as
# (gone); bad --cgroup paths are bad input.  About 8 s.
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
cleanup() { rmdir "$root$A" "$root$B" "$root$C" 2>/dev/null; }
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
# every recorded wait went to exactly one cgroup (no loss counted here)
lost=$(py 'd["losses"]["cgroup map full"]')
bad=$(py '[(r["name"], r["contentions"], sum(c["waits"] for c in r["cgroups"])) for r in d["locks"] if r["contentions"] != sum(c["waits"] for c in r["cgroups"])]')
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

# a cgroup that is gone by the read is "(gone)", never another path
"$LS" hist --by cgroup --json -F 0 -- sh -c "mkdir $root$C && sh -c '$in_cg' - $C $W/pipe_hammer 2 1 >/dev/null 2>&1; rmdir $root$C" >"$out/gone.json" 2>"$out/gone.err"
g=$(jget "$out/gone.json" '[c["cgroup"] for r in d["locks"] if r["class"].startswith("pipe_inode_info.mutex") and r["kind"] == "mutex" for c in r["cgroups"]]' 2>/dev/null)
if [ ! -e "$root$C" ] && [ "$g" = "['(gone)']" ]; then
	pass "cgroups: waits of a removed cgroup show as (gone)"
else
	fail "cgroups: removed cgroup shows as ${g:-nothing}: $(tail -2 "$out/gone.err")"
fi

# bad paths are bad input (exit 2), before anything runs
for arg in /lockscope-no-such-cgroup "$A/../.."; do
	"$LS" hist --cgroup "$arg" -d 1 >/dev/null 2>"$out/bad.err"
	rc=$?
	check "cgroups: --cgroup $arg is bad input (exit $rc): $(head -1 "$out/bad.err")" [ $rc -eq 2 ]
done
