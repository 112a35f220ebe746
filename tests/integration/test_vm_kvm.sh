#!/usr/bin/env bash
# Guest tier, KVM: holders preempted by the hypervisor, made on purpose.
# Debian's generic 6.1 kernel boots under qemu -accel kvm -cpu host -smp 2
# (steal time and the paravirtual `preempted` flag come with KVM's CPUID).
# The guest runs the pipe hammer under `lockscope hist --json` twice: first
# with both vCPU threads pinned to one host CPU next to a busy loop pinned
# there too (the host must preempt one vCPU to run the other or the hog),
# then unpinned without the hog.  Asserts the vcpu-preempted share of the
# pipe mutex's waits is > 0 pinned and more than twice the unpinned share,
# and that osq_lock bail-outs with the previous vCPU preempted were counted
# pinned.  If the guest does not reach /init within LS_KVM_BOOT_CPU_S (12 s)
# of qemu's CPU (TCG takes about 6 s) or LS_KVM_BOOT_S (20 s) of wall clock,
# the whole test is skipped with what was measured: nested KVM that slow
# cannot show anything.  `make test-vm-kvm` runs it alone.
. "$(dirname "$0")/../lib.sh"
vm=$LS_ROOT/tests/vm
. "$vm/lib.sh" # vm_needs, section, pyjson
out=$LS_OUT/vm
mkdir -p "$out"

vm_needs "vm kvm" qemu-system-x86_64 busybox apt-get taskset || exit 0
if [ ! -w /dev/kvm ]; then
	skip "vm kvm: no usable /dev/kvm"
	exit 0
fi
if [ "$(nproc)" -lt 2 ]; then
	skip "vm kvm: one host CPU: pinned and unpinned would not differ"
	exit 0
fi
k=$("$vm/fetch-kernel.sh" amd64 2>"$out/kvm.fetch.err") || {
	skip "vm kvm: kernel image unavailable: $(tail -1 "$out/kvm.fetch.err")"
	exit 0
}
initrd=$out/kvm.initrd.gz
if ! "$vm/mkinitrd.sh" "$initrd" "$vm/kvm-payload.sh" "$LS" \
	"$LS_ROOT/build/pipe_hammer" >"$out/kvm.mkinitrd.log" 2>&1; then
	fail "vm kvm: initramfs: $(tail -1 "$out/kvm.mkinitrd.log")"
	exit 0
fi

log=$out/kvm.log pidf=$out/kvm.qemu.pid hog=""
rm -f "$log" "$pidf"
: >"$log"
LS_VM_ACCEL=kvm LS_VM_CPU=host LS_VM_LOG=$log LS_VM_QEMU_ARGS="-pidfile $pidf" \
	"$vm/boot.sh" "$k" "$initrd" 110 >/dev/null 2>"$out/kvm.err" &
boot=$!
stop_hog() {
	[ -n "$hog" ] && kill "$hog" 2>/dev/null && wait "$hog" 2>/dev/null
	hog=""
}
trap stop_hog EXIT
# waitlog PATTERN SECONDS: until the console log has a line matching PATTERN
waitlog() {
	local i=0
	while ! grep -q "$1" "$log" 2>/dev/null; do
		kill -0 "$boot" 2>/dev/null || return 1
		[ $i -ge $(($2 * 5)) ] && return 1
		sleep 0.2
		i=$((i + 1))
	done
}
# vcpus: qemu's vCPU thread ids ("CPU 0/KVM", "CPU 1/KVM")
vcpus() {
	local q t
	q=$(cat "$pidf" 2>/dev/null) || return
	for t in /proc/"$q"/task/*; do
		case $(cat "$t/comm" 2>/dev/null) in "CPU "*/KVM) echo "${t##*/}" ;; esac
	done
}

# qemu_cpu: qemu's CPU seconds so far (user + system, all its threads)
qemu_cpu() {
	awk -v hz="$(getconf CLK_TCK)" '{ sub(/.*\) /, ""); printf "%.1f\n", ($12 + $13) / hz }' \
		"/proc/$(cat "$pidf" 2>/dev/null)/stat" 2>/dev/null
}
# booting: /init not reached yet, qemu alive, within LS_KVM_BOOT_S of wall
# clock and LS_KVM_BOOT_CPU_S of qemu's CPU
booting() {
	! grep -q '^LS-VM-START' "$log" 2>/dev/null && kill -0 "$boot" 2>/dev/null &&
		[ "${EPOCHREALTIME/./}" -lt $((t0 + boot_s * 1000000)) ] &&
		awk -v c="$(qemu_cpu)" -v l="$boot_cpu" 'BEGIN { exit !(c + 0 < l + 0) }'
}

# TCG reaches /init in about 6 s of qemu's CPU here: a KVM guest that has
# used twice that (LS_KVM_BOOT_CPU_S, 12 s) without reaching it runs
# slower than emulation, and one that has not in LS_KVM_BOOT_S (20 s) of
# wall clock is stuck; neither can show a vCPU preempted on purpose
boot_s=${LS_KVM_BOOT_S:-20} boot_cpu=${LS_KVM_BOOT_CPU_S:-12}
t0=${EPOCHREALTIME/./}
while booting; do sleep 0.2; done
if ! grep -q '^LS-VM-START' "$log"; then
	q=$(cat "$pidf" 2>/dev/null)
	cpu=$(qemu_cpu)
	wall=$(((${EPOCHREALTIME/./} - t0) / 100000))
	last=$(grep -v '^$' "$log" | tail -n1 | cut -c1-60)
	[ -n "$q" ] && kill "$q" 2>/dev/null
	wait "$boot"
	mods=$(ls /sys/module 2>/dev/null | grep -E '^kvm_' | paste -sd, -)
	skip "vm kvm: the guest did not reach /init in $((wall / 10)).$((wall % 10)) s under -accel kvm (host KVM modules: ${mods:-none}; qemu used ${cpu:-?} s of CPU, the limits ${boot_cpu} s of CPU, ${boot_s} s; last console line '$last'); TCG reaches it in about 6 s of CPU"
	exit 0
fi
pass "vm kvm: booted under -accel kvm in $(((${EPOCHREALTIME/./} - t0) / 1000)) ms to /init"

for ph in pinned unpinned; do
	if ! waitlog "^LS-KVM-PHASE $ph" 60; then
		fail "vm kvm: the guest never reached phase $ph: $(tail -3 "$out/kvm.err")"
		wait "$boot"
		exit 0
	fi
	tids=$(vcpus)
	if [ "$(echo "$tids" | wc -w)" -ne 2 ]; then
		fail "vm kvm: expected 2 vCPU threads, found '$tids'"
		continue
	fi
	for t in $tids; do
		if [ $ph = pinned ]; then
			taskset -p -c 0 "$t" >/dev/null
		else
			taskset -p -c 0-$(($(nproc) - 1)) "$t" >/dev/null
		fi
	done
	if [ $ph = pinned ]; then
		taskset -c 0 sh -c 'while :; do :; done' &
		hog=$!
	else
		stop_hog
	fi
done
wait "$boot"
rc=$?
stop_hog
if [ $rc -ne 0 ]; then
	fail "vm kvm: boot.sh exit $rc: $(tail -3 "$out/kvm.err")"
	exit 0
fi

section "$log" doctor >"$out/kvm.doctor.txt"
row=$(grep 'vcpu-preempted holder' "$out/kvm.doctor.txt" | sed 's/  */ /g')
if [[ "$row" == *"steal_time.preempted"* ]]; then
	pass "vm kvm: doctor reads the preempted flag:$row"
else
	fail "vm kvm: doctor vcpu-preempted line: '$row'"
fi
# the pipe mutex's share of waits whose running holder's vCPU was preempted
pr='[r for r in d["locks"] if r["kind"]=="mutex" and "pipe" in r["name"]]'
share='(lambda w: round(100.0 * w["vcpu-preempted"] / max(1, sum(w.values())), 2))({k: sum(x["holder"]["waits"][k] for x in '$pr') for k in '$pr'[0]["holder"]["waits"]})'
pin=$(pyjson "$log" pinned "$share")
unp=$(pyjson "$log" unpinned "$share")
known=$(pyjson "$log" pinned "all(x['holder']['vcpu_flag_read'] for x in $pr)")
if [ "$known" != True ]; then
	fail "vm kvm: vcpu-preempted not measured pinned: $known"
elif python3 -c "import sys; p, u = map(float, sys.argv[1:]); sys.exit(not (p > 0 and p > 2 * u))" "$pin" "$unp" 2>/dev/null; then
	pass "vm kvm: vcpu-preempted share of the pipe mutex's waits ${pin}% pinned beside a hog, ${unp}% unpinned"
else
	fail "vm kvm: vcpu-preempted share ${pin}% pinned, ${unp}% unpinned (want > 0 and > 2x)"
fi
bp=$(pyjson "$log" pinned "sum(x['osq_bailouts_prev_preempted'] or 0 for x in d['locks'])")
bo=$(pyjson "$log" pinned "sum(x['osq_bailouts'] for x in d['locks'])")
if [ "${bp:-0}" -gt 0 ] 2>/dev/null; then
	pass "vm kvm: $bp of $bo osq_lock bail-outs pinned had the previous vCPU preempted"
else
	fail "vm kvm: no osq_lock bail-out with the previous vCPU preempted pinned: '$bp' of '$bo'"
fi
