// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* holder.c - the holder side of a lock row: names of holder states, the
 * sampled holder sites, pairs and tids, and their figures (the owner-word
 * classification itself is bpf/decide.h's). */
#include <stddef.h>
#include <string.h>
#include "model/model.h"

static const char *const holder_names[LS_HOLDER_MAX] = {
	[LS_HOLDER_UNKNOWN] = "unknown",
	[LS_HOLDER_RUNNING] = "running",
	[LS_HOLDER_PREEMPTED] = "preempted",
	[LS_HOLDER_SLEEPING] = "sleeping",
	[LS_HOLDER_FREE] = "free",
	[LS_HOLDER_VCPU_PREEMPTED] = "vcpu-preempted",
};

const char *ls_holder_name(unsigned state)
{
	return state < LS_HOLDER_MAX ? holder_names[state] : "?";
}

/*
 * Top-N kept like callers (ls_row_add_caller): an entry not kept yet
 * replaces the last one when it brings more; entries move up as they grow.
 * Generic over the three entry types: @size bytes each, tenure_ns at @off
 * and count right after it; @e is a new entry with both zero, its names
 * not interned yet: @keep interns them once it is kept.
 */
static void add_top(void *arr, unsigned *n, size_t size, size_t off,
		    int (*same)(const void *, const void *),
		    void (*keep)(void *), const void *e, uint64_t tenure,
		    uint64_t count)
{
	char *a = arr, t[sizeof(struct ls_hold_pair)];
	uint64_t *v;
	unsigned i;

	for (i = 0; i < *n; i++)
		if (same(a + i * size, e))
			break;
	if (i == *n) {
		if (*n < LS_ROW_HOLDERS) {
			(*n)++;
		} else {
			i = LS_ROW_HOLDERS - 1;
			if (*(const uint64_t *)(a + i * size + off) >= tenure)
				return;
		}
		memcpy(a + i * size, e, size);
		if (keep)
			keep(a + i * size);
	}
	v = (uint64_t *)(a + i * size + off);
	v[0] += tenure;
	v[1] += count;
	while (i > 0 && *(uint64_t *)(a + i * size + off) >
				*(uint64_t *)(a + (i - 1) * size + off)) {
		memcpy(t, a + i * size, size);
		memcpy(a + i * size, a + (i - 1) * size, size);
		memcpy(a + (i - 1) * size, t, size);
		i--;
	}
}

/* Names as kept: at most LS_FN_MAX - 1 bytes of them. */
static int same_fn(const char *a, const char *b)
{
	return !strncmp(a, b, LS_FN_MAX - 1);
}

static int same_site(const void *a, const void *b)
{
	return same_fn(((const struct ls_hold_site *)a)->fn,
		       ((const struct ls_hold_site *)b)->fn);
}

static void keep_site(void *e)
{
	struct ls_hold_site *x = e;

	x->fn = ls_intern_fn(x->fn);
}

static int same_pair(const void *a, const void *b)
{
	const struct ls_hold_pair *x = a, *y = b;

	return same_fn(x->waiter, y->waiter) && same_fn(x->holder, y->holder);
}

static void keep_pair(void *e)
{
	struct ls_hold_pair *x = e;

	x->waiter = ls_intern_fn(x->waiter);
	x->holder = ls_intern_fn(x->holder);
}

static int same_tid(const void *a, const void *b)
{
	return ((const struct ls_hold_tid *)a)->tid ==
	       ((const struct ls_hold_tid *)b)->tid;
}

void ls_row_add_holder(struct ls_row *r, const char *holder_fn,
		       const char *waiter_fn, uint32_t tid, uint64_t tenure_ns,
		       uint64_t count)
{
	struct ls_hold_site site = {0};
	struct ls_hold_tid ht = {.tid = tid};

	r->hold_sampled_ns += tenure_ns;
	r->hold_sampled += count;
	site.fn = holder_fn;
	add_top(r->hsites, &r->nhsites, sizeof(site),
		offsetof(struct ls_hold_site, tenure_ns), same_site, keep_site,
		&site, tenure_ns, count);
	add_top(r->htids, &r->nhtids, sizeof(ht),
		offsetof(struct ls_hold_tid, tenure_ns), same_tid, NULL, &ht,
		tenure_ns, count);
	if (waiter_fn) {
		struct ls_hold_pair p = {0};

		p.waiter = waiter_fn;
		p.holder = holder_fn;
		add_top(r->hpairs, &r->nhpairs, sizeof(p),
			offsetof(struct ls_hold_pair, tenure_ns), same_pair,
			keep_pair, &p, tenure_ns, count);
	}
}

void ls_row_fold_holders(struct ls_row *d, const struct ls_row *s)
{
	d->hold_sampled_ns += s->hold_sampled_ns;
	d->hold_sampled += s->hold_sampled;
	for (unsigned i = 0; i < s->nhsites; i++)
		add_top(d->hsites, &d->nhsites, sizeof(d->hsites[0]),
			offsetof(struct ls_hold_site, tenure_ns), same_site,
			keep_site,
			&(struct ls_hold_site){.fn = s->hsites[i].fn},
			s->hsites[i].tenure_ns, s->hsites[i].count);
	for (unsigned i = 0; i < s->nhpairs; i++)
		add_top(d->hpairs, &d->nhpairs, sizeof(d->hpairs[0]),
			offsetof(struct ls_hold_pair, tenure_ns), same_pair,
			keep_pair,
			&(struct ls_hold_pair){.waiter = s->hpairs[i].waiter,
					       .holder = s->hpairs[i].holder},
			s->hpairs[i].tenure_ns, s->hpairs[i].count);
	for (unsigned i = 0; i < s->nhtids; i++)
		add_top(d->htids, &d->nhtids, sizeof(d->htids[0]),
			offsetof(struct ls_hold_tid, tenure_ns), same_tid, NULL,
			&(struct ls_hold_tid){.tid = s->htids[i].tid},
			s->htids[i].tenure_ns, s->htids[i].count);
}

double ls_row_preempted_pct(const struct ls_row *r)
{
	uint64_t all = 0;

	if (!ls_kind_has_owner(r->key.kind))
		return -1.0;
	for (unsigned i = 0; i < LS_HOLDER_MAX; i++)
		all += r->st.holder_waits[i];
	return all ? 100.0 * (double)r->st.holder_waits[LS_HOLDER_PREEMPTED] /
			       (double)all
		   : -1.0;
}

uint64_t ls_row_tenures(const struct ls_row *r)
{
	uint64_t n = 0;

	for (unsigned i = 0; i < LS_HIST_SLOTS; i++)
		n += r->hi.hist_tenure[i];
	return n;
}
