/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * rows.bpf.h - where each lock's figures live: a row of lock_rows, an
 * mmapable array that user space reads in place (no system call, no walk
 * of a hash), named by the lock's lock_stats entry (key -> row number).
 *
 * A new lock takes this CPU's spare row (one a lost insert left), else a
 * row of a forgotten lock that user space zeroed and pushed to free_rows,
 * else the next never-used row.  Its key is written last, once its
 * lock_stats entry exists: user space reads the rows that have a key.  A
 * lock that finds every row taken is not kept ('lock rows full'; its waits
 * count as 'lock map full').  Included by lockscope.bpf.c after
 * common.bpf.h.
 */
#ifndef LS_ROWS_BPF_H
#define LS_ROWS_BPF_H

const volatile __u32 max_slots = LS_DEF_MAX_LOCKS; /* rows in lock_rows */
const volatile __u32 slot_stride = 1; /* possible CPUs (compat build) */

__u32 next_slot = 0; /* rows ever handed out (grows to max_slots) */

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(max_entries, LS_DEF_MAX_LOCKS);
	__type(key, __u32);
	__type(value, struct ls_lock_row);
} lock_rows SEC(".maps");

/* Rows of forgotten locks, zeroed by user space (one read after the lock
 * left lock_stats: no program still writes them). */
struct {
	__uint(type, BPF_MAP_TYPE_QUEUE);
	__uint(max_entries, LS_DEF_MAX_LOCKS);
	__uint(key_size, 0);
	__uint(value_size, sizeof(__u32));
} free_rows SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct ls_slot_cpu);
} spare_slot SEC(".maps");

/* A never-used row, LS_NO_SLOT if none is left. */
#ifdef LS_NO_FETCH_ATOMICS
/*
 * Without fetch-and-add (kernels before 5.12) each CPU hands out fresh
 * rows of its own: its n-th takes row cpu + n * slot_stride, so one CPU's
 * fresh rows can run out before the others' (recycled rows are shared).
 * User space maps every row of this build (user/collect/hists.c).
 */
static __always_inline __u32 slot_fresh(struct ls_slot_cpu *pc)
{
	__u64 row;

	if (pc->taken >= max_slots)
		return LS_NO_SLOT;
	row = bpf_get_smp_processor_id() + (__u64)pc->taken * slot_stride;
	if (row >= max_slots)
		return LS_NO_SLOT;
	pc->taken++;
	return (__u32)row;
}
#else
static __always_inline __u32 slot_fresh(struct ls_slot_cpu *pc)
{
	__u32 slot;

	(void)pc;
	if (next_slot >= max_slots)
		return LS_NO_SLOT;
	slot = __sync_fetch_and_add(&next_slot, 1);
	return slot < max_slots ? slot : LS_NO_SLOT;
}
#endif

/* A free row for a new lock, LS_NO_SLOT if none is left. */
static __always_inline __u32 slot_take(void)
{
	__u32 zero = 0, slot;
	struct ls_slot_cpu *pc = bpf_map_lookup_elem(&spare_slot, &zero);

	if (!pc)
		return LS_NO_SLOT;
	if (pc->spare) { /* stored as slot + 1 */
		slot = pc->spare - 1;
		pc->spare = 0;
		return slot;
	}
	if (!bpf_map_pop_elem(&free_rows, &slot))
		return slot;
	return slot_fresh(pc);
}

/* The row went unused (the entry was not made): keep it on this CPU. */
static __always_inline void slot_give(__u32 slot)
{
	__u32 zero = 0;
	struct ls_slot_cpu *pc = bpf_map_lookup_elem(&spare_slot, &zero);

	if (pc && !pc->spare)
		pc->spare = slot + 1;
}

/* The figures of lock @k, NULL if it has none. */
static __always_inline struct ls_lock_stats *
stats_find(const struct ls_lock_key *k)
{
	__u32 *slot = bpf_map_lookup_elem(&lock_stats, k);
	struct ls_lock_row *row;

	if (!slot)
		return NULL;
	row = bpf_map_lookup_elem(&lock_rows, slot);
	if (!row)
		return NULL;
	/* the offset added after the check: the verifier refuses
	 * arithmetic on a pointer that may be NULL */
	barrier_var(row);
	return &row->st;
}

/*
 * The figures of wait @w's lock: through the row it began on while that row
 * is still the lock's (user space clears a forgotten row's address when it
 * deletes its entry), else through lock_stats.  NULL if it has none.
 */
static __always_inline struct ls_lock_stats *wait_stats(const struct ls_wait *w)
{
	struct ls_lock_key key = {.addr = w->addr, .kind = w->kind};
	__u32 slot = w->row - 1;
	struct ls_lock_row *row;

	if (w->row) {
		row = bpf_map_lookup_elem(&lock_rows, &slot);
		if (row && row->key.addr == w->addr &&
		    row->key.kind == w->kind) {
			barrier_var(row);
			return &row->st;
		}
	}
	return stats_find(&key);
}

/* The histograms of the lock whose figures are @s. */
static __always_inline struct ls_lock_hists *hists_of(struct ls_lock_stats *s)
{
	__u32 slot = s->slot;
	struct ls_lock_row *row = bpf_map_lookup_elem(&lock_rows, &slot);

	return row ? &row->hi : NULL;
}

#endif
