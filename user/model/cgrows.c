// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* cgrows.c - --by cgroup rows of a snapshot (lock x role x cgroup): their
 * order, the rows of one lock in one role, and those ranked by wait. */
#include <string.h>
#include "model/model.h"

int ls_cgrow_cmp(const void *a, const void *b)
{
	const struct ls_cgrow *x = a, *y = b;
	int c = ls_key_cmp(&x->key, &y->key);

	if (c)
		return c;
	if (x->role != y->role)
		return x->role < y->role ? -1 : 1;
	return x->cgid < y->cgid ? -1 : x->cgid > y->cgid;
}

/* Order of (@k, @role) against row @r's. */
static int cmp_at(const struct ls_cgrow *r, const struct ls_lock_key *k,
		  uint32_t role)
{
	int c = ls_key_cmp(&r->key, k);

	if (c)
		return c;
	return r->role < role ? -1 : r->role > role;
}

size_t ls_snap_cgrows_of(const struct ls_snapshot *s,
			 const struct ls_lock_key *k, uint32_t role,
			 size_t *first)
{
	size_t lo = 0, hi = s->ncgrows, n = 0;

	while (lo < hi) { /* the first row not below (@k, @role) */
		size_t mid = lo + (hi - lo) / 2;

		if (cmp_at(&s->cgrows[mid], k, role) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	*first = lo;
	while (lo + n < s->ncgrows && !cmp_at(&s->cgrows[lo + n], k, role))
		n++;
	return n;
}

/* Rank @a above @b: more wait time, more waits, more begun, the path. */
static int above(const struct ls_cgrow *a, const struct ls_cgrow *b)
{
	if (a->v.wait_ns != b->v.wait_ns)
		return a->v.wait_ns > b->v.wait_ns;
	if (a->v.waits != b->v.waits)
		return a->v.waits > b->v.waits;
	if (a->v.begins != b->v.begins)
		return a->v.begins > b->v.begins;
	return strcmp(a->path, b->path) < 0;
}

size_t ls_cgrows_ranked(const struct ls_snapshot *s,
			const struct ls_lock_key *k, uint32_t role, size_t *idx,
			size_t max, size_t *total)
{
	size_t first, n = ls_snap_cgrows_of(s, k, role, &first), k_ = 0;

	*total = n;
	for (size_t i = first; i < first + n; i++) {
		size_t pos = k_;

		while (pos > 0 &&
		       above(&s->cgrows[i], &s->cgrows[idx[pos - 1]]))
			pos--;
		if (pos >= max)
			continue;
		if (k_ < max)
			k_++;
		for (size_t m = k_ - 1; m > pos; m--)
			idx[m] = idx[m - 1];
		idx[pos] = i;
	}
	return k_;
}
