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
	struct ls_rec base[2], nw[2];
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

	assert_non_null(s);
	load(&s->base[0], "record-base1.json");
	load(&s->base[1], "record-base2.json");
	load(&s->nw[0], "record-new1.json");
	load(&s->nw[1], "record-new2.json");
	*state = s;
	return 0;
}

static int teardown(void **state)
{
	struct sides *s = *state;

	for (int i = 0; i < 2; i++) {
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

static void test_compare_by_hand(void **state)
{
	struct sides *s = *state;
	const struct ls_cmp_row *r;
	struct ls_cmp c;

	assert_int_equal(ls_compare(s->base, 2, s->nw, 2, 0, 0, &c), 0);

	/* base 100, 120: 110 +- 14.142 (12.86%); new 150, 130: 140 +- 14.142
	 * (10.10%); +27.27%; |30| > 14.14 + 14.14: a regression */
	r = row(&c, G "contentions");
	close_to(r->mean[0], 110, EPS);
	close_to(r->sd[0], 14.1421, EPS);
	close_to(ls_sd_pct(r->mean[0], r->sd[0]), 12.8565, EPS);
	close_to(r->mean[1], 140, EPS);
	close_to(ls_sd_pct(r->mean[1], r->sd[1]), 10.1015, EPS);
	close_to(r->change_pct, 27.2727, EPS);
	assert_int_equal(r->presence, LS_CMP_BOTH);
	assert_true(r->changed && r->regressed);

	/* wait: base 1.0, 1.4 ms: 1.2 +- 0.2828; new 2.0, 2.2: 2.1 +- 0.1414 */
	r = row(&c, G "wait_time.total.ms");
	close_to(r->mean[0], 1.2, EPS);
	close_to(r->sd[0], 0.282843, EPS);
	close_to(r->mean[1], 2.1, EPS);
	close_to(r->sd[1], 0.141421, EPS);
	close_to(r->change_pct, 75.0, EPS);

	/* avg: base (1.0/100 + 1.4/120) / 2 = 0.0108333;
	 * new (2.0/150 + 2.2/130) / 2 = 0.0151282; +39.645% */
	r = row(&c, G "wait_time.avg.ms");
	close_to(r->mean[0], 0.0108333, 1e-6);
	close_to(r->mean[1], 0.0151282, 1e-6);
	close_to(r->change_pct, 39.645, 1e-2);

	/* sleep: 0 in base, 0.2 ms in both new runs: infinite change */
	r = row(&c, G "sleep_time.total.ms");
	assert_true(isinf(r->change_pct));
	close_to(r->mean[1], 0.2, EPS);
	assert_true(r->regressed);

	/* max 50 us everywhere: no change, not shown */
	r = row(&c, G "wait_time.max.ms");
	close_to(r->change_pct, 0, EPS);
	assert_false(r->changed);

	/* siglock only in new: 4, 6 -> 5 +- 1.414; base side absent */
	r = row(&c, "lockscope.siglock(spinlock).contentions");
	assert_int_equal(r->presence, LS_CMP_ONLY_NEW);
	assert_int_equal(r->present[0], 0);
	assert_int_equal(r->present[1], 2);
	close_to(r->mean[1], 5, EPS);
	close_to(r->sd[1], 1.41421, EPS);
	assert_true(r->regressed);

	/* rwsem only in base1: 10, 0 -> 5 +- 7.07: -100% but within noise */
	r = row(&c, "lockscope.rwsem@mmap_region(rwsem:W).contentions");
	assert_int_equal(r->presence, LS_CMP_ONLY_BASE);
	close_to(r->mean[0], 5, EPS);
	close_to(r->sd[0], 7.07107, EPS);
	close_to(r->change_pct, -100, EPS);
	assert_false(r->changed);

	/* pipe 1000 -> 900: -10%, an improvement */
	r = row(&c, "lockscope.mutex@pipe_write.contentions");
	close_to(r->change_pct, -10, EPS);
	assert_true(r->changed);
	assert_false(r->regressed);

	/* osq_lock share: 5%, 7% -> 6 +- 1.414; 6%, 6%: unchanged */
	r = row(&c, "lockscope.spin_share.osq_lock");
	close_to(r->mean[0], 6, EPS);
	close_to(r->sd[0], 1.41421, EPS);
	close_to(r->change_pct, 0, EPS);
	assert_false(r->changed);

	/* all contentions: 1110, 1120 -> 1115 +- 7.07;
	 * 1054, 1036 -> 1045 +- 12.73; -6.278% */
	r = row(&c, "lockscope.contentions");
	close_to(r->mean[0], 1115, EPS);
	close_to(r->mean[1], 1045, EPS);
	close_to(r->change_pct, -6.27803, EPS);
	assert_true(r->changed && !r->regressed);

	/* 6 worse metrics of genl_rcv_msg (contentions, wait total and avg,
	 * spin, sleep, spin_failed) and 5 of the new siglock */
	assert_int_equal(c.nregressed, 11);
	/* sorted by |change|, largest (infinite) first */
	assert_true(isinf(c.rows[0].change_pct));
	for (size_t i = 1; i < c.n; i++)
		assert_true(fabs(c.rows[i - 1].change_pct) >=
			    fabs(c.rows[i].change_pct));
	ls_cmp_free(&c);

	/* 30%: the +27.3% contentions no longer count */
	assert_int_equal(ls_compare(s->base, 2, s->nw, 2, 30, 0, &c), 0);
	assert_false(row(&c, G "contentions")->changed);
	assert_int_equal(c.nregressed, 10);
	ls_cmp_free(&c);
}

static void test_compare_reversed(void **state)
{
	struct sides *s = *state;
	struct ls_cmp c;

	/* new as base: pipe 900 -> 1000 is +11.1% (contentions, spin and
	 * wait time) and all contentions 1045 -> 1115 is +6.7% */
	assert_int_equal(ls_compare(s->nw, 2, s->base, 2, 5, 0, &c), 0);
	close_to(row(&c, "lockscope.mutex@pipe_write.contentions")->change_pct,
		 11.1111, EPS);
	assert_int_equal(c.nregressed, 4);
	ls_cmp_free(&c);
	assert_int_equal(ls_compare(s->nw, 2, s->base, 2, 20, 0, &c), 0);
	assert_int_equal(c.nregressed, 0);
	ls_cmp_free(&c);
	/* the same runs on both sides change nothing */
	assert_int_equal(ls_compare(s->base, 2, s->base, 2, 0, 0, &c), 0);
	assert_int_equal(c.nchanged, 0);
	ls_cmp_free(&c);
	assert_int_equal(ls_compare(s->base, 0, s->base, 2, 0, 0, &c), -EINVAL);
}

static void test_min_share(void **state)
{
	struct sides *s = *state;
	const struct ls_cmp_row *r;
	struct ls_cmp c;

	/* 1%: siglock (new: 5 of 1045 contentions = 0.48%, 0.005 of
	 * 6.605 ms wait = 0.08%) and rwsem@mmap_region (base: 5 of 1115 =
	 * 0.45%, 0.01 of 6.21 ms = 0.16%) are minor; genl_rcv_msg (13%) and
	 * pipe_write (90%) are not */
	assert_int_equal(ls_compare(s->base, 2, s->nw, 2, 0, 1, &c), 0);
	assert_int_equal(c.nminor_locks, 2);
	r = row(&c, "lockscope.siglock(spinlock).contentions");
	assert_true(r->minor);
	assert_false(r->changed || r->regressed);
	assert_false(row(&c, G "contentions")->minor);
	assert_true(row(&c, G "contentions")->regressed);
	assert_false(row(&c, "lockscope.contentions")->minor);
	assert_int_equal(c.nregressed, 6); /* genl_rcv_msg's six */
	ls_cmp_free(&c);
	/* 0.46%: siglock's 5 / 1045 = 0.478% of contentions is enough,
	 * rwsem@mmap_region's 5 / 1115 = 0.448% is not */
	assert_int_equal(ls_compare(s->base, 2, s->nw, 2, 0, 0.46, &c), 0);
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
		cmocka_unit_test_setup_teardown(test_min_share, setup,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
