#!/usr/bin/env bash
# Guest tier, arm64: the arm64 build (make guest-arm64: cross-built on x86)
# inside Debian's stock arm64 kernel under qemu-system-aarch64 (TCG, -M virt):
# doctor's choice of mechanism per probe (fentry where the kernel attaches
# it, kprobes otherwise), probe and tracepoint numbers on the right, named
# locks under the workloads (genl_hammer standing in for stress-ng), and a
# clean kernel log.  About 35 s of emulation (30 s of CPU).
. "$(dirname "$0")/../lib.sh"
vm=$LS_ROOT/tests/vm
. "$vm/lib.sh" # vm_needs, section, pyjson
out=$LS_OUT/vm
bin=$LS_ROOT/build-arm64
mkdir -p "$out"

vm_needs "vm arm64" qemu-system-aarch64 readelf apt-get || exit 0
for f in lockscope pipe_hammer mmap_hammer genl_hammer; do
	if [ ! -x "$bin/$f" ]; then
		skip "vm arm64: $bin/$f not built (make guest-arm64; needs gcc-aarch64-linux-gnu and the :arm64 libraries, scripts/setup.sh test)"
		exit 0
	fi
done

k=$("$vm/fetch-kernel.sh" arm64 2>"$out/arm64.fetch.err") || {
	skip "vm arm64: kernel image unavailable: $(tail -1 "$out/arm64.fetch.err")"
	exit 0
}
bbdir=$("$vm/fetch-deb.sh" busybox-static:arm64 2>"$out/arm64.busybox.err") || {
	skip "vm arm64: arm64 busybox unavailable: $(tail -1 "$out/arm64.busybox.err")"
	exit 0
}
initrd=$out/arm64.initrd.gz
if ! LS_VM_ARCH=arm64 LS_VM_BUSYBOX=$bbdir/bin/busybox "$vm/mkinitrd.sh" \
	"$initrd" "$vm/guest-payload.sh" "$bin/lockscope" "$bin/pipe_hammer" \
	"$bin/mmap_hammer" "$bin/genl_hammer" >"$out/arm64.mkinitrd.log" 2>&1; then
	fail "vm arm64: initramfs: $(tail -1 "$out/arm64.mkinitrd.log")"
	exit 0
fi
log=$out/arm64.log
# only the sections read below, each lockscope run being 10 to 30 s of
# arm64 emulation: the payload's others are test_vm.sh's (the probe-only
# doctor, --hold, --cgroup, the equivalence runs), and whatif refuses this
# kernel (no preempt count in its BTF)
sections=doctor,doctor-kprobe,mmap,pipe-kprobe,netlink
t0=$(date +%s)
LS_VM_ARCH=arm64 LS_VM_APPEND="${LS_VM_APPEND:-} lsvm.sections=$sections" \
	"$vm/boot.sh" "$k" "$initrd" 400 >"$log" 2>"$out/arm64.err"
rc=$?
secs=$(($(date +%s) - t0))
if [ $rc -eq 0 ]; then
	pass "vm arm64: booted $(basename "$k") in qemu-system-aarch64, ran lockscope, kernel log clean (${secs}s)"
elif [ $rc -eq 4 ]; then
	fail "vm arm64: kernel log has BUG/WARNING/Oops: $(head -3 "$out/arm64.err")"
else
	fail "vm arm64: boot.sh exit $rc after ${secs}s: $(tail -3 "$out/arm64.err")"
	exit 0
fi

# doctor: fentry where this kernel attaches it; where it refuses (arm64
# before 6.4 has no BPF trampoline for kernel functions), kprobes, with
# the kernel's answer as the reason.
section "$log" doctor >"$out/arm64.doctor.txt"
for t in osq_lock rwsem_down_write_slowpath; do
	row=$(grep "^probe $t " "$out/arm64.doctor.txt" | sed 's/  */ /g')
	if [[ "$row" == *" fentry yes yes "* ]]; then
		pass "vm arm64: fentry active on $t: $row"
	elif [[ "$row" == *" kprobe yes yes "*"fentry refused: "*"does not attach"* ]]; then
		pass "vm arm64: fentry refused at attach, kprobe active on $t: $row"
	else
		fail "vm arm64: $t neither fentry nor kprobe with the refusal: $row"
	fi
done
row=$(grep '^probe __mutex_lock ' "$out/arm64.doctor.txt" | sed 's/  */ /g')
if [[ "$row" == *"kprobe yes yes"*"__mutex_lock."* ]]; then
	pass "vm arm64: __mutex_lock clone attached by kprobe: $row"
else
	fail "vm arm64: __mutex_lock: $row"
fi
# doctor's columns on this kernel: every group, from its kprobe or source
c=$(grep -Ec '^  .* from (tracepoints \(tp_btf\)|cpu sampler \(perf_event\)|probe [a-z_]+ \((kprobe|fentry)\))$' "$out/arm64.doctor.txt")
if [ "$c" -eq 6 ]; then
	pass "vm arm64: doctor: all 6 column groups given: $(grep -E '^  osq time' "$out/arm64.doctor.txt" | sed 's/  */ /g')"
else
	fail "vm arm64: doctor: $c of 6 column groups given: $(sed -n '/^columns on this kernel/,/^$/p' "$out/arm64.doctor.txt")"
fi
if grep -q '^libbpf: ' "$out/arm64.doctor.txt"; then
	fail "vm arm64: doctor printed libbpf errors: $(grep -m1 '^libbpf: ' "$out/arm64.doctor.txt")"
else
	pass "vm arm64: doctor ran without libbpf errors"
fi
section "$log" doctor-kprobe >"$out/arm64.doctor-kprobe.txt"
n=$(grep -Ec '^probe .* kprobe +yes +yes ' "$out/arm64.doctor-kprobe.txt")
if [ "$n" -eq 4 ]; then
	pass "vm arm64: --source kprobe attaches kprobes to all 4 targets"
else
	fail "vm arm64: --source kprobe: $n of 4 active: $(grep '^probe' "$out/arm64.doctor-kprobe.txt")"
fi

# hist under mmap_hammer: the mmap_lock rwsem, named, writer spin from the
# slow-path probe, osq_lock calls on it; the tracepoints count its waits.
r='[r for r in d["locks"] if r["name"] in ("mmap_lock", "mm_struct.mmap_lock") and r["kind"]=="rwsem:W"]'
nc=$(pyjson "$log" mmap "sum(x['contentions'] for x in $r)")
ws=$(pyjson "$log" mmap "sum(x['slow_path_untraced_ns'] for x in $r)")
calls=$(pyjson "$log" mmap "sum(x['slow_path_calls'] for x in $r)")
if [ "${nc:-0}" -gt 0 ] 2>/dev/null && [ "${ws:-0}" -gt 0 ] 2>/dev/null; then
	pass "vm arm64: mmap_lock named, $nc writer contentions, writer spin ${ws}ns over $calls slow-path calls"
else
	fail "vm arm64: mmap_lock writer: contentions=$nc spin=$ws calls=$calls; rows $(pyjson "$log" mmap '[(r["name"], r["kind"]) for r in d["locks"]][:6]')"
fi
osq=$(pyjson "$log" mmap "sum(x['osq_calls'] for x in d['locks'])")
osqm=$(pyjson "$log" mmap "sum(x['osq_calls'] for x in $r)")
unk=$(pyjson "$log" mmap "d['losses']['osq outer lock unknown']")
if [ "${osqm:-0}" -gt 0 ] 2>/dev/null; then
	pass "vm arm64: osq_lock calls land on mmap_lock ($osqm of $osq; $unk unattributed)"
else
	fail "vm arm64: osq_lock calls on mmap_lock: $osqm of $osq, unknown $unk"
fi

# hist --source kprobe under pipe_hammer: the pipe mutex, by tracepoints and
# by the kprobe on the __mutex_lock clone.
pr='[r for r in d["locks"] if r["kind"]=="mutex" and "pipe" in r["name"]]'
nm=$(pyjson "$log" pipe-kprobe "[x['name'] for x in $pr][:1]")
pc=$(pyjson "$log" pipe-kprobe "sum(x['contentions'] for x in $pr)")
sc=$(pyjson "$log" pipe-kprobe "sum(x['slow_path_calls'] for x in $pr)")
if [ "${pc:-0}" -gt 0 ] 2>/dev/null && [ "${sc:-0}" -gt 0 ] 2>/dev/null; then
	pass "vm arm64: pipe mutex $nm: $pc contentions, $sc slow-path calls by kprobe"
else
	fail "vm arm64: pipe mutex: name $nm contentions '$pc' slow-path calls '$sc'"
fi
# the sampler reads the arm64 perf_event regs (struct user_pt_regs' pc):
# kernel samples inside the spin functions, with callers
sk=$(pyjson "$log" mmap "d['counters']['kernel samples']")
ss=$(pyjson "$log" mmap "d['counters']['spin samples']")
sf=$(pyjson "$log" mmap "[(f['function'], f['samples']) for f in d['sampler']['spin_functions'] if f['samples']]")
if [ "${sk:-0}" -gt 0 ] 2>/dev/null && [ "${ss:-0}" -gt 0 ] 2>/dev/null; then
	pass "vm arm64: cpu sampler: $ss of $sk kernel samples in spin functions $sf"
else
	fail "vm arm64: cpu sampler: kernel samples '$sk', spin samples '$ss'"
fi

# hist under genl_hammer: the static genl_mutex.  No CONFIG_KALLSYMS_ALL on
# Debian's arm64 kernel (doctor says so): named by its caller, and the osq
# spin of its waiters is inside their spin.
g='[r for r in d["locks"] if r["kind"]=="mutex" and r["name"] in ("genl_mutex", "mutex@genl_rcv_msg")]'
gn=$(pyjson "$log" netlink "[x['name'] for x in $g][:1]")
n=$(pyjson "$log" netlink "sum(x['contentions'] for x in $g)")
o=$(pyjson "$log" netlink "sum(x['osq_ns'] for x in $g)")
sp=$(pyjson "$log" netlink "sum(x['spin_ns'] for x in $g)")
if [ "${n:-0}" -gt 0 ] 2>/dev/null; then
	pass "vm arm64: genetlink mutex named $gn, $n contentions"
else
	fail "vm arm64: genetlink mutex not found: $(pyjson "$log" netlink '[(r["name"], r["kind"]) for r in d["locks"]][:6]')"
fi
if [ "${o:-0}" -gt 0 ] 2>/dev/null && [ "$o" -le "${sp:-0}" ]; then
	pass "vm arm64: osq spin ${o}ns on the genetlink mutex, within its spin ${sp}ns"
else
	fail "vm arm64: genetlink mutex osq ${o}ns vs spin ${sp}ns"
fi
