// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* prom_series.c - which lock goes into which Prometheus series: a bounded
 * set of sticky series, ranked by recent wait with hysteresis, the rest
 * summed into lock="other" of their kind; every exported counter only grows.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "export/prom_series.h"

void ls_prom_init(struct ls_prom *p, unsigned max_series, int with_addr,
		  double interval_s)
{
	memset(p, 0, sizeof(*p));
	p->max_series = max_series;
	p->with_addr = with_addr;
	if (interval_s <= 0)
		interval_s = 1;
	p->decay = pow(0.5, interval_s / LS_PROM_HALF_LIFE_S);
	p->min_age = (uint64_t)ceil(LS_PROM_MIN_AGE_S / interval_s);
	for (unsigned k = 0; k < LS_KIND_MAX; k++) {
		struct ls_prom_series *o = &p->other[k];

		snprintf(o->lock, sizeof(o->lock), "other");
		snprintf(o->kind, sizeof(o->kind), "%s", ls_kind_name(k));
		snprintf(o->caller, sizeof(o->caller), "other");
	}
}

void ls_prom_free(struct ls_prom *p)
{
	for (size_t i = 0; i < p->nslots; i++)
		free(p->slots[i].base);
	free(p->series);
	free(p->slots);
	memset(p, 0, sizeof(*p));
}

uint64_t ls_prom_interval_peak(const struct ls_row *r, uint64_t epoch)
{
	/* No waiter arrived during the interval: the peak is who was
	 * already waiting, still waiting now. */
	if (r->st.peak_epoch == epoch)
		return r->st.peak_waiters;
	return r->st.waiters > 0 ? (uint64_t)r->st.waiters : 0;
}

static int cmp_slot(const void *a, const void *b)
{
	return ls_key_cmp(&((const struct ls_prom_slot *)a)->key,
			  &((const struct ls_prom_slot *)b)->key);
}

/* Slot of @key among the first @n (sorted) slots, or NULL. */
static struct ls_prom_slot *find_slot(const struct ls_prom *p, size_t n,
				      const struct ls_lock_key *key)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = ls_key_cmp(&p->slots[mid].key, key);

		if (!c)
			return &p->slots[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

static const char *row_caller(const struct ls_row *r)
{
	return r->ncallers ? r->callers[0].fn : "unknown";
}

static unsigned row_kind(const struct ls_row *r)
{
	return r->key.kind < LS_KIND_MAX ? r->key.kind : 0;
}

/* A row is named well enough to freeze its labels: it has a caller, or a
 * name of its own (symbol, known lock), or it waited long enough. */
static int row_ready(const struct ls_row *r, uint32_t rounds)
{
	return r->ncallers || !strstr(r->name, "@?") ||
	       rounds + 1 >= LS_PROM_PENDING_ROUNDS;
}

/* The class a chain's blocked_on label gives lock @name (@cls its class,
 * "" if none): one of the first LS_PROM_CHAIN_TO met, else "other". */
static unsigned chain_to(struct ls_prom *p, const char *cls)
{
	for (unsigned i = 0; i < p->nchain_to; i++)
		if (!strcmp(p->chain_to[i], cls))
			return i;
	if (p->nchain_to == LS_PROM_CHAIN_TO)
		return LS_PROM_CHAIN_TO;
	snprintf(p->chain_to[p->nchain_to], sizeof(p->chain_to[0]), "%s", cls);
	return p->nchain_to++;
}

static void counts_of(struct ls_prom *p, const struct ls_snapshot *s,
		      const struct ls_row *r, struct ls_prom_counts *c)
{
	size_t idx[LS_PROM_CHAIN_ROWS], total,
		n = ls_chains_ranked(s, &r->key, idx, LS_PROM_CHAIN_ROWS,
				     &total);

	memset(c->chain_ns, 0, sizeof(c->chain_ns));
	for (size_t i = 0; i < n; i++) {
		const struct ls_chainrow *ch = &s->chains[idx[i]];

		c->chain_ns[chain_to(p, ch->next_cls)] += ch->v.wait_ns;
	}
	c->contentions = r->st.contentions;
	c->total_ns = r->st.total_ns;
	c->spin_ns = r->st.spin_ns;
	c->sleep_ns = r->st.sleep_ns;
	c->spin_won = r->st.spin_won;
	c->spin_failed = r->st.spin_failed;
	c->gave_up = r->st.gave_up;
	c->osq_ns = r->st.osq_ns;
	c->osq_calls = r->st.osq_calls;
	c->osq_bailouts = r->st.osq_bailouts;
	c->osq_prev_preempted = r->osq_prev_preempted;
	c->slow_ns = r->st.slow_ns;
	c->slow_calls = r->st.slow_calls;
	memcpy(c->hist, r->hi.hist, sizeof(c->hist));
	memcpy(c->holder_waits, r->st.holder_waits, sizeof(c->holder_waits));
	memcpy(c->holder_ns, r->st.holder_ns, sizeof(c->holder_ns));
	c->tenure_ns = r->st.tenure_ns;
}

static uint64_t sub(uint64_t a, uint64_t b)
{
	return a > b ? a - b : 0;
}

/* @out += @cur - @base (@base NULL: zero). */
static void counts_add(struct ls_prom_counts *out,
		       const struct ls_prom_counts *cur,
		       const struct ls_prom_counts *base)
{
	static const struct ls_prom_counts zero;

	if (!base)
		base = &zero;
	out->contentions += sub(cur->contentions, base->contentions);
	out->total_ns += sub(cur->total_ns, base->total_ns);
	out->spin_ns += sub(cur->spin_ns, base->spin_ns);
	out->sleep_ns += sub(cur->sleep_ns, base->sleep_ns);
	out->spin_won += sub(cur->spin_won, base->spin_won);
	out->spin_failed += sub(cur->spin_failed, base->spin_failed);
	out->gave_up += sub(cur->gave_up, base->gave_up);
	out->osq_ns += sub(cur->osq_ns, base->osq_ns);
	out->osq_calls += sub(cur->osq_calls, base->osq_calls);
	out->osq_bailouts += sub(cur->osq_bailouts, base->osq_bailouts);
	out->osq_prev_preempted +=
		sub(cur->osq_prev_preempted, base->osq_prev_preempted);
	out->slow_ns += sub(cur->slow_ns, base->slow_ns);
	out->slow_calls += sub(cur->slow_calls, base->slow_calls);
	for (unsigned i = 0; i < LS_HIST_SLOTS; i++)
		out->hist[i] += sub(cur->hist[i], base->hist[i]);
	for (unsigned i = 0; i < LS_HOLDER_MAX; i++) {
		out->holder_waits[i] +=
			sub(cur->holder_waits[i], base->holder_waits[i]);
		out->holder_ns[i] += sub(cur->holder_ns[i], base->holder_ns[i]);
	}
	out->tenure_ns += sub(cur->tenure_ns, base->tenure_ns);
	for (unsigned i = 0; i <= LS_PROM_CHAIN_TO; i++)
		out->chain_ns[i] += sub(cur->chain_ns[i], base->chain_ns[i]);
}

/* From now on only @r's increments count where it goes next. */
static int rebase(struct ls_prom *p, const struct ls_snapshot *s,
		  struct ls_prom_slot *sl, const struct ls_row *r)
{
	if (!sl->base) {
		sl->base = malloc(sizeof(*sl->base));
		if (!sl->base)
			return -ENOMEM;
	}
	counts_of(p, s, r, sl->base);
	return 0;
}

/* Own series of @r's label set, existing or new; -1 when none is free. */
static int32_t series_for(struct ls_prom *p, const struct ls_row *r)
{
	const char *kind = ls_kind_name(r->key.kind);
	const char *caller = row_caller(r);
	struct ls_prom_series *s;
	int32_t free_idx = -1;

	for (size_t i = 0; i < p->max_series; i++) {
		s = &p->series[i];
		if (!s->used) {
			if (free_idx < 0)
				free_idx = (int32_t)i;
			continue;
		}
		if (!strcmp(s->lock, r->name) && !strcmp(s->kind, kind) &&
		    !strcmp(s->caller, caller) &&
		    (!p->with_addr || s->addr == r->key.addr))
			return (int32_t)i;
	}
	if (free_idx < 0)
		return -1;
	s = &p->series[free_idx];
	memset(s, 0, sizeof(*s));
	snprintf(s->lock, sizeof(s->lock), "%s", r->name);
	snprintf(s->kind, sizeof(s->kind), "%s", kind);
	snprintf(s->caller, sizeof(s->caller), "%s", caller);
	s->addr = p->with_addr ? r->key.addr : 0;
	s->used = 1;
	s->born = p->round;
	p->nseries++;
	return free_idx;
}

static int cmp_cand(const void *a, const void *b, void *arg)
{
	const struct ls_snapshot *s = arg;
	const struct ls_row *x = &s->rows[*(const size_t *)a];
	const struct ls_row *y = &s->rows[*(const size_t *)b];

	if (x->st.total_ns != y->st.total_ns)
		return x->st.total_ns > y->st.total_ns ? -1 : 1;
	return ls_key_cmp(&x->key, &y->key);
}

/* Give new (and pending) locks a place: own series while any is free, the
 * largest total wait first, else "other".  Returns 0 or -ENOMEM. */
static int admit(struct ls_prom *p, const struct ls_snapshot *s, size_t nsorted)
{
	size_t ncand = 0, *cand;

	cand = malloc((s->nrows ? s->nrows : 1) * sizeof(*cand));
	if (!cand)
		return -ENOMEM;
	for (size_t i = 0; i < s->nrows; i++) {
		struct ls_prom_slot *sl =
			find_slot(p, nsorted, &s->rows[i].key);

		if (!sl || sl->series == LS_PROM_PENDING)
			cand[ncand++] = i;
	}
	if (ncand > 1)
		qsort_r(cand, ncand, sizeof(*cand), cmp_cand, (void *)s);
	for (size_t c = 0; c < ncand; c++) {
		const struct ls_row *r = &s->rows[cand[c]];
		struct ls_prom_slot *sl = find_slot(p, nsorted, &r->key);
		int32_t idx;

		if (!sl) {
			sl = &p->slots[p->nslots++];
			memset(sl, 0, sizeof(*sl));
			sl->key = r->key;
			sl->series = LS_PROM_PENDING;
		}
		if (!row_ready(r, sl->rounds)) {
			sl->rounds++;
			continue;
		}
		/* Everything it did so far goes with it: nobody counted it. */
		idx = p->max_series ? series_for(p, r) : -1;
		sl->series = idx >= 0 ? idx : LS_PROM_OTHER;
	}
	free(cand);
	if (p->nslots > nsorted)
		qsort(p->slots, p->nslots, sizeof(*p->slots), cmp_slot);
	return 0;
}

/* Move the strongest lock of "other" into an own series: a free one, or
 * the place of the weakest series old enough to give way when the lock
 * waited more than twice as long recently.  Returns 1 when something
 * moved, 0 when not, or -ENOMEM. */
static int swap_one(struct ls_prom *p, const struct ls_snapshot *s)
{
	const struct ls_row *best = NULL;
	struct ls_prom_slot *best_sl = NULL;
	struct ls_prom_series *weak = NULL;
	int32_t weak_idx = -1, idx;

	for (size_t i = 0; i < p->max_series; i++)
		p->series[i].score = 0;
	for (size_t i = 0; i < s->nrows; i++) {
		const struct ls_row *r = &s->rows[i];
		struct ls_prom_slot *sl = find_slot(p, p->nslots, &r->key);

		if (!sl || sl->series == LS_PROM_PENDING)
			continue;
		if (sl->series >= 0) {
			p->series[sl->series].score += sl->score;
		} else if (!best || sl->score > best_sl->score) {
			best = r;
			best_sl = sl;
		}
	}
	if (!best || best_sl->score <= 0)
		return 0;
	if (p->nseries < p->max_series)
		goto promote; /* a series is free */
	for (size_t i = 0; i < p->max_series; i++) {
		struct ls_prom_series *c = &p->series[i];

		if (!c->used || p->round < c->born + p->min_age)
			continue;
		if (!weak || c->score < weak->score) {
			weak = c;
			weak_idx = (int32_t)i;
		}
	}
	if (!weak || best_sl->score <= 2 * weak->score)
		return 0;
	/* Demote: the weak series' locks count in "other" from now on. */
	for (size_t i = 0; i < s->nrows; i++) {
		const struct ls_row *r = &s->rows[i];
		struct ls_prom_slot *sl = find_slot(p, p->nslots, &r->key);

		if (!sl || sl->series != weak_idx)
			continue;
		if (rebase(p, s, sl, r))
			return -ENOMEM;
		sl->series = LS_PROM_OTHER;
	}
	weak->used = 0;
	p->nseries--;
	p->demoted++;
promote:
	/* Promote: what it did in "other" stays there. */
	{
		struct ls_prom_counts cur;

		counts_of(p, s, best, &cur);
		counts_add(&p->other[row_kind(best)].frozen, &cur,
			   best_sl->base);
	}
	if (rebase(p, s, best_sl, best))
		return -ENOMEM;
	idx = series_for(p, best);
	best_sl->series = idx >= 0 ? idx : LS_PROM_OTHER;
	p->promoted++;
	return 1;
}

/* What @r counted in @sl's series so far stays there once it is gone. */
static void fold(struct ls_prom *p, const struct ls_snapshot *last,
		 const struct ls_prom_slot *sl, const struct ls_row *r)
{
	struct ls_prom_counts cur;
	struct ls_prom_series *to = sl->series >= 0 ? &p->series[sl->series]
						    : &p->other[row_kind(r)];

	counts_of(p, last, r, &cur);
	counts_add(&to->frozen, &cur, sl->base);
}

/*
 * Locks that left the tables since @last: a slot whose key is not in @s
 * any more, or is there in another lock_rows slot (forgotten and made
 * again, its counters from zero), keeps what its lock counted in its
 * series; the first kind of slot goes, the second starts over.  A class
 * row (--by class) takes the lock_rows slot of its first instance, which
 * may change: only a lock's row counts as made again.  A lock
 * still pending was never exported: it goes into "other" of its kind.
 */
static void drop_gone(struct ls_prom *p, const struct ls_snapshot *s,
		      const struct ls_snapshot *last)
{
	size_t keep = 0;

	for (size_t i = 0; i < p->nslots; i++)
		p->slots[i].now = 0;
	for (size_t i = 0; i < s->nrows; i++) {
		struct ls_prom_slot *sl =
			find_slot(p, p->nslots, &s->rows[i].key);

		if (sl)
			sl->now = i + 1;
	}
	for (size_t i = 0; i < p->nslots; i++) {
		struct ls_prom_slot *sl = &p->slots[i];
		const struct ls_row *r =
			sl->row < last->nrows ? &last->rows[sl->row] : NULL;

		if (r && ls_key_cmp(&r->key, &sl->key))
			r = NULL;
		if (sl->now && (!r || s->rows[sl->now - 1].instances ||
				s->rows[sl->now - 1].st.slot == sl->row_slot)) {
			p->slots[keep++] = *sl;
			continue;
		}
		if (r && sl->series == LS_PROM_PENDING)
			sl->series = LS_PROM_OTHER;
		if (r)
			fold(p, last, sl, r);
		free(sl->base);
		sl->base = NULL;
		if (!sl->now)
			continue; /* gone */
		/* made again: counts from zero, in the same series */
		sl->last_total = 0;
		p->slots[keep++] = *sl;
	}
	p->nslots = keep;
}

static void add_row(struct ls_prom *p, const struct ls_snapshot *snap,
		    struct ls_prom_series *s, const struct ls_row *r,
		    const struct ls_prom_slot *sl, uint64_t epoch)
{
	uint64_t peak = ls_prom_interval_peak(r, epoch);
	struct ls_prom_counts cur;

	counts_of(p, snap, r, &cur);
	counts_add(&s->c, &cur, sl->base);
	s->nlocks++;
	s->waiters += r->st.waiters > 0 ? (uint64_t)r->st.waiters : 0;
	if (peak > s->peak_waiters)
		s->peak_waiters = peak;
}

static void clear_sums(struct ls_prom_series *s)
{
	s->c = s->frozen;
	s->nlocks = 0;
	s->waiters = s->peak_waiters = 0;
}

int ls_prom_update(struct ls_prom *p, const struct ls_snapshot *s,
		   const struct ls_snapshot *last)
{
	size_t nsorted;
	int err;

	if (last)
		drop_gone(p, s, last);
	nsorted = p->nslots;

	/* Room for every row as a new slot. */
	if (p->nslots + s->nrows > p->slots_cap) {
		size_t cap = p->nslots + s->nrows + 64;
		struct ls_prom_slot *n = realloc(p->slots, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		p->slots = n;
		p->slots_cap = cap;
	}
	if (!p->series && p->max_series) {
		p->series = calloc(p->max_series, sizeof(*p->series));
		if (!p->series)
			return -ENOMEM;
	}
	p->round++;
	err = admit(p, s, nsorted);
	if (err)
		return err;
	/* Recent wait of every lock: a decaying sum of its increments. */
	for (size_t i = 0; i < s->nrows; i++) {
		const struct ls_row *r = &s->rows[i];
		struct ls_prom_slot *sl = find_slot(p, p->nslots, &r->key);

		if (!sl)
			continue;
		sl->score = sl->score * p->decay +
			    (double)sub(r->st.total_ns, sl->last_total);
		sl->last_total = r->st.total_ns;
	}
	for (int n = 0; p->max_series && n < LS_PROM_MAX_SWAPS; n++) {
		err = swap_one(p, s);
		if (err < 0)
			return err;
		if (!err)
			break;
	}

	/* Sums, from scratch: every counter is the sum of its locks'. */
	for (size_t i = 0; i < p->max_series; i++)
		clear_sums(&p->series[i]);
	for (unsigned k = 0; k < LS_KIND_MAX; k++)
		clear_sums(&p->other[k]);
	p->nrows = s->nrows;
	p->npending = p->nother = 0;
	p->epoch = s->epoch;
	for (size_t i = 0; i < s->nrows; i++) {
		const struct ls_row *r = &s->rows[i];
		struct ls_prom_slot *sl = find_slot(p, p->nslots, &r->key);

		if (sl) {
			sl->row = i;
			sl->row_slot = r->st.slot;
		}
		if (!sl || sl->series == LS_PROM_PENDING) {
			p->npending++;
			continue;
		}
		if (sl->series == LS_PROM_OTHER) {
			p->nother++;
			add_row(p, s, &p->other[row_kind(r)], r, sl, s->epoch);
		} else {
			add_row(p, s, &p->series[sl->series], r, sl, s->epoch);
		}
	}
	return 0;
}
