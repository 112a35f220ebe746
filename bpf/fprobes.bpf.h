/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * fprobes.bpf.h - the function probes (osq_lock, the mutex and rwsem slow
 * paths), included once by lockscope.bpf.c after its maps and helpers.
 */
/* ---- function probes: osq_lock, __mutex_lock, rwsem_down_*_slowpath ---- */
#include "osq.bpf.h"

/* Offset of the osq inside the outer lock of @kind; ~0 if it has none. */
static __always_inline __u64 osq_offset(__u32 kind)
{
	if (kind == LS_KIND_MUTEX) {
		if (bpf_core_field_exists(struct mutex, osq))
			return bpf_core_field_offset(struct mutex, osq);
	} else if (kind == LS_KIND_RWSEM_W || kind == LS_KIND_RWSEM_R) {
		if (bpf_core_field_exists(struct rw_semaphore, osq))
			return bpf_core_field_offset(struct rw_semaphore, osq);
	}
	return ~0ULL;
}

/* The open function-probe calls of task @tid, created empty on first use. */
static __always_inline struct ls_probe_task *ptask(__u32 tid)
{
	struct ls_probe_task init = {};

	return lookup_or_create(&probe_state, &tid, &init);
}

/*
 * Probe-only rows (probe_rows, set when the tracepoints are off): each
 * slow-path call is one contention, as each __mutex_lock call is one
 * begin/end pair of the tracepoints.  Spin is entry to the task's first
 * sleep (sched_switch away in a sleeping state), sleep the rest; a mutex
 * call that never slept won its spin.
 */
const volatile __u32 probe_rows = 0;
const volatile __u32 ret_kind[LS_TGT_MAX] = {}; /* enum ls_ret_kind */

/* task_struct's state field before 5.14 */
struct task_struct___old {
	long state;
} __attribute__((preserve_access_index));

/* Did the waiter give up, by return value @ret of kind @k? */
static __always_inline int gave_up(__u32 k, long ret)
{
	if (k == LS_RET_INT)
		return (int)ret < 0;
	if (k == LS_RET_ERRPTR)
		return (__u64)ret >= (__u64)-4095;
	return 0;
}

/* A slow-path call begins: a contention begun, a waiter, maybe a caller. */
static __always_inline void row_begin(void *ctx, __u64 lock, __u32 kind)
{
	struct ls_lock_key key = {.addr = lock, .kind = kind};
	struct ls_lock_stats *s;
	int fresh = 0;

	bump(&counters, LS_CTR_BEGIN);
	s = stats_get(&key, &fresh);
	if (s) {
		__u64 nth = begin_nth(&s->begins, fresh);

		add_waiter(s);
		sample_caller(ctx, &key, nth);
	}
}

/* A slow-path call returns: the whole wait into the lock's row. */
static __always_inline void row_end(struct ls_lock_stats *s,
				    struct ls_probe_task *pt, __u32 rk,
				    __u64 now, long ret)
{
	__u64 dur = now - pt->slow_start, spin = dur, sleep = 0;
	struct ls_lock_hists *h = hists_of(s);
	int gone = gave_up(rk, ret);

	if (pt->sleep_start >= pt->slow_start && pt->sleep_start <= now) {
		spin = pt->sleep_start - pt->slow_start;
		sleep = now - pt->sleep_start;
	}
	bump(&counters, LS_CTR_END);
	__sync_fetch_and_add(&s->waiters, -1);
	__sync_fetch_and_add(&s->contentions, 1);
	__sync_fetch_and_add(&s->total_ns, dur);
	if (h)
		__sync_fetch_and_add(&h->hist[log2_slot(dur)], 1);
	__sync_fetch_and_add(&s->spin_ns, spin);
	if (h)
		__sync_fetch_and_add(&h->hist_spin[log2_slot(spin)], 1);
	if (pt->sleep_start) {
		__sync_fetch_and_add(&s->sleep_ns, sleep);
		if (h)
			__sync_fetch_and_add(&h->hist_sleep[log2_slot(sleep)],
					     1);
		if (pt->slow_kind == LS_KIND_MUTEX)
			__sync_fetch_and_add(&s->spin_failed, 1);
	} else if (pt->slow_kind == LS_KIND_MUTEX && !gone) {
		__sync_fetch_and_add(&s->spin_won, 1);
	}
	if (gone)
		__sync_fetch_and_add(&s->gave_up, 1);
	atomic_max(&s->max_ns, dur);
	atomic_min(&s->min_ns, dur);
	bump(&counters, LS_CTR_RECORDED);
}

/* A slow path left open: its exit was missed (kretprobe instances run
 * out).  A task runs one slow path at a time, so it is stale. */
static __always_inline void slow_drop(struct ls_probe_task *pt)
{
	struct ls_lock_key key = {.addr = pt->slow_lock, .kind = pt->slow_kind};
	struct ls_lock_stats *s;

	bump(&losses, LS_LOSS_PROBE_NESTED);
	if (!probe_rows)
		return;
	s = stats_find(&key);
	if (s)
		__sync_fetch_and_add(&s->waiters, -1);
}

static __always_inline int slow_enter(void *ctx, __u64 lock, __u32 kind)
{
	__u64 id = bpf_get_current_pid_tgid();
	struct ls_probe_task *pt;

	if ((targ_tgid && (id >> 32) != targ_tgid) || cgroup_skip())
		return 0;
	pt = ptask((__u32)id);
	if (!pt)
		return 0;
	if (pt->slow_lock)
		slow_drop(pt);
	pt->slow_lock = lock;
	pt->slow_kind = kind;
	pt->slow_tp_ns = 0;
	pt->sleep_start = 0;
	if (probe_rows)
		row_begin(ctx, lock, kind);
	pt->slow_start = bpf_ktime_get_ns();
	return 0;
}

/* The slow path of @kind returns @ret, a value of enum ls_ret_kind @rk. */
static __always_inline int slow_exit(__u32 kind, __u32 rk, long ret)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	struct ls_probe_task *pt = bpf_map_lookup_elem(&probe_state, &tid);
	struct ls_lock_key key = {};
	struct ls_lock_stats *s;
	__u64 now, dur;

	if (!pt || !pt->slow_lock || pt->slow_kind != kind)
		return 0;
	now = bpf_ktime_get_ns();
	dur = now - pt->slow_start;
	key.addr = pt->slow_lock;
	key.kind = kind;
	/* a row exists since the entry: never insert one that was forgotten */
	s = probe_rows ? stats_find(&key) : stats_get(&key, NULL);
	if (s) {
		__u64 spin = dur > pt->slow_tp_ns ? dur - pt->slow_tp_ns : 0;
		struct ls_lock_hists *h = hists_of(s);

		__sync_fetch_and_add(&s->slow_ns, dur);
		__sync_fetch_and_add(&s->slow_calls, 1);
		__sync_fetch_and_add(&s->slow_untraced_ns, spin);
		if (probe_rows) {
			row_end(s, pt, rk, now, ret);
		} else if (kind == LS_KIND_RWSEM_W) {
			/* The writer's optimistic spin, invisible to the
			 * tracepoints, joins the wait: spin + sleep = total. */
			__sync_fetch_and_add(&s->spin_ns, spin);
			__sync_fetch_and_add(&s->total_ns, spin);
			if (h)
				__sync_fetch_and_add(
					&h->hist_spin[log2_slot(spin)], 1);
			if (!pt->slow_tp_ns) {
				/* spun and won: a contention no tracepoint saw
				 */
				__sync_fetch_and_add(&s->contentions, 1);
				if (h)
					__sync_fetch_and_add(
						&h->hist[log2_slot(dur)], 1);
				atomic_max(&s->max_ns, dur);
				atomic_min(&s->min_ns, dur);
			}
			holders_untraced(s, spin, !pt->slow_tp_ns);
		}
	} else {
		bump(&losses, LS_LOSS_LOCK_MAP_FULL);
	}
	bump(&counters, LS_CTR_SLOW_CALLS);
	pt->slow_lock = 0;
	if (!pt->osq_start)
		bpf_map_delete_elem(&probe_state, &tid);
	return 0;
}

/*
 * Probe-only rows: the first time a task inside a slow path switches away
 * in a sleeping state, its spin ends (prev is current here).  Preemption
 * and yields (TASK_RUNNING) are not sleeps.
 */
SEC("raw_tp/sched_switch")
int BPF_PROG(sleep_mark, bool preempt)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	struct task_struct *t;
	struct ls_probe_task *pt;
	__u64 state;

	if (preempt)
		return 0;
	pt = bpf_map_lookup_elem(&probe_state, &tid);
	if (!pt || !pt->slow_lock || pt->sleep_start)
		return 0;
	t = (struct task_struct *)bpf_get_current_task();
	if (bpf_core_field_exists(t->__state))
		state = BPF_CORE_READ(t, __state);
	else
		state = BPF_CORE_READ((struct task_struct___old *)t, state);
	if (state)
		pt->sleep_start = bpf_ktime_get_ns();
	return 0;
}

/* The lock of the innermost wait in @ws, when @osq is its spin queue. */
static __always_inline __u64 osq_outer_of(struct ls_waits *ws, __u64 osq,
					  __u32 tid, __u32 *kind)
{
	struct ls_wait *top;

	if (!ws || ws->depth == 0 || ws->depth > LS_DEPTH)
		return 0;
	top = &ws->w[(ws->depth - 1) & (LS_DEPTH - 1)];
	if (top->addr + osq_offset(top->kind) != osq || top->tid != tid)
		return 0;
	*kind = top->kind;
	return top->addr;
}

static __always_inline int osq_enter(__u64 osq)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u32 tid = (__u32)id, kind = 0;
	struct ls_probe_task *pt;
	struct ls_lock_key key = {};
	struct ls_lock_stats *s;
	struct ls_waits *ws;
	__u64 outer = 0;

	if ((targ_tgid && (id >> 32) != targ_tgid) || cgroup_skip())
		return 0;
	pt = ptask(tid);
	if (!pt)
		return 0;
	if (pt->osq_start) {
		bump(&losses, LS_LOSS_PROBE_NESTED);
		return 0;
	}
	/* The outer lock: the open slow path, else the tracepoint wait. */
	if (pt->slow_lock && pt->slow_lock + osq_offset(pt->slow_kind) == osq) {
		outer = pt->slow_lock;
		kind = pt->slow_kind;
	} else {
		/* A mutex spins in cpu_state, a re-spinning waiter in its task.
		 */
		__u32 zero = 0;

		ws = bpf_map_lookup_elem(&cpu_state, &zero);
		outer = osq_outer_of(ws, osq, tid, &kind);
		if (!outer) {
			ws = bpf_map_lookup_elem(&task_state, &tid);
			outer = osq_outer_of(ws, osq, tid, &kind);
		}
	}
	pt->osq_outer = outer;
	pt->osq_kind = kind;
	pt->osq_start = bpf_ktime_get_ns();
	if (!outer) {
		bump(&losses, LS_LOSS_OSQ_OUTER);
		return 0;
	}
	key.addr = outer;
	key.kind = kind;
	s = stats_get(&key, NULL);
	if (s) {
		__u64 w = add_fetch(&s->osq_spinners, 1);

		if ((__s64)w > 0)
			atomic_max(&s->osq_peak, w);
	}
	return 0;
}

static __always_inline int osq_exit(int got)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	struct ls_probe_task *pt = bpf_map_lookup_elem(&probe_state, &tid);
	struct ls_lock_key key = {};
	struct ls_lock_stats *s;
	__u64 dur;

	if (!pt || !pt->osq_start)
		return 0;
	dur = bpf_ktime_get_ns() - pt->osq_start;
	bump(&counters, LS_CTR_OSQ_CALLS);
	if (!got)
		bump(&counters, LS_CTR_OSQ_BAILOUTS);
	if (pt->osq_outer) {
		key.addr = pt->osq_outer;
		key.kind = pt->osq_kind;
		s = stats_find(&key);
		if (s) {
			__sync_fetch_and_add(&s->osq_spinners, -1);
			__sync_fetch_and_add(&s->osq_ns, dur);
			__sync_fetch_and_add(&s->osq_calls, 1);
			if (!got) {
				__sync_fetch_and_add(&s->osq_bailouts, 1);
				osq_bailout_vcpu(&key);
			}
		}
	}
	pt->osq_start = 0;
	if (!pt->slow_lock)
		bpf_map_delete_elem(&probe_state, &tid);
	return 0;
}

/*
 * osq_lock's twins: fentry/fexit by BTF name, kprobe/kretprobe by address
 * on every clone.  Written out: its exit reads the bool return, which the
 * two mechanisms deliver differently.
 */
SEC("fentry/osq_lock")
int BPF_PROG(osq_enter_fentry, struct optimistic_spin_queue *lock)
{
	return osq_enter((__u64)lock);
}

SEC("fexit/osq_lock")
int BPF_PROG(osq_exit_fexit, struct optimistic_spin_queue *lock, bool ret)
{
	return osq_exit(ret);
}

SEC("kprobe")
int BPF_KPROBE(osq_enter_kp, void *lock)
{
	return osq_enter((__u64)lock);
}

SEC("kretprobe")
int BPF_KRETPROBE(osq_exit_kp, long ret)
{
	return osq_exit((ret & 0xff) != 0); /* bool in the low byte */
}

/*
 * The slow-path twins: fentry/fexit by BTF name and kprobe/kretprobe by
 * address, four programs per target around slow_enter/slow_exit.  A macro
 * because each program needs a SEC() and a name of its own (the skeleton's
 * progs.<name>_enter_fentry, ...), which no helper function can give.  The
 * fexit's arguments end with the return value: user space checks the
 * count against BTF before choosing fentry.
 */
#define SLOW_PATH_PROBES(name, func, kind, tgt, ...)                           \
	SEC("fentry/" #func)                                                   \
	int BPF_PROG(name##_enter_fentry, void *lock)                          \
	{                                                                      \
		return slow_enter(ctx, (__u64)lock, kind);                     \
	}                                                                      \
	SEC("fexit/" #func)                                                    \
	int BPF_PROG(name##_exit_fexit, __VA_ARGS__)                           \
	{                                                                      \
		return slow_exit(kind, ret_kind[tgt], ret);                    \
	}                                                                      \
	SEC("kprobe")                                                          \
	int BPF_KPROBE(name##_enter_kp, void *lock)                            \
	{                                                                      \
		return slow_enter(ctx, (__u64)lock, kind);                     \
	}                                                                      \
	SEC("kretprobe")                                                       \
	int BPF_KRETPROBE(name##_exit_kp, long ret)                            \
	{                                                                      \
		return slow_exit(kind, ret_kind[tgt], ret);                    \
	}

/* __mutex_lock(lock, state, subclass, nest_lock, ip) */
SLOW_PATH_PROBES(mutex, __mutex_lock, LS_KIND_MUTEX, LS_TGT_MUTEX, void *lock,
		 long st, long sub, void *nest, long ip, long ret)
/* rwsem_down_write_slowpath(sem, state) */
SLOW_PATH_PROBES(wslow, rwsem_down_write_slowpath, LS_KIND_RWSEM_W,
		 LS_TGT_RWSEM_W, void *lock, long st, long ret)
/* rwsem_down_read_slowpath(sem, count, state): 5.15, 6.1 (5.10: 2 args) */
SLOW_PATH_PROBES(rslow, rwsem_down_read_slowpath, LS_KIND_RWSEM_R,
		 LS_TGT_RWSEM_R, void *lock, long count, long st, long ret)

/*
 * Where __mutex_lock has no BTF entry (a compiler clone, or inlined), its
 * three noinline callers carry every call of it (lockdep aside) and are in
 * BTF: fentry there costs far less than a kprobe inside every wait.
 */
#define MUTEX_CALLER_PROBES(name, func, rk, retv, ...)                         \
	SEC("fentry/" #func)                                                   \
	int BPF_PROG(name##_enter, void *lock)                                 \
	{                                                                      \
		return slow_enter(ctx, (__u64)lock, LS_KIND_MUTEX);            \
	}                                                                      \
	SEC("fexit/" #func)                                                    \
	int BPF_PROG(name##_exit, __VA_ARGS__)                                 \
	{                                                                      \
		return slow_exit(LS_KIND_MUTEX, rk, retv);                     \
	}

/* void __mutex_lock_slowpath(lock): nothing to read on return */
MUTEX_CALLER_PROBES(mcall_plain, __mutex_lock_slowpath, LS_RET_NONE, 0,
		    void *lock)
MUTEX_CALLER_PROBES(mcall_kill, __mutex_lock_killable_slowpath, LS_RET_INT, ret,
		    void *lock, int ret)
MUTEX_CALLER_PROBES(mcall_intr, __mutex_lock_interruptible_slowpath, LS_RET_INT,
		    ret, void *lock, int ret)
