#!/usr/bin/env bash
# Probe-only mode on this kernel: doctor's rows say whether the function
# probes can make the rows without the tracepoints and why, and why the
# queued spinlock slow path is never probed.  Where the probes attach
# (fentry or kprobes), hist --no-tracepoints must show mutex rows for the
# pipe hammer; the guest tier checks them against tracepoint mode.
. "$(dirname "$0")/../lib.sh"
out=$LS_OUT/probeonly
mkdir -p "$out"

need_root "probe-only" || exit 0
"$LS" doctor --no-tracepoints >"$out/doctor.txt" 2>&1
row=$(grep '^probe-only rows ' "$out/doctor.txt" | sed 's/  */ /g')
mutex=$(grep '^probe __mutex_lock ' "$out/doctor.txt" | sed 's/  */ /g')
case "$mutex" in
*" yes yes "*) probes=1 ;;
*) probes=0 ;;
esac
if [ $probes = 1 ] && [[ "$row" == "probe-only rows raw_tp yes yes tracepoints disabled by option: rows from __mutex_lock"* ]]; then
	pass "probe-only: doctor: $row"
elif [ $probes = 0 ] && [[ "$row" == *" no no tracepoints off and no slow-path probe: no mutex or rwsem rows" ]]; then
	pass "probe-only: doctor says why there are no rows here: $row"
else
	fail "probe-only: doctor row '$row' (mutex probe: '$mutex')"
fi
row=$(grep '^probe queued_spin_lock_slowpath ' "$out/doctor.txt" | sed 's/  */ /g')
if [[ "$row" == *" no no found "*"queued_spin_lock_slowpath (kprobe blacklist: "*"); not probed: "* ]] ||
	[[ "$row" == *" no no no queued spinlock slow path in kallsyms" ]]; then
	pass "probe-only: doctor explains the spinlock slow path: $row"
else
	fail "probe-only: spinlock slow path row: '$row'"
fi
"$LS" doctor >"$out/doctor-tp.txt" 2>&1
row=$(grep '^probe-only rows ' "$out/doctor-tp.txt" | sed 's/  */ /g')
if grep -q '^tracepoints .* yes *yes ' "$out/doctor-tp.txt"; then
	if [[ "$row" == *" no no not needed: the tracepoints make the rows" ]]; then
		pass "probe-only: not used while the tracepoints run"
	else
		fail "probe-only: with tracepoints: '$row'"
	fi
else
	skip "probe-only: the tracepoints do not run here"
fi
if [ $probes = 0 ]; then
	skip "probe-only: rows: no function probe attaches here (see $out/doctor.txt); the guest tier runs them"
	exit 0
fi
"$LS" hist --json -F 0 --no-tracepoints -- "$LS_ROOT/build/pipe_hammer" 2 2 >"$out/pipe.json" 2>"$out/pipe.err"
n=$(jget "$out/pipe.json" 'sum(r["contentions"] for r in d["locks"] if r["kind"] == "mutex" and "pipe" in r["name"])' 2>/dev/null)
if [ "${n:-0}" -gt 0 ] 2>/dev/null; then
	pass "probe-only: pipe mutex rows from the probes: $n contentions"
else
	fail "probe-only: no pipe mutex row: '$n' ($(tail -1 "$out/pipe.err"))"
fi
