// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The cost budget's rules (bpf/budget_rule.h, the code the BPF programs
 * run) and its estimates (model/estimate.c): a synthetic stream of waits
 * with a known total, sampled as the kernel samples it while N changes;
 * the estimate is unbiased and its standard error covers the truth about
 * 95% of the time over many seeds; N keeps a simulated CPU's cost within
 * its budget.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>
#include "model/estimate.h"
#include "model/model.h"
#include "budget_rule.h"

/* A wait's length (ns): 200 ns to 4.2 us, with @tail: about 1% of 20 to
 * 200 us (sleeps). */
static uint64_t wait_ns(uint32_t *rng, int tail)
{
	uint32_t x = ls_budget_rand(rng);

	if (tail && (x & 0xff) < 3)
		return 20000 + (x >> 8) % 180000;
	return 200 + (x >> 8) % 4000;
}

/* One seed: @waits waits, N changing every @seg waits through @ns; the
 * figures accumulated as record() does.  Returns the true total. */
static uint64_t run_stream(uint32_t seed, unsigned waits, unsigned seg,
			   const uint32_t *ns, unsigned nns, int tail,
			   struct ls_lock_stats *st)
{
	struct ls_budget_cpu b = {.rng = seed | 1};
	uint32_t drng = seed * 2654435761U + 1;
	uint64_t truth = 0;

	*st = (struct ls_lock_stats){0};
	for (unsigned i = 0; i < waits; i++) {
		uint64_t d = wait_ns(&drng, tail);
		uint32_t w;

		if (i % seg == 0) {
			b.n = ns[(i / seg) % nns];
			b.thresh = ls_budget_thresh(b.n);
		}
		truth += d;
		st->contentions++;
		w = ls_budget_pick(&b);
		if (!w)
			continue;
		st->total_ns += d * w;
		st->sampled++;
		st->est_weight += w;
		st->var_count += (uint64_t)w * (w - 1);
		st->var_total += ls_est_var_term(d, w);
	}
	return truth;
}

/* @seeds streams: how many 1.96-se intervals cover the truth; asserts
 * the mean error is 0 within 4 of its standard errors. */
static unsigned coverage(unsigned seeds, int tail)
{
	static const uint32_t ns[] = {1, 16, 64, 200, 8};
	double sum_rel = 0, sum_rel2 = 0, mean, sd;
	unsigned covered = 0;

	for (unsigned s = 1; s <= seeds; s++) {
		struct ls_lock_stats st;
		uint64_t truth = run_stream(s, 200000, 8000, ns, 5, tail, &st);
		double err = (double)st.total_ns - (double)truth;
		double se = ls_est_se_ns(&st, LS_EST_TOTAL);

		assert_int_equal(st.contentions, 200000); /* counts exact */
		sum_rel += err / (double)truth;
		sum_rel2 += (err / (double)truth) * (err / (double)truth);
		if (fabs(err) <= 1.96 * se)
			covered++;
	}
	mean = sum_rel / seeds;
	sd = sqrt(sum_rel2 / seeds - mean * mean);
	printf("# %s: relative error mean %.5f, sd %.5f; 1.96 se covered %u "
	       "of %u\n",
	       tail ? "with a 1% tail" : "no tail", mean, sd, covered, seeds);
	/* unbiased: the mean error within 4 standard errors of the mean
	 * (a false alarm about 1 in 16000) */
	assert_true(fabs(mean) < 4 * sd / sqrt(seeds));
	return covered;
}

static void estimate_unbiased_and_covered(void **state)
{
	unsigned c;

	(void)state;
	/* 95% intervals: 1000 seeds give 95.0% +- 0.69% (binomial sd);
	 * 92.5..97.5 is 3.6 sd each side */
	c = coverage(1000, 0);
	assert_true(c >= 925 && c <= 975);
	/* a skewed stream (1% of waits make half the time, a few of them
	 * timed at 1 in 200): still unbiased, the interval too short about
	 * one time in ten (docs/budget.md) */
	c = coverage(1000, 1);
	assert_true(c >= 850);
}

/* Exact (N = 1 throughout): the estimate is the truth, its error 0. */
static void exact_has_no_error(void **state)
{
	static const uint32_t one[] = {1};
	struct ls_lock_stats st;
	uint64_t truth = run_stream(7, 10000, 1000, one, 1, 1, &st);

	(void)state;
	assert_int_equal(st.total_ns, truth);
	assert_int_equal(st.var_total, 0);
	assert_true(ls_est_se_ns(&st, LS_EST_TOTAL) == 0);
}

/* Known answers of the rule picking N. */
static void next_n_known(void **state)
{
	const uint32_t f = LS_BUDGET_COST_FRAC;
	int over;

	(void)state;
	/* 10000 runs in 100 ms at 50 ns untimed, 500 timed, 1%: 1 ms of
	 * room, 0.5 ms floor, 4.5 ms of timed extra: N = 9 (exactly 1 ms) */
	assert_int_equal(ls_budget_next_n(10000, 100000000, 50 * f, 500 * f,
					  10000, &over),
			 9);
	assert_false(over);
	/* cheap enough to time everything */
	assert_int_equal(
		ls_budget_next_n(100, 100000000, 50 * f, 500 * f, 10000, &over),
		1);
	assert_false(over);
	/* the untimed floor alone (1.5 ms) is over budget, flagged: N brings
	 * the timed extra (450 ns a run) to 1/8 of the floor (50 ns): 72 */
	assert_int_equal(ls_budget_next_n(30000, 100000000, 50 * f, 500 * f,
					  10000, &over),
			 72);
	assert_true(over);
	/* between: N capped at the most, flagged */
	assert_int_equal(ls_budget_next_n(19999, 100000000, 50 * f, 100000 * f,
					  10000, &over),
			 LS_BUDGET_N_MAX);
	assert_true(over);
}

/*
 * A simulated CPU: runs at @rate per second costing @cu ns untimed and
 * @cs timed, measured one in LS_BUDGET_PROBE_EVERY as budget.bpf.h does,
 * windows closed by ls_budget_close.  Returns the cost share (percent)
 * of the last second, by the model's own costs.
 */
static double simulate(uint64_t rate, uint64_t cu, uint64_t cs, uint32_t ppm,
		       struct ls_budget_cpu *b)
{
	uint64_t gap = 1000000000ULL / rate, now = 1, cost_last = 0;
	uint64_t total = 4 * rate; /* 4 s */

	*b = (struct ls_budget_cpu){.n = 1, .rng = 12345, .probe_left = 1};
	b->thresh = ls_budget_thresh(1);
	for (uint64_t i = 0; i < total; i++, now += gap) {
		int timed = ls_budget_pick(b) != 0;
		uint64_t c = timed ? cs : cu;

		if (i >= 3 * rate)
			cost_last += c;
		b->runs++;
		b->win_runs++;
		b->sruns += timed;
		b->win_sruns += timed;
		if (--b->probe_left)
			continue;
		b->probe_left = LS_BUDGET_PROBE_EVERY;
		b->probe_ns[timed] += c;
		b->probe_runs[timed]++;
		if (now - b->win_start >= LS_BUDGET_WINDOW_NS)
			ls_budget_close(b, now, ppm);
	}
	return 100.0 * (double)cost_last / 1e9;
}

static void budget_held(void **state)
{
	struct ls_budget_cpu b;
	double share;

	(void)state;
	/* 200k runs/s, 40 ns untimed, 400 ns timed: 8% exact; 1% asked */
	share = simulate(200000, 40, 400, 10000, &b);
	printf("# 200k runs/s: share %.3f%%, N %u, over %llu of %llu\n", share,
	       b.n, (unsigned long long)b.over, (unsigned long long)b.windows);
	assert_true(share <= 1.0 * 1.1 && share >= 0.8);
	assert_int_equal(b.over, 0);
	/* the programs' own estimate of their cost follows the truth */
	assert_true(b.cost_ns > 0);
	/* 400k runs/s at 40 ns untimed: the floor is 1.6%, over budget:
	 * N = 8 * 360 / 40 = 72, the cost within 1/8 of the floor */
	share = simulate(400000, 40, 400, 10000, &b);
	printf("# 400k runs/s: share %.3f%%, N %u, over %llu of %llu\n", share,
	       b.n, (unsigned long long)b.over, (unsigned long long)b.windows);
	assert_int_equal(b.n, 72);
	assert_true(share <= 1.6 * 1.125 * 1.05);
	assert_true(b.over > 0);
	/* 2k runs/s: everything timed */
	simulate(2000, 40, 400, 10000, &b);
	assert_int_equal(b.n, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(estimate_unbiased_and_covered),
		cmocka_unit_test(exact_has_no_error),
		cmocka_unit_test(next_n_known),
		cmocka_unit_test(budget_held),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
