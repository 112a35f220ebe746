// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * estimate.c - standard errors of the figures a budget estimates, from the
 * Horvitz-Thompson variance sums of bpf/budget_rule.h (each timed wait
 * adds w(w-1)x^2, x in LS_EST_UNIT_NS units), and the sampler's figures
 * between snapshots.
 */
#include <math.h>
#include "model/estimate.h"

double ls_est_se_ns(const struct ls_lock_stats *st, enum ls_est_field f)
{
	uint64_t v = f == LS_EST_TOTAL	? st->var_total
		     : f == LS_EST_SPIN ? st->var_spin
					: st->var_sleep;

	return sqrt((double)v) * (double)LS_EST_UNIT_NS;
}

double ls_est_se_avg_ns(const struct ls_lock_stats *st)
{
	if (!st->contentions)
		return 0;
	return ls_est_se_ns(st, LS_EST_TOTAL) / (double)st->contentions;
}

double ls_est_se_slot(const struct ls_lock_stats *st, uint64_t count)
{
	if (!st->est_weight)
		return 0;
	return sqrt((double)count * (double)st->var_count /
		    (double)st->est_weight);
}

static uint64_t sub(uint64_t a, uint64_t b)
{
	return a > b ? a - b : 0;
}

void ls_budget_sub(struct ls_budget_snap *d, const struct ls_budget_snap *a,
		   const struct ls_budget_snap *b)
{
	*d = *a;
	d->runs = sub(a->runs, b->runs);
	d->sruns = sub(a->sruns, b->sruns);
	d->cost_ns = sub(a->cost_ns, b->cost_ns);
	d->windows = sub(a->windows, b->windows);
	d->over = sub(a->over, b->over);
}

double ls_budget_share_pct(const struct ls_budget_snap *b, uint64_t wall_ns,
			   unsigned ncpus)
{
	if (!wall_ns || !ncpus)
		return 0;
	return 100.0 * (double)b->cost_ns / ((double)wall_ns * ncpus);
}
