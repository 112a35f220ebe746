/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * holder_read.bpf.h - reading a lock's holder: the owner word of a mutex,
 * rwsem or rt_mutex (owner_word) and the state of the task it names
 * (holder_state_of: running, preempted, sleeping).  Fault-safe CO-RE
 * reads: plain loads through bpf_rdonly_cast() where it exists (6.2+),
 * else bpf_probe_read_kernel().  Used by holders.bpf.h at a wait's first
 * begin and by chains.bpf.h for each lock of a chain.
 */
#ifndef LS_HOLDER_READ_BPF_H
#define LS_HOLDER_READ_BPF_H

/* Owner words, resolved by CO-RE (same layouts as owner.bpf.c reads). */
struct mutex___hold {
	atomic_long_t owner;
} __attribute__((preserve_access_index));

struct rw_semaphore___hold {
	atomic_long_t owner;
} __attribute__((preserve_access_index));

struct rt_mutex_base___hold {
	struct task_struct *owner;
} __attribute__((preserve_access_index));

/*
 * Kernels 6.2+: a typed read-only view of any kernel address, read with
 * plain loads the JIT makes fault-safe (a fault reads 0), far cheaper than
 * a bpf_probe_read_kernel() call; NULL where missing (then the helper).
 */
extern void *bpf_rdonly_cast(const void *obj, __u32 btf_id) __ksym __weak;

/* Read the owner word of @lock of @kind into @word; nonzero when the kind
 * has none here or the read failed. */
static __always_inline int owner_word(__u64 lock, __u32 kind, __u64 *word)
{
	if (bpf_rdonly_cast && kind != LS_KIND_RT_MUTEX) {
		if (kind == LS_KIND_MUTEX) {
			struct mutex *m = bpf_rdonly_cast(
				(void *)lock,
				bpf_core_type_id_kernel(struct mutex));

			*word = m->owner.counter;
			return 0;
		}
		if (kind == LS_KIND_RWSEM_W || kind == LS_KIND_RWSEM_R) {
			struct rw_semaphore *r = bpf_rdonly_cast(
				(void *)lock,
				bpf_core_type_id_kernel(struct rw_semaphore));

			*word = r->owner.counter;
			return 0;
		}
		/* rt_mutex: its owner field is a typed pointer, which the
		 * verifier will not mask: read below */
	}
	if (kind == LS_KIND_MUTEX) {
		struct mutex___hold *m = (void *)lock;

		if (!bpf_core_field_exists(m->owner))
			return -1;
		return bpf_core_read(word, sizeof(*word), &m->owner.counter);
	}
	if (kind == LS_KIND_RWSEM_W || kind == LS_KIND_RWSEM_R) {
		struct rw_semaphore___hold *r = (void *)lock;

		if (!bpf_core_field_exists(r->owner))
			return -1;
		return bpf_core_read(word, sizeof(*word), &r->owner.counter);
	}
	if (kind == LS_KIND_RT_MUTEX) {
		struct rt_mutex_base___hold *r = (void *)lock;

		if (!bpf_core_field_exists(r->owner))
			return -1;
		return bpf_core_read(word, sizeof(*word), &r->owner);
	}
	return -1;
}

/* Bytes of task_struct read at once from on_cpu, to reach on_rq. */
#define LS_TASK_WINDOW 64

/* sched_entity.sched_delayed (6.12+), absent from older vmlinux.h */
struct sched_entity___delayed {
	unsigned char sched_delayed;
} __attribute__((preserve_access_index));

/* Where task @t is (ls_holder_of_task decides from the fields read). */
static __always_inline __u32 holder_state_of(struct task_struct *t)
{
	__u64 oc = bpf_core_field_offset(struct task_struct, on_cpu);
	__u64 orq = bpf_core_field_offset(struct task_struct, on_rq);
	int on_cpu = 0, on_rq = 0;
	unsigned char delayed = 0;
	__u32 w[LS_TASK_WINDOW / 4];

	if (!bpf_core_field_exists(t->on_cpu))
		return LS_HOLDER_UNKNOWN;
	if (bpf_rdonly_cast) {
		struct task_struct *tt = bpf_rdonly_cast(
			t, bpf_core_type_id_kernel(struct task_struct));

		on_cpu = tt->on_cpu;
		on_rq = tt->on_rq;
		if (!on_cpu && on_rq &&
		    bpf_core_field_exists(struct sched_entity___delayed,
					  sched_delayed)) {
			struct sched_entity___delayed *se = (void *)&tt->se;

			delayed = se->sched_delayed;
		}
		return ls_holder_of_task(on_cpu, on_rq, delayed);
	}
	if (orq > oc && orq - oc <= LS_TASK_WINDOW - 4 && !((orq - oc) & 3)) {
		/* one read for both fields (a helper call costs more than
		 * the bytes): the offsets are load-time constants */
		if (bpf_probe_read_kernel(w, sizeof(w), (char *)t + oc))
			return LS_HOLDER_UNKNOWN;
		on_cpu = (int)w[0];
		on_rq = (int)w[((orq - oc) / 4) & (LS_TASK_WINDOW / 4 - 1)];
	} else if (bpf_core_read(&on_cpu, sizeof(on_cpu), &t->on_cpu) ||
		   bpf_core_read(&on_rq, sizeof(on_rq), &t->on_rq)) {
		return LS_HOLDER_UNKNOWN;
	}
	if (!on_cpu && on_rq &&
	    bpf_core_field_exists(struct sched_entity___delayed,
				  sched_delayed)) {
		struct sched_entity___delayed *se = (void *)&t->se;

		if (bpf_core_read(&delayed, sizeof(delayed),
				  &se->sched_delayed))
			return LS_HOLDER_UNKNOWN;
	}
	return ls_holder_of_task(on_cpu, on_rq, delayed);
}

#endif /* LS_HOLDER_READ_BPF_H */
