// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * fold.c - --by class: all instances of a lock class (rows of one class
 * and kind: task_struct.pi_lock over every task) folded into one row that
 * says how many locks it stands for, like lockdep classes and illumos
 * `lockstat -c`.  The folded row's key is a hash of its class, the same in
 * every snapshot, so intervals (deltas) and selections follow it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "model/holdtab.h"
#include "model/model.h"

uint64_t ls_class_key(const char *cls, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ULL; /* FNV-1a */

	for (size_t i = 0; i < n && cls[i]; i++)
		h = (h ^ (unsigned char)cls[i]) * 0x100000001b3ULL;
	return h | 1; /* never 0, the "no lock" address */
}

/* The order of two rows' classes, as strcmp() orders strings. */
static int class_cmp(const struct ls_row *x, const struct ls_row *y)
{
	size_t n = x->cls_len < y->cls_len ? x->cls_len : y->cls_len;
	int c = memcmp(x->name, y->name, n);

	if (c || x->cls_len == y->cls_len)
		return c;
	return x->cls_len < y->cls_len ? -1 : 1;
}

static int cmp_class(const void *a, const void *b)
{
	const struct ls_row *x = *(const struct ls_row *const *)a;
	const struct ls_row *y = *(const struct ls_row *const *)b;
	int c = class_cmp(x, y);

	if (c)
		return c;
	if (x->key.kind != y->key.kind)
		return x->key.kind < y->key.kind ? -1 : 1;
	return ls_key_cmp(&x->key, &y->key);
}

static uint64_t max64(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

/* Add row @s to the class row @d: every counter of ls_lock_stats but the
 * extrema, the peaks and the handoff state (test_fold checks each). */
static void fold_row(struct ls_row *d, const struct ls_row *s)
{
	struct ls_lock_stats *a = &d->st;
	const struct ls_lock_stats *b = &s->st;

	a->contentions += b->contentions;
	a->total_ns += b->total_ns;
	a->spin_ns += b->spin_ns;
	a->sleep_ns += b->sleep_ns;
	if (b->min_ns < a->min_ns)
		a->min_ns = b->min_ns;
	a->max_ns = max64(a->max_ns, b->max_ns);
	a->spin_won += b->spin_won;
	a->spin_failed += b->spin_failed;
	a->gave_up += b->gave_up;
	a->begins += b->begins;
	a->waiters += b->waiters;
	a->sampled += b->sampled;
	a->est_weight += b->est_weight;
	a->var_count += b->var_count;
	a->var_total += b->var_total;
	a->var_spin += b->var_spin;
	a->var_sleep += b->var_sleep;
	/* peaks of different locks do not add up: the highest of the latest
	 * interval any of them had */
	if (b->peak_epoch > a->peak_epoch) {
		a->peak_epoch = b->peak_epoch;
		a->peak_waiters = b->peak_waiters;
	} else if (b->peak_epoch == a->peak_epoch) {
		a->peak_waiters = max64(a->peak_waiters, b->peak_waiters);
	}
	a->peak_waiters_all = max64(a->peak_waiters_all, b->peak_waiters_all);
	if (a->known != b->known)
		a->known = LS_KNOWN_NONE;
	a->osq_ns += b->osq_ns;
	a->osq_calls += b->osq_calls;
	a->osq_bailouts += b->osq_bailouts;
	a->osq_spinners += b->osq_spinners;
	a->osq_peak = max64(a->osq_peak, b->osq_peak);
	a->slow_ns += b->slow_ns;
	a->slow_calls += b->slow_calls;
	a->slow_untraced_ns += b->slow_untraced_ns;
	for (unsigned i = 0; i < LS_HOLDER_MAX; i++) {
		a->holder_waits[i] += b->holder_waits[i];
		a->holder_ns[i] += b->holder_ns[i];
	}
	a->tenure_ns += b->tenure_ns;
	a->tenure_unsampled_ns += b->tenure_unsampled_ns;
	a->tenure_unseen_ns += b->tenure_unseen_ns;
	for (unsigned i = 0; i < LS_HIST_SLOTS; i++) {
		d->hi.hist[i] += s->hi.hist[i];
		d->hi.hist_spin[i] += s->hi.hist_spin[i];
		d->hi.hist_sleep[i] += s->hi.hist_sleep[i];
		d->hi.hist_tenure[i] += s->hi.hist_tenure[i];
	}
	ls_row_fold_holders(d, s);
	d->caller_wait_ns += s->caller_wait_ns;
	d->chain_waits += s->chain_waits;
	d->chain_ns += s->chain_ns;
	d->max_bound |= s->max_bound;
	for (unsigned i = 0; i < s->ncallers; i++)
		ls_row_add_caller(d, s->callers[i].fn, s->callers[i].samples);
	/* samples of callers beyond the kept ones still count */
	d->caller_samples += s->caller_samples;
	for (unsigned i = 0; i < s->ncallers; i++)
		d->caller_samples -= s->callers[i].samples;
	d->instances += s->instances ? s->instances : 1;
	d->osq_prev_read += s->osq_prev_read;
	d->osq_prev_preempted += s->osq_prev_preempted;
}

/* --hold: add the holds of instance @k of @s to those of its class row
 * @d in @t (its entry, once made, is the last one); 0 or -ENOMEM. */
static int fold_hold(struct ls_holdtab *t, const struct ls_row *d,
		     const struct ls_snapshot *s, const struct ls_lock_key *k)
{
	const struct ls_hold_stats *h = ls_snap_hold(s, k);
	struct ls_holdrow *e = t->n ? &t->v[t->n - 1] : NULL;

	if (!h)
		return 0;
	if (!e || ls_key_cmp(&e->key, &d->key))
		e = ls_holdtab_add(t, &(struct ls_holdrow){.key = d->key});
	if (!e)
		return -ENOMEM;
	for (unsigned m = 0; m < LS_HOLD_MODES; m++)
		ls_hold_add(&e->hold[m], &h[m]);
	return 0;
}

/* Add chain @s's figures to @d's (the same class, next and root). */
static void chain_fold(struct ls_chain_val *d, const struct ls_chain_val *s)
{
	d->waits += s->waits;
	d->wait_ns += s->wait_ns;
	d->cycles += s->cycles;
	d->capped += s->capped;
	for (unsigned h = 0; h < LS_HOLDER_MAX; h++)
		d->root_waits[h] += s->root_waits[h];
	if (s->max_depth > d->max_depth)
		d->max_depth = s->max_depth;
	d->flags |= s->flags;
}

/* The chains of @s's rows (still the instances) keyed by their class, like
 * the rows they will fold into: chains of two instances to the same next
 * and root become one. */
static void fold_chains(struct ls_snapshot *s)
{
	size_t keep = 0;

	if (!s->nchains)
		return;
	if (s->kidx_n != s->nrows)
		ls_snap_index(s);
	for (size_t i = 0; i < s->nchains; i++) {
		struct ls_chainrow *c = &s->chains[i];
		const struct ls_row *r = ls_snap_find(s, &c->key);

		if (r)
			c->key.addr = ls_class_key(r->name, r->cls_len);
	}
	qsort(s->chains, s->nchains, sizeof(*s->chains), ls_chain_cmp);
	for (size_t i = 0; i < s->nchains; i++) {
		if (keep && !ls_chain_cmp(&s->chains[keep - 1], &s->chains[i]))
			chain_fold(&s->chains[keep - 1].v, &s->chains[i].v);
		else if (keep++ != i)
			s->chains[keep - 1] = s->chains[i];
	}
	s->nchains = keep;
}

int ls_snap_fold_class(struct ls_snapshot *s)
{
	struct ls_row **by = malloc((s->nrows ? s->nrows : 1) * sizeof(*by));
	struct ls_row *out = malloc((s->nrows ? s->nrows : 1) * sizeof(*out));
	struct ls_holdtab holds = {0};
	size_t n = 0;
	int err = 0;

	if (!by || !out) {
		free(by);
		free(out);
		return -ENOMEM;
	}
	fold_chains(s);
	for (size_t i = 0; i < s->nrows; i++)
		by[i] = &s->rows[i];
	qsort(by, s->nrows, sizeof(*by), cmp_class);
	for (size_t i = 0; i < s->nrows && !err; i++) {
		struct ls_row *d = n ? &out[n - 1] : NULL;

		if (d && !class_cmp(d, by[i]) &&
		    d->key.kind == by[i]->key.kind) {
			fold_row(d, by[i]);
		} else {
			d = &out[n++];
			*d = *by[i];
			d->instances = d->instances ? d->instances : 1;
			d->pcpu = 0;
			d->key.addr = ls_class_key(d->name, d->cls_len);
			d->name[d->cls_len] = '\0'; /* its class */
		}
		err = fold_hold(&holds, d, s, &by[i]->key);
	}
	free(by);
	if (err) {
		free(out);
		ls_holdtab_free(&holds);
		return err;
	}
	ls_holdtab_free(&s->holds);
	s->holds = holds;
	free(s->rows);
	s->rows = out;
	s->cap = s->nrows ? s->nrows : 1;
	s->nrows = n;
	s->kidx_n = 0;
	s->live = NULL; /* rows of classes, not of locks */
	ls_snap_index(s);
	return 0;
}
