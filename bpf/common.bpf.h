/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * common.bpf.h - small helpers shared by the BPF objects (lockscope.bpf.c,
 * hold.bpf.c): per-CPU counter bumps, change flags, the log2 histogram slot,
 * bounded compare-and-swap maxima and minima, add-and-fetch, and their
 * stand-ins for kernels without atomic fetch (LS_NO_FETCH_ATOMICS).  Included
 * after vmlinux.h, the libbpf headers, lockscope.h and decide.h.
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

/* Flag a change for user space (it clears the flag, then reads): stored
 * only while clear, so the flag's cache line stays shared between CPUs. */
static __always_inline void mark_dirty(__u32 *flag)
{
	if (!*(volatile __u32 *)flag)
		*(volatile __u32 *)flag = 1;
}

/* The histogram slot (decide.h), by its name at the BPF call sites. */
#define log2_slot(v) ls_hist_slot(v)

/*
 * Kernels before 5.12 accept one atomic instruction: add without fetch (the
 * old XADD, what __sync_fetch_and_add() compiles to when its result is
 * unused).  Fetch-and-add, exchange and compare-and-swap came in 5.12.  The
 * compat objects (-DLS_NO_FETCH_ATOMICS; user/collect/objects.c picks them
 * where a feature probe finds no fetch) do without them, at a cost said in
 * `lockscope doctor` and the README:
 *   atomic_max/min  a read-compare-store: a racing CPU's larger (smaller)
 *                   value can be overwritten, so a peak or a maximum may be
 *                   under-reported (a minimum over-reported);
 *   add_fetch       the value read back after the add, which may include
 *                   racing adds: a real value of the counter, not always
 *                   the one this add made (peaks may be missed);
 *   begin_nth       every-Nth sampling approximate (racing begins may share
 *                   an index); 0, the begin that names a lock, only for the
 *                   begin whose map insert created the lock's entry.
 */
#ifdef LS_NO_FETCH_ATOMICS

static __always_inline void atomic_max(__u64 *p, __u64 v)
{
	if (v > *(volatile __u64 *)p)
		*(volatile __u64 *)p = v;
}

static __always_inline void atomic_min(__u64 *p, __u64 v)
{
	if (v < *(volatile __u64 *)p)
		*(volatile __u64 *)p = v;
}

/* Add @v to gauge *@p; the value *@p has just after (see above). */
static __always_inline __s64 add_fetch(__s64 *p, __s64 v)
{
	__sync_fetch_and_add(p, v); /* result unused: the old XADD */
	return *(volatile __s64 *)p;
}

/* Count a begin in @begins; which begin of the lock it is (0: the first).
 * @fresh: this begin's insert created the lock's entry. */
static __always_inline __u64 begin_nth(__u64 *begins, int fresh)
{
	__u64 n;

	__sync_fetch_and_add(begins, 1);
	n = *(volatile __u64 *)begins;
	if (fresh)
		return 0;
	return n > 1 ? n - 1 : 1;
}

#else /* 5.12+: fetch-and-add, compare-and-swap */

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

/* Add @v to gauge *@p; the value this add made. */
static __always_inline __s64 add_fetch(__s64 *p, __s64 v)
{
	return __sync_fetch_and_add(p, v) + v;
}

/* Count a begin in @begins; which begin of the lock it is (0: the first,
 * exact here; @fresh is the compat build's stand-in for it). */
static __always_inline __u64 begin_nth(__u64 *begins, int fresh)
{
	(void)fresh;
	return __sync_fetch_and_add(begins, 1);
}

#endif /* LS_NO_FETCH_ATOMICS */

#endif
