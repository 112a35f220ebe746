/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * compare.h - A/B comparison of records, like the kernel test robot's
 * reports: per metric and lock, the mean and relative standard deviation of
 * each side and the relative change between the means.  Pure C.
 *
 * Locks are matched by name and kind (the metric key), never by address.
 * A run in which a lock does not appear counts as 0 for it: the record holds
 * every lock contended during the run.
 *
 * Each metric is tested across runs with Welch's t-test (analysis/stats.h):
 * on the log scale when every run's value is positive (the effect is the
 * ratio of geometric means), else on the linear scale.  A change counts
 * when the Benjamini-Hochberg adjusted p-value over all tested metrics is
 * below LS_STATS_ALPHA (so the 95% interval excludes 0) and |effect| is
 * above the threshold; a counted increase is a regression (every metric
 * is lower-is-better).  Nothing counts with fewer than LS_STATS_MIN_RUNS
 * runs on a side, for a metric resting on fewer than LS_CMP_MIN_EVENTS
 * events per run on both sides, or for a lock whose mean contentions and
 * mean wait time are both below min_share percent of the run's on both
 * sides ("minor": small locks come and go between runs).  Integer gauges
 * (peak waiters) carry the variance of rounding and must move by at least
 * one whole unit.  Figures estimated under --budget carry their runs'
 * standard errors into the test (ls_welch_test_se); a figure of the timed
 * waits only (max, chains, tenure) is not compared between exact runs and
 * budget runs (LS_VERDICT_MIXED).
 */
#ifndef LS_COMPARE_H
#define LS_COMPARE_H

#include <stddef.h>
#include "export/metrics.h"
#include "analysis/stats.h"
#include "export/record.h"

/* Mean events per run (on the larger side) a metric needs to be tested. */
#define LS_CMP_MIN_EVENTS 20

enum ls_cmp_side {
	LS_SIDE_BASE = 0,
	LS_SIDE_NEW = 1,
};

enum ls_cmp_presence {
	LS_CMP_BOTH = 0,
	LS_CMP_ONLY_BASE, /* the lock (or function) never appears in NEW */
	LS_CMP_ONLY_NEW,  /* ... never appears in BASE */
};

/* What the test of one metric concluded. */
enum ls_verdict {
	LS_VERDICT_UNCHANGED = 0, /* tested: no significant change */
	LS_VERDICT_WORSE,	  /* significant increase beyond threshold */
	LS_VERDICT_BETTER,	  /* significant decrease beyond threshold */
	LS_VERDICT_SMALL,	  /* significant, but within the threshold (or
				   * a gauge moving less than one unit) */
	LS_VERDICT_FEW_RUNS,	  /* a side has < LS_STATS_MIN_RUNS runs */
	LS_VERDICT_FEW_EVENTS,	  /* < LS_CMP_MIN_EVENTS events per run */
	LS_VERDICT_MINOR,	  /* its lock is below min_share */
	LS_VERDICT_MIXED,	  /* of the timed waits only in budget runs,
				   * of every wait in exact ones: not
				   * comparable */
	LS_VERDICT_MAX,
};

/* The per-metric result: what compare, its views and reports show. */
struct ls_cmp_result {
	enum ls_verdict verdict;
	int tested; /* the fields below hold a test (each side >= 2 runs) */
	enum ls_scale scale;
	/* effect and its 95% interval, percent of the base; NAN when the base
	 * is 0 on the linear scale (a lock that is new) */
	double effect_pct, lo_pct, hi_pct;
	double p;     /* Welch's two-sided p-value */
	double p_adj; /* Benjamini-Hochberg over the metrics tested; NAN for
		       * metrics left out (few events, minor) */
	double df;
};

struct ls_cmp_row {
	struct ls_stat id;     /* key, lock, kind, metric, type */
	double mean[2], sd[2]; /* [LS_SIDE_BASE], [LS_SIDE_NEW] */
	double events[2];      /* mean events per run (ls_stat.events) */
	unsigned present[2];   /* runs of each side that have the metric */
	/* --budget: per side the most estimated kind of figure among its
	 * runs, how many of them are estimated, and the root mean square of
	 * their standard errors (0 when exact) */
	enum ls_metric_est est[2];
	unsigned nest[2];
	double se[2];
	double change_pct; /* 100 * (new - base) / base; +inf if base is 0 */
	enum ls_cmp_presence presence;
	struct ls_cmp_result res;
	int minor;     /* its lock is below min_share on both sides */
	int changed;   /* verdict WORSE or BETTER */
	int regressed; /* verdict WORSE */
};

struct ls_cmp {
	struct ls_cmp_row *rows; /* sorted by |change_pct|, largest first */
	struct ls_strpool pool;	 /* the strings of the rows' ids */
	size_t n;
	size_t runs[2];
	size_t nchanged, nregressed;
	size_t ntested;	       /* metrics in the multiple-testing correction */
	size_t nfew_events;    /* metrics left out for resting on few events */
	size_t nminor_locks;   /* locks left out as minor */
	size_t nmixed;	       /* metrics left out as LS_VERDICT_MIXED */
	size_t budget_runs[2]; /* runs of each side made under --budget */
	double threshold;
	double min_share;
};

/* "worse", "few events", ... */
const char *ls_verdict_name(enum ls_verdict v);

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
