/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * stats.h - two-sample statistics for compare: Welch's t-test and its
 * confidence interval, on the log scale (ratio of geometric means) or the
 * linear one (difference of means), and the Benjamini-Hochberg adjustment
 * of p-values across metrics.  Pure C (libm), checked against scipy in
 * tests/unit/analysis/test_stats.c.
 */
#ifndef LS_STATS_H
#define LS_STATS_H

#include <stddef.h>

/* Confidence level of every interval, and the false-discovery rate. */
#define LS_STATS_ALPHA 0.05
/* Runs each side needs before a change can count (fewer: reported only). */
#define LS_STATS_MIN_RUNS 3

/* Regularized incomplete beta function I_x(a, b); NAN outside its domain. */
double ls_betainc(double a, double b, double x);
/* Student's t distribution with @df degrees of freedom (df > 0, real). */
double ls_t_cdf(double t, double df);
/* Its quantile: ls_t_cdf(ls_t_ppf(p, df), df) == p, 0 < p < 1. */
double ls_t_ppf(double p, double df);

enum ls_scale {
	LS_SCALE_LOG = 0, /* every value positive: effect = ratio of
			   * geometric means - 1 */
	LS_SCALE_LINEAR,  /* some value is 0: effect = difference of means
			   * over the base mean */
};

/* Welch's test of NEW against BASE; intervals at 1 - LS_STATS_ALPHA. */
struct ls_welch {
	enum ls_scale scale;
	double diff;	   /* mean difference on the scale, new - base */
	double lo, hi;	   /* its interval */
	double t, df, p;   /* statistic, Welch-Satterthwaite df, two-sided */
	double effect_pct; /* relative effect in percent (see ls_scale) */
	double lo_pct, hi_pct; /* its interval; NAN when the base mean is 0 */
};

/*
 * Welch's two-sample t-test of @nw (@nn values) against @base (@nb
 * values), both at least 2.  @quantum > 0 declares integer-valued data
 * (gauges): each sample variance gets quantum^2 / 12 added, the variance of
 * rounding to whole units, so that runs agreeing exactly on a small integer
 * do not make a test of infinite certainty.  The log scale is used when
 * every value is positive and @quantum is 0.  0, or -EINVAL.
 */
int ls_welch_test(const double *base, size_t nb, const double *nw, size_t nn,
		  double quantum, struct ls_welch *out);

/*
 * The same test when each run's value is itself an estimate: @base_se[i]
 * (@nw_se[i]) is the standard error of @base[i] (@nw[i]) within its run,
 * NULL when every value is exact.  The mean of the runs' se^2 joins each
 * side's sample variance (on the log scale (se/x)^2, the delta method),
 * as the rounding variance of @quantum does: runs that agree by chance
 * closer than their own estimates can are not taken for certainty.
 */
int ls_welch_test_se(const double *base, const double *base_se, size_t nb,
		     const double *nw, const double *nw_se, size_t nn,
		     double quantum, struct ls_welch *out);

/*
 * Benjamini-Hochberg adjusted p-values of @p (@n of them) into @adj (may be
 * @p itself); NAN entries are not tests and stay NAN.  0 or -ENOMEM.
 */
int ls_bh_adjust(const double *p, size_t n, double *adj);

#endif
