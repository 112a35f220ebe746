/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * ident.bpf.h - what memory a contended lock lives in, learnt once per lock
 * at its first contention_begin (never per event): the slab cache of the
 * object that holds it (bpf_get_kmem_cache, kernels 6.13+, tp_btf only),
 * and the start of this CPU's per-CPU area (from its run queue) for locks
 * in per-CPU data.  User space turns both into type.field names with BTF.
 * Included once, from lockscope.bpf.c.
 */
#ifndef LS_IDENT_BPF_H
#define LS_IDENT_BPF_H

/* Weak: absent before 6.13, where it resolves to NULL (libbpf 1.1 has no
 * bpf_ksym_exists(), so the symbol is tested against NULL). */
extern struct kmem_cache *bpf_get_kmem_cache(__u64 addr) __ksym __weak;

/* BTF offset of `runqueues` in the .data..percpu DATASEC; 0: off. */
const volatile __u64 percpu_rq_off = 0;

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, LS_DEF_MAX_LOCKS);
	__type(key, struct ls_lock_key);
	__type(value, struct ls_lock_ident);
} lock_ident SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, LS_MAX_CPUS);
	__type(key, __u32);
	__type(value, __u64);
} percpu_base SEC(".maps");

/* Scratch for a new lock_ident entry: kept off the BPF stack. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct ls_lock_ident);
} ident_init SEC(".maps");

/* This CPU's per-CPU area: its run queue minus the run queue's offset. */
static __always_inline void ident_learn_percpu(__u32 cpu)
{
	struct task_struct *t = (struct task_struct *)bpf_get_current_task();
	struct cfs_rq *cfs;
	__u64 rq, *base;

	if (!percpu_rq_off || !bpf_core_field_exists(struct cfs_rq, rq))
		return;
	cfs = BPF_CORE_READ(t, se.cfs_rq);
	if (!cfs)
		return;
	rq = (__u64)BPF_CORE_READ(cfs, rq);
	base = bpf_map_lookup_elem(&percpu_base, &cpu);
	if (rq && base)
		*base = rq - percpu_rq_off;
}

/* The slab cache holding @addr, with the layout needed for the offset. */
static __always_inline void ident_slab(struct ls_lock_ident *id, __u64 addr,
				       int btf)
{
	struct kmem_cache *s;

	if (!btf) {
		id->src = LS_IDENT_NO_BTF_TP;
		return;
	}
	if (!bpf_get_kmem_cache) {
		id->src = LS_IDENT_NO_KFUNC;
		return;
	}
	s = bpf_get_kmem_cache(addr);
	if (!s)
		return;
	id->src = LS_IDENT_SLAB;
	id->size = BPF_CORE_READ(s, size);
	id->object_size = BPF_CORE_READ(s, object_size);
	id->red_left_pad = BPF_CORE_READ(s, red_left_pad);
	id->order = BPF_CORE_READ(s, oo.x) >> 16; /* OO_SHIFT */
	id->min_order = BPF_CORE_READ(s, min.x) >> 16;
	id->refcount = BPF_CORE_READ(s, refcount); /* merged caches */
	bpf_probe_read_kernel_str(id->cache, sizeof(id->cache),
				  BPF_CORE_READ(s, name));
}

/*
 * First contention of the lock @k: record what it is.  @btf is a constant
 * (the tp_btf program or the raw_tp one): the compiler drops the kfunc
 * call from the raw_tp program, which may not call kfuncs.
 */
static __always_inline void ident_resolve(struct ls_lock_key *k, int btf)
{
	__u32 zero = 0, cpu = bpf_get_smp_processor_id();
	struct ls_lock_ident *id = bpf_map_lookup_elem(&ident_init, &zero);

	ident_learn_percpu(cpu);
	if (!id)
		return;
	__builtin_memset(id, 0, sizeof(*id));
	id->cpu = cpu;
	ident_slab(id, k->addr, btf);
	if (bpf_map_update_elem(&lock_ident, k, id, BPF_ANY))
		bump(&losses, LS_LOSS_IDENT_MAP_FULL);
}

#endif
