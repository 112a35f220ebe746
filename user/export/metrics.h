/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * metrics.h - the flat metrics of a record, named like the kernel test
 * robot's stats: "lockscope.mutex@genl_rcv_msg.wait_time.avg.ms".
 *
 * `record --format lkp` writes them and `compare` compares them, so both
 * name every number the same way.  Every metric is "lower is better".
 */
#ifndef LS_METRICS_H
#define LS_METRICS_H

#include <stddef.h>
#include "export/record.h"
#include "util/strpool.h"

#define LS_KEY_MAX 640 /* room for a cgroup path (--by cgroup) */
/* compare names every metric with it; lkp lines leave it out (lkp-tests
 * prefixes each key with the monitor's name itself) */
#define LS_METRIC_PREFIX "lockscope."

/* How compare tests a metric. */
enum ls_metric_type {
	LS_METRIC_AMOUNT = 0, /* a count, time or share */
	LS_METRIC_GAUGE,      /* a small integer gauge (peak waiters) */
};

/* What kind of figure a metric is in one run (--budget, budget.md). */
enum ls_metric_est {
	LS_MEST_EXACT = 0, /* counted over every event */
	LS_MEST_ESTIMATE,  /* an unbiased estimate from timed waits, weighted
			    * N; its standard error in ls_stat.se (0 when
			    * the record gives none: holder shares) */
	LS_MEST_TIMED,	   /* of the timed waits only, unweighted (max,
			    * chains) or not measured (tenure): comparable
			    * with another budget run, not with an exact one */
};

/* The strings are copies in the pool of the ls_stats (or ls_cmp) that
 * holds the metric: 48 bytes and the strings' own, not 1.1 KB of fields. */
struct ls_stat {
	const char *key;  /* "lockscope.<lock>.<metric>", below LS_KEY_MAX */
	const char *lock; /* lock name; "" for whole-run metrics */
	/* "wait_time.avg.ms", "spin_share.osq_lock", "cgroup[/a].waits"... */
	const char *metric;
	int kind; /* enum ls_kind; -1 for whole-run metrics */
	enum ls_metric_type type;
	double v;
	/* the events the value rests on: contentions for a lock's times and
	 * gauges, sleeps for its sleep time, sampler hits for a spin share,
	 * the count itself for counts; timed waits for estimated times */
	double events;
	enum ls_metric_est est;
	double se; /* standard error of v in the run (LS_MEST_ESTIMATE) */
};

struct ls_stats {
	struct ls_stat *v;
	size_t n, cap;
	struct ls_strpool pool; /* the strings of v */
};

/* "mutex@f" when the name starts with its kind, else "name(kind)". */
void ls_lock_id(const char *name, unsigned kind, char *buf, size_t len);
/*
 * Append the metrics of @s to @out: per lock class contentions, wait
 * total, average and max, spin and sleep time and fallbacks from spinning
 * to sleep (not for spinlocks and rwlocks, which only spin), give-ups and
 * peak waiters;
 * for the run total contentions and wait, and the CPU share spent in each
 * spin function (when the sampler ran).  0 or -ENOMEM.
 */
int ls_snap_stats(const struct ls_rec_snap *s, struct ls_stats *out);
void ls_stats_free(struct ls_stats *st);
/* A number as lkp files and tables print it: "12901", "0.2134". */
const char *ls_fmt_num(char *buf, size_t len, double v);

#endif
