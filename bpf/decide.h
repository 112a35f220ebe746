/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * decide.h - the pure decisions the BPF programs make, in one copy that
 * the BPF objects, user space and the unit tests all include: the log2
 * histogram slot of a duration, a lock's kind from its contention flags,
 * which kinds record an owner, what an owner word says of the holder, and
 * a holder task's state from its scheduler fields.  What runs in the kernel
 * is what is tested (tests/unit/model/test_decide.c).  Include after
 * lockscope.h (and, in BPF, after bpf_helpers.h).
 */
#ifndef LS_DECIDE_H
#define LS_DECIDE_H

#include "kernel_abi.h"

#ifdef __bpf__
#define LS_DECIDE_FN static __always_inline
#else
#define LS_DECIDE_FN static inline
#endif

/* Slot of @v in a log2 histogram: slot i counts [2^i, 2^(i+1)), 0 and 1 go
 * to slot 0, the last slot is open.  64-bit throughout and masked: older
 * verifiers lose 32-bit bounds. */
LS_DECIDE_FN __u64 ls_hist_slot(__u64 v)
{
	__u64 r = 0, s;

	s = (v > 0xFFFFFFFFULL) << 5;
	v >>= s;
	r |= s;
	s = (v > 0xFFFF) << 4;
	v >>= s;
	r |= s;
	s = (v > 0xFF) << 3;
	v >>= s;
	r |= s;
	s = (v > 0xF) << 2;
	v >>= s;
	r |= s;
	s = (v > 0x3) << 1;
	v >>= s;
	r |= s;
	r |= (v >> 1);
	if (r >= LS_HIST_SLOTS)
		r = LS_HIST_SLOTS - 1;
	return r & (LS_HIST_SLOTS - 1);
}

/* The kind of a lock whose contention_begin carried @flags (LS_LCB_*). */
LS_DECIDE_FN __u32 ls_kind_of_flags(__u32 flags)
{
	if (flags & LS_LCB_MUTEX)
		return LS_KIND_MUTEX;
	if (flags & LS_LCB_PERCPU)
		return flags & LS_LCB_WRITE ? LS_KIND_PCPU_RWSEM_W
					    : LS_KIND_PCPU_RWSEM_R;
	if (flags & LS_LCB_RT) {
		if (flags & LS_LCB_READ)
			return LS_KIND_RTLOCK_R;
		if (flags & LS_LCB_WRITE)
			return LS_KIND_RTLOCK_W;
		return LS_KIND_RT_MUTEX;
	}
	if (flags & LS_LCB_SPIN) {
		if (flags & LS_LCB_READ)
			return LS_KIND_RWLOCK_R;
		if (flags & LS_LCB_WRITE)
			return LS_KIND_RWLOCK_W;
		return LS_KIND_SPINLOCK;
	}
	if (flags & LS_LCB_READ)
		return LS_KIND_RWSEM_R;
	if (flags & LS_LCB_WRITE)
		return LS_KIND_RWSEM_W;
	return LS_KIND_SEMAPHORE;
}

/* Locks of @kind keep an owner word naming their holder. */
LS_DECIDE_FN int ls_kind_has_owner(__u32 kind)
{
	return kind == LS_KIND_MUTEX || kind == LS_KIND_RWSEM_R ||
	       kind == LS_KIND_RWSEM_W || kind == LS_KIND_RT_MUTEX;
}

/* The task address in owner word @word, its flag bits cleared. */
LS_DECIDE_FN __u64 ls_owner_addr(__u64 word)
{
	return word & ~LS_OWNER_FLAGS;
}

/*
 * The holder task the owner word @word of a lock of @kind names, 0 if none:
 * then *@none is LS_HOLDER_FREE (no owner) or LS_HOLDER_UNKNOWN (a
 * reader-owned rwsem, whose word names its last reader only: a hint).
 */
LS_DECIDE_FN __u64 ls_owner_task(__u32 kind, __u64 word, __u32 *none)
{
	if ((kind == LS_KIND_RWSEM_W || kind == LS_KIND_RWSEM_R) &&
	    (word & LS_RWSEM_READER_OWNED)) {
		*none = LS_HOLDER_UNKNOWN;
		return 0;
	}
	*none = LS_HOLDER_FREE;
	return ls_owner_addr(word);
}

/*
 * Where a holder task is, from its scheduler fields: on a CPU, runnable
 * off CPU, or blocked.  A task that blocked can stay queued with
 * se.sched_delayed set (EEVDF's delayed dequeue, 6.12+): that is sleeping,
 * not preempted.
 */
LS_DECIDE_FN __u32 ls_holder_of_task(int on_cpu, int on_rq, int delayed)
{
	if (on_cpu)
		return LS_HOLDER_RUNNING;
	return on_rq && !delayed ? LS_HOLDER_PREEMPTED : LS_HOLDER_SLEEPING;
}

#endif /* LS_DECIDE_H */
