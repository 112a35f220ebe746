// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * test_whatif.c - whatif's statistics (user/analysis/whatif.c): the joint
 * fit with round intercepts against least squares with dummy columns
 * solved independently, the verdict, the held-out check, the randomised
 * schedule; the BPF
 * delay rule (bpf/whatif_rule.h, the code that runs in the kernel); the
 * delay list and the metrics read from PROGRAM's output.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "analysis/whatif.h"
#include "whatif_rule.h"
#include "cmd/whatif_opts.h"

static void close_to(double got, double want, double tol)
{
	if (!(fabs(got - want) <= tol))
		fail_msg("got %.12g, want %.12g", got, want);
}

/* Solve the k x k system @m x = @r in place (Gauss-Jordan, partial
 * pivoting): an independent check of the fit's algebra. */
static void solve(int k, double m[][8], double *r)
{
	for (int c = 0; c < k; c++) {
		int p = c;

		for (int i = c + 1; i < k; i++)
			if (fabs(m[i][c]) > fabs(m[p][c]))
				p = i;
		for (int j = 0; j < k; j++) {
			double t = m[c][j];

			m[c][j] = m[p][j];
			m[p][j] = t;
		}
		double t = r[c];
		r[c] = r[p];
		r[p] = t;
		for (int i = 0; i < k; i++) {
			double q = m[i][c] / m[c][c];

			if (i == c)
				continue;
			for (int j = 0; j < k; j++)
				m[i][j] -= q * m[c][j];
			r[i] -= q * r[c];
		}
	}
	for (int i = 0; i < k; i++)
		r[i] /= m[i][i];
}

/*
 * The joint fit against ordinary least squares with dummy columns (one
 * per round, then the critical and control doses), solved from the
 * normal equations: the same slopes and the same standard errors (the
 * inverse's diagonal, by solving for unit vectors).
 */
static void test_fit_dummies(void **state)
{
	static const double noise[] = {0.7, -1.1, 0.4,	1.9, -0.6, -1.4,
				       0.9, 0.2,  -0.3, 1.2, -0.8, 0.5};
	struct ls_wif_obs o[3 * 8];
	double X[24][5], m[8][8], r[8], rss = 0, b[5];
	struct ls_wif_fit f;
	size_t n = 0;

	(void)state;
	for (unsigned q = 0; q < 3; q++) {
		static const double lv[] = {2, 4, 8};
		double drift = 30.0 * q; /* rounds far apart */

		for (int z = 0; z < 2; z++)
			o[n] = (struct ls_wif_obs){0, LS_ARM_ZERO,
						   1000 + 10 * (drift +
								noise[n % 12]),
						   0, q},
			n++;
		for (int l = 0; l < 3; l++) {
			/* doses below the levels: refusals */
			double dc = lv[l] * 0.8, dk = lv[l] * 0.9;

			o[n] = (struct ls_wif_obs){lv[l], LS_ARM_CRITICAL,
						   1000 + 10 * (drift - 3 * dc +
								noise[n % 12]),
						   dc, q},
			n++;
			o[n] = (struct ls_wif_obs){lv[l], LS_ARM_CONTROL,
						   1000 + 10 * (drift - 1 * dk +
								noise[n % 12]),
						   dk, q},
			n++;
		}
	}
	assert_int_equal(n, 24);
	/* the base the fit is given: 1000 (y in % of it) */
	assert_int_equal(ls_wif_fit(o, n, 1000, NAN, &f), 0);
	assert_int_equal(f.rounds, 3);
	close_to(f.df, 24 - 3 - 2, 0);
	for (size_t i = 0; i < n; i++) {
		X[i][0] = o[i].round == 0;
		X[i][1] = o[i].round == 1;
		X[i][2] = o[i].round == 2;
		X[i][3] = o[i].arm == LS_ARM_CRITICAL ? o[i].dose_us : 0;
		X[i][4] = o[i].arm == LS_ARM_CONTROL ? o[i].dose_us : 0;
	}
	for (int i = 0; i < 5; i++) {
		r[i] = 0;
		for (int j = 0; j < 5; j++) {
			m[i][j] = 0;
			for (size_t k = 0; k < n; k++)
				m[i][j] += X[k][i] * X[k][j];
		}
		for (size_t k = 0; k < n; k++)
			r[i] += X[k][i] * 100 * (o[k].tput / 1000 - 1);
	}
	solve(5, m, r);
	memcpy(b, r, sizeof(b));
	close_to(f.b[0], b[3], 1e-9);
	close_to(f.b[1], b[4], 1e-9);
	close_to(f.b[0], -3, 0.3);
	close_to(f.b[1], -1, 0.3);
	for (size_t k = 0; k < n; k++) {
		double e = 100 * (o[k].tput / 1000 - 1);

		for (int j = 0; j < 5; j++)
			e -= X[k][j] * b[j];
		rss += e * e;
	}
	close_to(f.s, sqrt(rss / 19), 1e-9);
	for (int c = 3; c < 5; c++) { /* (X'X)^-1's diagonal entries */
		for (int i = 0; i < 5; i++) {
			r[i] = i == c;
			for (int j = 0; j < 5; j++) {
				m[i][j] = 0;
				for (size_t k = 0; k < n; k++)
					m[i][j] += X[k][i] * X[k][j];
			}
		}
		solve(5, m, r);
		close_to(f.v[c - 3][c - 3], r[c], 1e-9);
	}
	/* leaving out the critical runs at 4 us */
	assert_int_equal(ls_wif_fit(o, n, 1000, 4, &f), 0);
	assert_int_equal(f.n, 21);
	/* two zero runs and one critical: no control dose to fit */
	assert_int_equal(ls_wif_fit(o, 3, 1000, NAN, &f), -EINVAL);
	/* one run per arm and two zero runs: 1 degree of freedom left */
	assert_int_equal(ls_wif_fit(o, 4, 1000, NAN, &f), 0);
	close_to(f.df, 1, 0);
	/* no base */
	assert_int_equal(ls_wif_fit(o, n, 0, NAN, &f), -EINVAL);
}

/* The rounds' drift stays out of the slopes: each round 20% apart,
 * exact lines within each: the slopes are exact, intervals zero-wide. */
static void test_fit_rounds(void **state)
{
	struct ls_wif_obs o[4 * 6];
	struct ls_wif_fit f;
	size_t n = 0;

	(void)state;
	for (unsigned q = 0; q < 4; q++) {
		double base = 1000 * (1 + 0.2 * q);

		o[n++] = (struct ls_wif_obs){0, LS_ARM_ZERO, base, 0, q};
		o[n++] = (struct ls_wif_obs){0, LS_ARM_ZERO, base, 0, q};
		for (int l = 1; l <= 2; l++) {
			o[n++] = (struct ls_wif_obs){5.0 * l, LS_ARM_CRITICAL,
						     base - 10 * 2 * 5.0 * l,
						     5.0 * l, q};
			o[n++] = (struct ls_wif_obs){5.0 * l, LS_ARM_CONTROL,
						     base - 10 * 0.5 * 5.0 * l,
						     5.0 * l, q};
		}
	}
	assert_int_equal(ls_wif_fit(o, n, 1000, NAN, &f), 0);
	close_to(f.b[0], -2, 1e-9);
	close_to(f.b[1], -0.5, 1e-9);
	close_to(f.s, 0, 1e-9);
}

/* Runs of one lock: throughput = base * (1 + (crit or ctrl) * d / 100)
 * with a deterministic +-noise pattern. */
static size_t make_obs(struct ls_wif_obs *o, double crit, double ctrl,
		       double noise)
{
	static const double lv[] = {1, 2, 4};
	size_t n = 0;

	for (int r = 0; r < 4; r++) {
		double e = (r & 1 ? 1 : -1) * noise;

		for (int z = 0; z < 2; z++)
			o[n++] = (struct ls_wif_obs){
				0, LS_ARM_ZERO, 1000 * (1 + (z ? e : -e) / 100),
				0, (unsigned)r};
		for (int l = 0; l < 3; l++) {
			o[n++] = (struct ls_wif_obs){
				lv[l], LS_ARM_CRITICAL,
				1000 * (1 + (crit * lv[l] + e) / 100), lv[l],
				(unsigned)r};
			o[n++] = (struct ls_wif_obs){
				lv[l], LS_ARM_CONTROL,
				1000 * (1 + (ctrl * lv[l] - e) / 100), lv[l],
				(unsigned)r};
		}
	}
	return n;
}

static void test_verdict(void **state)
{
	struct ls_wif_obs o[64];
	struct ls_wif_result r;
	size_t n;

	(void)state;
	/* on the path: -10 %/us critical, -2 control (the CPU confound) */
	n = make_obs(o, -10, -2, 1);
	assert_int_equal(ls_wif_analyse(o, n, 2.0, 0, &r), 0);
	assert_int_equal(r.call, LS_CALL_ON_PATH);
	close_to(r.diff, -8, 0.5);
	assert_true(r.diff_hi < 0);
	assert_int_equal(r.fitq, LS_FITQ_OK);
	close_to(r.held_us, 2, 0);
	/* per 1% of a 2 us section: -8 %/us * 0.02 us; 10% shorter: +1.6% */
	close_to(r.per_pct, r.diff * 0.02, 1e-12);
	close_to(r.gain, -r.diff * 0.02 * 10, 1e-12);
	assert_true(r.per_pct_in && r.gain_in);
	/* a 100 us section: 10% (10 us) lies beyond the 4 us measured */
	assert_int_equal(ls_wif_analyse(o, n, 100.0, 0, &r), 0);
	assert_true(r.per_pct_in);
	assert_false(r.gain_in);
	/* the confound alone: both arms -2 %/us: not on it */
	n = make_obs(o, -2, -2, 0.3);
	assert_int_equal(ls_wif_analyse(o, n, 0, 0, &r), 0);
	assert_int_equal(r.call, LS_CALL_NOT_ON_IT);
	assert_true(r.line[LS_ARM_CRITICAL].b_hi < 0); /* without control */
	close_to(r.equiv, LS_WIF_EQUIV_PCT_PER_US, 0); /* no rate known */
	/* at 2,000 contended acquisitions/s a lock that alone bounds
	 * throughput shows -0.2 %/us: the same +-0.3% runs cannot rule out
	 * half of that */
	assert_int_equal(ls_wif_analyse(o, n, 0, 2000, &r), 0);
	close_to(r.bound, -0.2, 1e-12);
	close_to(r.equiv, 0.1, 1e-12);
	assert_int_equal(r.call, LS_CALL_CANNOT_TELL);
	/* at 200,000/s the bound is -20 %/us: a -2 %/us confound is not it */
	assert_int_equal(ls_wif_analyse(o, n, 0, 200000, &r), 0);
	assert_int_equal(r.call, LS_CALL_NOT_ON_IT);
	/* A/A with heavy noise: cannot tell (never on the path) */
	n = make_obs(o, 0, 0, 20);
	assert_int_equal(ls_wif_analyse(o, n, 0, 0, &r), 0);
	assert_int_equal(r.call, LS_CALL_CANNOT_TELL);
	/* no zero runs: not analysed */
	assert_int_equal(ls_wif_analyse(o + 2, 6, 0, 0, &r), -EINVAL);
	assert_int_equal(r.call, LS_CALL_CANNOT_TELL);
}

/* A curve, not a line: the held-out level falls outside its interval. */
static void test_fit_poor(void **state)
{
	struct ls_wif_obs o[64];
	struct ls_wif_result r;
	size_t n = make_obs(o, -10, 0, 0.2);

	(void)state;
	for (size_t i = 0; i < n; i++)
		if (o[i].arm == LS_ARM_CRITICAL && o[i].delay_us == 2)
			o[i].tput = 1000 * (1 - 0.05); /* -5%, the line: -20% */
	assert_int_equal(ls_wif_analyse(o, n, 0, 0, &r), 0);
	assert_int_equal(r.fitq, LS_FITQ_POOR);
}

/* A seeded standard normal (splitmix64, Box-Muller). */
static double gauss(uint64_t *s)
{
	double u[2];

	for (int i = 0; i < 2; i++) {
		uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
		z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
		u[i] = ((double)((z ^ (z >> 31)) >> 11) + 0.5) /
		       9007199254740992.0;
	}
	return sqrt(-2 * log(u[0])) * cos(6.283185307179586 * u[1]);
}

/*
 * The held-out check's error rate where the truth is a line: 4,000
 * simulated experiments shaped like whatif's defaults (3 rounds, levels
 * 0.5/1/2 us, both arms, 2 zero-delay runs a round, each round its own
 * offset), throughput linear in the dose with 5% Gaussian noise and the
 * doses jittered as the measured ones are. A 95% prediction interval
 * says "poor" about 5% of the time: within [3.5%, 6.5%] (at 4,000 trials
 * the rate's sd is 0.34%). The same experiments with the middle level
 * 10% below its line are called poor far more often (the check's power).
 */
static void test_fit_coverage(void **state)
{
	static const double lv[] = {0.5, 1, 2};
	const int trials = 4000;
	uint64_t seed = 42;
	int poor[2] = {0, 0};

	(void)state;
	for (int bend = 0; bend < 2; bend++)
		for (int t = 0; t < trials; t++) {
			struct ls_wif_obs o[3 * 8];
			struct ls_wif_result r;
			size_t n = 0;

			for (unsigned q = 0; q < 3; q++) {
				double off = 3 * gauss(&seed);

				for (int z = 0; z < 2; z++)
					o[n++] = (struct ls_wif_obs){
						0, LS_ARM_ZERO,
						1e6 * (1 + (off +
							    5 * gauss(&seed)) /
								   100),
						0, q};
				for (int l = 0; l < 3; l++)
					for (int a = 0; a < 2; a++) {
						double d =
							lv[l] *
							(1 +
							 0.05 * gauss(&seed));
						double y = (a ? 4 : -12) * d +
							   off +
							   5 * gauss(&seed);

						if (bend && !a && l == 1)
							y -= 10;
						o[n++] = (struct ls_wif_obs){
							lv[l],
							a ? LS_ARM_CONTROL
							  : LS_ARM_CRITICAL,
							1e6 * (1 + y / 100), d,
							q};
					}
			}
			assert_int_equal(ls_wif_analyse(o, n, 1, 0, &r), 0);
			assert_int_not_equal(r.fitq, LS_FITQ_UNCHECKED);
			poor[bend] += r.fitq == LS_FITQ_POOR;
		}
	if (poor[0] < 0.035 * trials || poor[0] > 0.065 * trials)
		fail_msg("a line called poor in %d of %d", poor[0], trials);
	if (poor[1] < 0.5 * trials)
		fail_msg("a 10%% bend called poor in only %d of %d", poor[1],
			 trials);
	print_message("poor: line %d/%d, 10%% bend %d/%d\n", poor[0], trials,
		      poor[1], trials);
}

static void test_schedule(void **state)
{
	struct ls_wif_run a[3 * 2 * 8], b[3 * 2 * 8];
	size_t n = ls_wif_schedule(2, 3, 3, 42, a), blk = 2 * ls_wif_block(3);
	int differs = 0;

	(void)state;
	assert_int_equal(n, 3 * blk);
	/* each block: every (lock, level, arm) once, two zeros per lock */
	for (size_t r = 0; r < 3; r++) {
		int seen[2][3][2] = {{{0}}}, zeros[2] = {0};

		for (size_t i = r * blk; i < (r + 1) * blk; i++) {
			assert_int_equal(a[i].round, r); /* the fit's block */
			if (a[i].arm == LS_ARM_ZERO)
				zeros[a[i].target]++;
			else
				seen[a[i].target][a[i].level][a[i].arm]++;
		}
		for (int t = 0; t < 2; t++) {
			assert_int_equal(zeros[t], 2);
			for (int l = 0; l < 3; l++)
				for (int m = 0; m < 2; m++)
					assert_int_equal(seen[t][l][m], 1);
		}
	}
	/* the same seed, the same order; another seed, another order */
	assert_int_equal(ls_wif_schedule(2, 3, 3, 42, b), n);
	assert_memory_equal(a, b, n * sizeof(a[0]));
	ls_wif_schedule(2, 3, 3, 43, b);
	differs = memcmp(a, b, n * sizeof(a[0])) != 0;
	assert_true(differs);
	/* blocks are shuffled: not the order they were built in */
	assert_false(a[0].arm == 0 && a[1].arm == 1 && a[2].arm == 0 &&
		     a[3].arm == 1 && a[4].arm == 0 && a[5].arm == 1);
}

/* The rule BPF runs: cap, stall, context, budget per CPU and window. */
static void test_rule(void **state)
{
	struct ls_wif_ctl ctl = {.delay_ns = 4000,
				 .budget_ns = 10000,
				 .beat_ns = 5000000000ULL,
				 .mode = LS_WIF_CRITICAL,
				 .armed = 1};
	struct ls_wif_cpu cpu = {0};
	__u64 now = 5100000000ULL;

	(void)state;
	assert_int_equal(ls_wif_decide(&ctl, &cpu, now, 1), LS_WIF_DELAY);
	assert_int_equal(ls_wif_decide(&ctl, &cpu, now, 1), LS_WIF_DELAY);
	/* 8 us used of 10: a third 4 us is refused, charging nothing */
	assert_int_equal(ls_wif_decide(&ctl, &cpu, now, 1), LS_WIF_REF_BUDGET);
	assert_int_equal(cpu.used_ns, 8000);
	/* still refused within the window, the next one starts afresh */
	assert_int_equal(
		ls_wif_decide(&ctl, &cpu, now + LS_WIF_WINDOW_NS / 2 - 1, 1),
		LS_WIF_REF_BUDGET);
	ctl.beat_ns = now + 900000000ULL;
	assert_int_equal(ls_wif_decide(&ctl, &cpu, now + LS_WIF_WINDOW_NS, 1),
			 LS_WIF_DELAY);
	assert_int_equal(cpu.used_ns, 4000);
	assert_int_equal(ls_wif_decide(&ctl, &cpu, ctl.beat_ns, 0),
			 LS_WIF_REF_CONTEXT);
	/* a heartbeat over a second old: the stall watchdog */
	assert_int_equal(
		ls_wif_decide(&ctl, &cpu, ctl.beat_ns + 1000000001ULL, 1),
		LS_WIF_REF_STALL);
	/* written after now was read: fresh */
	assert_int_equal(ls_wif_decide(&ctl, &cpu, ctl.beat_ns - 10, 1),
			 LS_WIF_DELAY);
	now = ctl.beat_ns;
	ctl.delay_ns = LS_WIF_CAP_NS + 1;
	assert_int_equal(ls_wif_decide(&ctl, &cpu, now, 1), LS_WIF_REF_CAP);
	ctl.delay_ns = 0;
	assert_int_equal(ls_wif_decide(&ctl, &cpu, now, 1), LS_WIF_NO_DELAY);
	ctl.delay_ns = 1000;
	ctl.budget_ns = LS_WIF_MAX_BUDGET_NS + 1; /* never above the max */
	assert_int_equal(ls_wif_decide(&ctl, &cpu, now, 1), LS_WIF_REF_BUDGET);
}

static void test_delays(void **state)
{
	struct ls_wif_opts w;
	char why[160];

	(void)state;
	ls_wif_opts_default(&w);
	assert_int_equal(
		ls_wif_parse_delays("0,4,1,2us,500ns", &w, why, sizeof(why)),
		0);
	assert_int_equal(w.ndelays, 4);
	close_to(w.delays_us[0], 0.5, 1e-12);
	close_to(w.delays_us[3], 4, 0);
	assert_int_equal(ls_wif_parse_delays("1s", &w, why, sizeof(why)),
			 -ERANGE);
	assert_non_null(strstr(why, "above the cap"));
	assert_int_equal(ls_wif_parse_delays("101", &w, why, sizeof(why)),
			 -ERANGE);
	assert_int_equal(ls_wif_parse_delays("100", &w, why, sizeof(why)), 0);
	assert_int_equal(ls_wif_parse_delays("0", &w, why, sizeof(why)),
			 -EINVAL);
	assert_int_equal(ls_wif_parse_delays("1,x", &w, why, sizeof(why)),
			 -EINVAL);
	assert_int_equal(ls_wif_parse_delays("-1", &w, why, sizeof(why)),
			 -EINVAL);
}

/* Levels sized from the pre-run's rate: the budget's 25% of the CPUs. */
static void test_auto_delays(void **state)
{
	struct ls_wif_opts w;

	(void)state;
	ls_wif_opts_default(&w);
	assert_int_equal(w.ndelays, 0);
	assert_int_equal(w.rounds, 3);
	ls_wif_auto_delays(&w, 2000, 2); /* 250 us: the cap */
	assert_int_equal(w.ndelays, 3);
	close_to(w.delays_us[2], 100, 0);
	close_to(w.delays_us[1], 50, 0);
	close_to(w.delays_us[0], 25, 0);
	ls_wif_auto_delays(&w, 70000, 2); /* 7.142857 us: 7.1 */
	close_to(w.delays_us[2], 7.1, 1e-9);
	close_to(w.delays_us[0], 1.775, 1e-9);
	ls_wif_auto_delays(&w, 5e6, 4); /* 0.2 us */
	close_to(w.delays_us[2], 0.2, 1e-9);
	ls_wif_auto_delays(&w, 0, 2); /* nothing seen: the cap */
	close_to(w.delays_us[2], 100, 0);
}

static void test_metrics(void **state)
{
	static const char sng[] =
		"stress-ng: info:  [12] dispatching hogs: 2 netlink-task\n"
		"stress-ng: metrc: [12] stressor       bogo ops real time  usr "
		"time  sys time   bogo ops/s     bogo ops/s\n"
		"stress-ng: metrc: [12]                           (secs)    "
		"(secs)    (secs)   (real time) (usr+sys time)\n"
		"stress-ng: metrc: [12] netlink-task     123456      3.00      "
		"0.50      2.40     41152.00       42571.03\n"
		"stress-ng: metrc: [12] flock              1000      3.00      "
		"0.10      0.20       333.33        3333.33\n";
	static const char ops[] = "warming\nops: 9000\n";
	struct ls_wif_opts w;
	char why[160];
	double v;

	(void)state;
	ls_wif_opts_default(&w);
	assert_int_equal(w.metric, LS_METRIC_AUTO);
	{
		char *bench[] = {"./bench", "stress-ng", NULL};
		char *sng1[] = {"/usr/bin/stress-ng", "--netlink-task", "2",
				NULL};
		char *sng2[] = {"stress-ng", "-M", "--flock", "1", NULL};

		/* auto: stress-ng's figures, asked for when not printed */
		assert_int_equal(ls_wif_auto_metric(&w, sng1), 1);
		assert_int_equal(w.metric, LS_METRIC_STRESSNG);
		w.metric = LS_METRIC_AUTO;
		assert_int_equal(ls_wif_auto_metric(&w, sng2), 0);
		assert_int_equal(w.metric, LS_METRIC_STRESSNG);
		/* an explicit metric is kept */
		assert_int_equal(ls_wif_auto_metric(&w, bench), 0);
		assert_int_equal(w.metric, LS_METRIC_STRESSNG);
		w.metric = LS_METRIC_AUTO;
		assert_int_equal(ls_wif_auto_metric(&w, bench), 0);
		assert_int_equal(w.metric, LS_METRIC_WALL);
	}
	assert_int_equal(ls_wif_metric_value(&w, "", 0, 2.0, &v), 0);
	close_to(v, 0.5, 0);
	assert_int_equal(ls_wif_parse_metric("stress-ng", &w, why, 160), 0);
	assert_int_equal(ls_wif_metric_value(&w, sng, strlen(sng), 3, &v), 0);
	close_to(v, 41152.00 + 333.33, 1e-9);
	assert_int_equal(ls_wif_metric_value(&w, ops, strlen(ops), 3, &v),
			 -ENOENT);
	assert_int_equal(ls_wif_parse_metric("ops", &w, why, 160), 0);
	assert_int_equal(ls_wif_metric_value(&w, ops, strlen(ops), 3, &v), 0);
	close_to(v, 3000, 1e-9);
	assert_int_equal(
		ls_wif_parse_metric("regex:rate=([0-9.]+)", &w, why, 160), 0);
	assert_int_equal(
		ls_wif_metric_value(&w, "rate=1.5\nrate=2.5\n", 18, 1, &v), 0);
	close_to(v, 2.5, 0);
	assert_int_equal(ls_wif_parse_metric("regex:nogroup", &w, why, 160),
			 -EINVAL);
	assert_int_equal(ls_wif_parse_metric("speed", &w, why, 160), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fit_dummies),
		cmocka_unit_test(test_fit_rounds),
		cmocka_unit_test(test_verdict),
		cmocka_unit_test(test_fit_poor),
		cmocka_unit_test(test_fit_coverage),
		cmocka_unit_test(test_schedule),
		cmocka_unit_test(test_rule),
		cmocka_unit_test(test_delays),
		cmocka_unit_test(test_auto_delays),
		cmocka_unit_test(test_metrics),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
