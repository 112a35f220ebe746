// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * test_compare_budget.c - `lockscope compare` on records made under
 * --budget: the estimates' standard errors read from a record and merged
 * over a lock class, joining the test (A/A quiet, A/B found, a pair that
 * only the errors keep quiet), and exact-versus-budget pairs.  Records are
 * made by hand, every expected number worked out beside it.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <json-c/json.h>
#include "analysis/compare.h"

#define RUNS 3
#define LOCK "mutex@genl_rcv_msg"
#define KEY(m) "lockscope." LOCK "." m

struct side {
	struct ls_rec rec[RUNS];
	struct ls_rec_lock lock[RUNS];
};

/* Run @i of @s: one mutex contended 10000 times (exact), waiting @ms in
 * all, the longest wait @max_ms; under a budget when @se_ms >= 0, the
 * total's standard error @se_ms, 2000 of its waits timed. */
static void run(struct side *s, int i, double ms, double max_ms, double se_ms)
{
	struct ls_rec_lock *l = &s->lock[i];
	struct ls_rec *r = &s->rec[i];

	memset(l, 0, sizeof(*l));
	memset(r, 0, sizeof(*r));
	snprintf(l->name, sizeof(l->name), "%s", LOCK);
	l->kind = LS_KIND_MUTEX;
	l->instances = 1;
	l->contentions = l->begins = 10000;
	l->total_ns = l->spin_ns = (uint64_t)(ms * 1e6);
	l->max_ns = (uint64_t)(max_ms * 1e6);
	l->spin_won = 10000;
	l->peak_waiters = 2;
	if (se_ms >= 0) {
		l->estimated = 1;
		l->timed_waits = 2000;
		l->total_se_ns = l->spin_se_ns = se_ms * 1e6;
		r->totals.budget_pct = 1;
	}
	r->version = 3;
	r->cpus = 2;
	r->exit_status = -1;
	r->duration_s = 3;
	r->totals.duration_s = 3;
	r->totals.locks = l;
	r->totals.nlocks = 1;
}

static void sides(struct side *b, struct side *n, const double bv[RUNS],
		  const double nv[RUNS], double bse, double nse)
{
	for (int i = 0; i < RUNS; i++) {
		run(b, i, bv[i], bv[i] / 100, bse >= 0 ? bse * bv[i] : -1);
		run(n, i, nv[i], nv[i] / 100, nse >= 0 ? nse * nv[i] : -1);
	}
}

static const struct ls_cmp_row *row(const struct ls_cmp *c, const char *key)
{
	for (size_t i = 0; i < c->n; i++)
		if (!strcmp(c->rows[i].id.key, key))
			return &c->rows[i];
	fail_msg("no row %s", key);
	return NULL;
}

static void compare(const struct side *b, const struct side *n,
		    struct ls_cmp *c)
{
	assert_int_equal(ls_compare(b->rec, RUNS, n->rec, RUNS, 0, 1, c), 0);
}

/* Three runs a side agreeing within 1%, new 10% above base: exact, that
 * is certain; estimated with a 10% standard error each, it is not. */
static void test_close_by_chance(void **state)
{
	static const double bv[RUNS] = {100, 101, 99},
			    nv[RUNS] = {110, 111, 109};
	struct side *b = calloc(1, sizeof(*b)), *n = calloc(1, sizeof(*n));
	const struct ls_cmp_row *r;
	struct ls_cmp c;

	(void)state;
	assert_non_null(b);
	assert_non_null(n);
	/* exact: log sd about 0.01 a side, diff log(1.1) = 0.095, t ~ 12 */
	sides(b, n, bv, nv, -1, -1);
	compare(b, n, &c);
	r = row(&c, KEY("wait_time.total.ms"));
	assert_int_equal(r->res.verdict, LS_VERDICT_WORSE);
	assert_int_equal(r->est[0], LS_MEST_EXACT);
	assert_true(r->se[0] == 0 && r->se[1] == 0);
	assert_int_equal(c.budget_runs[0] + c.budget_runs[1], 0);
	ls_cmp_free(&c);
	/* the same figures with se 10% of each: (se/x)^2 = 0.01 joins each
	 * side's variance, the diff's error sqrt(2 * 0.0101 / 3) = 0.082,
	 * t = 1.16 on about 4 df: p = 0.31 */
	sides(b, n, bv, nv, 0.10, 0.10);
	compare(b, n, &c);
	r = row(&c, KEY("wait_time.total.ms"));
	assert_int_equal(r->res.verdict, LS_VERDICT_UNCHANGED);
	assert_true(r->res.p > 0.2 && r->res.p < 0.45);
	assert_int_equal(r->est[0], LS_MEST_ESTIMATE);
	assert_int_equal(r->est[1], LS_MEST_ESTIMATE);
	assert_int_equal(r->nest[1], RUNS);
	/* root mean square of 10, 10.1, 9.9 ms */
	assert_true(fabs(r->se[0] - sqrt((100 + 102.01 + 98.01) / 3)) < 1e-6);
	/* contentions stay exact, and count */
	r = row(&c, KEY("contentions"));
	assert_int_equal(r->est[0], LS_MEST_EXACT);
	/* the whole run's wait carries the lock's error */
	r = row(&c, "lockscope.wait_time.total.ms");
	assert_int_equal(r->est[0], LS_MEST_ESTIMATE);
	assert_int_equal(r->res.verdict, LS_VERDICT_UNCHANGED);
	assert_int_equal(c.budget_runs[0], RUNS);
	assert_int_equal(c.budget_runs[1], RUNS);
	assert_int_equal(row(&c, KEY("spin_time.total.ms"))->res.verdict,
			 LS_VERDICT_UNCHANGED);
	ls_cmp_free(&c);
	free(b);
	free(n);
}

/* A real change stays found: 4x the wait with 10% errors, t ~ 17. */
static void test_change_found(void **state)
{
	static const double bv[RUNS] = {100, 101, 99},
			    nv[RUNS] = {400, 410, 390};
	struct side *b = calloc(1, sizeof(*b)), *n = calloc(1, sizeof(*n));
	const struct ls_cmp_row *r;
	struct ls_cmp c;

	(void)state;
	assert_non_null(b);
	assert_non_null(n);
	sides(b, n, bv, nv, 0.10, 0.10);
	compare(b, n, &c);
	r = row(&c, KEY("wait_time.total.ms"));
	assert_int_equal(r->res.verdict, LS_VERDICT_WORSE);
	assert_true(r->res.p < 0.001);
	/* both sides under the same budget: the max of the timed waits is
	 * compared with the other side's, and found too */
	r = row(&c, KEY("wait_time.max.ms"));
	assert_int_equal(r->est[1], LS_MEST_TIMED);
	assert_int_equal(r->res.verdict, LS_VERDICT_WORSE);
	assert_true(c.nregressed > 0);
	ls_cmp_free(&c);
	free(b);
	free(n);
}

/* xorshift64 and Box-Muller: the same stream on every machine. */
static double gauss(uint64_t *x)
{
	double u[2];

	for (int i = 0; i < 2; i++) {
		*x ^= *x << 13;
		*x ^= *x >> 7;
		*x ^= *x << 17;
		u[i] = ((double)(*x >> 11) + 0.5) / 9007199254740992.0;
	}
	return sqrt(-2 * log(u[0])) * cos(2 * M_PI * u[1]);
}

/*
 * A/A under a budget: 2000 pairs of 3 + 3 runs of one true wait, each
 * run's estimate off by its own standard error (20%) and the runs
 * differing by 5% on top.  Exit 1 (a regression) at most 5% of the time;
 * measured: 0 of 2000 with the errors in the test, 13 (0.65%) with the
 * same figures taken for exact.
 */
static void test_aa_rate(void **state)
{
	struct side *b = calloc(1, sizeof(*b)), *n = calloc(1, sizeof(*n));
	uint64_t x = 0x9e3779b97f4a7c15ull;
	int alarms = 0, flagged = 0, exact = 0;

	(void)state;
	assert_non_null(b);
	assert_non_null(n);
	for (int t = 0; t < 2000; t++) {
		struct ls_cmp c;

		for (int i = 0; i < RUNS; i++) {
			double v[2];

			for (int s = 0; s < 2; s++)
				v[s] = 100 * exp(0.05 * gauss(&x)) *
				       (1 + 0.2 * gauss(&x));
			run(b, i, fmax(v[0], 1), 5, 0.2 * 100);
			run(n, i, fmax(v[1], 1), 5, 0.2 * 100);
		}
		compare(b, n, &c);
		alarms += c.nregressed > 0;
		flagged += row(&c, KEY("wait_time.total.ms"))->changed;
		ls_cmp_free(&c);
		/* the same figures taken for exact ones */
		for (int i = 0; i < RUNS; i++) {
			b->lock[i].total_se_ns = b->lock[i].spin_se_ns = 0;
			n->lock[i].total_se_ns = n->lock[i].spin_se_ns = 0;
		}
		compare(b, n, &c);
		exact += c.nregressed > 0;
		ls_cmp_free(&c);
	}
	print_message("A/A under a budget: %d of 2000 exit 1 (%d with the "
		      "errors left out), %d flag the total wait\n",
		      alarms, exact, flagged);
	assert_true(alarms <= 100);
	free(b);
	free(n);
}

/* Exact base, budget new: estimates tested with the new side's errors;
 * the max of the timed waits is not compared with the max of all. */
static void test_mixed_pair(void **state)
{
	static const double bv[RUNS] = {100, 101, 99},
			    nv[RUNS] = {100, 102, 98};
	struct side *b = calloc(1, sizeof(*b)), *n = calloc(1, sizeof(*n));
	const struct ls_cmp_row *r;
	struct ls_cmp c;

	(void)state;
	assert_non_null(b);
	assert_non_null(n);
	sides(b, n, bv, nv, -1, 0.05);
	for (int i = 0; i < RUNS; i++) /* sampled: shorter maxima */
		n->lock[i].max_ns /= 4;
	compare(b, n, &c);
	assert_int_equal(c.budget_runs[0], 0);
	assert_int_equal(c.budget_runs[1], RUNS);
	r = row(&c, KEY("wait_time.max.ms"));
	assert_int_equal(r->res.verdict, LS_VERDICT_MIXED);
	assert_false(r->changed);
	assert_true(c.nmixed >= 1);
	r = row(&c, KEY("wait_time.total.ms"));
	assert_int_equal(r->est[0], LS_MEST_EXACT);
	assert_int_equal(r->est[1], LS_MEST_ESTIMATE);
	assert_int_equal(r->res.verdict, LS_VERDICT_UNCHANGED);
	assert_int_equal(c.nregressed, 0);
	assert_int_equal(c.nchanged, 0);
	ls_cmp_free(&c);
	free(b);
	free(n);
}

static const char *data_dir(void)
{
	static char dir[4096];
	const char *root = getenv("LS_ROOT");

	snprintf(dir, sizeof(dir), "%s/tests/data", root ? root : ".");
	return dir;
}

/* The reader: record-new1.json's two genl rows made budget rows (3 and 4
 * ms of error) read as one class with an error of 5 ms (3-4-5). */
static void test_reader(void **state)
{
	char path[4200], err[256];
	struct json_object *doc, *tot, *locks, *bud;
	const struct ls_rec_lock *l;
	struct ls_rec r;
	int rows = 0;

	(void)state;
	snprintf(path, sizeof(path), "%s/record-new1.json", data_dir());
	doc = json_object_from_file(path);
	assert_non_null(doc);
	assert_true(json_object_object_get_ex(doc, "totals", &tot));
	assert_true(json_object_object_get_ex(tot, "locks", &locks));
	for (size_t i = 0; i < json_object_array_length(locks); i++) {
		struct json_object *o = json_object_array_get_idx(locks, i);
		struct json_object *name;

		assert_true(json_object_object_get_ex(o, "name", &name));
		if (strcmp(json_object_get_string(name), LOCK))
			continue;
		json_object_object_add(o, "estimated",
				       json_object_new_boolean(1));
		json_object_object_add(o, "timed_waits",
				       json_object_new_int64(10 + rows));
		json_object_object_add(
			o, "total_se_ns",
			json_object_new_double(rows ? 4e6 : 3e6));
		rows++;
	}
	assert_int_equal(rows, 2);
	bud = json_object_new_object();
	json_object_object_add(bud, "budget_pct", json_object_new_double(1));
	json_object_object_add(tot, "budget", bud);
	assert_int_equal(ls_rec_from_json(doc, &r, err, sizeof(err)), 0);
	l = ls_rec_find(&r.totals, LOCK, LS_KIND_MUTEX);
	assert_non_null(l);
	assert_int_equal(l->instances, 2);
	assert_true(l->estimated);
	assert_int_equal(l->timed_waits, 21); /* 10 + 11 */
	assert_true(fabs(l->total_se_ns - 5e6) < 1e-3);
	assert_true(l->spin_se_ns == 0);
	assert_true(r.totals.budget_pct == 1);
	ls_rec_free(&r);
	/* a negative error is refused, with its path */
	json_object_object_add(json_object_array_get_idx(locks, 0),
			       "total_se_ns", json_object_new_double(-1));
	assert_int_equal(ls_rec_from_json(doc, &r, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "total_se_ns"));
	json_object_put(doc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_close_by_chance),
		cmocka_unit_test(test_change_found),
		cmocka_unit_test(test_aa_rate),
		cmocka_unit_test(test_mixed_pair),
		cmocka_unit_test(test_reader),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
