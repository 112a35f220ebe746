/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * chain_walk.h - the walk of a wait-for chain, its decisions only: which
 * holder is followed, when the walk stops, what it keeps in the wait.
 * bpf/chains.bpf.h runs it at a wait's first begin; the unit tests
 * (tests/unit/model/test_chains.c) run the same code on a synthetic state.
 *
 * The includer provides the types of bpf/lockscope.h and LS_CHAIN_FN, the
 * functions' storage class (static inline; static __always_inline in BPF,
 * where the reads passed to ls_chain_walk() are constants the compiler
 * inlines: BPF has no indirect call).
 */
#ifndef LS_CHAIN_WALK_H
#define LS_CHAIN_WALK_H

#include "kernel_abi.h"

/* A holder in @state may itself wait on a lock: follow it. */
LS_CHAIN_FN int ls_chain_follows(__u32 state)
{
	return state == LS_HOLDER_SLEEPING || state == LS_HOLDER_PREEMPTED;
}

/* The lock kind task_struct.blocker's type bits name. */
LS_CHAIN_FN __u32 ls_blocker_kind(__u64 blocker)
{
	switch (blocker & LS_BLOCKER_TYPE_MASK) {
	case LS_BLOCKER_MUTEX:
		return LS_KIND_MUTEX;
	case LS_BLOCKER_SEM:
		return LS_KIND_SEMAPHORE;
	case LS_BLOCKER_RWSEM_READER:
		return LS_KIND_RWSEM_R;
	default:
		return LS_KIND_RWSEM_W;
	}
}

/* The reads of the state the walk goes through. */
/* The lock @task waits on: LS_CF_OWN or LS_CF_BLOCKER (its source), 0 if
 * none is known. */
typedef __u32 (*ls_chain_wait_fn)(void *env, __u64 task, __u64 *lock,
				  __u32 *kind, __u32 *tid);
/* The state (enum ls_holder) of @lock's holder, the holder in @task. */
typedef __u32 (*ls_chain_holder_fn)(void *env, __u64 lock, __u32 kind,
				    __u64 *task);

/* @lock is among the first @n locks of the chain @seen. */
LS_CHAIN_FN int ls_chain_seen(const __u64 *seen, __u32 n, __u64 lock)
{
	for (__u32 i = 0; i < LS_CHAIN_SEEN; i++)
		if (i < n && seen[i] == lock)
			return 1;
	return 0;
}

/*
 * Wait @w begins on a lock held by @task, which is not running: follow the
 * chain into @w's chain fields (chain_depth 0: the holder waits on no lock
 * known here).  A holder found waiting on the very lock it holds is being
 * handed that lock (a mutex handoff sets the owner before the waiter
 * wakes): the chain ends there, it is no cycle.  A lock met again further
 * back is one: flagged, never followed.  @seen: room for LS_CHAIN_SEEN
 * locks (a BPF program's stack has none to spare); @wait_of, @holder_of:
 * the reads, with @env.
 */
LS_CHAIN_FN void ls_chain_walk(void *env, struct ls_wait *w, __u64 task,
			       __u64 *seen, ls_chain_wait_fn wait_of,
			       ls_chain_holder_fn holder_of)
{
	__u64 cur = w->addr, lock = 0;
	__u32 kind = 0, tid = 0, src, state = LS_HOLDER_UNKNOWN;
	__u32 flags = 0, depth = 0, next_kind = 0, root_kind = 0;

	seen[0] = cur;
#ifdef __clang__
#pragma clang loop unroll(disable)
#endif
	for (__u32 i = 0; i < LS_CHAIN_DEPTH; i++) {
		src = wait_of(env, task, &lock, &kind, &tid);
		if (!src || lock == cur)
			break;
		flags |= src;
		if (i == 0) {
			w->chain_next = lock;
			w->chain_tid = tid;
			next_kind = kind;
		}
		depth = i + 1;
		w->chain_root = lock;
		root_kind = kind;
		if (ls_chain_seen(seen, i + 1, lock)) {
			flags |= LS_CF_CYCLE;
			break;
		}
		seen[(i + 1) & (LS_CHAIN_SEEN - 1)] = lock;
		cur = lock;
		state = holder_of(env, lock, kind, &task);
		if (!ls_chain_follows(state))
			break;
		if (i == LS_CHAIN_DEPTH - 1)
			flags |= LS_CF_CAPPED;
	}
	w->chain_depth = (__u8)depth;
	if (!depth)
		return;
	w->chain_flags = (__u8)flags;
	w->chain_state = (__u8)state;
	w->chain_kinds = LS_CHAIN_KINDS(next_kind, root_kind);
}

#endif /* LS_CHAIN_WALK_H */
