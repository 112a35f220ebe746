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
/*
 * "not on it": the critical-section effect is above -E with 95%
 * confidence, E a share of the bound: the slope a lock would show if it
 * alone bounded throughput, -100% x its contended acquisitions per us
 * (each us added to each of them is that share of its time, and of the
 * throughput).  Where the rate is unknown, E is LS_WIF_EQUIV_PCT_PER_US.
 */
#define LS_WIF_EQUIV_SHARE 0.5
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
	LS_CALL_NOT_ON_IT, /* ... above -equiv */
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
	uint16_t round;	 /* its block: the fit's round effect */
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

/* One arm's line, throughput in % of the zero-delay mean against the
 * dose: y = a + b x, from the joint fit below. */
struct ls_line {
	size_t n;	   /* the arm's runs and the zero runs */
	double a, b;	   /* intercept (averaged over rounds), slope */
	double b_lo, b_hi; /* the slope's 95% interval */
	double se_b, s;	   /* its standard error, residual sd */
	double df;	   /* the fit's: runs - rounds - 2 */
};

/* One measured run: its requested delay (us: the level), arm,
 * throughput (per second), dose (the mean delay each acquisition of the
 * arm was given, us, as BPF measured it: below the level when the budget
 * refused some) and round. */
struct ls_wif_obs {
	double delay_us;
	enum ls_wif_arm arm;
	double tput;
	double dose_us;
	unsigned round;
};

/*
 * The joint least-squares fit of every run of one lock: y = alpha_round
 * + b_critical x_critical + b_control x_control, y in % of the zero-delay
 * mean, x the run's dose in its arm (0 elsewhere), one intercept per
 * round (a block: the machine's drift between rounds leaves the slopes),
 * one residual variance for both arms.
 */
struct ls_wif_fit {
	size_t n;		    /* runs fitted */
	unsigned rounds;	    /* rounds among them */
	double b[LS_ARMS];	    /* slopes, % per us */
	double v[LS_ARMS][LS_ARMS]; /* (X'X)^-1 of the centred doses */
	double s, df;		    /* residual sd; n - rounds - 2 */
	double a;		    /* the mean intercept */
};

/* Fit @n runs (@base: the zero-delay mean), leaving out the critical
 * runs of level @skip_us (NAN: none): 0, or -EINVAL (too few runs or
 * rounds, no spread of doses in an arm, a round out of range). */
int ls_wif_fit(const struct ls_wif_obs *obs, size_t n, double base,
	       double skip_us, struct ls_wif_fit *f);

struct ls_wif_result {
	double base_tput;	       /* mean of the zero-delay runs */
	size_t nzero;		       /* their count */
	struct ls_line line[LS_ARMS];  /* throughput in % of base vs us */
	double diff, diff_lo, diff_hi; /* critical - control slope, %/us */
	double diff_df;		       /* the joint fit's */
	/* the zero runs' contended acquisitions per second (0: unknown),
	 * the bound's slope (%/us, <= 0) and the margin E of "not on it" */
	double rate, bound, equiv;
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
	/* the largest dose measured; whether 1% and LS_WIF_EXTRAP_PCT% of
	 * the section lie within it (beyond it the line says nothing) */
	double max_us;
	int per_pct_in, gain_in;
};

/*
 * Analyse @n runs of one lock; @tenure_us: its mean critical section
 * (handoff tenure, or mean wait) at zero delay, 0 if unknown; @rate: its
 * contended acquisitions per second in the zero runs, 0 if unknown.  0,
 * or -EINVAL when there are no zero-delay runs or an arm cannot be
 * fitted (call then is cannot tell).
 */
int ls_wif_analyse(const struct ls_wif_obs *obs, size_t n, double tenure_us,
		   double rate, struct ls_wif_result *r);

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

/* The dose of run @r (us per acquisition of its arm): what BPF injected
 * over the acquisitions (critical) or waits (control) it counted; under
 * --placebo, nothing is injected and the requested delay stands in. */
double ls_wif_run_dose(const struct ls_wif_exp *e,
		       const struct ls_wif_run_rec *r);

/* Sum the arms' counts and analyse each target; call after the runs. */
void ls_wif_exp_analyse(struct ls_wif_exp *e);

const char *ls_wif_call_name(enum ls_wif_call c);
const char *ls_wif_arm_name(enum ls_wif_arm a);

#endif
