#!/usr/bin/env bash
# --hold on this kernel: doctor says in one row whether it can work and why;
# where it cannot (no fentry, no kprobes: this project's host), asking for it
# fails with one line and a hint, exit 1; where it can, the pipe mutex gets
# hold times that fit in the run.  Commands without hold times refuse the
# option (exit 2).  The guest tier (test_vm.sh) checks the numbers on a
# kernel with function probes.
. "$(dirname "$0")/../lib.sh"
out=$LS_OUT/hold
rm -rf "$out"
mkdir -p "$out"

"$LS" top --hold -n 1 >"$out/top.out" 2>"$out/top.err"
rc=$?
if [ $rc -eq 2 ] && grep -q '^lockscope: failed to parse --hold: top does not take this option$' "$out/top.err"; then
	pass "--hold: top refuses it, exit 2"
else
	fail "--hold: top: exit $rc: $(head -2 "$out/top.err")"
fi

need_tracepoints "hold" || exit 0
"$LS" doctor >"$out/doctor.txt" 2>&1
row=$(grep '^hold (--hold) ' "$out/doctor.txt" | sed 's/  */ /g')
if [ -z "$row" ]; then
	fail "--hold: no doctor row: $(head -3 "$out/doctor.txt")"
	exit 0
fi
pass "--hold: doctor row: $row"

if [[ "$row" == "hold (--hold) none no no "* ]]; then
	"$LS" hist --hold -d 1 >"$out/refused.out" 2>"$out/refused.err"
	rc=$?
	n=$(wc -l <"$out/refused.err")
	if [ $rc -eq 1 ] && [ "$n" -eq 2 ] && [ ! -s "$out/refused.out" ] &&
		grep -q '^lockscope: failed to attach hold probes (--hold): no fentry (.*), no kprobes (.*)$' "$out/refused.err" &&
		grep -q "^  hint: .*'lockscope doctor'" "$out/refused.err"; then
		pass "--hold refused where probes cannot attach: exit 1: $(head -1 "$out/refused.err")"
	else
		fail "--hold refused: exit $rc, $n lines: $(head -3 "$out/refused.err")"
	fi
	skip "--hold: hold times need fentry or kprobes (checked in the guest tier)"
	exit 0
fi

# probes allowed here: the same checks as the guest tier, on this kernel
"$LS" hist --json --hold -F 0 -- "$LS_ROOT/build/pipe_hammer" 2 2 \
	>"$out/pipe.json" 2>"$out/pipe.err"
pr='[r for r in d["locks"] if "pipe" in r["name"] and "hold" in r]'
n=$(jget "$out/pipe.json" "sum(x['hold']['exclusive']['count'] for x in $pr)" 2>/dev/null)
c=$(jget "$out/pipe.json" "sum(x['contentions'] for x in $pr)" 2>/dev/null)
tot=$(jget "$out/pipe.json" "sum(x['hold']['exclusive']['total_ns'] for x in $pr)" 2>/dev/null)
dur=$(jget "$out/pipe.json" "int(d['duration_s'] * 1e9)" 2>/dev/null)
lost=$(jget "$out/pipe.json" "sum(v for k, v in d['losses'].items() if k.startswith('hold:') or k.startswith('skipped'))" 2>/dev/null)
if [ "${n:-0}" -gt 0 ] 2>/dev/null && [ "$tot" -le "$dur" ] && [ $((n + lost)) -ge "$c" ]; then
	pass "--hold: pipe mutex held ${tot}ns of ${dur}ns in $n holds (+ $lost lost >= $c contentions)"
else
	fail "--hold: pipe mutex: holds '$n', contentions '$c', held '$tot' of '$dur' ns: $(head -2 "$out/pipe.err")"
fi
