#!/usr/bin/env bash
# The compat build of the BPF objects (kernels without atomic fetch ops,
# before 5.12: bpf/common.bpf.h's stand-ins), forced on this kernel with
# LOCKSCOPE_BPF_OBJECT=compat: it must load and count the pipe mutex like
# the main build (the 5.10 guest, test_vm_oldkernel.sh, runs it where the
# probe picks it).  Doctor names the build this kernel takes, and a bad
# LOCKSCOPE_BPF_OBJECT is bad input.
. "$(dirname "$0")/../lib.sh"
out=$LS_OUT/compat
W=$LS_ROOT/build
mkdir -p "$out"

# The compat objects hold the old atomic add only: no fetch-and-add,
# exchange or compare-and-swap, which the main objects do use (so the
# pattern finds them where they are), and no atomic or/and/xor either
# (5.10 refuses any atomic but add: "BPF_STX uses reserved fields"; clang
# turns an atomic add of a constant 0 into one).
if need_cmd "compat" llvm-objdump; then
	for o in lockscope hold; do
		fetch='atomic_fetch_|xchg|cmpxchg|lock \*\(u(32|64) \*\)\([^)]*\) [|&^]='
		m=$(llvm-objdump -d "$W/$o.bpf.o" | grep -cE "$fetch")
		c=$(llvm-objdump -d "$W/${o}_compat.bpf.o" | grep -cE "$fetch")
		a=$(llvm-objdump -d "$W/${o}_compat.bpf.o" | grep -cE 'lock \*\(u(32|64) \*\)')
		if [ "$c" -eq 0 ] && [ "$a" -gt 0 ] && [ "$m" -gt 0 ]; then
			pass "compat: ${o}_compat.bpf.o: $a atomic adds, no fetch ops (the main object: $m)"
		else
			fail "compat: ${o}_compat.bpf.o: $c fetch ops, $a atomic adds (main: $m)"
		fi
	done
fi

need_root "compat" || exit 0
"$LS" doctor >"$out/doctor.txt" 2>&1
line=$(grep '^BPF object: ' "$out/doctor.txt")
case "$line" in
"BPF object: main build: the verifier accepts atomic fetch-and-add, exchange and compare-and-swap" | \
	"BPF object: compat build: the verifier refuses atomic fetch-and-add"*)
	pass "compat: doctor: $line" ;;
*) fail "compat: doctor's BPF object line: '$line'" ;;
esac
LOCKSCOPE_BPF_OBJECT=both "$LS" doctor >"$out/bad.txt" 2>&1
rc=$?
if [ $rc -eq 2 ] && grep -q "^lockscope: failed to parse LOCKSCOPE_BPF_OBJECT: 'both' is neither main nor compat$" "$out/bad.txt"; then
	pass "compat: LOCKSCOPE_BPF_OBJECT=both is bad input (exit 2)"
else
	fail "compat: LOCKSCOPE_BPF_OBJECT=both: exit $rc: $(tail -1 "$out/bad.txt")"
fi

need_tracepoints "compat" || exit 0
LOCKSCOPE_BPF_OBJECT=compat "$LS" doctor >"$out/doctor-compat.txt" 2>&1
if grep -q '^BPF object: compat build, set by LOCKSCOPE_BPF_OBJECT: ' "$out/doctor-compat.txt" &&
	grep -q '^tracepoints .* yes *yes ' "$out/doctor-compat.txt"; then
	pass "compat: forced compat build loads, tracepoints active"
else
	fail "compat: forced compat build: $(grep -m2 -E '^(BPF object|tracepoints|lockscope:)' "$out/doctor-compat.txt")"
fi
every=64
LOCKSCOPE_BPF_OBJECT=compat "$LS" hist --json -F 0 -T mutex --stack-every $every \
	-- "$W/pipe_hammer" 2 2 \
	>"$out/pipe.json" 2>"$out/pipe.err"
rc=$?
r="[x for x in d['locks'] if x['kind'] == 'mutex' and 'pipe' in x['name']]"
if [ $rc -ne 0 ]; then
	fail "compat: hist exit $rc: $(tail -2 "$out/pipe.err")"
	exit 0
fi
n=$(jget "$out/pipe.json" "sum(x['contentions'] for x in $r)")
hs=$(jget "$out/pipe.json" "sum(sum(x['hist_log2_ns']) for x in $r)")
ok=$(jget "$out/pipe.json" "all(x['spin_ns'] + x['sleep_ns'] == x['total_ns'] and x['max_ns'] >= x['avg_ns'] >= x['min_ns'] > 0 and x['peak_waiters'] >= 1 for x in $r)")
# every-Nth caller sampling is approximate without fetch-and-add: within
# half to twice the exact count, plus the naming stack
cs=$(jget "$out/pipe.json" "sum(x['caller_samples'] for x in $r)")
bg=$(jget "$out/pipe.json" "sum(x['begins'] for x in $r)")
nm=$(jget "$out/pipe.json" "[x['name'] for x in $r][:1]")
if [ "${n:-0}" -gt 0 ] 2>/dev/null && [ "$hs" -eq "$n" ] && [ "$ok" = True ]; then
	pass "compat: pipe mutex $nm: $n contentions (= histogram), spin + sleep = wait, max >= avg >= min, peak >= 1"
else
	fail "compat: pipe mutex: contentions '$n' histogram '$hs' consistent '$ok' rows $(jget "$out/pipe.json" '[(x["name"], x["kind"]) for x in d["locks"]][:5]')"
fi
if python3 -c "import sys; c, b, e = map(int, sys.argv[1:]); sys.exit(0 if b // e // 2 <= c <= 2 * (b // e) + 2 and c >= 1 else 1)" \
	"${cs:-0}" "${bg:-0}" "${every:-256}"; then
	pass "compat: $cs caller stacks for $bg begins, one every $every (approximate)"
else
	fail "compat: $cs caller stacks for $bg begins, one every $every"
fi
