/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * vcpu.bpf.h - a running holder whose vCPU the hypervisor took away: at a
 * wait's first begin, for a holder classified running (holders.bpf.h), the
 * paravirtual `preempted` flag of the holder's CPU, read from the per-CPU
 * `steal_time` (struct kvm_steal_time) through that CPU's per-CPU base
 * (percpu_base, ident.bpf.h) plus steal_time's BTF offset in .data..percpu
 * (rodata steal_time_off, set by user space; 0 leaves it off).  A running
 * holder whose CPU's base is not learnt yet stays running and is counted
 * (LS_CTR_VCPU_UNREAD); the waiter's own CPU then learns its base.
 * Included once, from lockscope.bpf.c, after ident.bpf.h and before
 * holders.bpf.h.
 */
#ifndef LS_VCPU_BPF_H
#define LS_VCPU_BPF_H

/* BTF offset of `steal_time` in the .data..percpu DATASEC; 0: off. */
const volatile __u64 steal_time_off = 0;

struct kvm_steal_time___ls {
	__u8 preempted;
} __attribute__((preserve_access_index));

/* The CPU a task last ran on: thread_info.cpu (THREAD_INFO_IN_TASK, 5.16+)
 * or task_struct.cpu (older kernels). */
struct task_struct___oldcpu {
	unsigned int cpu;
} __attribute__((preserve_access_index));

static __always_inline int vcpu_task_cpu(struct task_struct *t, __u32 *cpu)
{
	struct task_struct___oldcpu *o = (void *)t;

	if (bpf_core_field_exists(t->thread_info.cpu))
		return bpf_core_read(cpu, sizeof(*cpu), &t->thread_info.cpu);
	if (bpf_core_field_exists(o->cpu))
		return bpf_core_read(cpu, sizeof(*cpu), &o->cpu);
	return -1;
}

/* Holder @t in state @state: running splits into running and
 * vcpu-preempted by its CPU's steal_time.preempted. */
static __always_inline __u32 vcpu_split(struct task_struct *t, __u32 state)
{
	struct kvm_steal_time___ls *st;
	__u8 pre = 0;
	__u64 *base;
	__u32 cpu;

	if (state != LS_HOLDER_RUNNING || !steal_time_off)
		return state;
	if (vcpu_task_cpu(t, &cpu) || cpu >= LS_MAX_CPUS)
		goto unread;
	base = bpf_map_lookup_elem(&percpu_base, &cpu);
	if (!base || !*base)
		goto unread;
	st = (void *)(*base + steal_time_off);
	if (bpf_core_read(&pre, sizeof(pre), &st->preempted))
		goto unread;
	return pre & LS_KVM_VCPU_PREEMPTED ? LS_HOLDER_VCPU_PREEMPTED : state;
unread:
	/* learn this CPU's base now: its holders are read from then on */
	ident_learn_percpu(bpf_get_smp_processor_id());
	bump(&counters, LS_CTR_VCPU_UNREAD);
	return state;
}

#endif /* LS_VCPU_BPF_H */
