// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* snapshot.c - the snapshot container: rows, callers, spin callers and
 * waiting tasks appended by the collector, copies that reuse buffers, and
 * rows saved (with their holds) before a read changes them (an interval
 * made in place). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/holdtab.h"
#include "model/model.h"
#include "model/snapshot_int.h"

void ls_snap_init(struct ls_snapshot *s)
{
	memset(s, 0, sizeof(*s));
}

void ls_snap_free(struct ls_snapshot *s)
{
	free(s->kidx);
	free(s->rows);
	free(s->cpu_all);
	free(s->cpu_spin);
	free(s->spin_callers);
	free(s->waiting);
	free(s->cgrows);
	free(s->chains);
	ls_holdtab_free(&s->holds);
	memset(s, 0, sizeof(*s));
}

void ls_snap_clear(struct ls_snapshot *s)
{
	s->nrows = 0;
	s->kidx_n = 0;
	ls_holdtab_clear(&s->holds);
	s->live = NULL;
	ls_snap_clear_lists(s);
}

void ls_snap_clear_lists(struct ls_snapshot *s)
{
	s->nspin_callers = 0;
	s->nwaiting = 0;
	s->ncgrows = 0;
	s->nchains = 0;
}

int ls_snap_set_ncpus(struct ls_snapshot *s, unsigned ncpus)
{
	uint64_t *a = calloc(ncpus ? ncpus : 1, sizeof(*a));
	uint64_t *b = calloc(ncpus ? ncpus : 1, sizeof(*b));

	if (!a || !b) {
		free(a);
		free(b);
		return -ENOMEM;
	}
	free(s->cpu_all);
	free(s->cpu_spin);
	s->cpu_all = a;
	s->cpu_spin = b;
	s->ncpus = ncpus;
	return 0;
}

struct ls_row *ls_snap_add_row(struct ls_snapshot *s,
			       const struct ls_lock_key *key)
{
	struct ls_row *r;

	if (ls_snap_room_for_row(s))
		return NULL;
	r = &s->rows[s->nrows++];
	memset(r, 0, sizeof(*r));
	r->key = *key;
	r->changed = r->seen = s->gen;
	ls_snap_index_last(s);
	return r;
}

void ls_row_clear_sites(struct ls_row *row)
{
	row->ncallers = row->nhsites = row->nhpairs = row->nhtids = 0;
	row->caller_samples = row->caller_wait_ns = 0;
	row->hold_sampled_ns = row->hold_sampled = 0;
}

void ls_row_add_caller(struct ls_row *row, const char *fn, uint64_t samples)
{
	unsigned i;

	row->caller_samples += samples;
	for (i = 0; i < row->ncallers; i++)
		if (!strncmp(row->callers[i].fn, fn, LS_FN_MAX - 1))
			break;
	if (i == row->ncallers) {
		if (row->ncallers < LS_ROW_CALLERS) {
			i = row->ncallers++;
		} else {
			i = LS_ROW_CALLERS - 1;
			if (row->callers[i].samples >= samples)
				return; /* still counted in caller_samples */
		}
		/* a slot past ncallers holds an earlier read's caller */
		row->callers[i].fn = ls_intern_fn(fn);
		row->callers[i].samples = 0;
	}
	row->callers[i].samples += samples;
	/* most sampled first; ties by name, so the caller form is stable */
	while (i > 0 &&
	       (row->callers[i].samples > row->callers[i - 1].samples ||
		(row->callers[i].samples == row->callers[i - 1].samples &&
		 strcmp(row->callers[i].fn, row->callers[i - 1].fn) < 0))) {
		struct ls_caller t = row->callers[i];

		row->callers[i] = row->callers[i - 1];
		row->callers[i - 1] = t;
		i--;
	}
}

int ls_snap_add_spin_caller(struct ls_snapshot *s, uint32_t func,
			    const char *fn, uint64_t samples)
{
	struct ls_spin_caller *c;

	for (size_t i = 0; i < s->nspin_callers; i++) {
		c = &s->spin_callers[i];
		if (c->func == func && !strncmp(c->fn, fn, LS_FN_MAX - 1)) {
			c->samples += samples;
			return 0;
		}
	}
	if (s->nspin_callers == s->spin_cap) {
		size_t cap = s->spin_cap ? s->spin_cap * 2 : 64;

		c = realloc(s->spin_callers, cap * sizeof(*c));
		if (!c)
			return -ENOMEM;
		s->spin_callers = c;
		s->spin_cap = cap;
	}
	c = &s->spin_callers[s->nspin_callers++];
	c->func = func;
	c->fn = ls_intern_fn(fn);
	c->samples = samples;
	return 0;
}

int ls_snap_add_waiter(struct ls_snapshot *s, const struct ls_waiter *w)
{
	if (s->nwaiting == s->waiting_cap) {
		size_t cap = s->waiting_cap ? s->waiting_cap * 2 : 64;
		struct ls_waiter *n = realloc(s->waiting, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		s->waiting = n;
		s->waiting_cap = cap;
	}
	s->waiting[s->nwaiting++] = *w;
	return 0;
}

int ls_snap_add_cgrow(struct ls_snapshot *s, const struct ls_cgrow *c)
{
	if (ls_snap_reserve((void **)&s->cgrows, &s->cgrows_cap,
			    s->ncgrows + 1 > s->cgrows_cap
				    ? (s->cgrows_cap ? s->cgrows_cap * 2 : 64)
				    : s->cgrows_cap,
			    sizeof(*s->cgrows)))
		return -ENOMEM;
	s->cgrows[s->ncgrows++] = *c;
	return 0;
}

uint64_t ls_snap_samples(const struct ls_snapshot *s)
{
	uint64_t n = 0;

	for (unsigned i = 0; i < LS_SPIN_SLOTS; i++)
		n += s->func_samples[i];
	return n;
}

uint64_t ls_snap_spin_samples(const struct ls_snapshot *s)
{
	uint64_t n = 0;

	for (unsigned i = 0; i < s->nfuncs; i++)
		n += s->func_samples[i];
	return n;
}

/* Make room for @n elements of @size in *@buf (capacity *@cap). */
int ls_snap_reserve(void **buf, size_t *cap, size_t n, size_t size)
{
	void *p;

	if (n <= *cap)
		return 0;
	p = realloc(*buf, n * size);
	if (!p)
		return -ENOMEM;
	*buf = p;
	*cap = n;
	return 0;
}

/* Everything but the rows, their index and their holds; @dst's buffers are
 * reused, so a snapshot refreshed every second stops allocating after the
 * first. */
int ls_snap_copy_meta(struct ls_snapshot *dst, const struct ls_snapshot *src)
{
	struct ls_snapshot keep = *dst;
	size_t cpus_cap = dst->cpu_all ? dst->ncpus : 0;

	*dst = *src;
	dst->saving = NULL; /* only the snapshot being read saves rows */
	dst->rows = keep.rows;
	dst->cap = keep.cap;
	dst->nrows = 0;
	dst->kidx = keep.kidx;
	dst->kidx_cap = keep.kidx_cap;
	dst->kidx_n = 0;
	dst->holds = keep.holds;
	ls_holdtab_clear(&dst->holds);
	dst->spin_callers = keep.spin_callers;
	dst->spin_cap = keep.spin_cap;
	dst->cpu_all = keep.cpu_all;
	dst->cpu_spin = keep.cpu_spin;
	dst->ncpus = keep.ncpus;
	dst->waiting = keep.waiting;
	dst->waiting_cap = keep.waiting_cap;
	dst->cgrows = keep.cgrows;
	dst->cgrows_cap = keep.cgrows_cap;
	if (ls_snap_reserve((void **)&dst->cgrows, &dst->cgrows_cap,
			    src->ncgrows, sizeof(*dst->cgrows)))
		return -ENOMEM;
	if (src->ncgrows)
		memcpy(dst->cgrows, src->cgrows,
		       src->ncgrows * sizeof(*dst->cgrows));
	dst->chains = keep.chains;
	dst->chains_cap = keep.chains_cap;
	if (ls_snap_reserve((void **)&dst->chains, &dst->chains_cap,
			    src->nchains, sizeof(*dst->chains)))
		return -ENOMEM;
	if (src->nchains)
		memcpy(dst->chains, src->chains,
		       src->nchains * sizeof(*dst->chains));
	if (ls_snap_reserve((void **)&dst->waiting, &dst->waiting_cap,
			    src->nwaiting, sizeof(*dst->waiting)))
		return -ENOMEM;
	if (src->nwaiting)
		memcpy(dst->waiting, src->waiting,
		       src->nwaiting * sizeof(*dst->waiting));
	if (src->ncpus) {
		if (src->ncpus > cpus_cap || !dst->cpu_all) {
			if (ls_snap_set_ncpus(dst, src->ncpus))
				return -ENOMEM;
		}
		dst->ncpus = src->ncpus;
		memcpy(dst->cpu_all, src->cpu_all,
		       src->ncpus * sizeof(uint64_t));
		memcpy(dst->cpu_spin, src->cpu_spin,
		       src->ncpus * sizeof(uint64_t));
	}
	if (ls_snap_reserve((void **)&dst->spin_callers, &dst->spin_cap,
			    src->nspin_callers, sizeof(*dst->spin_callers)))
		return -ENOMEM;
	if (src->nspin_callers)
		memcpy(dst->spin_callers, src->spin_callers,
		       src->nspin_callers * sizeof(*dst->spin_callers));
	return 0;
}

int ls_snap_copy(struct ls_snapshot *dst, const struct ls_snapshot *src)
{
	if (ls_snap_copy_meta(dst, src) ||
	    ls_snap_reserve((void **)&dst->rows, &dst->cap, src->nrows,
			    sizeof(*dst->rows)))
		goto fail;
	if (src->nrows)
		memcpy(dst->rows, src->rows, src->nrows * sizeof(*dst->rows));
	dst->nrows = src->nrows;
	if (ls_holdtab_copy(&dst->holds, &src->holds))
		goto fail;
	if (src->kidx_n == src->nrows && src->kidx_cap) {
		if (src->kidx_cap != dst->kidx_cap) {
			uint64_t *k =
				realloc(dst->kidx, src->kidx_cap * sizeof(*k));

			if (!k)
				goto fail;
			dst->kidx = k;
			dst->kidx_cap = src->kidx_cap;
		}
		memcpy(dst->kidx, src->kidx,
		       src->kidx_cap * sizeof(*dst->kidx));
		dst->kidx_n = src->nrows;
	}
	return 0;
fail:
	ls_snap_free(dst);
	return -ENOMEM;
}

int ls_snap_room_for_row(struct ls_snapshot *d)
{
	return d->nrows < d->cap ? 0
				 : ls_snap_reserve((void **)&d->rows, &d->cap,
						   d->cap ? 2 * d->cap : 256,
						   sizeof(*d->rows));
}

int ls_snap_save_row(struct ls_snapshot *s, struct ls_row *row)
{
	struct ls_snapshot *d = s->saving;
	const struct ls_holdrow *h;

	/* a row the read added or changed already is saved or new */
	if (!d || row->changed == s->gen || row->saved == s->gen)
		return 0;
	if (ls_snap_room_for_row(d))
		return -ENOMEM;
	h = ls_holdtab_find(&s->holds, &row->key);
	if (h && !ls_holdtab_add(&d->holds, h))
		return -ENOMEM;
	d->rows[d->nrows++] = *row;
	row->saved = s->gen;
	return 0;
}
