// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * lockscope.bpf.c - in-kernel aggregation of lock contention.
 *
 * Sources:
 *   lock:contention_begin/end  tp_btf programs, raw_tp twins as fallback;
 *   cpu-clock sampler          perf_event program counting spin samples.
 *   function probes            fprobes.bpf.h, included at the end.
 *
 * In-flight waits live per task (sleeping locks may migrate) or per CPU
 * (spinning locks never sleep), each a small stack of LS_DEPTH for nesting.
 * The end programs run inside the critical section of spinlocks: no stack
 * walk and no map insert there, but for the holder side's sampled stacks
 * (holders.bpf.h: 2 of every stack_every successful ends of a lock).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "lockscope.h"
#include "decide.h"

char LICENSE[] SEC("license") = "Dual BSD/GPL";

/* Configuration, set by user space between open and load. */
const volatile __u32 targ_tgid = 0;		       /* 0: every process */
const volatile __u32 stack_every = LS_DEF_STACK_EVERY; /* 0: no stacks */
const volatile __u32 n_spin_ranges = 0;
const volatile struct ls_spin_range spin_ranges[LS_MAX_SPIN_RANGES] = {};
const volatile __u32 probes_on = 0; /* a slow-path probe is attached */
const volatile __u32 hold_on = 0;   /* --hold: fill hold_watch */

/* Interval number, bumped by user space: scopes peak_waiters. */
__u64 epoch = 0;
/* Set when an entry of lock_callers or holder_sites changed, cleared by
 * user space before it reads them: a read skips an unchanged map. */
__u32 callers_dirty = 0;
__u32 holders_dirty = 0;

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, LS_DEF_MAX_TASKS);
	__type(key, __u32);
	__type(value, struct ls_waits);
} task_state SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct ls_waits);
} cpu_state SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, LS_DEF_MAX_TASKS);
	__type(key, __u32);
	__type(value, struct ls_probe_task);
} probe_state SEC(".maps");

/* lock key -> its row in lock_rows (rows.bpf.h) */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, LS_DEF_MAX_LOCKS);
	__type(key, struct ls_lock_key);
	__type(value, __u32);
} lock_stats SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, LS_DEF_MAX_CALLERS);
	__type(key, struct ls_caller_key);
	__type(value, struct ls_caller_val);
} lock_callers SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_STACK_TRACE);
	__uint(max_entries, LS_DEF_MAX_STACKS);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, LS_STACK_DEPTH * sizeof(__u64));
} stacks SEC(".maps");

#include "shared_maps.bpf.h"

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, LS_SPIN_SLOTS);
	__type(key, __u32);
	__type(value, __u64);
} spin_samples SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, LS_DEF_MAX_CALLERS);
	__type(key, struct ls_spin_key);
	__type(value, __u64);
} spin_callers SEC(".maps");

/* mm_struct before 5.8 called its rwsem mmap_sem. */
struct mm_struct___old {
	struct rw_semaphore mmap_sem;
} __attribute__((preserve_access_index));

#include "common.bpf.h"
#include "rows.bpf.h"
#include "cgroup.bpf.h"
#include "budget.bpf.h"

/*
 * The entry of @key in the tid-keyed @map (task_state, probe_state), created
 * from @init when missing; NULL, counted as a loss, when the map is full.
 */
static __always_inline void *lookup_or_create(void *map, __u32 *key,
					      const void *init)
{
	void *v = bpf_map_lookup_elem(map, key);

	if (v)
		return v;
	if (!bpf_map_update_elem(map, key, init, BPF_NOEXIST))
		v = bpf_map_lookup_elem(map, key);
	if (!v)
		bump(&losses, LS_LOSS_TASK_MAP_FULL);
	return v;
}

static __always_inline __u32 known_lock(__u64 lock)
{
	struct task_struct *t = (struct task_struct *)bpf_get_current_task();
	struct mm_struct *mm = BPF_CORE_READ(t, mm);
	struct sighand_struct *sh;
	__u64 off;

	if (mm) {
		if (bpf_core_field_exists(mm->mmap_lock))
			off = bpf_core_field_offset(struct mm_struct,
						    mmap_lock);
		else
			off = bpf_core_field_offset(struct mm_struct___old,
						    mmap_sem);
		if (lock == (__u64)mm + off)
			return LS_KNOWN_MMAP_LOCK;
	}
	sh = BPF_CORE_READ(t, sighand);
	if (sh && lock == (__u64)sh + bpf_core_field_offset(
					      struct sighand_struct, siglock))
		return LS_KNOWN_SIGLOCK;
	return LS_KNOWN_NONE;
}

/*
 * Find or create the lock's row.  It may create: callers are
 * contention_begin and the function probes, never contention_end.  NULL
 * when lock_stats or lock_rows is full (the wait's end counts that loss).
 * @fresh (may be NULL): set when this call created the lock's row.
 */
static __always_inline struct ls_lock_stats *stats_get(struct ls_lock_key *k,
						       int *fresh)
{
	struct ls_lock_stats *s = stats_find(k);
	struct ls_lock_row *row;
	__u32 slot;

	if (s)
		return s;
	slot = slot_take();
	row = bpf_map_lookup_elem(&lock_rows, &slot);
	if (!row) {
		bump(&losses, LS_LOSS_ROWS_FULL);
		return NULL;
	}
	/* a zeroed row: only these fields start non-zero, set before the
	 * entry makes the row visible to other CPUs (a row left unused keeps
	 * them until its next taker sets them again) */
	row->st.min_ns = ~0ULL;
	row->st.peak_epoch = epoch;
	row->st.known = known_lock(k->addr);
	row->st.slot = slot;
	row->key.kind = k->kind;
	if (bpf_map_update_elem(&lock_stats, k, &slot, BPF_NOEXIST)) {
		slot_give(slot); /* lost a race, or full */
	} else {
		/* last: user space reads the rows that have an address (a
		 * compiler barrier: BPF has no store-release before 6.x's
		 * load-acquire/store-release instructions; x86 keeps stores in
		 * order) */
		asm volatile("" ::: "memory");
		*(volatile __u64 *)&row->key.addr = k->addr;
		if (fresh)
			*fresh = 1;
	}
	if (hold_on) /* full: its holds go unmeasured, as without --hold */
		bpf_map_update_elem(&hold_watch, &k->addr, &k->kind,
				    BPF_NOEXIST);
	return stats_find(k);
}

#include "ident.bpf.h"
#include "vcpu.bpf.h"
#include "holders.bpf.h"
#include "whatif.bpf.h"

static __always_inline void add_waiter(struct ls_lock_stats *s)
{
	__u64 w = add_fetch(&s->waiters, 1);
	__u64 ep = epoch;

	if ((__s64)w <= 0)
		return;
	if (s->peak_epoch != ep) {
		/* First wait of a new interval: racing CPUs settle below. */
		s->peak_epoch = ep;
		s->peak_waiters = w;
	} else {
		atomic_max(&s->peak_waiters, w);
	}
	atomic_max(&s->peak_waiters_all, w);
}

/* Returns the sampled stack's reference for the wait (id + 1), 0 if none. */
static __always_inline __u32 sample_caller(void *ctx, struct ls_lock_key *k,
					   __u64 nth)
{
	struct ls_caller_val one = {.count = 1};
	struct ls_caller_key ck;
	struct ls_caller_val *cv;
	long id;

	/* The first contention (it names the lock), then every Nth: a stack
	 * walk costs about 5 us in a guest, far too much for every event. */
	if (!stack_every || nth % stack_every)
		return 0;
	id = bpf_get_stackid(ctx, &stacks, BPF_F_FAST_STACK_CMP);
	if (id < 0) {
		bump(&losses, LS_LOSS_STACK);
		return 0;
	}
	bump(&counters, LS_CTR_STACKS);
	ck.addr = k->addr;
	ck.kind = k->kind;
	ck.stack_id = id;
	cv = bpf_map_lookup_elem(&lock_callers, &ck);
	if (cv) {
		__sync_fetch_and_add(&cv->count, 1);
	} else if (bpf_map_update_elem(&lock_callers, &ck, &one, BPF_NOEXIST)) {
		bump(&losses, LS_LOSS_CALLER_MAP_FULL);
		return 0;
	}
	mark_dirty(&callers_dirty);
	return (__u32)id + 1;
}

/*
 * The holder stack of a spinlock wait, taken at its begin (id + 1; 0 if
 * none): on the begins whose ends the holder side samples (2 of every
 * stack_every), reusing the caller stack @ref when this begin took one.
 * A spinlock's contention_end runs inside queued_spin_lock_slowpath with
 * the lock held, and that lock may be a BPF map's own (a stack map's free
 * list, before 6.15's resilient locks): a stack walk there could take it
 * again and never return.  The waiter's stack at begin is the same call
 * chain as the new holder's at end.
 */
static __always_inline __u32 spin_holder_stack(void *ctx, __u64 nth, __u32 ref)
{
	long id;

	if (!stack_every || nth % stack_every >= 2)
		return 0;
	if (ref)
		return ref;
	id = bpf_get_stackid(ctx, &stacks, BPF_F_FAST_STACK_CMP);
	if (id < 0) {
		bump(&losses, LS_LOSS_STACK);
		return 0;
	}
	return (__u32)id + 1;
}

/*
 * A mutex's optimistic spin runs with preemption off, from begin(MUTEX|SPIN)
 * to its end or to the begin(MUTEX) that precedes sleeping: its wait lives
 * per CPU like a spinlock's, which spares the task hash an insert and a
 * delete per contention (most spins win).  Only a wait that goes to sleep
 * moves to the task.  A first waiter spins again after wake-up while its
 * sleeping wait is open: that begin stays with the task's wait.
 */
static __always_inline int task_waits_on(__u32 tid, __u64 lock)
{
	struct ls_waits *ws = bpf_map_lookup_elem(&task_state, &tid);
	__u32 d;

	if (!ws)
		return 0;
	d = ws->depth;
	return d > 0 && d <= LS_DEPTH &&
	       ws->w[(d - 1) & (LS_DEPTH - 1)].addr == lock;
}

/* A wait dropped without its end: it no longer waits. */
static __always_inline void drop_waiter(struct ls_wait *w)
{
	struct ls_lock_stats *s = wait_stats(w);

	if (s)
		__sync_fetch_and_add(&s->waiters, -1);
}

/*
 * Per-CPU waits belong to the task running on that CPU: spinning never
 * sleeps, and a mutex spins with preemption off.  But a mutex spinner that
 * gives up with need_resched() set calls schedule() (mutex_optimistic_spin)
 * before its next begin, and an end can be missed (a recursion miss): a
 * record of another task at the top of the stack was left behind.  Drop
 * it, as a wait begun but not ended, before this task uses the stack.
 */
static __always_inline void clean_stale(struct ls_waits *ws, __u32 tid)
{
	__u32 d = ws->depth, n = 0;

	if (d > LS_DEPTH) {
		if (ws->w[LS_DEPTH - 1].tid == tid)
			return; /* this task's own nesting overflow */
		d = LS_DEPTH;	/* someone else's: counted at their begins */
	}
	for (int i = 0; i < LS_DEPTH; i++) {
		struct ls_wait *w;

		if (d == 0)
			break;
		w = &ws->w[(d - 1) & (LS_DEPTH - 1)];
		if (w->tid == tid)
			break;
		drop_waiter(w);
		d--;
		n++;
	}
	if (n) {
		__u32 idx = LS_LOSS_ORPHANED;
		__u64 *v = bpf_map_lookup_elem(&losses, &idx);

		if (v)
			*v += n;
	}
	ws->depth = d;
}

static __always_inline int spun_here(struct ls_waits *cs, __u64 lock, __u32 tid)
{
	__u32 d = cs->depth;
	struct ls_wait *top;

	if (d == 0 || d > LS_DEPTH)
		return 0;
	top = &cs->w[(d - 1) & (LS_DEPTH - 1)];
	return top->addr == lock && top->tid == tid &&
	       top->kind == LS_KIND_MUTEX && top->phase == LS_PHASE_SPIN;
}

/* A timed wait's spin phase of @dt ns, weighted @wt, into @s. */
static __always_inline void spin_failed_time(struct ls_lock_stats *s, __u64 dt,
					     __u32 wt)
{
	struct ls_lock_hists *h = hists_of(s);

	__sync_fetch_and_add(&s->spin_ns, dt * wt);
	if (h)
		__sync_fetch_and_add(&h->hist_spin[log2_slot(dt)], wt);
	if (budget_ppm)
		__sync_fetch_and_add(&s->var_spin, ls_est_var_term(dt, wt));
}

/*
 * A mutex's second begin: its spin failed and it goes to sleep.  Add the
 * spin phase to the lock's stats (its time only if the wait is timed,
 * weighted) and open the sleep phase of @w.  Returns the lock's stats
 * (NULL if it has none).
 */
static __always_inline struct ls_lock_stats *spin_failed(struct ls_wait *w,
							 __u64 *now)
{
	struct ls_lock_stats *s = wait_stats(w);
	__u64 from = w->phase_ns;
	__u32 wt = w->weight;

	w->phase = LS_PHASE_SLEEP;
	w->phase_ns = wt ? clock_of(now) : 0;
	if (s) {
		__sync_fetch_and_add(&s->spin_failed, 1);
		if (wt)
			spin_failed_time(s, *now - from, wt);
	}
	return s;
}

/* An empty wait stack, the value a task's entry starts from: an array
 * entry, not the begin program's stack (it has no room for one). */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct ls_waits);
} empty_waits SEC(".maps");

/* The wait stack of task @id (pid_tgid), created empty on first use. */
static __always_inline struct ls_waits *task_waits(__u64 id)
{
	__u32 tid = (__u32)id, zero = 0;
	struct ls_waits *init = bpf_map_lookup_elem(&empty_waits, &zero), *ws;

	if (!init)
		return NULL;
	ws = lookup_or_create(&task_state, &tid, init);
	if (ws)
		ws->tgid = id >> 32;
	return ws;
}

/* The spin failed: close the spin phase, move the wait to the task.
 * Returns 1 if the wait is timed (a sampled one under a budget). */
static __always_inline int spin_to_sleep(struct ls_waits *cs, __u64 id,
					 __u64 *now)
{
	__u32 d = cs->depth;
	struct ls_wait w = cs->w[(d - 1) & (LS_DEPTH - 1)];
	struct ls_lock_stats *s;
	struct ls_waits *ws;

	bump(&counters, LS_CTR_PHASE);
	cs->depth = d - 1;
	s = spin_failed(&w, now);
	ws = task_waits(id);
	if (!ws)
		goto undo; /* counted as a loss */
	d = ws->depth;
	if (d >= LS_DEPTH) {
		ws->depth = d + 1;
		bump(&losses, LS_LOSS_DEPTH);
		goto undo;
	}
	ws->w[d & (LS_DEPTH - 1)] = w;
	ws->depth = d + 1;
	return w.weight != 0;
undo:
	if (s) /* the wait leaves the gauge: its end will not be seen */
		__sync_fetch_and_add(&s->waiters, -1);
	return w.weight != 0;
}

/*
 * contention_begin of @lock with the tracepoint's @flags: open a wait.
 *
 * Spinning waits (spinlocks, rwlocks, a mutex's first begin while it spins)
 * go on this CPU's stack in cpu_state; sleeping ones on the task's stack in
 * task_state, created here.  A mutex's second begin (same task, same lock)
 * closes the spin phase and opens the sleep phase: no second contention and
 * no second waiter.  A new lock counts a contention begun, a waiter, and
 * every stack_every-th begin a caller stack.  Each drop is a counted loss.
 * Under a budget, a new wait is timed only if sampled: @cand, its weight
 * drawn at entry (0: untimed; 1 without a budget), whose clock was read
 * at entry too, so a timed wait starts where an exact one does.  An
 * untimed wait reads no clock, no holder, no stack.  @now: the clock at
 * entry, 0 if not read yet.  Returns 1 if the wait is timed.
 */
static __always_inline int begin_wait(void *ctx, __u64 id, __u64 lock,
				      __u32 flags, int btf, __u64 now,
				      __u32 cand)
{
	__u32 tid = (__u32)id, zero = 0, kind, d, ref = 0, hstack = 0, wt;
	struct ls_lock_key key = {};
	struct ls_lock_stats *s;
	struct ls_waits *ws;
	struct ls_wait *top;
	int fresh = 0;

	kind = ls_kind_of_flags(flags);

	if (kind == LS_KIND_MUTEX && !(flags & LS_LCB_SPIN)) {
		ws = bpf_map_lookup_elem(&cpu_state, &zero);
		if (ws) {
			clean_stale(ws, tid);
			if (spun_here(ws, lock, tid))
				return spin_to_sleep(ws, id, &now);
		}
	}
	if (LS_KIND_IS_SPINNING(kind) ||
	    (kind == LS_KIND_MUTEX && (flags & LS_LCB_SPIN) &&
	     !task_waits_on(tid, lock))) {
		ws = bpf_map_lookup_elem(&cpu_state, &zero);
		if (ws)
			clean_stale(ws, tid);
	} else {
		ws = task_waits(id);
	}
	if (!ws)
		return 0;

	d = ws->depth;
	if (d > LS_DEPTH) {
		ws->depth = d + 1;
		bump(&losses, LS_LOSS_DEPTH);
		return 0;
	}
	if (d > 0) {
		top = &ws->w[(d - 1) & (LS_DEPTH - 1)];
		if (top->addr == lock && LS_KIND_IS_SPINNING(top->kind)) {
			/* A spinner cannot begin twice: the end of the open
			 * wait was missed.  Drop it and start this one. */
			bump(&losses, LS_LOSS_ORPHANED);
			wt = top->weight;
			top->start_ns = wt ? clock_of(&now) : 0;
			top->phase_ns = top->start_ns;
			top->stack_ref = 0; /* this wait was not sampled */
			top->hstack = 0;
			return wt != 0;
		}
		if (top->addr == lock) {
			/* Same task, same lock: a mutex going from spin to
			 * sleep. */
			bump(&counters, LS_CTR_PHASE);
			if (top->phase == LS_PHASE_SPIN)
				spin_failed(top, &now);
			return top->weight != 0;
		}
	}
	if (d == LS_DEPTH) {
		ws->depth = d + 1;
		bump(&losses, LS_LOSS_DEPTH);
		return 0;
	}
	whatif_at(lock, kind, LS_WIF_CONTROL); /* a wait's first begin */

	key.addr = lock;
	key.kind = kind;
	wt = cand;
	s = stats_get(&key, &fresh);
	if (s) {
		__u64 nth = begin_nth(&s->begins, fresh);

		add_waiter(s);
		cgroup_begin(&key);
		/* the first contention's stack names the lock, timed or not */
		if (wt || !nth)
			ref = sample_caller(ctx, &key, nth);
		if (kind == LS_KIND_SPINLOCK && wt)
			hstack = spin_holder_stack(ctx, nth, ref);
		if (!nth) /* a new lock: what is it? (once) */
			ident_resolve(&key, btf);
		/* the stack walks and the name are ours, not the wait */
		if (wt && (ref || hstack || !nth))
			now = bpf_ktime_get_ns();
	}

	/* Keep the mask in the code: the compiler knows d < LS_DEPTH here,
	 * older verifiers (6.1) cannot learn it from d != LS_DEPTH. */
	barrier_var(d);
	top = &ws->w[d & (LS_DEPTH - 1)];
	/* an untimed wait keeps no holder state: every field starts zero */
	*top = (struct ls_wait){};
	top->addr = lock;
	top->tid = tid;
	top->stack_ref = ref;
	top->hstack = hstack;
	top->kind = kind;
	top->weight = wt;
	top->row = s ? s->slot + 1 : 0;
	top->phase = (flags & LS_LCB_SPIN) || LS_KIND_IS_SPINNING(kind)
			     ? LS_PHASE_SPIN
			     : LS_PHASE_SLEEP;
	if (wt) {
		top->start_ns = clock_of(&now);
		top->phase_ns = now;
		holders_begin(top, s);
	}
	ws->depth = d + 1;
	return wt != 0;
}

static __always_inline int on_begin(void *ctx, __u64 lock, __u32 flags, int btf)
{
	__u64 id = bpf_get_current_pid_tgid(), t0, tp;
	struct ls_budget_cpu *b;
	__u32 cand;
	int timed;

	if (targ_tgid && (id >> 32) != targ_tgid)
		return 0;
	if (cgroup_skip())
		return 0;
	bump(&counters, LS_CTR_BEGIN);
	if (!budget_ppm) {
		begin_wait(ctx, id, lock, flags, btf, bpf_ktime_get_ns(), 1);
		return 0;
	}
	b = budget_get();
	tp = budget_run_start(b);
	/* drawn for every begin, used by new waits only: each new wait's
	 * draw is still its own, with probability 1/N */
	cand = budget_weight(b);
	t0 = tp || !cand ? tp : bpf_ktime_get_ns();
	timed = begin_wait(ctx, id, lock, flags, btf, t0, cand);
	budget_run_end(b, tp, timed);
	return 0;
}

/*
 * Pop the wait of task @tid on @lock from @ws, with any waits above it
 * (their ends were missed: counted as orphaned, taken off their gauges).
 * Returns 1 with @out filled; 0 when @ws holds no such wait; -1 when the
 * innermost wait was never recorded (nesting overflow, counted at begin).
 */
static __always_inline int pop_wait(struct ls_waits *ws, __u64 lock, __u32 tid,
				    struct ls_wait *out)
{
	__u32 d = ws->depth;

	if (d > LS_DEPTH) {
		/* Innermost waits were never recorded (counted at begin). */
		ws->depth = d - 1;
		return -1;
	}
	for (int i = LS_DEPTH - 1; i >= 0; i--) {
		if ((__u32)i >= d)
			continue;
		if (ws->w[i].addr != lock || ws->w[i].tid != tid)
			continue;
		*out = ws->w[i];
		if ((__u32)i + 1 < d) {
			/* Ends of the waits above this one were missed. */
			__u32 idx = LS_LOSS_ORPHANED;
			__u64 *v = bpf_map_lookup_elem(&losses, &idx);

			if (v)
				*v += d - (i + 1);
			/* ... and they leave their locks' waiters gauges */
			for (int j = LS_DEPTH - 1; j > 0; j--)
				if (j > i && (__u32)j < d)
					drop_waiter(&ws->w[j]);
		}
		ws->depth = i;
		return 1;
	}
	return 0;
}

#include "caller_wait.bpf.h"

/*
 * Wait @w ended at @now: add it to its lock's row.  Counts are exact; the
 * times, histograms and holder states of a timed wait are added weighted
 * (1 without a budget), an untimed one (weight 0) adds none of them.
 */
static __always_inline void record(void *ctx, struct ls_wait *w, __u64 now,
				   long ret, __u32 tid)
{
	struct ls_lock_stats *s = wait_stats(w);
	__u64 dur = now - w->start_ns, dp = now - w->phase_ns, wt = w->weight;
	struct ls_lock_hists *h;

	if (!s) {
		bump(&losses, LS_LOSS_LOCK_MAP_FULL);
		return;
	}
	__sync_fetch_and_add(&s->waiters, -1);
	__sync_fetch_and_add(&s->contentions, 1);
	if (ret < 0)
		__sync_fetch_and_add(&s->gave_up, 1);
	if (w->phase == LS_PHASE_SPIN && w->kind == LS_KIND_MUTEX && ret >= 0)
		__sync_fetch_and_add(&s->spin_won, 1);
	bump(&counters, LS_CTR_RECORDED);
	if (!wt)
		return;
	h = hists_of(s);
	__sync_fetch_and_add(&s->total_ns, dur * wt);
	if (h)
		__sync_fetch_and_add(&h->hist[log2_slot(dur)], wt);
	if (w->phase == LS_PHASE_SPIN) {
		__sync_fetch_and_add(&s->spin_ns, dp * wt);
		if (h)
			__sync_fetch_and_add(&h->hist_spin[log2_slot(dp)], wt);
	} else {
		__sync_fetch_and_add(&s->sleep_ns, dp * wt);
		if (h)
			__sync_fetch_and_add(&h->hist_sleep[log2_slot(dp)], wt);
	}
	if (budget_ppm)
		record_estimate(s, w, dur, dp);
	atomic_max(&s->max_ns, dur);
	atomic_min(&s->min_ns, dur);
	holders_record(ctx, s, w, now, dur, ret, tid);
	cgroup_end(w, dur);
	credit_caller_wait(w, dur * wt);
}

/* A tracepoint wait inside a probed slow-path call of the same lock: its
 * time is already counted, remember it so the slow path counts the rest. */
static __always_inline void credit_slow_path(__u32 tid, struct ls_wait *w,
					     __u64 now)
{
	struct ls_probe_task *pt = bpf_map_lookup_elem(&probe_state, &tid);

	if (pt && pt->slow_lock == w->addr)
		pt->slow_tp_ns += now - w->start_ns;
}

/*
 * contention_end of @lock, @ret < 0 when the waiter gave up: close the wait.
 *
 * The wait is looked for on this CPU's stack (spinning waits, a mutex spin
 * that won), then on the task's stack, whose entry goes when it empties.
 * The whole wait and its open phase are added to the lock's stats, and the
 * holder side's (holders.bpf.h).  This runs inside a spinlock's critical
 * section: lookups and atomics only, but for the holder's sampled stack.
 * An end without a seen begin is a counted loss.  @now: the clock at
 * entry, 0 if not read (read here only for a timed wait).  Returns 1 if
 * the wait was timed.
 */
static __always_inline int end_wait(void *ctx, __u64 id, __u64 lock, long ret,
				    __u64 now)
{
	__u32 tid = (__u32)id, zero = 0;
	struct ls_waits *ws;
	struct ls_wait w;
	int found;

	ws = bpf_map_lookup_elem(&cpu_state, &zero);
	if (ws && !now)
		now = timed_top(ws, lock);
	if (ws)
		clean_stale(ws, tid);
	found = ws ? pop_wait(ws, lock, tid, &w) : 0;
	if (found > 0 && w.weight) /* as near the event as the pop allows */
		clock_of(&now);
	if (!found) {
		ws = bpf_map_lookup_elem(&task_state, &tid);
		if (!ws) {
			bump(&losses, LS_LOSS_END_UNMATCHED);
			return 0;
		}
		found = pop_wait(ws, lock, tid, &w);
		if (found > 0 && w.weight)
			clock_of(&now);
		/* Only an end that popped a wait may free the entry: an
		 * unmatched end from an interrupt must not delete it under a
		 * begin of the interrupted task that just made it. */
		if (found && ws->depth == 0)
			bpf_map_delete_elem(&task_state, &tid);
	}
	if (found < 0)
		return 0;
	if (!found) {
		bump(&losses, LS_LOSS_END_UNMATCHED);
		return 0;
	}
	if (probes_on && w.weight) /* a mutex's won spin ends in cpu_state */
		credit_slow_path(tid, &w, now);
	record(ctx, &w, now, ret, tid);
	if (ret >= 0) /* taken: the critical section starts */
		whatif_at(w.addr, w.kind, LS_WIF_CRITICAL);
	return w.weight != 0;
}

static __always_inline int on_end(void *ctx, __u64 lock, long ret)
{
	__u64 id = bpf_get_current_pid_tgid(), t0;
	struct ls_budget_cpu *b;
	int timed;

	if (targ_tgid && (id >> 32) != targ_tgid)
		return 0;
	if (cgroup_skip())
		return 0;
	bump(&counters, LS_CTR_END);
	if (!budget_ppm) {
		end_wait(ctx, id, lock, ret, bpf_ktime_get_ns());
		return 0;
	}
	b = budget_get();
	t0 = budget_run_start(b);
	timed = end_wait(ctx, id, lock, ret, t0);
	budget_run_end(b, t0, timed);
	return 0;
}

SEC("tp_btf/contention_begin")
int BPF_PROG(begin_btf, void *lock, unsigned int flags)
{
	return on_begin(ctx, (__u64)lock, flags, 1);
}

SEC("tp_btf/contention_end")
int BPF_PROG(end_btf, void *lock, int ret)
{
	return on_end(ctx, (__u64)lock, ret);
}

SEC("raw_tp/contention_begin")
int BPF_PROG(begin_raw, void *lock, unsigned int flags)
{
	return on_begin(ctx, (__u64)lock, flags, 0);
}

SEC("raw_tp/contention_end")
int BPF_PROG(end_raw, void *lock, int ret)
{
	return on_end(ctx, (__u64)lock, ret);
}

SEC("perf_event")
int cpu_sample(struct bpf_perf_event_data *ctx)
{
	__u64 ip = PT_REGS_IP(&ctx->regs);
	__u32 func = LS_SPIN_FUNC_OTHER;
	struct ls_spin_key sk;
	__u64 one = 1, *cnt;
	long id;

	bump(&counters, LS_CTR_SAMPLES);
	if ((__s64)ip >= 0) {
		bump(&spin_samples, LS_SPIN_FUNC_USER);
		return 0;
	}
	bump(&counters, LS_CTR_SAMPLES_KERNEL);
	for (__u32 i = 0; i < LS_MAX_SPIN_RANGES; i++) {
		if (i >= n_spin_ranges)
			break;
		if (ip >= spin_ranges[i].start && ip < spin_ranges[i].end) {
			func = spin_ranges[i].func;
			break;
		}
	}
	if (func >= LS_MAX_SPIN_RANGES) {
		bump(&spin_samples, LS_SPIN_FUNC_OTHER);
		return 0;
	}
	bump(&spin_samples, func);
	bump(&counters, LS_CTR_SAMPLES_SPIN);
	id = bpf_get_stackid(ctx, &stacks, 0);
	if (id < 0) {
		bump(&losses, LS_LOSS_STACK);
		return 0;
	}
	sk.func = func;
	sk.stack_id = id;
	cnt = bpf_map_lookup_elem(&spin_callers, &sk);
	if (cnt)
		__sync_fetch_and_add(cnt, 1);
	else if (bpf_map_update_elem(&spin_callers, &sk, &one, BPF_NOEXIST))
		bump(&losses, LS_LOSS_SAMPLE_MAP_FULL);
	return 0;
}

#include "fprobes.bpf.h"
