// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * compare.c - means, standard deviations and changes between two sides,
 * each metric's test and its verdict.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analysis/compare.h"

void ls_mean_sd(const double *v, size_t n, double *mean, double *sd)
{
	double m = 0, ss = 0;

	for (size_t i = 0; i < n; i++)
		m += v[i];
	m = n ? m / (double)n : 0.0;
	for (size_t i = 0; i < n; i++)
		ss += (v[i] - m) * (v[i] - m);
	*mean = m;
	*sd = n > 1 ? sqrt(ss / (double)(n - 1)) : 0.0;
}

double ls_pct_change(double base, double new_v)
{
	if (base == 0)
		return new_v == 0 ? 0.0 : new_v > 0 ? INFINITY : -INFINITY;
	return 100.0 * (new_v - base) / fabs(base);
}

double ls_sd_pct(double mean, double sd)
{
	return mean != 0 ? 100.0 * sd / fabs(mean) : 0.0;
}

/* One metric value of one run, for sorting all runs' metrics by key. */
struct entry {
	const struct ls_stat *st;
	unsigned side;
	size_t run;
};

static int cmp_entry(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;
	int c = strcmp(x->st->key, y->st->key);

	if (c)
		return c;
	if (x->side != y->side)
		return x->side < y->side ? -1 : 1;
	return x->run < y->run ? -1 : x->run > y->run;
}

static int cmp_row(const void *a, const void *b)
{
	const struct ls_cmp_row *x = a, *y = b;
	double ax = fabs(x->change_pct), ay = fabs(y->change_pct);

	if (ax != ay)
		return ax > ay ? -1 : 1;
	return strcmp(x->id.key, y->id.key);
}

static const char *const verdict_names[] = {
	[LS_VERDICT_UNCHANGED] = "unchanged",
	[LS_VERDICT_WORSE] = "worse",
	[LS_VERDICT_BETTER] = "better",
	[LS_VERDICT_SMALL] = "small",
	[LS_VERDICT_FEW_RUNS] = "few runs",
	[LS_VERDICT_FEW_EVENTS] = "few events",
	[LS_VERDICT_MINOR] = "minor",
	[LS_VERDICT_MIXED] = "mixed",
};

const char *ls_verdict_name(enum ls_verdict v)
{
	return v < LS_VERDICT_MAX ? verdict_names[v] : "?";
}

/* The values of one metric in every run of both sides, their standard
 * errors (0: exact or absent) and kinds of figure. */
struct runs_of {
	double *v[2], *se[2];
	enum ls_metric_est *est[2];
};

/* Means, spreads and the test of one metric; the verdict comes later. */
static void finish_row(struct ls_cmp_row *r, const struct runs_of *x,
		       const size_t runs[2], const double events[2])
{
	struct ls_welch w;
	double quantum = r->id.type == LS_METRIC_GAUGE ? 1 : 0;

	for (int s = 0; s < 2; s++) {
		double ss = 0;

		ls_mean_sd(x->v[s], runs[s], &r->mean[s], &r->sd[s]);
		r->events[s] = events[s] / (double)runs[s];
		for (size_t i = 0; i < runs[s]; i++) {
			ss += x->se[s][i] * x->se[s][i];
			r->nest[s] += x->est[s][i] != LS_MEST_EXACT;
			if (x->est[s][i] > r->est[s])
				r->est[s] = x->est[s][i];
		}
		r->se[s] = sqrt(ss / (double)runs[s]);
	}
	r->presence = !r->present[LS_SIDE_BASE]	 ? LS_CMP_ONLY_NEW
		      : !r->present[LS_SIDE_NEW] ? LS_CMP_ONLY_BASE
						 : LS_CMP_BOTH;
	r->change_pct = ls_pct_change(r->mean[0], r->mean[1]);
	r->res.p = r->res.p_adj = NAN;
	r->res.effect_pct = r->res.lo_pct = r->res.hi_pct = r->res.df = NAN;
	if (ls_welch_test_se(x->v[0], x->se[0], runs[0], x->v[1], x->se[1],
			     runs[1], quantum, &w))
		return; /* a side with one run: no spread, no test */
	r->res.tested = 1;
	r->res.scale = w.scale;
	r->res.effect_pct = w.effect_pct;
	/* no metric is negative: a fall is at most -100% */
	r->res.lo_pct = w.lo_pct < -100 ? -100 : w.lo_pct;
	r->res.hi_pct = w.hi_pct;
	r->res.p = w.p;
	r->res.df = w.df;
}

static int all_zero(double *const vals[2], const size_t runs[2])
{
	for (int s = 0; s < 2; s++)
		for (size_t i = 0; i < runs[s]; i++)
			if (vals[s][i] != 0)
				return 0;
	return 1;
}

static const struct ls_cmp_row *find_row(const struct ls_cmp *c,
					 const char *key)
{
	size_t lo = 0, hi = c->n;

	while (lo < hi) { /* rows are in key order until the final sort */
		size_t mid = lo + (hi - lo) / 2;
		int d = strcmp(c->rows[mid].id.key, key);

		if (!d)
			return &c->rows[mid];
		if (d < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* Share in percent of the lock's @metric in the run's, the larger side. */
static double lock_share(const struct ls_cmp *c, const struct ls_stat *id,
			 const char *metric)
{
	char key[LS_KEY_MAX + 32], lid[LS_NAME_MAX + 24];
	const struct ls_cmp_row *l, *all;
	double share = 0;

	ls_lock_id(id->lock, (unsigned)id->kind, lid, sizeof(lid));
	snprintf(key, sizeof(key), "lockscope.%s.%s", lid, metric);
	l = find_row(c, key);
	snprintf(key, sizeof(key), "lockscope.%s", metric);
	all = find_row(c, key);
	for (int s = 0; l && all && s < 2; s++)
		if (all->mean[s] > 0 && 100 * l->mean[s] / all->mean[s] > share)
			share = 100 * l->mean[s] / all->mean[s];
	return share;
}

/* A figure of the timed waits only in some runs and of every wait in
 * others (runs without the lock say nothing either way). */
static int mixed(const struct ls_cmp_row *r)
{
	int timed = 0, exact = 0;

	for (int s = 0; s < 2; s++) {
		timed |= r->est[s] == LS_MEST_TIMED;
		exact |= r->nest[s] < r->present[s];
	}
	return timed && exact;
}

/* Mark the rows of minor locks, of figures an exact run and a budget run
 * cannot share, and of metrics resting on few events. */
static void mark_left_out(struct ls_cmp *c)
{
	for (size_t i = 0; i < c->n; i++) {
		struct ls_cmp_row *r = &c->rows[i];

		r->minor =
			r->id.kind >= 0 &&
			lock_share(c, &r->id, "contentions") < c->min_share &&
			lock_share(c, &r->id, "wait_time.total.ms") <
				c->min_share;
		if (r->minor) {
			r->res.verdict = LS_VERDICT_MINOR;
			if (!strcmp(r->id.metric, "contentions"))
				c->nminor_locks++;
		} else if (mixed(r)) {
			r->res.verdict = LS_VERDICT_MIXED;
			c->nmixed++;
		} else if (fmax(r->events[0], r->events[1]) <
			   LS_CMP_MIN_EVENTS) {
			r->res.verdict = LS_VERDICT_FEW_EVENTS;
			c->nfew_events++;
		} else if (!r->res.tested || c->runs[0] < LS_STATS_MIN_RUNS ||
			   c->runs[1] < LS_STATS_MIN_RUNS) {
			r->res.verdict = LS_VERDICT_FEW_RUNS;
		}
	}
}

/* Beyond the threshold: the effect, and a gauge by one whole unit. */
static int beyond_threshold(const struct ls_cmp *c, const struct ls_cmp_row *r)
{
	/* NAN: the base is 0, an infinite relative change */
	if (!isnan(r->res.effect_pct) &&
	    !(fabs(r->res.effect_pct) > c->threshold))
		return 0;
	return r->id.type != LS_METRIC_GAUGE ||
	       fabs(r->mean[1] - r->mean[0]) >= 1;
}

/* Adjust the p-values of the metrics tested together; give verdicts. */
static int decide(struct ls_cmp *c)
{
	double *p = calloc(c->n ? c->n : 1, sizeof(double));

	if (!p)
		return -ENOMEM;
	for (size_t i = 0; i < c->n; i++) {
		const struct ls_cmp_row *r = &c->rows[i];
		int in = r->res.tested &&
			 (r->res.verdict == LS_VERDICT_UNCHANGED ||
			  r->res.verdict == LS_VERDICT_FEW_RUNS);

		p[i] = in ? r->res.p : NAN;
		c->ntested += in ? 1 : 0;
	}
	if (ls_bh_adjust(p, c->n, p)) {
		free(p);
		return -ENOMEM;
	}
	for (size_t i = 0; i < c->n; i++) {
		struct ls_cmp_row *r = &c->rows[i];

		r->res.p_adj = p[i];
		if (r->res.verdict != LS_VERDICT_UNCHANGED ||
		    !(p[i] < LS_STATS_ALPHA))
			continue;
		if (!beyond_threshold(c, r))
			r->res.verdict = LS_VERDICT_SMALL;
		else if (r->mean[1] > r->mean[0])
			r->res.verdict = LS_VERDICT_WORSE;
		else
			r->res.verdict = LS_VERDICT_BETTER;
		r->changed = r->res.verdict != LS_VERDICT_SMALL;
		r->regressed = r->res.verdict == LS_VERDICT_WORSE;
		c->nchanged += r->changed ? 1 : 0;
		c->nregressed += r->regressed ? 1 : 0;
	}
	free(p);
	return 0;
}

/* The strings of row @r's id copied into @c's pool (the runs' metrics are
 * freed before the rows); rows of one lock share its name. */
static int keep_strings(struct ls_cmp *c, struct ls_cmp_row *r)
{
	const struct ls_cmp_row *prev = c->n ? &c->rows[c->n - 1] : NULL;

	r->id.lock = prev && !strcmp(prev->id.lock, r->id.lock)
			     ? prev->id.lock
			     : ls_pool_dup(&c->pool, r->id.lock);
	r->id.metric = ls_pool_dup(&c->pool, r->id.metric);
	r->id.key = ls_pool_dup(&c->pool, r->id.key);
	return r->id.lock && r->id.metric && r->id.key ? 0 : -ENOMEM;
}

/* Room for one metric's values in @nb BASE and @nn NEW runs: 0 or
 * -ENOMEM (runs_free() frees what was allocated). */
static int runs_alloc(struct runs_of *x, size_t nb, size_t nn)
{
	const size_t n[2] = {nb, nn};

	for (int s = 0; s < 2; s++) {
		x->v[s] = calloc(n[s], sizeof(double));
		x->se[s] = calloc(n[s], sizeof(double));
		x->est[s] = calloc(n[s], sizeof(*x->est[s]));
		if (!x->v[s] || !x->se[s] || !x->est[s])
			return -ENOMEM;
	}
	return 0;
}

static void runs_clear(struct runs_of *x, const size_t runs[2])
{
	for (int s = 0; s < 2; s++) {
		memset(x->v[s], 0, runs[s] * sizeof(double));
		memset(x->se[s], 0, runs[s] * sizeof(double));
		memset(x->est[s], 0, runs[s] * sizeof(*x->est[s]));
	}
}

static void runs_free(struct runs_of *x)
{
	for (int s = 0; s < 2; s++) {
		free(x->v[s]);
		free(x->se[s]);
		free(x->est[s]);
	}
}

/* A run under --budget: the budget in force, or a lock estimated. */
static int budget_run(const struct ls_rec_snap *s)
{
	for (size_t i = 0; i < s->nlocks; i++)
		if (s->locks[i].estimated)
			return 1;
	return s->budget_pct > 0;
}

int ls_compare(const struct ls_rec *base, size_t nb, const struct ls_rec *nw,
	       size_t nn, double threshold_pct, double min_share_pct,
	       struct ls_cmp *out)
{
	const struct ls_rec *recs[2] = {base, nw};
	size_t runs[2] = {nb, nn}, nent = 0, total = 0;
	struct ls_stats *st = NULL;
	struct entry *ent = NULL;
	struct runs_of x = {0};
	int err = -ENOMEM;

	memset(out, 0, sizeof(*out));
	out->threshold = threshold_pct;
	out->min_share = min_share_pct;
	out->runs[0] = nb;
	out->runs[1] = nn;
	if (!nb || !nn || !base || !nw || !(threshold_pct >= 0) ||
	    !(min_share_pct >= 0))
		return -EINVAL;
	st = calloc(nb + nn, sizeof(*st));
	if (!st || runs_alloc(&x, nb, nn))
		goto out;
	for (unsigned s = 0; s < 2; s++)
		for (size_t i = 0; i < runs[s]; i++) {
			struct ls_stats *y = &st[s ? nb + i : i];

			if (ls_snap_stats(&recs[s][i].totals, y))
				goto out;
			total += y->n;
			out->budget_runs[s] += budget_run(&recs[s][i].totals);
		}
	ent = calloc(total ? total : 1, sizeof(*ent));
	out->rows = calloc(total ? total : 1, sizeof(*out->rows));
	if (!ent || !out->rows)
		goto out;
	for (unsigned s = 0; s < 2; s++)
		for (size_t i = 0; i < runs[s]; i++) {
			struct ls_stats *y = &st[s ? nb + i : i];

			for (size_t k = 0; k < y->n; k++)
				ent[nent++] = (struct entry){&y->v[k], s, i};
		}
	qsort(ent, nent, sizeof(*ent), cmp_entry);
	for (size_t i = 0; i < nent;) {
		struct ls_cmp_row *r = &out->rows[out->n];
		double events[2] = {0, 0};
		size_t j = i;

		runs_clear(&x, runs);
		memset(r, 0, sizeof(*r));
		r->id = *ent[i].st;
		r->id.v = r->id.events = r->id.se = 0;
		for (; j < nent && !strcmp(ent[j].st->key, ent[i].st->key);
		     j++) {
			const struct ls_stat *m = ent[j].st;
			unsigned sd = ent[j].side;
			size_t run = ent[j].run;

			/* a key twice in one run cannot happen after the
			 * reader merged lock classes; sum it anyway */
			x.v[sd][run] += m->v;
			x.se[sd][run] = hypot(x.se[sd][run], m->se);
			if (m->est > x.est[sd][run])
				x.est[sd][run] = m->est;
			events[sd] += m->events;
			if (j == i || ent[j - 1].side != sd ||
			    ent[j - 1].run != run)
				r->present[sd]++;
		}
		i = j;
		finish_row(r, &x, runs, events);
		/* nothing to compare, unless it shows a one-sided lock */
		if (all_zero(x.v, runs) &&
		    (r->presence == LS_CMP_BOTH ||
		     strcmp(r->id.metric, "contentions")))
			continue;
		if (keep_strings(out, r))
			goto out;
		out->n++;
	}
	mark_left_out(out);
	if (decide(out))
		goto out;
	qsort(out->rows, out->n, sizeof(*out->rows), cmp_row);
	err = 0;
out:
	for (size_t i = 0; st && i < nb + nn; i++)
		ls_stats_free(&st[i]);
	free(st);
	free(ent);
	runs_free(&x);
	if (err)
		ls_cmp_free(out);
	return err;
}

void ls_cmp_free(struct ls_cmp *c)
{
	free(c->rows);
	ls_pool_free(&c->pool);
	c->rows = NULL;
	c->n = c->nchanged = c->nregressed = c->ntested = c->nfew_events = 0;
	c->nmixed = 0;
}
