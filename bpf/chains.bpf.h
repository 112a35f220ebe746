/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * chains.bpf.h - wait-for chains, included by holders.bpf.h (it uses
 * lockscope.bpf.c's task_state, counters and losses, and the holder reads
 * of holder_read.bpf.h):
 *
 *   chains_begin   at a wait's first begin, behind a holder that is not
 *                  running: the walk of bpf/chain_walk.h, through the
 *                  holder's own open wait (task_state, by its tid) or its
 *                  task_struct.blocker, and each lock's owner word;
 *   chains_record  at the wait's end: its count and time to lock_chains.
 *
 * A running holder costs one store (chain_depth = 0).  The walk is
 * bounded lookups and fault-safe reads only, at most LS_CHAIN_DEPTH hops.
 */
#ifndef LS_CHAINS_BPF_H
#define LS_CHAINS_BPF_H

#include "holder_read.bpf.h"

const volatile __u32 chains_on = 1; /* --no-chains clears it */

/* Sized 1 with --no-chains. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, LS_CHAIN_ENTRIES(LS_DEF_MAX_LOCKS));
	__type(key, struct ls_chain_key);
	__type(value, struct ls_chain_val);
} lock_chains SEC(".maps");

/* the walk's locks, off the begin program's stack */
struct chain_seen {
	__u64 seen[LS_CHAIN_SEEN];
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct chain_seen);
} chain_scratch SEC(".maps");

/* task_struct.blocker (CONFIG_DETECT_HUNG_TASK_BLOCKER, 6.16+) */
struct task_struct___blocker {
	unsigned long blocker;
} __attribute__((preserve_access_index));

#define LS_CHAIN_FN static __always_inline
#include "chain_walk.h"

/* The lock task @task waits on: its open wait seen by lockscope, else the
 * kernel's record of it. */
static __always_inline __u32 ls_chain_wait_of(void *env, __u64 task,
					      __u64 *lock, __u32 *kind,
					      __u32 *tid)
{
	struct task_struct *t = (struct task_struct *)task;
	struct ls_waits *ws;
	__u32 id = BPF_CORE_READ(t, pid), d;
	__u64 b;

	(void)env;
	if (!id)
		return 0;
	*tid = id;
	ws = bpf_map_lookup_elem(&task_state, &id);
	if (ws) {
		d = ws->depth;
		if (d > 0 && d <= LS_DEPTH) {
			struct ls_wait *o = &ws->w[(d - 1) & (LS_DEPTH - 1)];

			*lock = o->addr;
			*kind = o->kind;
			bump(&counters, LS_CTR_CHAIN_HOPS_OWN);
			return LS_CF_OWN;
		}
	}
	if (!bpf_core_field_exists(struct task_struct___blocker, blocker))
		return 0;
	b = BPF_CORE_READ((struct task_struct___blocker *)t, blocker);
	if (!(b & ~LS_BLOCKER_TYPE_MASK))
		return 0;
	*lock = b & ~LS_BLOCKER_TYPE_MASK;
	*kind = ls_blocker_kind(b);
	bump(&counters, LS_CTR_CHAIN_HOPS_BLOCKER);
	return LS_CF_BLOCKER;
}

/* The state of @lock's holder (in @task) as holders_begin reads it. */
static __always_inline __u32 ls_chain_holder_of(void *env, __u64 lock,
						__u32 kind, __u64 *task)
{
	__u64 word = 0;
	__u32 none;

	(void)env;
	if (owner_word(lock, kind, &word))
		return LS_HOLDER_UNKNOWN;
	*task = ls_owner_task(kind, word, &none);
	if (!*task)
		return none;
	return holder_state_of((struct task_struct *)*task);
}

/* A function of its own: its stack frame is not the begin program's. */
static __noinline void chains_walk(struct ls_wait *w, __u64 t)
{
	__u32 zero = 0;
	struct chain_seen *sc = bpf_map_lookup_elem(&chain_scratch, &zero);

	/* the reads are passed as constants: inlined, no indirect call */
	if (sc)
		ls_chain_walk(NULL, w, t, sc->seen, ls_chain_wait_of,
			      ls_chain_holder_of);
}

/* Wait @w begins behind holder @t, in state w->holder. */
static __always_inline void chains_begin(struct ls_wait *w,
					 struct task_struct *t)
{
	if (!chains_on || !ls_chain_follows(w->holder))
		return;
	bump(&counters, LS_CTR_CHAIN_WALKS);
	chains_walk(w, (__u64)t);
}

/* Wait @w ended after @dur ns: credit its chain. */
static __always_inline void chains_record(const struct ls_wait *w, __u64 dur)
{
	struct ls_chain_key k = {.addr = w->addr,
				 .next = w->chain_next,
				 .root = w->chain_root,
				 .kind = w->kind,
				 .kinds = w->chain_kinds};
	struct ls_chain_val init = {}, *v;
	__u32 st = w->chain_state;

	if (!w->chain_depth)
		return;
	v = bpf_map_lookup_elem(&lock_chains, &k);
	if (!v) {
		init.tid = w->chain_tid;
		bpf_map_update_elem(&lock_chains, &k, &init, BPF_NOEXIST);
		v = bpf_map_lookup_elem(&lock_chains, &k);
		if (!v) {
			bump(&losses, LS_LOSS_CHAIN_MAP_FULL);
			return;
		}
	}
	__sync_fetch_and_add(&v->waits, 1);
	__sync_fetch_and_add(&v->wait_ns, dur);
	if (st < LS_HOLDER_MAX)
		__sync_fetch_and_add(&v->root_waits[st], 1);
	if (w->chain_flags & LS_CF_CYCLE)
		__sync_fetch_and_add(&v->cycles, 1);
	if (w->chain_flags & LS_CF_CAPPED)
		__sync_fetch_and_add(&v->capped, 1);
	/* plain stores: a race loses a source bit or a tid for one read,
	 * never a count */
	if (w->chain_depth > v->max_depth)
		v->max_depth = w->chain_depth;
	v->flags |= w->chain_flags & (LS_CF_OWN | LS_CF_BLOCKER);
	v->tid = w->chain_tid;
}

#endif /* LS_CHAINS_BPF_H */
