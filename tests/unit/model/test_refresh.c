// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* test_refresh.c - deltas of snapshots refreshed in place: a row that
 * changed at read n is skipped against a snapshot of the same collector
 * read at n or later, and computed against an older one (record's totals
 * take the first read as prev). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "model/model.h"

static const int collector; /* any address names a collector */

static void row(struct ls_snapshot *s, uint64_t addr, uint64_t n,
		uint64_t changed)
{
	struct ls_lock_key k = {.addr = addr, .kind = LS_KIND_MUTEX};
	struct ls_row *r = ls_snap_add_row(s, &k);

	assert_non_null(r);
	r->st.contentions = r->st.begins = n;
	r->st.total_ns = 100 * n;
	r->changed = changed;
}

static const struct ls_row *find(const struct ls_snapshot *s, uint64_t addr)
{
	struct ls_lock_key k = {.addr = addr, .kind = LS_KIND_MUTEX};

	return ls_snap_find(s, &k);
}

static void skips_by_read(void **state)
{
	struct ls_snapshot prev, cur, d;

	(void)state;
	ls_snap_init(&prev);
	ls_snap_init(&cur);
	ls_snap_init(&d);
	/* prev: read 4; cur: read 6, refreshed from its content of read 2 */
	prev.gen = 4;
	prev.live = &collector;
	row(&prev, 0x10, 7, 4); /* changed at read 4 */
	row(&prev, 0x20, 3, 3); /* changed at read 3 */
	row(&prev, 0x30, 2, 2);
	cur.gen = 6;
	cur.live = &collector;
	row(&cur, 0x10, 9, 6); /* changed at this read: +2 */
	row(&cur, 0x20, 3, 3); /* the same since read 3: skipped */
	row(&cur, 0x40, 5, 6); /* new */
	ls_snap_index(&prev);
	ls_snap_index(&cur);
	assert_int_equal(ls_snap_delta(&cur, &prev, &d), 0);
	assert_null(d.live);
	assert_int_equal(d.nrows, 2);
	assert_int_equal(find(&d, 0x10)->st.contentions, 2);
	assert_int_equal(find(&d, 0x40)->st.contentions, 5);
	assert_null(find(&d, 0x20));
	/* against an older read (record's start): rows changed since count */
	prev.gen = 1;
	prev.rows[1].st.contentions = prev.rows[1].st.begins = 1;
	assert_int_equal(ls_snap_delta(&cur, &prev, &d), 0);
	assert_int_equal(d.nrows, 3);
	assert_int_equal(find(&d, 0x20)->st.contentions, 2);
	/* another collector's snapshot: nothing skipped by read number */
	prev.gen = 100;
	prev.live = NULL;
	assert_int_equal(ls_snap_delta(&cur, &prev, &d), 0);
	assert_int_equal(d.nrows, 3);
	ls_snap_free(&d);
	ls_snap_free(&cur);
	ls_snap_free(&prev);
}

/* A row appended to an indexed snapshot is found without indexing again
 * (refreshing reads add new locks between finds). */
static void index_grows(void **state)
{
	struct ls_snapshot s;

	(void)state;
	ls_snap_init(&s);
	for (uint64_t i = 1; i <= 5000; i++) {
		row(&s, i * 64, i, 1);
		if (i == 1 || s.kidx_n != s.nrows)
			ls_snap_index(&s);
		assert_non_null(find(&s, i * 64));
		assert_non_null(find(&s, (i + 1) / 2 * 64));
	}
	assert_null(find(&s, 3));
	ls_snap_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(skips_by_read),
		cmocka_unit_test(index_grows),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
