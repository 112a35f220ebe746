/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * compare.h - A/B comparison of records, like the kernel test robot's
 * reports: per metric and lock, the mean and relative standard deviation of
 * each side and the relative change between the means.  Pure C.
 *
 * Locks are matched by name and kind (the metric key), never by address.
 * A run in which a lock does not appear counts as 0 for it: the record holds
 * every lock contended during the run.  A change counts when its size is
 * above the threshold (percent of the base mean) and the means are further
 * apart than the sum of the two standard deviations; a counted increase is a
 * regression (every metric is lower-is-better).  Small locks come and go
 * between runs: a lock whose mean contentions and mean wait time are both
 * below min_share percent of the run's, on both sides, is "minor" and its
 * changes never count.
 */
#ifndef LS_COMPARE_H
#define LS_COMPARE_H

#include <stddef.h>
#include "analysis/metrics.h"
#include "export/record.h"

enum ls_cmp_side {
	LS_SIDE_BASE = 0,
	LS_SIDE_NEW = 1,
};

enum ls_cmp_presence {
	LS_CMP_BOTH = 0,
	LS_CMP_ONLY_BASE, /* the lock (or function) never appears in NEW */
	LS_CMP_ONLY_NEW,  /* ... never appears in BASE */
};

struct ls_cmp_row {
	struct ls_stat id;     /* key, lock, kind, metric (id.v unused) */
	double mean[2], sd[2]; /* [LS_SIDE_BASE], [LS_SIDE_NEW] */
	unsigned present[2];   /* runs of each side that have the metric */
	double change_pct; /* 100 * (new - base) / base; +inf if base is 0 */
	enum ls_cmp_presence presence;
	int minor;     /* its lock is below min_share on both sides */
	int changed;   /* beyond threshold and noise, not minor */
	int regressed; /* changed upwards */
};

struct ls_cmp {
	struct ls_cmp_row *rows; /* sorted by |change_pct|, largest first */
	size_t n;
	size_t runs[2];
	size_t nchanged, nregressed;
	size_t nminor_locks; /* locks left out as minor */
	double threshold;
	double min_share;
};

/* Sample mean and standard deviation (n - 1); sd is 0 when n < 2. */
void ls_mean_sd(const double *v, size_t n, double *mean, double *sd);
/* Relative change in percent; 0 when both are 0, +/-inf when base is 0. */
double ls_pct_change(double base, double new_v);
/* Standard deviation in percent of the mean (0 when the mean is 0). */
double ls_sd_pct(double mean, double sd);

/*
 * Compare @nb BASE records with @nn NEW records (both at least 1) on their
 * totals.  Metrics that are 0 in every run are left out.  0 or -ENOMEM /
 * -EINVAL.
 */
int ls_compare(const struct ls_rec *base, size_t nb, const struct ls_rec *nw,
	       size_t nn, double threshold_pct, double min_share_pct,
	       struct ls_cmp *out);
void ls_cmp_free(struct ls_cmp *c);

#endif
