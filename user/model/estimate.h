/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * estimate.h - figures estimated under --budget: their standard errors
 * from the variance sums the BPF side keeps (bpf/budget_rule.h), and the
 * sampler's state between two snapshots.
 */
#ifndef LS_ESTIMATE_H
#define LS_ESTIMATE_H

#include <stdint.h>
#include "model/model.h"

/* Which estimate of a row. */
enum ls_est_field {
	LS_EST_TOTAL = 0, /* total_ns */
	LS_EST_SPIN,	  /* spin_ns */
	LS_EST_SLEEP,	  /* sleep_ns */
	LS_EST_FIELDS,
};

/* Were @st's times estimated from sampled waits (under a budget)? */
static inline int ls_est_is(const struct ls_lock_stats *st)
{
	return st->sampled != 0;
}

/* The standard error of @st's @f in ns (0 when exact). */
double ls_est_se_ns(const struct ls_lock_stats *st, enum ls_est_field f);

/* The standard error of the mean wait, ns (the count is exact). */
double ls_est_se_avg_ns(const struct ls_lock_stats *st);

/* The standard error of a histogram slot's estimated @count: the slot's
 * waits weighted as the row's (sum w(w-1) / sum w), an approximation. */
double ls_est_se_slot(const struct ls_lock_stats *st, uint64_t count);

/* @a minus @b (counters), the state in force taken from @a. */
void ls_budget_sub(struct ls_budget_snap *d, const struct ls_budget_snap *a,
		   const struct ls_budget_snap *b);

/* The BPF programs' estimated share of @ncpus CPUs over @wall_ns, in
 * percent (their own measurement: dispatch not included). */
double ls_budget_share_pct(const struct ls_budget_snap *b, uint64_t wall_ns,
			   unsigned ncpus);

#endif
