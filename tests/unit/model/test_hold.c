// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Hold times (--hold) in the model, the text view and the JSON. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <json-c/json.h>
#include "export/json.h"
#include "model/hist.h"
#include "model/model.h"
#include "view/hold_text.h"

static struct ls_row *mkrow(struct ls_snapshot *s, uint64_t addr, unsigned kind,
			    uint64_t n)
{
	struct ls_lock_key k = {.addr = addr, .kind = kind};
	struct ls_row *r = ls_snap_add_row(s, &k);

	r->st.contentions = n;
	r->st.begins = n;
	r->st.total_ns = n * 1000;
	r->st.min_ns = 1000;
	r->st.max_ns = 1000;
	r->hi.hist[ls_hist_slot(1000)] = n;
	snprintf(r->name, sizeof(r->name), "lock%llx",
		 (unsigned long long)addr);
	return r;
}

/* @n holds of @ns each, plus one of @big. */
static struct ls_hold_stats holds(uint64_t n, uint64_t ns, uint64_t big)
{
	struct ls_hold_stats h = {0};

	h.count = n + 1;
	h.total_ns = n * ns + big;
	h.max_ns = big > ns ? big : ns;
	h.hist[ls_hist_slot(ns)] += n;
	h.hist[ls_hist_slot(big)] += 1;
	return h;
}

/* The holds of row @i of @s in mode @m; zero when it has none. */
static struct ls_hold_stats hold_of(const struct ls_snapshot *s, size_t i,
				    unsigned m)
{
	const struct ls_hold_stats *h = ls_snap_hold(s, &s->rows[i].key);

	return h ? h[m] : (struct ls_hold_stats){0};
}

static void join_by_address(void **state)
{
	struct ls_snapshot s;
	struct ls_hold_key kw = {.addr = 0x2000, .mode = LS_HOLD_EXCL};
	struct ls_hold_key kr = {.addr = 0x2000, .mode = LS_HOLD_SHARED};
	struct ls_hold_key km = {.addr = 0x1000, .mode = LS_HOLD_EXCL};
	struct ls_hold_key gone = {.addr = 0x9000, .mode = LS_HOLD_EXCL};
	struct ls_hold_key bad = {.addr = 0x1000, .mode = LS_HOLD_MODES};
	struct ls_hold_key ks = {.addr = 0x3000, .mode = LS_HOLD_EXCL};
	struct ls_hold_stats w = holds(10, 3000, 50000), r = holds(4, 100, 200);
	struct ls_hold_stats z = {0};

	(void)state;
	ls_snap_init(&s);
	mkrow(&s, 0x1000, LS_KIND_MUTEX, 5);
	mkrow(&s, 0x2000, LS_KIND_RWSEM_W, 3);
	mkrow(&s, 0x2000, LS_KIND_RWSEM_R, 2);
	mkrow(&s, 0x3000, LS_KIND_SPINLOCK, 7);
	ls_snap_index(&s);
	/* an rwsem's holds go to both of its rows, reads and writes apart */
	assert_int_equal(ls_snap_add_hold(&s, &kw, &w), 2);
	assert_int_equal(ls_snap_add_hold(&s, &kr, &r), 2);
	assert_int_equal(ls_snap_add_hold(&s, &km, &w), 1);
	/* a lock without a row (forgotten) and a bad mode go nowhere */
	assert_int_equal(ls_snap_add_hold(&s, &gone, &w), 0);
	assert_int_equal(ls_snap_add_hold(&s, &bad, &w), 0);
	/* no holds yet (all zero) is none */
	assert_int_equal(ls_snap_add_hold(&s, &ks, &z), 1);
	assert_int_equal(hold_of(&s, 1, LS_HOLD_EXCL).count, 11);
	assert_int_equal(hold_of(&s, 2, LS_HOLD_SHARED).count, 5);
	assert_int_equal(hold_of(&s, 2, LS_HOLD_EXCL).total_ns, 80000);
	assert_int_equal(hold_of(&s, 0, LS_HOLD_SHARED).count, 0);
	assert_int_equal(hold_of(&s, 3, LS_HOLD_EXCL).count, 0);
	/* only the rows holds arrived for keep any: the spinlock keeps none */
	assert_non_null(ls_snap_hold(&s, &s.rows[0].key));
	assert_null(ls_snap_hold(&s, &s.rows[3].key));
	assert_int_equal(s.holds.n, 3);
	ls_snap_free(&s);
}

static void figures(void **state)
{
	struct ls_hold_stats h = holds(99, 3000, 50000), z = {0};

	(void)state;
	assert_int_equal(ls_hold_avg_ns(&h), (99 * 3000 + 50000) / 100);
	assert_int_equal(ls_hold_avg_ns(&z), 0);
	/* 99 of 100 in [2048, 4096): p50 and p99 end there */
	assert_int_equal(ls_hold_pct_ns(&h, 50), 4096);
	assert_int_equal(ls_hold_pct_ns(&h, 99), 4096);
	/* p100 is in the slot of the longest, capped by the max itself */
	assert_int_equal(ls_hold_pct_ns(&h, 100), 50000);
	assert_int_equal(ls_hold_pct_ns(&h, 250), 50000);
	assert_int_equal(ls_hold_pct_ns(&z, 99), 0);
	assert_int_equal(ls_hold_pct_ns(&h, 0), 0);
	assert_string_equal(ls_hold_mode_name(LS_HOLD_EXCL), "exclusive");
	assert_string_equal(ls_hold_mode_name(LS_HOLD_SHARED), "shared");
	assert_string_equal(ls_hold_mode_name(LS_HOLD_MODES), "?");
}

static void intervals(void **state)
{
	struct ls_snapshot a, b, d;
	struct ls_hold_key k = {.addr = 0x1000, .mode = LS_HOLD_EXCL};
	struct ls_hold_stats h1 = holds(10, 3000, 50000);
	struct ls_hold_stats h2 = holds(30, 3000, 50000), out;

	(void)state;
	ls_snap_init(&a);
	ls_snap_init(&b);
	ls_snap_init(&d);
	mkrow(&a, 0x1000, LS_KIND_MUTEX, 5);
	mkrow(&a, 0x2000, LS_KIND_MUTEX, 5);
	ls_snap_index(&a);
	ls_snap_add_hold(&a, &k, &h1);
	/* no new contention, only new holds: the row stays in the delta */
	mkrow(&b, 0x1000, LS_KIND_MUTEX, 5);
	mkrow(&b, 0x2000, LS_KIND_MUTEX, 5);
	ls_snap_index(&b);
	ls_snap_add_hold(&b, &k, &h2);
	assert_int_equal(ls_snap_delta(&b, &a, &d), 0);
	assert_int_equal(d.nrows, 1);
	assert_int_equal(d.rows[0].key.addr, 0x1000);
	assert_int_equal(hold_of(&d, 0, LS_HOLD_EXCL).count, 20);
	assert_int_equal(hold_of(&d, 0, LS_HOLD_EXCL).total_ns, 20 * 3000);
	assert_int_equal(ls_hist_count(hold_of(&d, 0, LS_HOLD_EXCL).hist), 20);
	/* no holds in an interval: no max either */
	ls_hold_delta(&h1, &h1, &out);
	assert_int_equal(out.count, 0);
	assert_int_equal(out.max_ns, 0);
	ls_hold_delta(&h1, NULL, &out);
	assert_int_equal(out.count, 11);
	ls_snap_free(&a);
	ls_snap_free(&b);
	ls_snap_free(&d);
}

static void shown(void **state)
{
	struct ls_snapshot s;
	struct ls_hold_key kw = {.addr = 0x2000, .mode = LS_HOLD_EXCL};
	struct ls_hold_key kr = {.addr = 0x2000, .mode = LS_HOLD_SHARED};
	struct ls_hold_stats w = holds(10, 3000, 50000), r = holds(4, 100, 200);
	struct json_object *j, *locks, *row, *hold, *x, *v;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	ls_snap_init(&s);
	mkrow(&s, 0x2000, LS_KIND_RWSEM_W, 3);
	mkrow(&s, 0x3000, LS_KIND_MUTEX, 3);
	ls_snap_index(&s);
	ls_snap_add_hold(&s, &kw, &w);
	ls_snap_add_hold(&s, &kr, &r);
	f = open_memstream(&buf, &len);
	ls_print_hold(f, &s, &s.rows[0]);
	ls_print_hold(f, &s, &s.rows[1]); /* no holds: nothing */
	fclose(f);
	assert_non_null(strstr(buf, "  hold (exclusive): 11 holds  total "
				    "80.0us  avg 7.3us  p99 <=50.0us  max "
				    "50.0us\n"));
	assert_non_null(strstr(buf, "  hold (shared): 5 holds"));
	assert_non_null(strstr(buf, "readers overlap"));
	assert_non_null(strstr(buf, "    hold                  exclusive"));
	assert_non_null(strstr(buf, "    2.0us -> 4.1us               10"));
	free(buf);

	j = ls_snap_to_json(&s, 0);
	assert_true(json_object_object_get_ex(j, "locks", &locks));
	row = json_object_array_get_idx(locks, 0);
	assert_true(json_object_object_get_ex(row, "hold", &hold));
	assert_true(json_object_object_get_ex(hold, "exclusive", &x));
	assert_true(json_object_object_get_ex(x, "count", &v));
	assert_int_equal(json_object_get_uint64(v), 11);
	assert_true(json_object_object_get_ex(x, "total_ns", &v));
	assert_int_equal(json_object_get_uint64(v), 80000);
	assert_true(json_object_object_get_ex(x, "hist_log2_ns", &v));
	assert_int_equal(json_object_array_length(v), ls_hist_slot(50000) + 1);
	assert_true(json_object_object_get_ex(hold, "shared", &x));
	/* a lock without holds has no "hold" member */
	row = json_object_array_get_idx(locks, 1);
	assert_false(json_object_object_get_ex(row, "hold", &hold));
	json_object_put(j);
	ls_snap_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(join_by_address),
		cmocka_unit_test(figures),
		cmocka_unit_test(intervals),
		cmocka_unit_test(shown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
