// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * test_whatif.c - whatif's statistics (user/analysis/whatif.c): the line
 * and its interval against values computed by hand (numpy/scipy), the
 * prediction interval, the verdict, the randomised schedule; the BPF
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

/* An exact line: slope and intercept exact, zero-width interval. */
static void test_fit_exact(void **state)
{
	double x[] = {0, 1, 2, 4}, y[] = {10, 8, 6, 2};
	struct ls_line l;

	(void)state;
	assert_int_equal(ls_line_fit(x, y, 4, &l), 0);
	close_to(l.b, -2, 1e-12);
	close_to(l.a, 10, 1e-12);
	close_to(l.b_hi - l.b_lo, 0, 1e-9);
	/* degenerate: one x, or two points */
	assert_int_equal(ls_line_fit(x, y, 2, &l), -EINVAL);
	double x1[] = {1, 1, 1};
	assert_int_equal(ls_line_fit(x1, y, 3, &l), -EINVAL);
}

/*
 * x = 0 0 1 1 2 2 4 4, y = 0.5 -0.3 -2.2 -1.6 -4.1 -3.7 -8.4 -7.9:
 * scipy.stats.linregress: slope -2.0454545..., intercept 0.0227272...,
 * stderr 0.0763762...; t(0.975, 6) = 2.446911851.
 */
static void test_fit_interval(void **state)
{
	double x[] = {0, 0, 1, 1, 2, 2, 4, 4};
	double y[] = {0.5, -0.3, -2.2, -1.6, -4.1, -3.7, -8.4, -7.9};
	double sx = 0, sy = 0, sxx = 0, sxy = 0, b, a, rss = 0, se, lo, mid, hi;
	struct ls_line l;

	(void)state;
	for (int i = 0; i < 8; i++) {
		sx += x[i];
		sy += y[i];
	}
	for (int i = 0; i < 8; i++) {
		sxx += (x[i] - sx / 8) * (x[i] - sx / 8);
		sxy += (x[i] - sx / 8) * (y[i] - sy / 8);
	}
	b = sxy / sxx;
	a = sy / 8 - b * sx / 8;
	for (int i = 0; i < 8; i++)
		rss += (y[i] - a - b * x[i]) * (y[i] - a - b * x[i]);
	se = sqrt(rss / 6) / sqrt(sxx);
	assert_int_equal(ls_line_fit(x, y, 8, &l), 0);
	close_to(l.b, b, 1e-12);
	close_to(l.se_b, se, 1e-12);
	close_to(l.b_lo, b - 2.446911851 * se, 1e-8);
	close_to(l.b_hi, b + 2.446911851 * se, 1e-8);
	/* the mean of 2 new points at x = 3 */
	ls_line_predict(&l, 3, 2, &lo, &mid, &hi);
	close_to(mid, a + 3 * b, 1e-12);
	close_to(
		hi - mid,
		2.446911851 * sqrt(rss / 6) *
			sqrt(0.5 + 1.0 / 8 + (3 - sx / 8) * (3 - sx / 8) / sxx),
		1e-8);
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
				0, LS_ARM_ZERO,
				1000 * (1 + (z ? e : -e) / 100)};
		for (int l = 0; l < 3; l++) {
			o[n++] = (struct ls_wif_obs){
				lv[l], LS_ARM_CRITICAL,
				1000 * (1 + (crit * lv[l] + e) / 100)};
			o[n++] = (struct ls_wif_obs){
				lv[l], LS_ARM_CONTROL,
				1000 * (1 + (ctrl * lv[l] - e) / 100)};
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
	assert_int_equal(ls_wif_analyse(o, n, 2.0, &r), 0);
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
	assert_int_equal(ls_wif_analyse(o, n, 100.0, &r), 0);
	assert_true(r.per_pct_in);
	assert_false(r.gain_in);
	/* the confound alone: both arms -2 %/us: not on it */
	n = make_obs(o, -2, -2, 0.3);
	assert_int_equal(ls_wif_analyse(o, n, 0, &r), 0);
	assert_int_equal(r.call, LS_CALL_NOT_ON_IT);
	assert_true(r.line[LS_ARM_CRITICAL].b_hi < 0); /* without control */
	/* A/A with heavy noise: cannot tell (never on the path) */
	n = make_obs(o, 0, 0, 20);
	assert_int_equal(ls_wif_analyse(o, n, 0, &r), 0);
	assert_int_equal(r.call, LS_CALL_CANNOT_TELL);
	/* no zero runs: not analysed */
	assert_int_equal(ls_wif_analyse(o + 2, 6, 0, &r), -EINVAL);
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
	assert_int_equal(ls_wif_analyse(o, n, 0, &r), 0);
	assert_int_equal(r.fitq, LS_FITQ_POOR);
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
	/* the next second's window starts afresh (a heartbeat since) */
	ctl.beat_ns = now + 900000000ULL;
	assert_int_equal(ls_wif_decide(&ctl, &cpu, now + 1000000000ULL, 1),
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
		cmocka_unit_test(test_fit_exact),
		cmocka_unit_test(test_fit_interval),
		cmocka_unit_test(test_verdict),
		cmocka_unit_test(test_fit_poor),
		cmocka_unit_test(test_schedule),
		cmocka_unit_test(test_rule),
		cmocka_unit_test(test_delays),
		cmocka_unit_test(test_metrics),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
