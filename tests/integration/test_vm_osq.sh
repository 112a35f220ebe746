#!/usr/bin/env bash
# Guest tier, osq_lock bail-outs (bpf/osq.bpf.h): Debian's generic 6.1
# kernel under qemu TCG with 4 vCPUs (with 2, a spinner queues behind
# another only for moments and no bail-out was seen), stress-ng's
# netlink-task 6 beside 2 CPU hogs on genl_mutex.  Bail-outs <= osq_lock
# calls; every bail-out's previous node is read (it queued behind one);
# the previous vCPU's preempted flag is unknown (null) without KVM steal
# time.  About 25 s.
. "$(dirname "$0")/../lib.sh"
vm=$LS_ROOT/tests/vm
. "$vm/lib.sh" # vm_needs, section, pyjson
out=$LS_OUT/vm
mkdir -p "$out"

vm_needs "vm osq" qemu-system-x86_64 busybox apt-get stress-ng || exit 0
k=$("$vm/fetch-kernel.sh" amd64 2>"$out/osq.fetch.err") || {
	skip "vm osq: kernel image unavailable: $(tail -1 "$out/osq.fetch.err")"
	exit 0
}
initrd=$out/osq.initrd.gz log=$out/osq.log
if ! "$vm/mkinitrd.sh" "$initrd" "$vm/osq-payload.sh" "$LS" \
	"$(command -v stress-ng)" >"$out/osq.mkinitrd.log" 2>&1; then
	fail "vm osq: initramfs: $(tail -1 "$out/osq.mkinitrd.log")"
	exit 0
fi
LS_VM_SMP=4 "$vm/boot.sh" "$k" "$initrd" 150 >"$log" 2>"$out/osq.err"
rc=$?
if [ $rc -ne 0 ]; then
	fail "vm osq: boot.sh exit $rc: $(tail -3 "$out/osq.err")"
	exit 0
fi
g='[x for x in d["locks"] if x["name"] == "genl_mutex"]'
calls=$(pyjson "$log" osqbail "sum(x['osq_calls'] for x in $g)")
bo=$(pyjson "$log" osqbail "sum(x['osq_bailouts'] for x in $g)")
rd=$(pyjson "$log" osqbail "sum(x['osq_bailouts_prev_read'] for x in $g)")
pre=$(pyjson "$log" osqbail "sorted({str(x['osq_bailouts_prev_preempted']) for x in $g})")
lost=$(pyjson "$log" osqbail "d['losses']['osq vcpu map full']")
if ! [ "${calls:-0}" -gt 0 ] 2>/dev/null; then
	fail "vm osq: no osq_lock calls on genl_mutex: '$calls' $(section "$log" osqbail | grep -m2 lockscope:)"
	exit 0
fi
if [ "$bo" -le "$calls" ] && [ "$rd" -le "$bo" ] && [ "$pre" = "['None']" ]; then
	pass "vm osq: genl_mutex: $bo bail-outs of $calls osq_lock calls, previous node read in $rd, preempted unknown (null) without steal time"
else
	fail "vm osq: genl_mutex: calls $calls, bail-outs $bo, previous read $rd, preempted $pre"
fi
if [ "$bo" -eq 0 ]; then
	skip "vm osq: no osq_lock bail-out in this run ($calls calls)"
elif [ $((rd + lost)) -eq "$bo" ]; then
	pass "vm osq: every bail-out's previous node read: $rd of $bo ($lost lost)"
else
	fail "vm osq: previous node read in $rd of $bo bail-outs ($lost lost)"
fi
