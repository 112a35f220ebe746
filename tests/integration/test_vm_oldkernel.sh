#!/usr/bin/env bash
# Guest tier, kernels before 5.12: Debian 11's stock 5.10 (bullseye's
# linux-image-amd64, fetched through a private apt state, never the host's
# sources) under qemu TCG.  5.10 has neither the lock tracepoints (5.19) nor
# BPF atomic fetch ops (5.12): doctor must pick the compat build by its
# verifier probe, the main build must be refused, and probe-only mode must
# carry the rows: the pipe mutex and the mmap_lock rwsem, named, with
# contentions, wait, spin/sleep, peaks and histograms; --hold (the compat
# build of hold.bpf.c) must measure the pipe mutex's holds; a clean kernel
# log.
# About 25 s of emulation, plus a 56 MB download on first use (cached).
. "$(dirname "$0")/../lib.sh"
vm=$LS_ROOT/tests/vm
. "$vm/lib.sh" # vm_needs, section, pyjson
out=$LS_OUT/vm
mkdir -p "$out"

vm_needs "vm 5.10" qemu-system-x86_64 busybox apt-get || exit 0

k=$("$vm/fetch-kernel.sh" amd64 bullseye 2>"$out/5.10.fetch.err") || {
	skip "vm 5.10: Debian 11 kernel unavailable: $(tail -1 "$out/5.10.fetch.err")"
	exit 0
}
initrd=$out/5.10.initrd.gz
if ! "$vm/mkinitrd.sh" "$initrd" "$vm/oldkernel-payload.sh" "$LS" \
	"$LS_ROOT/build/pipe_hammer" "$LS_ROOT/build/mmap_hammer" \
	>"$out/5.10.mkinitrd.log" 2>&1; then
	fail "vm 5.10: initramfs: $(tail -1 "$out/5.10.mkinitrd.log")"
	exit 0
fi
log=$out/5.10.log
t0=$(date +%s)
"$vm/boot.sh" "$k" "$initrd" 400 >"$log" 2>"$out/5.10.err"
rc=$?
secs=$(($(date +%s) - t0))
if [ $rc -eq 0 ]; then
	pass "vm 5.10: booted $(basename "$k"), ran lockscope, kernel log clean (${secs}s)"
elif [ $rc -eq 4 ]; then
	fail "vm 5.10: kernel log has BUG/WARNING/Oops: $(head -3 "$out/5.10.err")"
else
	fail "vm 5.10: boot.sh exit $rc after ${secs}s: $(tail -3 "$out/5.10.err")"
	exit 0
fi

# doctor: the compat build, chosen by the verifier's refusal; no
# tracepoints; probe-only rows active.
section "$log" doctor >"$out/5.10.doctor.txt"
line=$(grep '^BPF object: ' "$out/5.10.doctor.txt")
if [[ "$line" == "BPF object: compat build: the verifier refuses atomic fetch-and-add"* ]]; then
	pass "vm 5.10: doctor: $line"
else
	fail "vm 5.10: doctor's BPF object line: '$line'"
fi
tp=$(grep '^tracepoints ' "$out/5.10.doctor.txt" | sed 's/  */ /g')
po=$(grep '^probe-only rows ' "$out/5.10.doctor.txt" | sed 's/  */ /g')
if [[ "$tp" == "tracepoints none no no "* ]] && [[ "$po" == *" yes yes tracepoints absent: "* ]]; then
	pass "vm 5.10: no tracepoints, probe-only rows active: $po"
else
	fail "vm 5.10: doctor: '$tp' / '$po'"
fi
if grep -q '^libbpf: ' "$out/5.10.doctor.txt"; then
	fail "vm 5.10: doctor printed libbpf errors: $(grep -m1 '^libbpf: ' "$out/5.10.doctor.txt")"
else
	pass "vm 5.10: doctor ran without libbpf errors"
fi
# the main build, forced, must fail on this verifier: the probe's verdict
mf=$(section "$log" main-forced)
if grep -q '^LS-OUT-RC main-forced [1-9]' "$log" &&
	grep -q 'failed to load BPF object' <<<"$mf" &&
	grep -q 'BPF_STX uses reserved fields' <<<"$mf"; then
	pass "vm 5.10: the main build is refused (BPF_STX uses reserved fields): the probe chose right"
else
	fail "vm 5.10: LOCKSCOPE_BPF_OBJECT=main: $(tail -2 <<<"$mf")"
fi

# row_checks SECTION WHAT ROWS: one kind of row, from the probes alone
row_checks() {
	local sec=$1 what=$2 r=$3 n nm tot sp sl hs mx pk lost sc
	n=$(pyjson "$log" "$sec" "sum(x['contentions'] for x in $r)")
	nm=$(pyjson "$log" "$sec" "[x['name'] for x in $r][:1]")
	tot=$(pyjson "$log" "$sec" "sum(x['total_ns'] for x in $r)")
	sp=$(pyjson "$log" "$sec" "sum(x['spin_ns'] for x in $r)")
	sl=$(pyjson "$log" "$sec" "sum(x['sleep_ns'] for x in $r)")
	hs=$(pyjson "$log" "$sec" "sum(sum(x['hist_log2_ns']) for x in $r)")
	sc=$(pyjson "$log" "$sec" "sum(x['slow_path_calls'] for x in $r)")
	# the compat stand-ins: max, min, peak by read-compare-store; a min of
	# 0 only with a wait in the histogram's 0-1 ns slot (a coarse guest
	# clock can read the same twice), not the zeroed row's 0
	mx=$(pyjson "$log" "$sec" "all(x['max_ns'] >= x['avg_ns'] >= x['min_ns'] and (x['min_ns'] > 0 or x['hist_log2_ns'][0] > 0) for x in $r)")
	pk=$(pyjson "$log" "$sec" "min([x['peak_waiters'] for x in $r] or [0])")
	lost=$(pyjson "$log" "$sec" "sum(d['losses'].values())")
	if [ "${n:-0}" -gt 0 ] 2>/dev/null && [ "$tot" -gt 0 ] &&
		[ $((sp + sl)) -eq "$tot" ] && [ "$hs" -eq "$n" ] && [ "$sc" -eq "$n" ]; then
		pass "vm 5.10: $what $nm: $n contentions (= slow-path calls, = histogram), wait ${tot}ns = spin ${sp} + sleep ${sl}"
	else
		fail "vm 5.10: $what: name $nm contentions '$n' slow-path calls '$sc' histogram '$hs' wait '$tot' spin '$sp' sleep '$sl'; rows $(pyjson "$log" "$sec" '[(x["name"], x["kind"]) for x in d["locks"]][:6]')"
	fi
	if [ "$mx" = True ] && [ "${pk:-0}" -ge 1 ] 2>/dev/null &&
		[ $((${lost:-1} * 100)) -le "${n:-0}" ] 2>/dev/null; then
		pass "vm 5.10: $what: max >= avg >= min (0 only for a measured 0 ns wait), peak waiters $pk, $lost losses (at most 1% of contentions)"
	else
		fail "vm 5.10: $what: max/avg/min ordered: $mx, peak waiters '$pk', losses '$lost'"
	fi
}
row_checks pipe "pipe mutex" \
	'[x for x in d["locks"] if x["kind"] == "mutex" and "pipe" in x["name"]]'
row_checks mmap "mmap_lock writer" \
	'[x for x in d["locks"] if x["kind"] == "rwsem:W" and x["name"] in ("mmap_lock", "mm_struct.mmap_lock")]'

# --hold: the compat build of hold.bpf.c on the pipe mutex.  One holder at a
# time: the summed hold time fits in the run; the histogram sums to the count.
pr='[x for x in d["locks"] if "pipe" in x["name"] and "hold" in x]'
n=$(pyjson "$log" pipe-hold "sum(x['hold']['exclusive']['count'] for x in $pr)")
tot=$(pyjson "$log" pipe-hold "sum(x['hold']['exclusive']['total_ns'] for x in $pr)")
hs=$(pyjson "$log" pipe-hold "sum(sum(x['hold']['exclusive']['hist_log2_ns']) for x in $pr)")
dur=$(pyjson "$log" pipe-hold "int(d['duration_s'] * 1e9)")
if [ "${n:-0}" -gt 0 ] 2>/dev/null && [ "$tot" -le "$dur" ] && [ "$hs" -eq "$n" ]; then
	pass "vm 5.10: --hold: pipe mutex held ${tot}ns in $n holds, within the run's ${dur}ns; histogram sums to the count"
else
	fail "vm 5.10: --hold: holds '$n' total '$tot' run '$dur' histogram '$hs': $(section "$log" pipe-hold | grep -m2 lockscope:)"
fi
