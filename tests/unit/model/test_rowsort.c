// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* test_rowsort.c - sorting rows through small entries (ls_rows_sort) against
 * a plain qsort of a copy by the documented order, and deltas of a live
 * snapshot: the waiters gauge and rows without new waits (ls_snap_delta;
 * test_refresh.c has the read numbers). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "model/model.h"

#define NROWS 1000

static enum ls_sort ref_key;
static int ref_rev;

static uint64_t ref_val(const struct ls_row *r)
{
	switch (ref_key) {
	case LS_SORT_COUNT:
		return r->st.contentions;
	case LS_SORT_AVG:
		return ls_row_avg_ns(r);
	case LS_SORT_MAX_WAIT:
		return r->st.max_ns;
	case LS_SORT_WAITERS:
		return r->st.waiters > 0 ? (uint64_t)r->st.waiters : 0;
	default:
		return r->st.total_ns;
	}
}

/* The order ls_rows_sort documents: numbers descending, names ascending;
 * ties by total wait descending, then by key; all reversed by reverse. */
static int ref_cmp(const void *a, const void *b)
{
	const struct ls_row *x = a, *y = b;
	int c;

	if (ref_key == LS_SORT_NAME)
		c = strcmp(x->name, y->name);
	else if (ref_key == LS_SORT_CALLER)
		c = strcmp(ls_row_top_caller(x), ls_row_top_caller(y));
	else
		c = ref_val(x) == ref_val(y)
			    ? 0
			    : (ref_val(x) > ref_val(y) ? -1 : 1);
	if (!c && x->st.total_ns != y->st.total_ns)
		c = x->st.total_ns > y->st.total_ns ? -1 : 1;
	if (!c)
		c = ls_key_cmp(&x->key, &y->key);
	return ref_rev ? -c : c;
}

/* Rows with few distinct values, so that ties and tie-breaks happen; every
 * row keeps its own key in st.begins to check it moved whole. */
static void random_rows(struct ls_snapshot *s, unsigned seed)
{
	static const char *const fns[] = {"a_fn", "b_fn", "c_fn", "d_fn"};

	srand(seed);
	for (size_t i = 0; i < NROWS; i++) {
		struct ls_lock_key k = {.addr = 0xffff888000000000ULL +
						(uint64_t)(rand() % 4096) * 64,
					.kind = (uint32_t)(rand() % 3)};
		struct ls_row *r;

		if (ls_snap_find(s, &k))
			continue;
		r = ls_snap_add_row(s, &k);
		assert_non_null(r);
		r->st.contentions = (uint64_t)(rand() % 20);
		r->st.total_ns = (uint64_t)(rand() % 50) * 1000;
		r->st.max_ns = (uint64_t)(rand() % 10) * 100;
		r->st.waiters = rand() % 5 - 1;
		r->st.begins = k.addr ^ k.kind;
		snprintf(r->name, sizeof(r->name), "lock_%d", rand() % 30);
		if (rand() % 4)
			ls_row_add_caller(r, fns[rand() % 4], 1);
		r->hi.hist[3] = k.addr; /* far into the row: moved too */
	}
}

static void sort_matches_reference(void **state)
{
	static const enum ls_sort keys[] = {
		LS_SORT_TOTAL,	  LS_SORT_COUNT, LS_SORT_AVG,
		LS_SORT_MAX_WAIT, LS_SORT_NAME,	 LS_SORT_WAITERS,
		LS_SORT_CALLER,
	};
	struct ls_snapshot s;
	struct ls_row *ref;

	(void)state;
	ls_snap_init(&s);
	random_rows(&s, 15);
	assert_true(s.nrows > NROWS * 3 / 4);
	ref = malloc(s.nrows * sizeof(*ref));
	assert_non_null(ref);
	for (size_t k = 0; k < sizeof(keys) / sizeof(*keys); k++)
		for (int rev = 0; rev < 2; rev++) {
			memcpy(ref, s.rows, s.nrows * sizeof(*ref));
			ref_key = keys[k];
			ref_rev = rev;
			qsort(ref, s.nrows, sizeof(*ref), ref_cmp);
			/* sort an order that is not the last one's */
			ls_rows_sort(s.rows, s.nrows, LS_SORT_NAME, !rev);
			ls_rows_sort(s.rows, s.nrows, keys[k], rev);
			for (size_t i = 0; i < s.nrows; i++) {
				const struct ls_row *r = &s.rows[i];

				assert_int_equal(r->key.addr, ref[i].key.addr);
				assert_int_equal(r->key.kind, ref[i].key.kind);
				assert_int_equal(r->st.begins,
						 r->key.addr ^ r->key.kind);
				assert_int_equal(r->hi.hist[3], r->key.addr);
				assert_string_equal(r->name, ref[i].name);
				assert_int_equal(r->ncallers, ref[i].ncallers);
				if (r->ncallers)
					assert_ptr_equal(r->callers[0].fn,
							 ref[i].callers[0].fn);
				assert_int_equal(r->st.total_ns,
						 ref[i].st.total_ns);
				assert_int_equal(r->st.contentions,
						 ref[i].st.contentions);
			}
		}
	free(ref);
	ls_snap_free(&s);
}

static struct ls_row *mk(struct ls_snapshot *s, uint64_t addr,
			 uint64_t contentions, int64_t waiters,
			 uint64_t changed)
{
	struct ls_lock_key k = {.addr = addr, .kind = LS_KIND_MUTEX};
	struct ls_row *r = ls_snap_add_row(s, &k);

	assert_non_null(r);
	r->st.contentions = r->st.begins = contentions;
	r->st.total_ns = contentions * 100;
	r->st.waiters = waiters;
	r->changed = changed;
	return r;
}

static const struct ls_row *in(const struct ls_snapshot *s, uint64_t addr)
{
	struct ls_lock_key k = {.addr = addr, .kind = LS_KIND_MUTEX};

	return ls_snap_find(s, &k);
}

static const int collector; /* any address names a collector */

/* A live snapshot of read 5 against one of read 4 of the same collector:
 * rows that last changed at read 4 or before are skipped unless a waiter
 * waits (a gauge); changed rows count only with new waits. */
static void live_delta(void **state)
{
	struct ls_snapshot prev, cur, out;
	const struct ls_row *r;

	(void)state;
	ls_snap_init(&prev);
	ls_snap_init(&cur);
	ls_snap_init(&out);
	mk(&prev, 0x100, 4, 0, 0);
	mk(&prev, 0x200, 10, 0, 0);
	mk(&prev, 0x300, 8, 0, 0);
	mk(&prev, 0x500, 9, 0, 0);
	mk(&cur, 0x100, 10, 0, 5); /* changed: +6 */
	mk(&cur, 0x200, 20, 0, 3); /* the same since read 3: skipped */
	mk(&cur, 0x300, 8, 2, 3);  /* unchanged, but two wait now */
	mk(&cur, 0x400, 7, 0, 5);  /* new */
	mk(&cur, 0x500, 9, 0, 5);  /* changed, but no new wait */
	prev.gen = 4;
	prev.live = &collector;
	cur.gen = 5;
	cur.live = &collector;
	assert_int_equal(ls_snap_delta(&cur, &prev, &out), 0);
	assert_null(out.live);
	assert_int_equal(out.nrows, 3);
	r = in(&out, 0x100);
	assert_non_null(r);
	assert_int_equal(r->st.contentions, 6);
	assert_int_equal(r->st.total_ns, 600);
	assert_null(in(&out, 0x200));
	r = in(&out, 0x300);
	assert_non_null(r);
	assert_int_equal(r->st.contentions, 0);
	assert_int_equal(r->st.waiters, 2);
	r = in(&out, 0x400);
	assert_non_null(r);
	assert_int_equal(r->st.contentions, 7);
	assert_null(in(&out, 0x500));

	/* prev not of that collector: every row is compared, 0x200 shows
	 * its increase */
	prev.live = NULL;
	assert_int_equal(ls_snap_delta(&cur, &prev, &out), 0);
	assert_int_equal(out.nrows, 4);
	r = in(&out, 0x200);
	assert_non_null(r);
	assert_int_equal(r->st.contentions, 10);
	ls_snap_free(&out);
	ls_snap_free(&cur);
	ls_snap_free(&prev);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(sort_matches_reference),
		cmocka_unit_test(live_delta),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
