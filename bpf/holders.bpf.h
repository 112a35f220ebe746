/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * holders.bpf.h - the holder side of contention, included by lockscope.bpf.c
 * (it uses that file's maps and helpers: stacks, counters, losses, bump,
 * log2_slot, stack_every).
 *
 *   holders_begin    at a wait's first begin: the owner word of a mutex,
 *                    rwsem or rt_mutex, and the state of the task it names
 *                    (running, preempted, sleeping), kept in the wait;
 *   holders_record   at its end: the wait counted under that state; on a
 *                    successful end, the previous contended holder's tenure
 *                    (its end to this one) credited to its sampled stack;
 *   holders_untraced a writer spin only a slow-path probe saw: unknown.
 *
 * Reads of the owner and its task (holder_read.bpf.h) are fault-safe CO-RE
 * reads: the owner may exit between the two.  Where bpf_rdonly_cast() exists
 * (6.2+) they are plain loads the JIT makes fault-safe, a fault reading 0 (a
 * task freed under the read then counts as sleeping, a freed lock as free);
 * else bpf_probe_read_kernel(), on_cpu and on_rq in one call.  The end runs
 * inside spinlock critical sections: lookups, atomics only where ends can
 * run at once (shared kinds), a stack only on 2 of every stack_every
 * successful ends of a lock (the holder, then the waiter that follows it:
 * a pair), a map insert only for a new sampled (holder, waiter, tid).
 *
 * A spinlock's end holds the lock it just took, which may be a BPF map's
 * own raw spinlock (a preallocated map's free list, before 6.15's
 * resilient locks): taking it again would never return.  So its holder
 * stack comes from the wait's begin (spin_holder_stack), and its
 * holder_sites insert needs a map without a free list (bpf_mem_alloc,
 * 6.1+: user space then creates holder_sites unpreallocated and sets
 * spin_end_insert); without one its sampled tenure counts as unsampled.
 */
#ifndef LS_HOLDERS_BPF_H
#define LS_HOLDERS_BPF_H

/* holder_sites inserts are safe at a spinlock's end (see above) */
const volatile __u32 spin_end_insert = 0;

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, LS_DEF_MAX_CALLERS); /* --max-callers */
	__type(key, struct ls_holder_key);
	__type(value, struct ls_holder_val);
} holder_sites SEC(".maps");

#include "holder_read.bpf.h"
#include "chains.bpf.h"

/* A wait @w opens on a lock with stats @s (NULL if none): note its holder. */
static __always_inline void holders_begin(struct ls_wait *w,
					  struct ls_lock_stats *s)
{
	struct task_struct *t;
	__u64 word = 0;
	__u32 none;

	w->holder = LS_HOLDER_UNKNOWN;
	w->hflags = 0;
	w->chain_depth = 0;
	if (owner_word(w->addr, w->kind, &word))
		return;
	w->hflags = LS_HF_OWNER_READ;
	t = (struct task_struct *)ls_owner_task(w->kind, word, &none);
	if (!t) {
		w->holder = none; /* free, or a reader's hint: unknown */
		return;
	}
	if (s && (__u64)t == s->holder_task)
		w->hflags |= LS_HF_OWNER_READ | LS_HF_SAME_HOLDER;
	w->holder = vcpu_split(t, holder_state_of(t));
	chains_begin(w, t);
	cgroup_holder(w, t);
}

/* Credit tenure @t of the holder with stack @site and @tid, followed by a
 * waiter with stack @wsite, to holder_sites (unsampled if it is full). */
static __always_inline void credit_site(struct ls_lock_stats *s,
					struct ls_wait *w, __s32 site,
					__s32 wsite, __u32 tid, __u64 t)
{
	struct ls_holder_key hk = {.addr = w->addr,
				   .kind = w->kind,
				   .holder_site = site,
				   .waiter_site = wsite,
				   .holder_tid = tid};
	struct ls_holder_val init = {.tenure_ns = t, .count = 1}, *v;

	v = bpf_map_lookup_elem(&holder_sites, &hk);
	if (!v && w->kind == LS_KIND_SPINLOCK && !spin_end_insert) {
		__sync_fetch_and_add(&s->tenure_unsampled_ns, t);
		return;
	}
	if (!v) {
		if (!bpf_map_update_elem(&holder_sites, &hk, &init,
					 BPF_NOEXIST)) {
			mark_dirty(&holders_dirty);
			return;
		}
		v = bpf_map_lookup_elem(&holder_sites, &hk); /* lost a race */
	}
	if (v) {
		__sync_fetch_and_add(&v->tenure_ns, t);
		__sync_fetch_and_add(&v->count, 1);
		mark_dirty(&holders_dirty);
		return;
	}
	bump(&losses, LS_LOSS_HOLDER_MAP_FULL);
	__sync_fetch_and_add(&s->tenure_unsampled_ns, t);
}

/*
 * Task @tid took the lock at @now after wait @w: it becomes the holder.
 * The previous holder's tenure runs from its own end (or from this wait's
 * start, if later: only time with a waiter counts) to now.
 */
/*
 * Successful ends of an exclusive lock run one at a time, under the lock
 * they just took: the handoff fields need no atomics there (they cost more
 * than the rest of the holder side).  Shared kinds (readers) use them.
 */
#define LS_KIND_EXCLUSIVE(k)                                                   \
	((k) == LS_KIND_SPINLOCK || (k) == LS_KIND_RWLOCK_W ||                 \
	 (k) == LS_KIND_MUTEX || (k) == LS_KIND_RWSEM_W ||                     \
	 (k) == LS_KIND_RT_MUTEX || (k) == LS_KIND_RTLOCK_W ||                 \
	 (k) == LS_KIND_PCPU_RWSEM_W)

static __always_inline void add_u64(__u64 *p, __u64 v, int excl)
{
	if (excl)
		*p += v;
	else
		__sync_fetch_and_add(p, v);
}

static __always_inline void holders_handoff(void *ctx, struct ls_lock_stats *s,
					    struct ls_wait *w, __u64 now,
					    __u32 tid)
{
	int excl = LS_KIND_EXCLUSIVE(w->kind);
	__u64 prev;
	__s32 prev_site = s->holder_site, site = LS_SITE_UNSAMPLED;
	__u32 prev_tid = s->holder_tid;
	__u64 nth = s->holder_ends++, from, t;
	struct ls_lock_hists *h;

	if (excl) {
		prev = s->handoff_ns;
		s->handoff_ns = now;
	} else {
#ifdef LS_NO_FETCH_ATOMICS
		/* No exchange (before 5.12): racing ends of a shared lock
		 * could read one previous end and count its tenure twice.
		 * Shared kinds' tenure is not measured. */
		s->handoff_ns = now;
		prev = 0;
#else
		prev = __sync_lock_test_and_set(&s->handoff_ns, now);
#endif
	}

	if (w->kind == LS_KIND_SPINLOCK) {
		/* taken at its begin (spin_holder_stack) */
		if (w->hstack) {
			site = (__s32)(w->hstack - 1);
			bump(&counters, LS_CTR_HOLDER_STACKS);
		}
	} else if (stack_every && nth % stack_every < 2) {
		long id = bpf_get_stackid(ctx, &stacks, BPF_F_FAST_STACK_CMP);

		if (id < 0) {
			bump(&losses, LS_LOSS_STACK);
		} else {
			site = id;
			bump(&counters, LS_CTR_HOLDER_STACKS);
		}
	}
	s->holder_site = site;
	s->holder_tid = tid;
	s->holder_task = bpf_get_current_task();
	if (!prev)
		return;
	from = w->start_ns > prev ? w->start_ns : prev;
	if (now <= from)
		return;
	t = now - from;
	add_u64(&s->tenure_ns, t, excl);
	h = hists_of(s);
	if (h)
		add_u64(&h->hist_tenure[log2_slot(t)], 1, excl);
	if (w->start_ns > prev && !(w->hflags & LS_HF_SAME_HOLDER))
		add_u64(&s->tenure_unseen_ns, t, excl);
	else if (prev_site < 0)
		add_u64(&s->tenure_unsampled_ns, t, excl);
	else
		credit_site(s, w, prev_site, site, prev_tid, t);
}

/*
 * Wait @w of task @tid ended at @now after @dur ns (@ret < 0: gave up),
 * weighted w->weight.  Under a budget only timed waits get here: tenure,
 * which needs every successful end, is not measured then.
 */
static __always_inline void holders_record(void *ctx, struct ls_lock_stats *s,
					   struct ls_wait *w, __u64 now,
					   __u64 dur, long ret, __u32 tid)
{
	__u32 h = w->holder;
	__u64 wt = w->weight;

	if (h < LS_HOLDER_MAX) {
		__sync_fetch_and_add(&s->holder_waits[h], wt);
		__sync_fetch_and_add(&s->holder_ns[h], dur * wt);
	}
	chains_record(w, dur);
	if (ret >= 0 && !budget_ppm)
		holders_handoff(ctx, s, w, now, tid);
}

/* A slow-path probe added @spin ns of writer spin to the wait time (and a
 * whole contention when @whole): its holder was not looked at. */
static __always_inline void holders_untraced(struct ls_lock_stats *s,
					     __u64 spin, int whole)
{
	__sync_fetch_and_add(&s->holder_ns[LS_HOLDER_UNKNOWN], spin);
	if (whole)
		__sync_fetch_and_add(&s->holder_waits[LS_HOLDER_UNKNOWN], 1);
}

#endif /* LS_HOLDERS_BPF_H */
