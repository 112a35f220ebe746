/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * hists.bpf.h - the locks' log2 histograms, off the hot lock_stats entry.
 *
 * Each lock_stats entry names a row of lock_hists (an mmapable array) in
 * its slot field, taken when the entry is created: first from free_slots,
 * the rows of forgotten locks that user space zeroed and handed back, else
 * the next never-used row.  A lock created when every row is taken keeps
 * LS_NO_SLOT: its waits still count in lock_stats, only its histograms
 * stay empty, a loss counted when the entry is made.  Included by
 * lockscope.bpf.c after common.bpf.h.
 */
#ifndef LS_HISTS_BPF_H
#define LS_HISTS_BPF_H

const volatile __u32 max_slots = LS_DEF_MAX_LOCKS; /* rows in lock_hists */

/* Rows ever handed out (grows to max_slots, then stays). */
__u32 next_slot = 0;

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(max_entries, LS_DEF_MAX_LOCKS);
	__type(key, __u32);
	__type(value, struct ls_lock_hists);
} lock_hists SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_QUEUE);
	__uint(max_entries, LS_DEF_MAX_LOCKS);
	__uint(key_size, 0);
	__uint(value_size, sizeof(__u32));
} free_slots SEC(".maps");

/* A free row of lock_hists for a new lock, LS_NO_SLOT if none is left. */
static __always_inline __u32 slot_take(void)
{
	__u32 slot;

	if (!bpf_map_pop_elem(&free_slots, &slot))
		return slot;
	if (next_slot < max_slots) {
		slot = __sync_fetch_and_add(&next_slot, 1);
		if (slot < max_slots)
			return slot;
	}
	return LS_NO_SLOT;
}

/* The row went unused (the entry was not created): hand it back. */
static __always_inline void slot_give(__u32 slot)
{
	if (slot != LS_NO_SLOT)
		bpf_map_push_elem(&free_slots, &slot, 0);
}

/* The histograms of the lock whose entry is @s; NULL if it has none. */
static __always_inline struct ls_lock_hists *hists_of(struct ls_lock_stats *s)
{
	__u32 slot = s->slot;

	return bpf_map_lookup_elem(&lock_hists, &slot);
}

#endif
