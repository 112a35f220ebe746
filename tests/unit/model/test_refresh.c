// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* test_refresh.c - deltas of snapshots refreshed in place: a row that
 * changed at read n is skipped against a snapshot of the same collector
 * read at n or later, and computed against an older one (record's totals
 * take the first read as prev); and the same deltas made in place, the
 * rows saved as a read changes them, against ls_snap_delta, and a failed
 * read undone. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
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

/* The holds of lock @addr, mode 0; NULL when it has none. */
static const struct ls_hold_stats *find_hold(const struct ls_snapshot *s,
					     uint64_t addr)
{
	struct ls_lock_key k = {.addr = addr, .kind = LS_KIND_MUTEX};

	return ls_snap_hold(s, &k);
}

/* Lock @addr's holds in mode 0; 0 when it has none. */
static uint64_t hold_count(const struct ls_snapshot *s, uint64_t addr)
{
	const struct ls_hold_stats *h = find_hold(s, addr);

	return h ? h->count : 0;
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

/* One refreshing read of @s the way collect/read.c makes it: each changed
 * row saved before it changes, a new row now and then, holds that change
 * without waits, rows still waited on, a row swept now and then.  Random,
 * from @seed. */
static void refresh_read(struct ls_snapshot *s, unsigned *seed)
{
	size_t n = s->nrows;

	s->gen++;
	s->ctr[LS_CTR_BEGIN] += (uint64_t)(rand_r(seed) % 50);
	for (size_t i = 0; i < n; i++) {
		struct ls_row *r = &s->rows[i];
		unsigned what = (unsigned)rand_r(seed) % 8;

		if (what < 3) { /* new waits */
			uint64_t k = 1 + (uint64_t)(rand_r(seed) % 5);

			assert_int_equal(ls_snap_save_row(s, r), 0);
			r->st.contentions += k;
			r->st.begins += k;
			r->st.total_ns += 100 * k;
			r->hi.hist[rand_r(seed) % LS_HIST_SLOTS] += k;
			r->st.waiters = rand_r(seed) % 3 - 1;
			r->changed = s->gen;
			/* a second change in the same read is not saved
			 * again: the saved row is the one before the read */
			assert_int_equal(ls_snap_save_row(s, r), 0);
		} else if (what == 3) { /* new holds only (--hold) */
			struct ls_hold_key hk = {.addr = r->key.addr,
						 .mode = 0};
			const struct ls_hold_stats *h =
				ls_snap_hold(s, &r->key);
			struct ls_hold_stats hs =
				h ? h[0] : (struct ls_hold_stats){0};

			hs.count += 2;
			hs.total_ns += 50;
			ls_snap_add_hold(s, &hk, &hs);
		}
	}
	if (rand_r(seed) % 2)
		row(s, 0x1000 + 0x10 * s->gen, 3, s->gen);
	if (rand_r(seed) % 4 == 0) { /* a lock forgotten: swept, saved */
		size_t i = (size_t)rand_r(seed) % s->nrows;

		assert_int_equal(ls_snap_save_row(s, &s->rows[i]), 0);
		memmove(&s->rows[i], &s->rows[i + 1],
			(s->nrows - i - 1) * sizeof(s->rows[0]));
		s->nrows--;
	}
	ls_snap_index(s);
	ls_snap_holds_prune(s); /* the swept row's */
}

/* @s: @n locks read once by a collector, a live snapshot of it. */
static void live_table(struct ls_snapshot *s, uint64_t n)
{
	ls_snap_init(s);
	s->gen = 1;
	for (uint64_t i = 1; i <= n; i++)
		row(s, i * 0x10, i, 1);
	ls_snap_index(s);
	s->live = &collector;
}

/* Lock @k has the same holds in @a as in @b (or none in either). */
static void assert_same_holds(const struct ls_snapshot *a,
			      const struct ls_snapshot *b,
			      const struct ls_lock_key *k)
{
	const struct ls_hold_stats *x = ls_snap_hold(a, k);
	const struct ls_hold_stats *y = ls_snap_hold(b, k);

	assert_int_equal(x != NULL, y != NULL);
	if (x)
		assert_memory_equal(x, y, LS_HOLD_MODES * sizeof(*x));
}

static void assert_same_delta(const struct ls_snapshot *want,
			      const struct ls_snapshot *got)
{
	assert_int_equal(got->nrows, want->nrows);
	assert_int_equal(got->holds.n, want->holds.n);
	assert_null(got->live);
	assert_int_equal(got->ctr[LS_CTR_BEGIN], want->ctr[LS_CTR_BEGIN]);
	for (size_t i = 0; i < want->nrows; i++) {
		const struct ls_row *w = &want->rows[i];
		const struct ls_row *g = ls_snap_find(got, &w->key);

		assert_non_null(g);
		assert_memory_equal(&g->st, &w->st, sizeof(w->st));
		assert_memory_equal(&g->hi, &w->hi, sizeof(w->hi));
		assert_same_holds(got, want, &w->key);
		assert_int_equal(g->max_bound, w->max_bound);
	}
}

static void in_place_equals_delta(void **state)
{
	struct ls_snapshot s, before, want, d;
	unsigned seed = 7;
	size_t saved_most = 0;

	(void)state;
	live_table(&s, 200);
	ls_snap_init(&before);
	ls_snap_init(&want);
	ls_snap_init(&d);
	for (int round = 0; round < 40; round++) {
		assert_int_equal(ls_snap_copy(&before, &s), 0);
		assert_int_equal(ls_snap_delta_start(&d, &s), 0);
		assert_int_equal(d.nrows, 0);
		refresh_read(&s, &seed);
		if (d.nrows > saved_most)
			saved_most = d.nrows;
		assert_int_equal(ls_snap_delta(&s, &before, &want), 0);
		assert_int_equal(ls_snap_delta_finish(&d, &s), 0);
		assert_null(s.saving);
		assert_same_delta(&want, &d);
	}
	/* only the changed rows were kept twice, never the whole table */
	assert_true(saved_most > 0 && saved_most < s.nrows);
	/* a snapshot read whole (not live) is copied whole first */
	s.live = NULL;
	assert_int_equal(ls_snap_copy(&before, &s), 0);
	assert_int_equal(ls_snap_delta_start(&d, &s), 0);
	assert_int_equal(d.nrows, s.nrows);
	assert_null(s.saving);
	s.rows[0].st.contentions += 4;
	s.rows[0].st.begins += 4;
	assert_int_equal(ls_snap_delta(&s, &before, &want), 0);
	assert_int_equal(ls_snap_delta_finish(&d, &s), 0);
	assert_same_delta(&want, &d);
	assert_int_equal(ls_snap_find(&d, &s.rows[0].key)->st.contentions, 4);
	ls_snap_free(&d);
	ls_snap_free(&want);
	ls_snap_free(&before);
	ls_snap_free(&s);
}

/* A read that fails half way: abort puts back the snapshot of before. */
static void abort_restores(void **state)
{
	struct ls_snapshot s, before, d;
	unsigned seed = 11;

	(void)state;
	live_table(&s, 100);
	ls_snap_init(&before);
	ls_snap_init(&d);
	for (int round = 0; round < 10; round++) {
		assert_int_equal(ls_snap_copy(&before, &s), 0);
		assert_int_equal(ls_snap_delta_start(&d, &s), 0);
		refresh_read(&s, &seed);
		if (round % 2) { /* a good read: it stands */
			assert_int_equal(ls_snap_delta_finish(&d, &s), 0);
			continue;
		}
		/* the read swept its first row's lock (forgotten) */
		assert_int_equal(ls_snap_save_row(&s, &s.rows[0]), 0);
		memmove(&s.rows[0], &s.rows[1],
			(s.nrows - 1) * sizeof(s.rows[0]));
		s.nrows--;
		ls_snap_index(&s);
		ls_snap_holds_prune(&s);
		s.live = NULL; /* what a failed ls_collector_read leaves */
		assert_int_equal(ls_snap_delta_abort(&d, &s), 0);
		assert_null(s.saving);
		assert_int_equal(d.nrows, 0);
		assert_int_equal(s.gen, before.gen);
		assert_ptr_equal(s.live, &collector);
		assert_int_equal(s.ctr[LS_CTR_BEGIN], before.ctr[LS_CTR_BEGIN]);
		assert_int_equal(s.nrows, before.nrows);
		for (size_t i = 0; i < before.nrows; i++) {
			const struct ls_row *r =
				find(&s, before.rows[i].key.addr);

			assert_non_null(r);
			assert_memory_equal(r, &before.rows[i], sizeof(*r));
			assert_same_holds(&s, &before, &r->key);
		}
		assert_int_equal(s.holds.n, before.holds.n);
	}
	ls_snap_free(&d);
	ls_snap_free(&before);
	ls_snap_free(&s);
}

/* --hold: lock @addr's holds now @count in mode 0 (a read's). */
static void hold_now(struct ls_snapshot *s, uint64_t addr, uint64_t count)
{
	struct ls_hold_key k = {.addr = addr, .mode = 0};
	struct ls_hold_stats h = {.count = count, .total_ns = 10 * count};

	assert_int_equal(ls_snap_add_hold(s, &k, &h), 1);
}

/* The holds of a failed read undone with its rows: changed ones back as
 * they were, those the read gave a row for the first time gone, a swept
 * row's back with it, an added row's gone. */
static void abort_restores_holds(void **state)
{
	struct ls_snapshot s, d;

	(void)state;
	live_table(&s, 4);
	ls_snap_init(&d);
	s.gen++; /* a read that gives locks 0x10 and 0x40 holds */
	hold_now(&s, 0x10, 5);
	hold_now(&s, 0x40, 7);
	assert_null(find_hold(&s, 0x20));
	assert_int_equal(s.holds.n, 2);
	assert_int_equal(ls_snap_delta_start(&d, &s), 0);
	s.gen++; /* the read that fails */
	hold_now(&s, 0x10, 6);
	hold_now(&s, 0x20, 1);
	row(&s, 0x50, 1, s.gen);
	hold_now(&s, 0x50, 2);
	assert_int_equal(ls_snap_save_row(&s, &s.rows[3]), 0); /* 0x40 */
	s.rows[3] = s.rows[4];				       /* swept */
	s.nrows--;
	ls_snap_index(&s);
	ls_snap_holds_prune(&s);
	assert_null(find_hold(&s, 0x40));
	assert_int_equal(hold_count(&s, 0x10), 6);
	s.live = NULL;
	assert_int_equal(ls_snap_delta_abort(&d, &s), 0);
	assert_int_equal(s.nrows, 4);
	assert_int_equal(hold_count(&s, 0x10), 5);
	assert_null(find_hold(&s, 0x20));
	assert_int_equal(hold_count(&s, 0x40), 7);
	assert_null(find(&s, 0x50));
	assert_null(find_hold(&s, 0x50));
	assert_int_equal(s.holds.n, 2);
	ls_snap_free(&d);
	ls_snap_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(skips_by_read),
		cmocka_unit_test(index_grows),
		cmocka_unit_test(in_place_equals_delta),
		cmocka_unit_test(abort_restores),
		cmocka_unit_test(abort_restores_holds),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
