// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * hold.bpf.c - hold time of every acquisition of a watched lock (--hold).
 *
 * A separate object, loaded only with --hold, so that a kernel refusing
 * it (or missing one of its targets) costs nothing else.  Its programs sit
 * on the acquire functions' returns (mutex_lock, down_write, down_read and
 * their variants) and on the release functions' entries (mutex_unlock,
 * up_write, up_read, downgrade_write): fentry/fexit by BTF name where the
 * kernel allows it, kprobe/kretprobe by address (every clone) otherwise.
 *
 * Filter first: a lock not in hold_watch (filled by lockscope.bpf.c at a
 * lock's first contention; shared with it, like losses and counters) costs
 * one hash lookup and nothing more.  Holds in flight live per task (these
 * locks sleep and migrate), LS_HOLD_DEPTH deep; a release finds its hold by
 * address, innermost first.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "lockscope.h"
#include "decide.h"

char LICENSE[] SEC("license") = "Dual BSD/GPL";

const volatile __u32 targ_tgid = 0; /* 0: every process */

/* Shared with lockscope.bpf.c (user space reuses its fds before load). */
#include "shared_maps.bpf.h"

/* Its own state. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, LS_DEF_MAX_TASKS);
	__type(key, __u32);
	__type(value, struct ls_holds);
} hold_tasks SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, LS_DEF_MAX_LOCKS);
	__type(key, struct ls_hold_key);
	__type(value, struct ls_hold_stats);
} hold_stats SEC(".maps");

/* Zeroed templates for new entries: too big for the BPF stack. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct ls_hold_stats);
} hold_stats_init SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct ls_holds);
} hold_tasks_init SEC(".maps");

#include "common.bpf.h"

/* Is @lock watched, and is the current task one we trace? */
static __always_inline int watched(__u64 lock)
{
	if (targ_tgid && (bpf_get_current_pid_tgid() >> 32) != targ_tgid)
		return 0;
	return bpf_map_lookup_elem(&hold_watch, &lock) != NULL;
}

/* The task's holds, created empty; NULL (a loss) when hold_tasks is full. */
static __always_inline struct ls_holds *holds_of(__u32 tid)
{
	struct ls_holds *h = bpf_map_lookup_elem(&hold_tasks, &tid);
	__u32 zero = 0;
	void *init;

	if (h)
		return h;
	init = bpf_map_lookup_elem(&hold_tasks_init, &zero);
	if (init && !bpf_map_update_elem(&hold_tasks, &tid, init, BPF_NOEXIST))
		h = bpf_map_lookup_elem(&hold_tasks, &tid);
	if (!h)
		bump(&losses, LS_LOSS_HOLD_MAP_FULL);
	return h;
}

static __always_inline void push(struct ls_holds *h, __u64 lock, __u32 mode,
				 __u64 now)
{
	__u32 n = h->n;
	struct ls_held *e;

	if (n >= LS_HOLD_DEPTH) {
		bump(&losses, LS_LOSS_HOLD_DEPTH);
		return;
	}
	e = &h->h[n & (LS_HOLD_DEPTH - 1)];
	e->addr = lock;
	e->start_ns = now;
	e->mode = mode;
	h->n = n + 1;
}

/* The acquire function returned holding @lock (already filtered). */
static __always_inline int acquired(__u64 lock, __u32 mode)
{
	struct ls_holds *h = holds_of((__u32)bpf_get_current_pid_tgid());

	if (h)
		push(h, lock, mode, bpf_ktime_get_ns());
	return 0;
}

static __always_inline void record(__u64 lock, __u32 mode, __u64 ns)
{
	struct ls_hold_key k = {.addr = lock, .mode = mode};
	struct ls_hold_stats *s = bpf_map_lookup_elem(&hold_stats, &k);
	__u32 zero = 0;

	if (!s) {
		void *init = bpf_map_lookup_elem(&hold_stats_init, &zero);

		if (init)
			bpf_map_update_elem(&hold_stats, &k, init, BPF_NOEXIST);
		s = bpf_map_lookup_elem(&hold_stats, &k);
		if (!s) {
			bump(&losses, LS_LOSS_HOLD_MAP_FULL);
			return;
		}
	}
	__sync_fetch_and_add(&s->count, 1);
	__sync_fetch_and_add(&s->total_ns, ns);
	__sync_fetch_and_add(&s->hist[log2_slot(ns)], 1);
	atomic_max(&s->max_ns, ns);
	bump(&counters, LS_CTR_HOLDS);
}

/*
 * The task releases @lock: close its innermost hold of it.  With
 * @reopen_mode < LS_HOLD_MODES the hold goes on in that mode
 * (downgrade_write: the writer becomes a reader).
 */
static __always_inline int released(__u64 lock, __u32 reopen_mode)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	struct ls_holds *h;
	__u64 now;

	if (!watched(lock))
		return 0;
	h = bpf_map_lookup_elem(&hold_tasks, &tid);
	if (!h || !h->n) {
		bump(&losses, LS_LOSS_HOLD_UNMATCHED);
		return 0;
	}
	now = bpf_ktime_get_ns();
	for (int i = LS_HOLD_DEPTH - 1; i >= 0; i--) {
		struct ls_held *e = &h->h[i];
		__u32 last;

		if ((__u32)i >= h->n || e->addr != lock)
			continue;
		record(lock, e->mode, now - e->start_ns);
		if (reopen_mode < LS_HOLD_MODES) {
			e->mode = reopen_mode;
			e->start_ns = now;
			return 0;
		}
		last = (h->n - 1) & (LS_HOLD_DEPTH - 1);
		*e = h->h[last]; /* order inside h[] does not matter */
		h->n--;
		if (!h->n && !h->pending)
			bpf_map_delete_elem(&hold_tasks, &tid);
		return 0;
	}
	bump(&losses, LS_LOSS_HOLD_UNMATCHED);
	return 0;
}

/* ---- fentry/fexit: one program per target (each needs its BTF id) ----- */

#define ACQ_VOID(name, func, mode)                                             \
	SEC("fexit/" #func)                                                    \
	int BPF_PROG(name, void *lock)                                         \
	{                                                                      \
		return watched((__u64)lock) ? acquired((__u64)lock, mode) : 0; \
	}
/* Acquire functions returning int: @ok is their value on success. */
#define ACQ_RET(name, func, mode, ok)                                          \
	SEC("fexit/" #func)                                                    \
	int BPF_PROG(name, void *lock, int ret)                                \
	{                                                                      \
		return ret == ok && watched((__u64)lock)                       \
			       ? acquired((__u64)lock, mode)                   \
			       : 0;                                            \
	}
#define REL(name, func, reopen)                                                \
	SEC("fentry/" #func)                                                   \
	int BPF_PROG(name, void *lock)                                         \
	{                                                                      \
		return released((__u64)lock, reopen);                          \
	}

ACQ_VOID(hold_mutex_lock, mutex_lock, LS_HOLD_EXCL)
ACQ_RET(hold_mutex_lock_intr, mutex_lock_interruptible, LS_HOLD_EXCL, 0)
ACQ_RET(hold_mutex_lock_kill, mutex_lock_killable, LS_HOLD_EXCL, 0)
ACQ_VOID(hold_mutex_lock_io, mutex_lock_io, LS_HOLD_EXCL)
ACQ_RET(hold_mutex_trylock, mutex_trylock, LS_HOLD_EXCL, 1)
REL(hold_mutex_unlock, mutex_unlock, LS_HOLD_MODES)
ACQ_VOID(hold_down_write, down_write, LS_HOLD_EXCL)
ACQ_RET(hold_down_write_kill, down_write_killable, LS_HOLD_EXCL, 0)
ACQ_RET(hold_down_write_try, down_write_trylock, LS_HOLD_EXCL, 1)
REL(hold_up_write, up_write, LS_HOLD_MODES)
REL(hold_downgrade, downgrade_write, LS_HOLD_SHARED)
ACQ_VOID(hold_down_read, down_read, LS_HOLD_SHARED)
ACQ_RET(hold_down_read_intr, down_read_interruptible, LS_HOLD_SHARED, 0)
ACQ_RET(hold_down_read_kill, down_read_killable, LS_HOLD_SHARED, 0)
ACQ_RET(hold_down_read_try, down_read_trylock, LS_HOLD_SHARED, 1)
REL(hold_up_read, up_read, LS_HOLD_MODES)

/* ---- kprobes: one program per role, attached by address to each clone --
 * The entry keeps the lock (a kretprobe cannot read arguments); the return
 * opens the hold when the call succeeded. */

static __always_inline int acq_enter(__u64 lock, __u32 mode)
{
	struct ls_holds *h;

	if (!watched(lock))
		return 0;
	h = holds_of((__u32)bpf_get_current_pid_tgid());
	if (h) {
		h->pending = lock;
		h->pending_mode = mode;
	}
	return 0;
}

static __always_inline int acq_return(int ok)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	struct ls_holds *h = bpf_map_lookup_elem(&hold_tasks, &tid);

	if (!h || !h->pending)
		return 0;
	if (ok)
		push(h, h->pending, h->pending_mode, bpf_ktime_get_ns());
	h->pending = 0;
	if (!h->n)
		bpf_map_delete_elem(&hold_tasks, &tid);
	return 0;
}

SEC("kprobe")
int BPF_KPROBE(hold_acq_excl_kp, void *lock)
{
	return acq_enter((__u64)lock, LS_HOLD_EXCL);
}

SEC("kprobe")
int BPF_KPROBE(hold_acq_shared_kp, void *lock)
{
	return acq_enter((__u64)lock, LS_HOLD_SHARED);
}

SEC("kretprobe")
int BPF_KRETPROBE(hold_ret_void_kp)
{
	return acq_return(1);
}

SEC("kretprobe")
int BPF_KRETPROBE(hold_ret_zero_kp, long ret)
{
	return acq_return((int)ret == 0);
}

SEC("kretprobe")
int BPF_KRETPROBE(hold_ret_one_kp, long ret)
{
	return acq_return((int)ret == 1);
}

SEC("kprobe")
int BPF_KPROBE(hold_rel_kp, void *lock)
{
	return released((__u64)lock, LS_HOLD_MODES);
}

SEC("kprobe")
int BPF_KPROBE(hold_downgrade_kp, void *lock)
{
	return released((__u64)lock, LS_HOLD_SHARED);
}
