// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * sites.c - the callers (lock_callers) and holder sites (holder_sites) of
 * the rows a read changed.  Both maps are walked only when the programs
 * flagged a change since the last walk (callers_dirty, holders_dirty in
 * the object's .bss) or locks are being forgotten; otherwise the entries
 * kept from the last walk are added to the changed rows again.  An idle table
 * of 12k locks costs the kernel two hash walks a second less.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "collect/collector_int.h"

/* Order of two entries' locks (ls_key_cmp's: address, then kind). */
static int lock_cmp(uint64_t a, uint32_t ak, uint64_t b, uint32_t bk)
{
	const struct ls_lock_key x = {.addr = a, .kind = ak};
	const struct ls_lock_key y = {.addr = b, .kind = bk};

	return ls_key_cmp(&x, &y);
}

#define CMP(a, b) (((a) > (b)) - ((a) < (b)))

static int cmp_caller(const void *a, const void *b)
{
	const struct ls_caller_key *x = &((const struct ls_raw_caller *)a)->k;
	const struct ls_caller_key *y = &((const struct ls_raw_caller *)b)->k;
	int c = lock_cmp(x->addr, x->kind, y->addr, y->kind);

	return c ? c : CMP(x->stack_id, y->stack_id);
}

static int cmp_holder(const void *a, const void *b)
{
	const struct ls_holder_key *x = &((const struct ls_raw_holder *)a)->k;
	const struct ls_holder_key *y = &((const struct ls_raw_holder *)b)->k;
	int c = lock_cmp(x->addr, x->kind, y->addr, y->kind);

	if (!c)
		c = CMP(x->holder_site, y->holder_site);
	if (!c)
		c = CMP(x->waiter_site, y->waiter_site);
	return c ? c : CMP(x->holder_tid, y->holder_tid);
}

static void caller_to_row(struct ls_collector *c, struct ls_row *r,
			  const struct ls_caller_key *ck,
			  const struct ls_caller_val *cv)
{
	ls_row_add_caller(r, ls_resolve_stack(c, ck->stack_id), cv->count);
	r->caller_wait_ns += cv->wait_ns;
}

static void holder_to_row(struct ls_collector *c, struct ls_row *r,
			  const struct ls_holder_key *hk,
			  const struct ls_holder_val *hv)
{
	ls_row_add_holder(r, ls_resolve_stack(c, hk->holder_site),
			  hk->waiter_site == LS_SITE_UNSAMPLED
				  ? NULL
				  : ls_resolve_stack(c, hk->waiter_site),
			  hk->holder_tid, hv->tenure_ns, hv->count);
}

static int walk_caller(struct ls_collector *c, const void *k, const void *v,
		       void *arg)
{
	const struct ls_caller_key *ck = k;
	struct ls_snapshot *s = arg;
	struct ls_lock_key lk = {.addr = ck->addr, .kind = ck->kind};
	struct ls_row *r = ls_snap_find(s, &lk);

	if (ls_read_changed(s, r))
		caller_to_row(c, r, ck, v);
	if (ls_stacks_keep(c, ck, v))
		return -ENOMEM;
	if (r && c->idle && c->idle[r - s->rows])
		ls_forget_caller(c, ck);
	return 0;
}

static int keep_holder(struct ls_collector *c, const struct ls_holder_key *k,
		       const struct ls_holder_val *v)
{
	if (c->nhraw == c->hraw_cap) {
		size_t cap = c->hraw_cap ? c->hraw_cap * 2 : 256;
		struct ls_raw_holder *p = realloc(c->hraw, cap * sizeof(*p));

		if (!p)
			return -ENOMEM;
		c->hraw = p;
		c->hraw_cap = cap;
	}
	c->hraw[c->nhraw].k = *k;
	c->hraw[c->nhraw++].v = *v;
	return 0;
}

static int walk_holder(struct ls_collector *c, const void *k, const void *v,
		       void *arg)
{
	const struct ls_holder_key *hk = k;
	struct ls_snapshot *s = arg;
	struct ls_lock_key lk = {.addr = hk->addr, .kind = hk->kind};
	struct ls_row *r = ls_snap_find(s, &lk);

	if (ls_read_changed(s, r))
		holder_to_row(c, r, hk, v);
	if (keep_holder(c, hk, v))
		return -ENOMEM;
	if (r && c->idle && c->idle[r - s->rows])
		ls_forget_holder(c, hk);
	return 0;
}

/* First of the @n entries of @size (sorted by lock, key first) that is not
 * below lock @k. */
static size_t lower_bound(const void *base, size_t n, size_t size,
			  const struct ls_lock_key *k)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct ls_lock_key *e =
			(const void *)((const char *)base + mid * size);

		if (lock_cmp(e->addr, e->kind, k->addr, k->kind) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The kept entries of each changed row, added to it again; sorted by lock
 * on the first replay after a walk (a walk every read never sorts). */
static void replay(struct ls_collector *c, struct ls_snapshot *s)
{
	if (!c->sites_sorted) {
		qsort(c->raw, c->nraw, sizeof(*c->raw), cmp_caller);
		qsort(c->hraw, c->nhraw, sizeof(*c->hraw), cmp_holder);
		c->sites_sorted = 1;
	}
	for (size_t i = 0; i < s->nrows; i++) {
		struct ls_row *r = &s->rows[i];
		size_t j;

		if (!ls_read_changed(s, r))
			continue;
		j = lower_bound(c->raw, c->nraw, sizeof(*c->raw), &r->key);
		for (; j < c->nraw && c->raw[j].k.addr == r->key.addr &&
		       c->raw[j].k.kind == r->key.kind;
		     j++)
			caller_to_row(c, r, &c->raw[j].k, &c->raw[j].v);
		j = lower_bound(c->hraw, c->nhraw, sizeof(*c->hraw), &r->key);
		for (; j < c->nhraw && c->hraw[j].k.addr == r->key.addr &&
		       c->hraw[j].k.kind == r->key.kind;
		     j++)
			holder_to_row(c, r, &c->hraw[j].k, &c->hraw[j].v);
	}
}

int ls_sites_read(struct ls_collector *c, struct ls_snapshot *s)
{
	struct lockscope_bpf__bss *bss = c->skel->bss;
	/* clear the flags first: a change during the walk flags the next */
	int dc = __atomic_exchange_n(&bss->callers_dirty, 0, __ATOMIC_SEQ_CST);
	int dh = __atomic_exchange_n(&bss->holders_dirty, 0, __ATOMIC_SEQ_CST);
	int err;

	if (c->sites_kept && !dc && !dh && !c->ngone_locks) {
		replay(c, s);
		return 0;
	}
	c->sites_kept = 0;
	c->nraw = c->nhraw = 0;
	err = ls_read_hash(c, c->skel->maps.lock_callers,
			   sizeof(struct ls_caller_key),
			   sizeof(struct ls_caller_val), walk_caller, s);
	if (!err)
		err = ls_read_hash(c, c->skel->maps.holder_sites,
				   sizeof(struct ls_holder_key),
				   sizeof(struct ls_holder_val), walk_holder,
				   s);
	if (err)
		return err;
	c->sites_sorted = 0;
	/* entries forgotten in this read leave the maps after it */
	c->sites_kept = !c->ngone_callers && !c->ngone_holders;
	return 0;
}
