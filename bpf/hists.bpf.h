/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * hists.bpf.h - the locks' log2 histograms, off the hot lock_stats entry.
 *
 * Each lock_stats entry names a row of lock_hists (an mmapable array) in
 * its slot field, taken when the entry is created: this CPU's spare row
 * (one a lost insert left), else a row of a forgotten lock that user space
 * zeroed and put in free_ring, else the next never-used row.  No lock is
 * taken: free_ring has one producer (user space, which advances ring_tail)
 * and its consumers claim ring_head with a compare-and-swap.  A lock
 * created when every row is taken keeps LS_NO_SLOT: its waits still count
 * in lock_stats, only its histograms stay empty, a loss counted when the
 * entry is made.  Included by lockscope.bpf.c after common.bpf.h.
 */
#ifndef LS_HISTS_BPF_H
#define LS_HISTS_BPF_H

const volatile __u32 max_slots = LS_DEF_MAX_LOCKS; /* rows in lock_hists */
const volatile __u32 slot_stride = 1; /* possible CPUs (compat build) */

__u32 next_slot = 0; /* rows ever handed out (grows to max_slots) */
__u64 ring_head = 0; /* free_ring entries taken (by BPF) */
__u64 ring_tail = 0; /* free_ring entries put (by user space) */

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(max_entries, LS_DEF_MAX_LOCKS);
	__type(key, __u32);
	__type(value, struct ls_lock_hists);
} lock_hists SEC(".maps");

/* Rows of forgotten locks, zeroed: entry i % max_slots for i in
 * [ring_head, ring_tail). */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, LS_DEF_MAX_LOCKS);
	__type(key, __u32);
	__type(value, __u32);
} free_ring SEC(".maps");

/* Per CPU: a row taken for an entry that was not made, kept for the next
 * one (as slot + 1; 0: none), and the rows this CPU handed out (counted in
 * the compat build only). */
struct ls_slot_cpu {
	__u32 spare;
	__u32 taken;
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct ls_slot_cpu);
} spare_slot SEC(".maps");

#ifdef LS_NO_FETCH_ATOMICS
/*
 * Without compare-and-swap or fetch-and-add (kernels before 5.12) each CPU
 * hands out rows of its own: its n-th new lock takes row cpu + n *
 * slot_stride.  A CPU's rows can run out before the others', and rows of
 * forgotten locks are not handed out again (free_ring goes unread): the
 * loss 'histogram rows full' counts the locks left without histograms.
 * User space maps every row of this build (user/collect/hists.c).
 */
static __always_inline __u32 slot_take(void)
{
	__u32 zero = 0, slot;
	struct ls_slot_cpu *pc = bpf_map_lookup_elem(&spare_slot, &zero);
	__u64 row;

	if (!pc)
		return LS_NO_SLOT;
	if (pc->spare) {
		slot = pc->spare - 1;
		pc->spare = 0;
		return slot;
	}
	if (pc->taken >= max_slots)
		return LS_NO_SLOT;
	row = bpf_get_smp_processor_id() + (__u64)pc->taken * slot_stride;
	if (row >= max_slots)
		return LS_NO_SLOT;
	pc->taken++;
	return (__u32)row;
}

#else /* 5.12+ */

/* A free row of lock_hists for a new lock, LS_NO_SLOT if none is left. */
static __always_inline __u32 slot_take(void)
{
	__u32 zero = 0, *v;
	struct ls_slot_cpu *pc = bpf_map_lookup_elem(&spare_slot, &zero);
	__u64 h = ring_head;
	__u32 slot, i;

	if (pc && pc->spare) { /* stored as slot + 1 */
		slot = pc->spare - 1;
		pc->spare = 0;
		return slot;
	}
	if (h < ring_tail && max_slots &&
	    __sync_val_compare_and_swap(&ring_head, h, h + 1) == h) {
		i = (__u32)(h % max_slots);
		v = bpf_map_lookup_elem(&free_ring, &i);
		if (v)
			return *v;
	}
	if (next_slot < max_slots) {
		slot = __sync_fetch_and_add(&next_slot, 1);
		if (slot < max_slots)
			return slot;
	}
	return LS_NO_SLOT;
}

#endif /* LS_NO_FETCH_ATOMICS */

/* The row went unused (the entry was not made): keep it on this CPU. */
static __always_inline void slot_give(__u32 slot)
{
	__u32 zero = 0;
	struct ls_slot_cpu *pc = bpf_map_lookup_elem(&spare_slot, &zero);

	if (pc && slot != LS_NO_SLOT && !pc->spare)
		pc->spare = slot + 1;
}

/* The histograms of the lock whose entry is @s; NULL if it has none. */
static __always_inline struct ls_lock_hists *hists_of(struct ls_lock_stats *s)
{
	__u32 slot = s->slot;

	return bpf_map_lookup_elem(&lock_hists, &slot);
}

#endif
