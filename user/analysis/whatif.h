/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * whatif.h - the analysis of a whatif experiment (whatif.c): the
 * randomised interleaved schedule of runs, least-squares lines of
 * throughput against delay with 95% intervals (Student's t), the
 * difference of the critical and control slopes, the sensitivities, a
 * held-out level predicted from the others, and the verdict.  Pure C,
 * unit-tested in tests/unit/analysis/test_whatif.c.
 */
#ifndef LS_ANALYSIS_WHATIF_H
#define LS_ANALYSIS_WHATIF_H

#include <stddef.h>
#include <stdint.h>

#define LS_WIF_MAX_LEVELS 8   /* non-zero delay levels at most */
#define LS_WIF_MAX_ROUNDS 100 /* rounds at most */
#define LS_WIF_MAX_TARGETS 8  /* locks experimented on at most */
/* "not on it": the critical-section effect is above -this, in % of
 * throughput per us added, with 95% confidence */
#define LS_WIF_EQUIV_PCT_PER_US 1.0
/* the shorter critical section the extrapolation is given for, % */
#define LS_WIF_EXTRAP_PCT 10.0

/* How a run delays: at the critical section, outside it, or not at all
 * (zero-delay controls, shared by both arms' fits). */
enum ls_wif_arm {
	LS_ARM_CRITICAL = 0,
	LS_ARM_CONTROL,
	LS_ARM_ZERO,
	LS_ARMS = 2, /* arms with a line of their own */
};

enum ls_wif_call {
	LS_CALL_CANNOT_TELL = 0,
	LS_CALL_ON_PATH,   /* the difference's interval is below 0 */
	LS_CALL_NOT_ON_IT, /* ... above -LS_WIF_EQUIV_PCT_PER_US */
};

enum ls_wif_fitq {
	LS_FITQ_UNCHECKED = 0, /* fewer than 3 non-zero levels */
	LS_FITQ_OK,	       /* the held-out level inside its interval */
	LS_FITQ_POOR,	       /* ... outside it: the line is a poor model */
};

/* One run of the schedule. */
struct ls_wif_run {
	uint16_t target; /* lock index */
	uint8_t level;	 /* index of a non-zero delay (LS_ARM_ZERO: 0) */
	uint8_t arm;	 /* enum ls_wif_arm */
};

/* Runs per round and lock: each non-zero level in both arms, and two
 * zero-delay controls. */
static inline size_t ls_wif_block(unsigned nlevels)
{
	return 2 * (size_t)nlevels + 2;
}

/* Fill @out (room for rounds * ntargets * ls_wif_block(nlevels)) with
 * the schedule: one block per round holding every (lock, level, arm)
 * once and each lock's zero runs, shuffled with @seed.  The count. */
size_t ls_wif_schedule(unsigned ntargets, unsigned nlevels, unsigned rounds,
		       uint64_t seed, struct ls_wif_run *out);

/* A least-squares line y = a + b x. */
struct ls_line {
	size_t n;
	double a, b;	   /* intercept, slope */
	double b_lo, b_hi; /* the slope's 95% interval */
	double se_b, s;	   /* its standard error, residual sd */
	double df;	   /* n - 2 */
	double xbar, sxx;  /* for predictions */
	int ok;		   /* n >= 3 and two distinct x */
};

/* Fit (@x, @y), @n points; 0, or -EINVAL when @out->ok would be 0. */
int ls_line_fit(const double *x, const double *y, size_t n,
		struct ls_line *out);
/* The 95% interval of the mean of @m new observations at @x0. */
void ls_line_predict(const struct ls_line *l, double x0, size_t m, double *lo,
		     double *mid, double *hi);

/* One measured run: its delay (us), arm and throughput (per second). */
struct ls_wif_obs {
	double delay_us;
	enum ls_wif_arm arm;
	double tput;
};

struct ls_wif_result {
	double base_tput;	       /* mean of the zero-delay runs */
	size_t nzero;		       /* their count */
	struct ls_line line[LS_ARMS];  /* throughput in % of base vs us */
	double diff, diff_lo, diff_hi; /* critical - control slope, %/us */
	double diff_df;		       /* Welch-Satterthwaite */
	enum ls_wif_call call;
	/* held-out check (critical arm): the level, measured mean, the
	 * interval the other levels predict */
	enum ls_wif_fitq fitq;
	double held_us, held_mean, held_lo, held_hi;
	/* per 1% of the mean critical section (tenure_us: 0 unknown) */
	double tenure_us;
	double per_pct, per_pct_lo, per_pct_hi;
	/* extrapolated gain for a LS_WIF_EXTRAP_PCT shorter section, % */
	double gain, gain_lo, gain_hi;
	/* the largest delay measured; whether 1% and LS_WIF_EXTRAP_PCT% of
	 * the section lie within it (beyond it the line says nothing) */
	double max_us;
	int per_pct_in, gain_in;
};

/*
 * Analyse @n runs of one lock; @tenure_us: its mean critical section
 * (handoff tenure, or mean wait) at zero delay, 0 if unknown.  0, or
 * -EINVAL when there are no zero-delay runs or an arm cannot be fitted
 * (call then is cannot tell).
 */
int ls_wif_analyse(const struct ls_wif_obs *obs, size_t n, double tenure_us,
		   struct ls_wif_result *r);

/* ---- an experiment, as the command ran it (for the views) ----------- */

#include <linux/types.h>
#include "lockscope.h"
#include "model/model.h"

/* One run as measured. */
struct ls_wif_run_rec {
	struct ls_wif_run run;
	double delay_us;	/* requested (0: zero run; placebo: not
				 * injected) */
	double wall_s, tput;	/* PROGRAM's wall time, its throughput */
	struct ls_wif_lock cnt; /* the BPF counts of the selected locks */
	unsigned nsel;		/* locks selected in the run */
};

/* One lock of the experiment: -L as given (or the pre-run's pick). */
struct ls_wif_target {
	char spec[LS_NAME_MAX];
	char name[LS_NAME_MAX]; /* the first row that matched */
	unsigned kind;		/* enum ls_kind of that row */
	double tenure_us;	/* mean critical section at zero delay */
	int tenure_is_wait;	/* no tenure counted: the mean wait */
	struct ls_wif_lock cnt[LS_ARMS]; /* summed over the arm's delayed
					  * runs */
	struct ls_wif_result res;
	int res_ok; /* analysed (else res.call is cannot tell) */
};

struct ls_wif_exp {
	struct ls_wif_target t[LS_WIF_MAX_TARGETS];
	unsigned nt;
	struct ls_wif_run_rec *runs;
	size_t nruns;
	double delays_us[LS_WIF_MAX_LEVELS];
	unsigned ndelays, rounds;
	uint64_t seed, budget_ns;
	int placebo, picked; /* picked: locks chosen by the pre-run */
	unsigned ncpus;
	const char *unit;    /* the throughput's unit */
	const char *ctx_how; /* how NMI context is refused (doctor's) */
	double secs;	     /* the whole experiment */
	uint64_t loss[LS_LOSS_MAX];
};

/* Sum the arms' counts and analyse each target; call after the runs. */
void ls_wif_exp_analyse(struct ls_wif_exp *e);

const char *ls_wif_call_name(enum ls_wif_call c);
const char *ls_wif_arm_name(enum ls_wif_arm a);

#endif
