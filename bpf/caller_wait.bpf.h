/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * caller_wait.bpf.h - weights for flame graphs: the whole wait time of each
 * sampled wait, added to its caller stack's entry in lock_callers.
 *
 * sample_caller() takes a stack on every stack_every-th begin and leaves its
 * reference in the wait (stack_ref); the wait's end adds its duration to
 * that stack's entry.  Included by lockscope.bpf.c after its maps.  This
 * runs at contention_end, inside a spinlock's critical section, for one
 * wait in stack_every only: one lookup and one atomic, no insert (the entry
 * was made at begin; if forgotten since, the time has nowhere to go).
 */
#ifndef LS_CALLER_WAIT_BPF_H
#define LS_CALLER_WAIT_BPF_H

static __always_inline void credit_caller_wait(const struct ls_wait *w,
					       __u64 dur)
{
	struct ls_caller_key ck;
	struct ls_caller_val *cv;

	if (!w->stack_ref)
		return;
	ck.addr = w->addr;
	ck.kind = w->kind;
	ck.stack_id = (__s32)(w->stack_ref - 1);
	cv = bpf_map_lookup_elem(&lock_callers, &ck);
	if (cv) {
		__sync_fetch_and_add(&cv->wait_ns, dur);
		mark_dirty(&callers_dirty);
	}
}

#endif
