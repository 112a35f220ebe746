// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* holdtab.c - the hold times of a snapshot's rows (--hold) beside them, by
 * lock key: only the rows with holds pay for them.  Finding an entry
 * through a hash of its key, appending, copying, pruning, and putting back
 * the ones a failed read changed. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "model/holdtab.h"

struct ls_holdrow *ls_holdtab_find(const struct ls_holdtab *t,
				   const struct ls_lock_key *k)
{
	size_t mask, j;

	if (!t->nslots)
		return NULL;
	mask = t->nslots - 1;
	for (j = ls_key_hash(k) & mask; t->slot[j]; j = (j + 1) & mask) {
		struct ls_holdrow *h = &t->v[t->slot[j] - 1];

		if (!ls_key_cmp(&h->key, k))
			return h;
	}
	return NULL;
}

/* Slot entry @i in (room is there). */
static void put(struct ls_holdtab *t, size_t i)
{
	size_t mask = t->nslots - 1, j = ls_key_hash(&t->v[i].key) & mask;

	while (t->slot[j])
		j = (j + 1) & mask;
	t->slot[j] = (uint32_t)(i + 1);
}

/* Slot every entry in again (the slots hold no others). */
static void reslot(struct ls_holdtab *t)
{
	if (!t->nslots)
		return;
	memset(t->slot, 0, t->nslots * sizeof(*t->slot));
	for (size_t i = 0; i < t->n; i++)
		put(t, i);
}

/* Room for @n entries in @t, their slots at most half full; 0 or
 * -ENOMEM (@t unchanged but for room). */
static int reserve(struct ls_holdtab *t, size_t n)
{
	size_t nslots = t->nslots ? t->nslots : 32;

	if (!n)
		return 0;
	if (n >= UINT32_MAX)
		return -ENOMEM;
	if (n > t->cap) {
		struct ls_holdrow *v = realloc(t->v, n * sizeof(*v));

		if (!v)
			return -ENOMEM;
		t->v = v;
		t->cap = n;
	}
	while (nslots < 2 * n)
		nslots *= 2;
	if (nslots != t->nslots) {
		uint32_t *slot = malloc(nslots * sizeof(*slot));

		if (!slot)
			return -ENOMEM;
		free(t->slot);
		t->slot = slot;
		t->nslots = nslots;
		reslot(t);
	}
	return 0;
}

struct ls_holdrow *ls_holdtab_add(struct ls_holdtab *t,
				  const struct ls_holdrow *h)
{
	if (t->n == t->cap && reserve(t, t->cap ? 2 * t->cap : 16))
		return NULL;
	t->v[t->n] = *h;
	put(t, t->n);
	return &t->v[t->n++];
}

int ls_holdtab_copy(struct ls_holdtab *dst, const struct ls_holdtab *src)
{
	ls_holdtab_clear(dst);
	if (reserve(dst, src->n))
		return -ENOMEM;
	if (src->n)
		memcpy(dst->v, src->v, src->n * sizeof(*dst->v));
	dst->n = src->n;
	reslot(dst);
	return 0;
}

void ls_holdtab_clear(struct ls_holdtab *t)
{
	if (t->n)
		memset(t->slot, 0, t->nslots * sizeof(*t->slot));
	t->n = 0;
}

void ls_holdtab_free(struct ls_holdtab *t)
{
	free(t->v);
	free(t->slot);
	memset(t, 0, sizeof(*t));
}

const struct ls_hold_stats *ls_snap_hold(const struct ls_snapshot *s,
					 const struct ls_lock_key *k)
{
	const struct ls_holdrow *h = ls_holdtab_find(&s->holds, k);

	return h ? h->hold : NULL;
}

/* Keep the entries of @t whose lock has a row in @s and, with @d, none in
 * @d. */
static void filter(struct ls_holdtab *t, const struct ls_snapshot *s,
		   const struct ls_snapshot *d)
{
	size_t keep = 0;

	for (size_t i = 0; i < t->n; i++) {
		const struct ls_lock_key *k = &t->v[i].key;

		if (!ls_snap_find(s, k) || (d && ls_snap_find(d, k)))
			continue;
		if (keep != i)
			t->v[keep] = t->v[i];
		keep++;
	}
	if (keep != t->n) {
		t->n = keep;
		reslot(t);
	}
}

void ls_snap_holds_prune(struct ls_snapshot *s)
{
	if (!s->holds.n)
		return;
	if (s->kidx_n != s->nrows)
		ls_snap_index(s);
	filter(&s->holds, s, NULL);
}

int ls_holdtab_undo(struct ls_snapshot *s, struct ls_snapshot *d)
{
	ls_snap_index(s);
	ls_snap_index(d);
	/* the holds of rows the read added, and of the rows saved: those
	 * come back from @d */
	filter(&s->holds, s, d);
	for (size_t i = 0; i < d->holds.n; i++)
		if (!ls_holdtab_add(&s->holds, &d->holds.v[i]))
			return -ENOMEM;
	return 0;
}
