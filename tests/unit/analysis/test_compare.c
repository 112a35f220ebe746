// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * test_compare.c - statistics and matching of `lockscope compare` on the
 * fixed records in tests/data (made by tests/data/gen-records.py).  Every
 * expected number below is worked out by hand in the comment beside it.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "analysis/compare.h"

#define EPS 1e-4

static void close_to(double got, double want, double eps)
{
	if (fabs(got - want) > eps)
		fail_msg("got %.9g, want %.9g", got, want);
}

static void test_mean_sd(void **state)
{
	double a[] = {100, 120}, b[] = {2, 4, 4, 4, 5, 5, 7, 9}, one = 5;
	double m, sd;

	(void)state;
	ls_mean_sd(a, 2, &m, &sd);
	close_to(m, 110, EPS);	      /* (100 + 120) / 2 */
	close_to(sd, sqrt(200), EPS); /* ((-10)^2 + 10^2) / (2 - 1) = 200 */
	close_to(ls_sd_pct(m, sd), 12.8565, EPS); /* 14.1421 / 110 */
	ls_mean_sd(b, 8, &m, &sd);
	close_to(m, 5, EPS);		   /* 40 / 8 */
	close_to(sd, sqrt(32.0 / 7), EPS); /* squares sum to 32, n - 1 = 7 */
	ls_mean_sd(&one, 1, &m, &sd);
	close_to(m, 5, EPS);
	close_to(sd, 0, EPS); /* one run: no spread */
	ls_mean_sd(NULL, 0, &m, &sd);
	close_to(m, 0, EPS);
	close_to(ls_sd_pct(0, 3), 0, EPS);
}

static void test_pct_change(void **state)
{
	(void)state;
	close_to(ls_pct_change(110, 140), 27.2727, EPS); /* 30 / 110 */
	close_to(ls_pct_change(1000, 900), -10, EPS);
	close_to(ls_pct_change(5, 0), -100, EPS);
	close_to(ls_pct_change(0, 0), 0, EPS);
	assert_true(isinf(ls_pct_change(0, 5)) && ls_pct_change(0, 5) > 0);
}

static const char *data_dir(void)
{
	static char dir[4096];
	const char *root = getenv("LS_ROOT");

	snprintf(dir, sizeof(dir), "%s/tests/data", root ? root : ".");
	return dir;
}

struct sides {
	struct ls_rec base[3], nw[3];
};

static void load(struct ls_rec *r, const char *name)
{
	char path[4200], err[256];

	snprintf(path, sizeof(path), "%s/%s", data_dir(), name);
	if (ls_rec_read_file(path, r, err, sizeof(err)))
		fail_msg("%s: %s", path, err);
}

static int setup(void **state)
{
	struct sides *s = calloc(1, sizeof(*s));
	char name[64];

	assert_non_null(s);
	for (int i = 0; i < 3; i++) {
		snprintf(name, sizeof(name), "record-base%d.json", i + 1);
		load(&s->base[i], name);
		snprintf(name, sizeof(name), "record-new%d.json", i + 1);
		load(&s->nw[i], name);
	}
	*state = s;
	return 0;
}

static int teardown(void **state)
{
	struct sides *s = *state;

	for (int i = 0; i < 3; i++) {
		ls_rec_free(&s->base[i]);
		ls_rec_free(&s->nw[i]);
	}
	free(s);
	return 0;
}

static const struct ls_cmp_row *row(const struct ls_cmp *c, const char *key)
{
	for (size_t i = 0; i < c->n; i++)
		if (!strcmp(c->rows[i].id.key, key))
			return &c->rows[i];
	fail_msg("no row %s", key);
	return NULL;
}

#define G "lockscope.mutex@genl_rcv_msg."

static void test_reader_merges_classes(void **state)
{
	struct sides *s = *state;
	const struct ls_rec_lock *l;

	/* new1 has two mutex@genl_rcv_msg rows: one class, summed */
	l = ls_rec_find(&s->nw[0].totals, "mutex@genl_rcv_msg", LS_KIND_MUTEX);
	assert_non_null(l);
	assert_int_equal(l->instances, 2);
	assert_int_equal(l->contentions, 150);	/* 100 + 50 */
	assert_int_equal(l->total_ns, 2000000); /* 1.5 ms + 0.5 ms */
	assert_int_equal(l->spin_failed, 3);	/* 2 + 1 */
	assert_int_equal(l->max_ns, 50000);	/* max, not sum */
	assert_int_equal(s->nw[0].totals.nlocks, 3);
	assert_null(ls_rec_find(&s->base[1].totals, "rwsem@mmap_region",
				LS_KIND_RWSEM_W));
	assert_string_equal(s->base[0].kernel, "6.1.0-base");
	assert_string_equal(s->base[0].command,
			    "stress-ng --netlink-task 2 -t 3s");
	assert_int_equal(s->base[0].exit_status, 0);
	assert_int_equal(s->base[0].cpus, 2);
}

/* The row's test is Welch's on these values (checked against scipy in
 * test_stats.c) */
static void same_test(const struct ls_cmp_row *r, const double *b,
		      const double *n, size_t runs, double quantum)
{
	struct ls_welch w;

	assert_int_equal(ls_welch_test(b, runs, n, runs, quantum, &w), 0);
	assert_true(r->res.tested);
	assert_int_equal(r->res.scale, w.scale);
	close_to(r->res.p, w.p, 1e-12);
	close_to(r->res.effect_pct, w.effect_pct, 1e-9);
	close_to(r->res.hi_pct, w.hi_pct, 1e-9);
	assert_true(r->res.p_adj >= r->res.p);
}

static void test_compare_by_hand(void **state)
{
	struct sides *s = *state;
	const struct ls_cmp_row *r;
	struct ls_cmp c;

	assert_int_equal(ls_compare(s->base, 3, s->nw, 3, 0, 0, &c), 0);

	/* base 100, 120, 110: 110 +- 10 (9.09%); new 150, 130, 140: 140 +- 10
	 * (7.14%); +27.27%; on the log scale p = 0.025, which the
	 * Benjamini-Hochberg correction over 16 tests lifts above 0.05 */
	r = row(&c, G "contentions");
	close_to(r->mean[0], 110, EPS);
	close_to(r->sd[0], 10, EPS);
	close_to(ls_sd_pct(r->mean[0], r->sd[0]), 9.0909, EPS);
	close_to(r->mean[1], 140, EPS);
	close_to(ls_sd_pct(r->mean[1], r->sd[1]), 7.1429, EPS);
	close_to(r->change_pct, 27.2727, EPS);
	assert_int_equal(r->presence, LS_CMP_BOTH);
	same_test(r, (double[]){100, 120, 110}, (double[]){150, 130, 140}, 3,
		  0);
	assert_int_equal(r->res.scale, LS_SCALE_LOG);
	assert_true(r->res.p < 0.05 && r->res.p_adj > 0.05);
	assert_int_equal(r->res.verdict, LS_VERDICT_UNCHANGED);
	assert_false(r->changed || r->regressed);
	close_to(r->events[0], 110, EPS);

	/* wait: base 1.0, 1.4, 1.2 ms: 1.2 +- 0.2; new 2.0, 2.2, 2.1 */
	r = row(&c, G "wait_time.total.ms");
	close_to(r->mean[0], 1.2, EPS);
	close_to(r->sd[0], 0.2, EPS);
	close_to(r->mean[1], 2.1, EPS);
	close_to(r->sd[1], 0.1, EPS);
	close_to(r->change_pct, 75.0, EPS);
	same_test(r, (double[]){1.0, 1.4, 1.2}, (double[]){2.0, 2.2, 2.1}, 3,
		  0);

	/* avg: base (1.0/100 + 1.4/120 + 1.2/110) / 3 = 0.0108586;
	 * new (2.0/150 + 2.2/130 + 2.1/140) / 3 = 0.0150855; +38.93% */
	r = row(&c, G "wait_time.avg.ms");
	close_to(r->mean[0], 0.0108586, 1e-6);
	close_to(r->mean[1], 0.0150855, 1e-6);
	close_to(r->change_pct, 38.926, 1e-2);

	/* sleep: 0 in base, 0.2 ms in every new run, from 3, 5 and 3 sleeps:
	 * rests on too few events to count, and has no relative effect */
	r = row(&c, G "sleep_time.total.ms");
	assert_true(isinf(r->change_pct));
	close_to(r->mean[1], 0.2, EPS);
	close_to(r->events[1], 11.0 / 3, EPS);
	assert_int_equal(r->res.scale, LS_SCALE_LINEAR);
	assert_true(isnan(r->res.effect_pct) && isnan(r->res.p_adj));
	assert_int_equal(r->res.verdict, LS_VERDICT_FEW_EVENTS);
	assert_false(r->regressed);

	/* max 50 us everywhere: no change */
	r = row(&c, G "wait_time.max.ms");
	close_to(r->change_pct, 0, EPS);
	close_to(r->res.p, 1, 0);
	assert_false(r->changed);

	/* siglock only in new: 4, 6, 5 -> 5 +- 1; base side absent; 5
	 * contentions a run are too few */
	r = row(&c, "lockscope.siglock(spinlock).contentions");
	assert_int_equal(r->presence, LS_CMP_ONLY_NEW);
	assert_int_equal(r->present[0], 0);
	assert_int_equal(r->present[1], 3);
	close_to(r->mean[1], 5, EPS);
	close_to(r->sd[1], 1, EPS);
	assert_int_equal(r->res.verdict, LS_VERDICT_FEW_EVENTS);

	/* rwsem only in base1: 10, 0, 0 -> 3.33 +- 5.77: -100%; its interval
	 * is cut at -100% (no metric is negative) */
	r = row(&c, "lockscope.rwsem@mmap_region(rwsem:W).contentions");
	assert_int_equal(r->presence, LS_CMP_ONLY_BASE);
	close_to(r->mean[0], 10.0 / 3, EPS);
	close_to(r->sd[0], 5.7735, EPS);
	close_to(r->change_pct, -100, EPS);
	close_to(r->res.lo_pct, -100, 0);
	assert_int_equal(r->res.verdict, LS_VERDICT_FEW_EVENTS);

	/* pipe 1000 -> 900 in every run: -10%, certain, an improvement */
	r = row(&c, "lockscope.mutex@pipe_write.contentions");
	close_to(r->change_pct, -10, EPS);
	close_to(r->res.lo_pct, -10, EPS);
	close_to(r->res.hi_pct, -10, EPS);
	close_to(r->res.p, 0, 0);
	assert_int_equal(r->res.verdict, LS_VERDICT_BETTER);
	assert_true(r->changed);
	assert_false(r->regressed);

	/* osq_lock share: 5%, 7%, 6% -> 6 +- 1; 6% thrice: unchanged */
	r = row(&c, "lockscope.spin_share.osq_lock");
	close_to(r->mean[0], 6, EPS);
	close_to(r->sd[0], 1, EPS);
	close_to(r->change_pct, 0, EPS);
	close_to(r->events[0], 60, EPS);
	assert_int_equal(r->res.verdict, LS_VERDICT_UNCHANGED);

	/* all contentions: 1110, 1120, 1110 -> 1113.33;
	 * 1054, 1036, 1045 -> 1045; -6.138% */
	r = row(&c, "lockscope.contentions");
	close_to(r->mean[0], 1113.3333, EPS);
	close_to(r->mean[1], 1045, EPS);
	close_to(r->change_pct, -6.13772, EPS);
	same_test(r, (double[]){1110, 1120, 1110}, (double[]){1054, 1036, 1045},
		  3, 0);
	assert_int_equal(r->res.verdict, LS_VERDICT_BETTER);

	/* pipe's contentions, spin and wait, and all contentions */
	assert_int_equal(c.nchanged, 4);
	assert_int_equal(c.nregressed, 0);
	assert_int_equal(c.ntested, 16);
	/* sorted by |change|, largest (infinite) first */
	assert_true(isinf(c.rows[0].change_pct));
	for (size_t i = 1; i < c.n; i++)
		assert_true(fabs(c.rows[i - 1].change_pct) >=
			    fabs(c.rows[i].change_pct));
	ls_cmp_free(&c);

	/* 8%: the -6.1% of all contentions is significant but small */
	assert_int_equal(ls_compare(s->base, 3, s->nw, 3, 8, 0, &c), 0);
	assert_int_equal(row(&c, "lockscope.contentions")->res.verdict,
			 LS_VERDICT_SMALL);
	assert_int_equal(c.nchanged, 3);
	ls_cmp_free(&c);
}

static void test_compare_reversed(void **state)
{
	struct sides *s = *state;
	struct ls_cmp c;

	/* new as base: pipe 900 -> 1000 is +11.1% (contentions, spin and
	 * wait time) and all contentions 1045 -> 1113.3 is +6.5% */
	assert_int_equal(ls_compare(s->nw, 3, s->base, 3, 5, 0, &c), 0);
	close_to(row(&c, "lockscope.mutex@pipe_write.contentions")->change_pct,
		 11.1111, EPS);
	assert_int_equal(c.nregressed, 4);
	ls_cmp_free(&c);
	assert_int_equal(ls_compare(s->nw, 3, s->base, 3, 20, 0, &c), 0);
	assert_int_equal(c.nregressed, 0);
	ls_cmp_free(&c);
	/* the same runs on both sides change nothing */
	assert_int_equal(ls_compare(s->base, 3, s->base, 3, 0, 0, &c), 0);
	assert_int_equal(c.nchanged, 0);
	ls_cmp_free(&c);
	assert_int_equal(ls_compare(s->base, 0, s->base, 2, 0, 0, &c), -EINVAL);
}

static void test_few_runs(void **state)
{
	struct sides *s = *state;
	const struct ls_cmp_row *r;
	struct ls_cmp c;

	/* two runs a side: tested and reported, never counted */
	assert_int_equal(ls_compare(s->nw, 2, s->base, 2, 0, 0, &c), 0);
	r = row(&c, "lockscope.mutex@pipe_write.contentions");
	assert_true(r->res.tested);
	close_to(r->res.effect_pct, 11.1111, EPS);
	assert_true(r->res.p_adj < 0.05);
	assert_int_equal(r->res.verdict, LS_VERDICT_FEW_RUNS);
	assert_int_equal(c.nchanged, 0);
	assert_int_equal(c.nregressed, 0);
	ls_cmp_free(&c);
	/* one run: no spread, no test */
	assert_int_equal(ls_compare(s->nw, 1, s->base, 3, 0, 0, &c), 0);
	r = row(&c, "lockscope.mutex@pipe_write.contentions");
	assert_false(r->res.tested);
	assert_true(isnan(r->res.p));
	assert_int_equal(r->res.verdict, LS_VERDICT_FEW_RUNS);
	assert_int_equal(c.nchanged, 0);
	ls_cmp_free(&c);
}

/* A record holding one lock with @cont contentions and @peak waiters. */
static void one_lock(struct ls_rec *r, uint64_t cont, uint64_t peak)
{
	memset(r, 0, sizeof(*r));
	r->totals.locks = calloc(1, sizeof(*r->totals.locks));
	assert_non_null(r->totals.locks);
	r->totals.nlocks = 1;
	snprintf(r->totals.locks[0].name, LS_NAME_MAX, "mutex@f");
	r->totals.locks[0].kind = LS_KIND_MUTEX;
	r->totals.locks[0].contentions = cont;
	r->totals.locks[0].peak_waiters = peak;
}

static void test_gauge(void **state)
{
	struct ls_rec b[10], n[10];
	const struct ls_cmp_row *r;
	struct ls_cmp c;

	(void)state;
	/* 2 waiters in every base run, 3 in every new run: exact agreement
	 * on a small integer is not certainty (rounding variance 1/12):
	 * p = 0.0132 (test_stats.c), and the only other tests are the two
	 * unchanged contention counts: adjusted 0.0397, one whole waiter */
	for (int i = 0; i < 3; i++) {
		one_lock(&b[i], 1000, 2);
		one_lock(&n[i], 1000, 3);
	}
	assert_int_equal(ls_compare(b, 3, n, 3, 0, 0, &c), 0);
	r = row(&c, "lockscope.mutex@f.peak_waiters");
	assert_int_equal(r->id.type, LS_METRIC_GAUGE);
	assert_int_equal(r->res.scale, LS_SCALE_LINEAR);
	close_to(r->res.p, 0.0132356, 1e-6);
	close_to(r->res.p_adj, 0.0397068, 1e-6);
	assert_int_equal(r->res.verdict, LS_VERDICT_WORSE);
	assert_int_equal(c.nregressed, 1);
	ls_cmp_free(&c);
	for (int i = 0; i < 3; i++) {
		ls_rec_free(&b[i]);
		ls_rec_free(&n[i]);
	}
	/* 2 waiters against 2.9 on average in ten runs a side: certain, but
	 * less than one waiter more does not count */
	for (int i = 0; i < 10; i++) {
		one_lock(&b[i], 1000, 2);
		one_lock(&n[i], 1000, i ? 3 : 2);
	}
	assert_int_equal(ls_compare(b, 10, n, 10, 0, 0, &c), 0);
	r = row(&c, "lockscope.mutex@f.peak_waiters");
	assert_true(r->res.p_adj < 0.001);
	assert_int_equal(r->res.verdict, LS_VERDICT_SMALL);
	assert_int_equal(c.nchanged, 0);
	ls_cmp_free(&c);
	for (int i = 0; i < 10; i++) {
		ls_rec_free(&b[i]);
		ls_rec_free(&n[i]);
	}
}

static void test_min_share(void **state)
{
	struct sides *s = *state;
	const struct ls_cmp_row *r;
	struct ls_cmp c;

	/* 1%: siglock (new: 5 of 1045 contentions = 0.48%, 0.005 of
	 * 6.61 ms wait = 0.08%) and rwsem@mmap_region (base: 3.33 of 1113 =
	 * 0.30%, 0.0067 of 6.21 ms = 0.11%) are minor; genl_rcv_msg (13%) and
	 * pipe_write (86%) are not */
	assert_int_equal(ls_compare(s->base, 3, s->nw, 3, 0, 1, &c), 0);
	assert_int_equal(c.nminor_locks, 2);
	r = row(&c, "lockscope.siglock(spinlock).contentions");
	assert_true(r->minor);
	assert_int_equal(r->res.verdict, LS_VERDICT_MINOR);
	assert_false(r->changed || r->regressed);
	assert_false(row(&c, G "contentions")->minor);
	assert_false(row(&c, "lockscope.contentions")->minor);
	assert_int_equal(c.nchanged, 4);
	ls_cmp_free(&c);
	/* 0.4%: siglock's 5 / 1045 = 0.478% of contentions is enough,
	 * rwsem@mmap_region's 3.33 / 1113 = 0.299% is not */
	assert_int_equal(ls_compare(s->base, 3, s->nw, 3, 0, 0.4, &c), 0);
	assert_false(row(&c, "lockscope.siglock(spinlock).contentions")->minor);
	assert_int_equal(c.nminor_locks, 1);
	ls_cmp_free(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mean_sd),
		cmocka_unit_test(test_pct_change),
		cmocka_unit_test_setup_teardown(test_reader_merges_classes,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_compare_by_hand, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_compare_reversed, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_few_runs, setup, teardown),
		cmocka_unit_test(test_gauge),
		cmocka_unit_test_setup_teardown(test_min_share, setup,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
