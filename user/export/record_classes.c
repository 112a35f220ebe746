// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* record_classes.c - the lock rows of a record snapshot as lock classes:
 * rows of one name and kind summed without wrapping, sorted, found by a
 * binary search. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "export/record.h"
#include "export/record_int.h"

static int cmp_lock(const void *a, const void *b)
{
	const struct ls_rec_lock *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	if (c)
		return c;
	return x->kind < y->kind ? -1 : x->kind > y->kind;
}

/* The counters that rows of one name and kind add up to. */
static const struct {
	const char *key;
	size_t off;
} summed[] = {
	{"contentions", offsetof(struct ls_rec_lock, contentions)},
	{"total_ns", offsetof(struct ls_rec_lock, total_ns)},
	{"spin_ns", offsetof(struct ls_rec_lock, spin_ns)},
	{"sleep_ns", offsetof(struct ls_rec_lock, sleep_ns)},
	{"spin_won", offsetof(struct ls_rec_lock, spin_won)},
	{"spin_failed", offsetof(struct ls_rec_lock, spin_failed)},
	{"gave_up", offsetof(struct ls_rec_lock, gave_up)},
	{"begins", offsetof(struct ls_rec_lock, begins)},
	{"osq_ns", offsetof(struct ls_rec_lock, osq_ns)},
	{"osq_bailouts", offsetof(struct ls_rec_lock, osq_bailouts)},
	{"slow_path_ns", offsetof(struct ls_rec_lock, slow_ns)},
	{"slow_path_untraced_ns",
	 offsetof(struct ls_rec_lock, slow_untraced_ns)},
};

#define FIELD(l, i) (*(uint64_t *)((char *)(l) + summed[i].off))

/*
 * Every summed counter over all @n locks fits in 64 bits: then so do the
 * sums of any of them (a lock class, a run's total), and nothing wraps.
 */
int ls_rec_sums_fit(struct ls_rd *rd, const char *path,
		    const struct ls_rec_lock *locks, size_t n)
{
	for (size_t f = 0; f < sizeof(summed) / sizeof(*summed); f++) {
		uint64_t sum = 0;

		for (size_t i = 0; i < n; i++)
			if (__builtin_add_overflow(sum, FIELD(&locks[i], f),
						   &sum))
				return ls_rd_bad(
					rd,
					"%s.locks: the %s of the locks add "
					"up to more than 2^64-1",
					path, summed[f].key);
	}
	return ls_rec_holder_sums_fit(rd, path, locks, n);
}

/* Add @s to its class @d (ls_rec_sums_fit() made sure nothing wraps). */
static void merge_lock(struct ls_rec_lock *d, const struct ls_rec_lock *s)
{
	d->instances += s->instances;
	for (size_t f = 0; f < sizeof(summed) / sizeof(*summed); f++)
		FIELD(d, f) += FIELD(s, f);
	ls_rec_holder_merge(d, s);
	ls_rec_estimate_merge(d, s);
	if (s->max_ns > d->max_ns)
		d->max_ns = s->max_ns;
	/* peaks of different locks do not add up: keep the highest */
	if (s->peak_waiters > d->peak_waiters)
		d->peak_waiters = s->peak_waiters;
}

void ls_rec_snap_merge(struct ls_rec_snap *s)
{
	size_t keep = 0;

	if (!s->nlocks)
		return;
	qsort(s->locks, s->nlocks, sizeof(*s->locks), cmp_lock);
	for (size_t i = 0; i < s->nlocks; i++) {
		if (keep && !cmp_lock(&s->locks[keep - 1], &s->locks[i]))
			merge_lock(&s->locks[keep - 1], &s->locks[i]);
		else
			s->locks[keep++] = s->locks[i];
	}
	s->nlocks = keep;
}

const struct ls_rec_lock *ls_rec_find(const struct ls_rec_snap *s,
				      const char *name, unsigned kind)
{
	struct ls_rec_lock key;

	if (!s->nlocks)
		return NULL;
	snprintf(key.name, sizeof(key.name), "%s", name);
	key.kind = kind;
	return bsearch(&key, s->locks, s->nlocks, sizeof(*s->locks), cmp_lock);
}
