/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * whatif_opts.h - the options of `lockscope whatif` (whatif_opts.c): the
 * locks (-L, repeatable), the delay levels (--delays, refused above the
 * cap), rounds, the throughput metric (and what auto picks), the A/A
 * placebo and the opt-in.
 */
#ifndef LS_WHATIF_OPTS_H
#define LS_WHATIF_OPTS_H

#include <stddef.h>
#include "analysis/whatif.h"

/* Where a run's throughput comes from. */
enum ls_wif_metric {
	LS_METRIC_AUTO = 0, /* stress-ng's for stress-ng, else wall */
	LS_METRIC_WALL,	    /* 1 / wall time of PROGRAM (runs per second) */
	LS_METRIC_STRESSNG, /* stress-ng's bogo ops/s (real time), summed */
	LS_METRIC_OPS,	    /* an "ops: N" line: N per second of wall time */
	LS_METRIC_REGEX,    /* the regex's first group, last match */
};

#define LS_WIF_DEF_ROUNDS 3
/* Without --delays, the largest level is sized so that it would take
 * this share of every CPU at the pre-run's contention rate (the whole
 * budget: what it refuses is measured, the dose is what counts), the
 * others a half and a quarter of it. */
#define LS_WIF_AUTO_SHARE 0.25
#define LS_WIF_DEF_TOP 2 /* locks picked by the pre-run without -L */

struct ls_wif_opts {
	const char *locks[LS_WIF_MAX_TARGETS]; /* -L as given */
	unsigned nlocks;
	double delays_us[LS_WIF_MAX_LEVELS]; /* non-zero levels, ascending */
	unsigned ndelays;		     /* 0: sized from the pre-run */
	unsigned rounds;
	enum ls_wif_metric metric;
	const char *regex; /* LS_METRIC_REGEX */
	int yes;	   /* --yes-perturb */
	int placebo;	   /* --placebo: A/A, no delay injected */
};

void ls_wif_opts_default(struct ls_wif_opts *w);
/* Parse --delays "0,1,2,4" (us; a unit ns, us, ms or s may follow each):
 * 0, or -EINVAL/-ERANGE with @why set (above the cap: -ERANGE). */
int ls_wif_parse_delays(const char *arg, struct ls_wif_opts *w, char *why,
			size_t len);
/* The levels without --delays: the largest D = LS_WIF_AUTO_SHARE of
 * @ncpus CPUs over @rate contended acquisitions per second (at most the
 * cap; 2 significant digits), then D/2 and D/4. */
void ls_wif_auto_delays(struct ls_wif_opts *w, double rate, unsigned ncpus);
/* Parse --metric wall|stress-ng|ops|regex:RE: 0 or -EINVAL with @why. */
int ls_wif_parse_metric(const char *arg, struct ls_wif_opts *w, char *why,
			size_t len);
/* --delays, --metric or --rounds (@key, enum ls_opt_key): 0, or -errno
 * with @why set. */
int ls_wif_parse_opt(struct ls_wif_opts *w, int key, const char *arg, char *why,
		     size_t len);
/* What the command line lacks for whatif (@has_program: a PROGRAM after
 * --), or NULL. */
const char *ls_wif_check(const struct ls_wif_opts *w, int has_program);
/* The throughput in PROGRAM's output @out (@n bytes) after @wall_s
 * seconds, by @w's metric: 0, or -ENOENT when the figure is missing. */
int ls_wif_metric_value(const struct ls_wif_opts *w, const char *out, size_t n,
			double wall_s, double *tput);
/*
 * Resolve --metric auto for PROGRAM @argv: stress-ng's bogo ops/s when
 * PROGRAM is stress-ng (its runs are of a fixed duration: the wall time
 * says nothing), else the wall time.  Returns 1 when stress-ng must be
 * given --metrics-brief to print them (it has no --metrics or -M), else
 * 0.  Any other metric is kept as chosen (0).
 */
int ls_wif_auto_metric(struct ls_wif_opts *w, char *const *argv);
/* The metric's unit, for the output ("runs/s", "bogo ops/s"...). */
const char *ls_wif_metric_unit(const struct ls_wif_opts *w);

#endif
