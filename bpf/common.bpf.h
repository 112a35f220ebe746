/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * common.bpf.h - small helpers shared by the BPF objects (lockscope.bpf.c,
 * hold.bpf.c): per-CPU counter bumps, the log2 histogram slot, bounded
 * compare-and-swap maxima and minima.  Included after vmlinux.h, the libbpf
 * headers and lockscope.h.
 */
#ifndef LS_COMMON_BPF_H
#define LS_COMMON_BPF_H

/* Add 1 to slot @idx of the per-CPU array @map (counters, losses). */
static __always_inline void bump(void *map, __u32 idx)
{
	__u64 *v = bpf_map_lookup_elem(map, &idx);

	if (v)
		*v += 1; /* per-CPU slot: no atomic needed */
}

/* 64-bit throughout and masked: older verifiers lose 32-bit bounds. */
static __always_inline __u64 log2_slot(__u64 v)
{
	__u64 r = 0, s;

	s = (v > 0xFFFFFFFFULL) << 5;
	v >>= s;
	r |= s;
	s = (v > 0xFFFF) << 4;
	v >>= s;
	r |= s;
	s = (v > 0xFF) << 3;
	v >>= s;
	r |= s;
	s = (v > 0xF) << 2;
	v >>= s;
	r |= s;
	s = (v > 0x3) << 1;
	v >>= s;
	r |= s;
	r |= (v >> 1);
	if (r >= LS_HIST_SLOTS)
		r = LS_HIST_SLOTS - 1;
	return r & (LS_HIST_SLOTS - 1);
}

static __always_inline void atomic_max(__u64 *p, __u64 v)
{
	__u64 old = *p;

	/* Bounded retries: a lost race leaves a value another CPU just raised.
	 */
	for (int i = 0; i < 4 && v > old; i++) {
		__u64 seen = __sync_val_compare_and_swap(p, old, v);

		if (seen == old)
			break;
		old = seen;
	}
}

static __always_inline void atomic_min(__u64 *p, __u64 v)
{
	__u64 old = *p;

	for (int i = 0; i < 4 && v < old; i++) {
		__u64 seen = __sync_val_compare_and_swap(p, old, v);

		if (seen == old)
			break;
		old = seen;
	}
}

#endif
