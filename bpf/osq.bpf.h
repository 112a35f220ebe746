/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * osq.bpf.h - an osq_lock() bail-out and the vCPU it queued behind: when
 * osq_lock() returns false, this CPU's osq_node (its per-CPU base,
 * percpu_base, plus osq_node's BTF offset in .data..percpu, rodata
 * osq_node_off; 0 leaves this off) still links the node it queued
 * behind in ->prev.  That node is the previous CPU's osq_node, so the
 * previous CPU's per-CPU base is prev - osq_node_off, and its
 * steal_time.preempted (vcpu.bpf.h) says whether the host had taken that
 * vCPU, read as the bail-out returns.  Counted per lock in osq_vcpu, keyed
 * like lock_stats.  Included once, from fprobes.bpf.h.
 */
#ifndef LS_OSQ_BPF_H
#define LS_OSQ_BPF_H

/* BTF offset of `osq_node` in the .data..percpu DATASEC; 0: off. */
const volatile __u64 osq_node_off = 0;

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, LS_DEF_MAX_LOCKS);
	__type(key, struct ls_lock_key);
	__type(value, struct ls_osq_vcpu);
} osq_vcpu SEC(".maps");

struct optimistic_spin_node___ls {
	struct optimistic_spin_node___ls *prev;
	int cpu; /* CPU number + 1 */
} __attribute__((preserve_access_index));

/* osq_lock() on this CPU bailed out while spinning for lock @key. */
static __always_inline void osq_bailout_vcpu(struct ls_lock_key *key)
{
	struct optimistic_spin_node___ls *node, *prev = NULL;
	struct kvm_steal_time___ls *st;
	struct ls_osq_vcpu *v, init = {};
	__u32 cpu = bpf_get_smp_processor_id();
	__u64 *base;
	__u8 pre = 0;
	int enc = 0;

	if (!osq_node_off)
		return;
	base = bpf_map_lookup_elem(&percpu_base, &cpu);
	if (base && !*base)
		ident_learn_percpu(cpu);
	if (!base || !*base)
		return;
	node = (void *)(*base + osq_node_off);
	if (bpf_core_read(&prev, sizeof(prev), &node->prev) || !prev ||
	    bpf_core_read(&enc, sizeof(enc), &prev->cpu) || enc < 1 ||
	    enc > LS_MAX_CPUS || (__u32)(enc - 1) == cpu)
		return;
	if (steal_time_off) {
		st = (void *)((__u64)prev - osq_node_off + steal_time_off);
		if (bpf_core_read(&pre, sizeof(pre), &st->preempted))
			return;
	}
	v = bpf_map_lookup_elem(&osq_vcpu, key);
	if (!v) {
		bpf_map_update_elem(&osq_vcpu, key, &init, BPF_NOEXIST);
		v = bpf_map_lookup_elem(&osq_vcpu, key);
	}
	if (!v) {
		bump(&losses, LS_LOSS_OSQ_MAP_FULL);
		return;
	}
	__sync_fetch_and_add(&v->prev_read, 1);
	if (pre & LS_KVM_VCPU_PREEMPTED)
		__sync_fetch_and_add(&v->prev_preempted, 1);
}

#endif /* LS_OSQ_BPF_H */
