// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "model/ident.h"
#include "model/model.h"

static void row(struct ls_snapshot *s, uint64_t addr, unsigned kind,
		const char *cls, uint64_t cont, uint64_t max, const char *fn)
{
	struct ls_lock_key k = {.addr = addr, .kind = kind};
	struct ls_row *r = ls_snap_add_row(s, &k);

	assert_non_null(r);
	snprintf(r->name, sizeof(r->name), "%s#%llx", cls,
		 (unsigned long long)addr);
	r->cls_len = (unsigned)strlen(cls);
	r->origin = LS_ORIGIN_SLAB;
	r->st.contentions = cont;
	r->st.total_ns = cont * 100;
	r->st.min_ns = max / 2;
	r->st.max_ns = max;
	r->hi.hist[3] = cont;
	r->st.peak_waiters_all = max / 100;
	ls_row_add_caller(r, fn, cont);
}

static void fill(struct ls_snapshot *s, uint64_t scale)
{
	row(s, 0x3000, LS_KIND_SPINLOCK, "task_struct.pi_lock", 2 * scale, 500,
	    "try_to_wake_up");
	row(s, 0x1000, LS_KIND_SPINLOCK, "task_struct.pi_lock", 3 * scale, 900,
	    "task_rq_lock_caller");
	row(s, 0x2000, LS_KIND_MUTEX, "pipe_inode_info.mutex", 7 * scale, 100,
	    "anon_pipe_read");
	row(s, 0x5000, LS_KIND_SPINLOCK, "task_struct.pi_lock", 2 * scale, 200,
	    "try_to_wake_up");
	row(s, 0x6000, LS_KIND_SPINLOCK, "task_struct.alloc_lock", 1, 10, "x");
}

static void fold(void **state)
{
	struct ls_snapshot a, b;
	const struct ls_row *pi = NULL, *pi_b = NULL;

	(void)state;
	ls_snap_init(&a);
	ls_snap_init(&b);
	fill(&a, 1);
	fill(&b, 2);
	assert_int_equal(ls_snap_fold_class(&a), 0);
	assert_int_equal(ls_snap_fold_class(&b), 0);
	assert_int_equal(a.nrows, 3);
	for (size_t i = 0; i < a.nrows; i++)
		if (!strcmp(a.rows[i].name, "task_struct.pi_lock"))
			pi = &a.rows[i];
	assert_non_null(pi);
	assert_int_equal(pi->instances, 3);
	assert_int_equal(pi->st.contentions, 7);
	assert_int_equal(pi->st.total_ns, 700);
	assert_int_equal(pi->hi.hist[3], 7);
	assert_int_equal(pi->st.max_ns, 900);
	assert_int_equal(pi->st.min_ns, 100);
	assert_int_equal(pi->st.peak_waiters_all, 9);
	/* callers merged: try_to_wake_up 4 samples over 2 locks */
	assert_string_equal(pi->callers[0].fn, "try_to_wake_up");
	assert_int_equal(pi->callers[0].samples, 4);
	assert_int_equal(pi->caller_samples, 7);
	/* the same class has the same key in every snapshot: deltas work */
	pi_b = ls_snap_find(&b, &pi->key);
	assert_non_null(pi_b);
	assert_string_equal(pi_b->name, "task_struct.pi_lock");
	assert_int_equal(pi_b->st.contentions, 14);
	/* a folded row passes the address filter (applied before folding)
	 * and the class filter */
	{
		struct ls_filter f = {.addr = 0x1000};

		assert_true(ls_row_match(pi, &f));
		f.addr = 0;
		f.name = "pi_lock";
		assert_true(ls_row_match(pi, &f));
	}
	ls_snap_free(&a);
	ls_snap_free(&b);
}

/* Words of ls_lock_stats that a class row does not sum: extrema, peaks,
 * the row's own slot, the handoff state of one lock. */
static int not_summed(size_t off)
{
	static const size_t skip[] = {
		offsetof(struct ls_lock_stats, min_ns),
		offsetof(struct ls_lock_stats, max_ns),
		offsetof(struct ls_lock_stats, peak_waiters),
		offsetof(struct ls_lock_stats, peak_epoch),
		offsetof(struct ls_lock_stats, peak_waiters_all),
		offsetof(struct ls_lock_stats, known), /* and slot */
		offsetof(struct ls_lock_stats, osq_peak),
		offsetof(struct ls_lock_stats, handoff_ns),
		offsetof(struct ls_lock_stats, holder_task),
		offsetof(struct ls_lock_stats, holder_ends),
		offsetof(struct ls_lock_stats,
			 holder_site), /* and holder_tid */
	};

	for (size_t i = 0; i < sizeof(skip) / sizeof(skip[0]); i++)
		if (skip[i] == off)
			return 1;
	return 0;
}

static void fill_words(void *p, size_t size, uint64_t base)
{
	uint64_t *w = p;

	for (size_t i = 0; i < size / 8; i++)
		w[i] = base + i;
}

/* Every counter of two instances adds up in their class row: the waits by
 * holder state, tenure, every histogram, the callers' wait time, chains,
 * --hold figures and the sampled holder sites, not the first instance's. */
static void fold_every_counter(void **state)
{
	struct ls_snapshot s;
	struct ls_row *r;
	const struct ls_hold_stats *hold;
	const uint64_t *w;
	uint64_t a = 1000, b = 100000;

	(void)state;
	_Static_assert(sizeof(struct ls_lock_stats) % 8 == 0, "u64 words");
	ls_snap_init(&s);
	for (int i = 0; i < 2; i++) {
		struct ls_lock_key k = {.addr = 0x1000 + 0x100 * i,
					.kind = LS_KIND_MUTEX};
		uint64_t base = i ? b : a;

		struct ls_hold_stats held[LS_HOLD_MODES];

		r = ls_snap_add_row(&s, &k);
		assert_non_null(r);
		snprintf(r->name, sizeof(r->name), "pipe_inode_info.mutex");
		r->cls_len = (unsigned)strlen(r->name);
		fill_words(&r->st, sizeof(r->st), base);
		fill_words(&r->hi, sizeof(r->hi), base);
		fill_words(held, sizeof(held), base);
		for (unsigned m = 0; m < LS_HOLD_MODES; m++) {
			struct ls_hold_key hk = {.addr = k.addr, .mode = m};

			assert_int_equal(ls_snap_add_hold(&s, &hk, &held[m]),
					 1);
		}
		r->caller_wait_ns = base;
		r->chain_waits = base + 1;
		r->chain_ns = base + 2;
		ls_row_add_holder(r, "pipe_write", i ? "pipe_read" : NULL,
				  (uint32_t)(10 + i), base, 3);
	}
	assert_int_equal(ls_snap_fold_class(&s), 0);
	assert_int_equal(s.nrows, 1);
	r = &s.rows[0];
	w = (const uint64_t *)&r->st;
	for (size_t i = 0; i < sizeof(r->st) / 8; i++)
		if (!not_summed(i * 8))
			assert_int_equal(w[i], a + b + 2 * i);
	w = (const uint64_t *)&r->hi;
	for (size_t i = 0; i < sizeof(r->hi) / 8; i++)
		assert_int_equal(w[i], a + b + 2 * i);
	hold = ls_snap_hold(&s, &r->key);
	assert_non_null(hold);
	for (unsigned m = 0; m < LS_HOLD_MODES; m++) {
		assert_int_equal(hold[m].count,
				 a + b + 2 * (m * sizeof(hold[0]) / 8));
		assert_int_equal(
			hold[m].max_ns,
			b + offsetof(struct ls_hold_stats, max_ns) / 8 +
				m * sizeof(hold[0]) / 8);
		assert_int_equal(
			hold[m].total_ns,
			a + b +
				2 * (offsetof(struct ls_hold_stats, total_ns) /
					     8 +
				     m * sizeof(hold[0]) / 8));
		assert_int_equal(
			hold[m].hist[5],
			a + b +
				2 * (offsetof(struct ls_hold_stats, hist[5]) /
					     8 +
				     m * sizeof(hold[0]) / 8));
	}
	assert_int_equal(r->caller_wait_ns, a + b);
	assert_int_equal(r->chain_waits, a + b + 2);
	assert_int_equal(r->chain_ns, a + b + 4);
	/* one holder site over both, two tids, the one sampled pair */
	assert_int_equal(r->hold_sampled_ns, a + b);
	assert_int_equal(r->hold_sampled, 6);
	assert_int_equal(r->nhsites, 1);
	assert_string_equal(r->hsites[0].fn, "pipe_write");
	assert_int_equal(r->hsites[0].tenure_ns, a + b);
	assert_int_equal(r->hsites[0].count, 6);
	assert_int_equal(r->nhtids, 2);
	assert_int_equal(r->htids[0].tid, 11);
	assert_int_equal(r->htids[0].tenure_ns, b);
	assert_int_equal(r->nhpairs, 1);
	assert_string_equal(r->hpairs[0].waiter, "pipe_read");
	ls_snap_free(&s);
}

/* Chains follow their locks into the class row: two instances waiting
 * behind the same next lock become one chain of the class, summed; a
 * chain to another next lock stays apart. */
static void fold_chains(void **state)
{
	struct ls_snapshot s;
	struct ls_chain_sum sum;
	const struct ls_row *r = NULL;

	(void)state;
	ls_snap_init(&s);
	for (int i = 0; i < 3; i++) {
		struct ls_lock_key k = {.addr = 0x1000 + 0x100 * i,
					.kind = LS_KIND_MUTEX};
		struct ls_chainrow c = {.key = k};
		struct ls_row *row = ls_snap_add_row(&s, &k);

		assert_non_null(row);
		snprintf(row->name, sizeof(row->name), "%s",
			 i < 2 ? "pipe_inode_info.mutex" : "inode.i_rwsem");
		row->cls_len = (unsigned)strlen(row->name);
		c.next = (struct ls_lock_key){.addr = 0x9000,
					      .kind = LS_KIND_MUTEX};
		c.root = c.next;
		c.v.waits = 10 + i;
		c.v.wait_ns = 1000 * (i + 1);
		c.v.max_depth = 1 + i;
		c.v.root_waits[LS_HOLDER_RUNNING] = 10 + i;
		assert_int_equal(ls_snap_add_chain(&s, &c), 0);
	}
	{ /* the first instance also waits behind another lock */
		struct ls_chainrow c = {.key = s.rows[0].key};

		c.next = c.root = (struct ls_lock_key){.addr = 0x8000,
						       .kind = LS_KIND_MUTEX};
		c.v.waits = 5;
		c.v.wait_ns = 50;
		assert_int_equal(ls_snap_add_chain(&s, &c), 0);
	}
	qsort(s.chains, s.nchains, sizeof(*s.chains), ls_chain_cmp);
	assert_int_equal(ls_snap_fold_class(&s), 0);
	assert_int_equal(s.nrows, 2);
	assert_int_equal(s.nchains, 3);
	for (size_t i = 0; i < s.nrows; i++)
		if (!strcmp(s.rows[i].name, "pipe_inode_info.mutex"))
			r = &s.rows[i];
	assert_non_null(r);
	ls_chains_sum(&s, &r->key, &sum);
	assert_int_equal(sum.nchains, 2);
	assert_int_equal(sum.waits, 10 + 11 + 5);
	assert_int_equal(sum.wait_ns, 1000 + 2000 + 50);
	assert_int_equal(sum.max_depth, 2);
	for (size_t i = 0; i < s.nchains; i++)
		if (!ls_key_cmp(&s.chains[i].key, &r->key) &&
		    s.chains[i].next.addr == 0x9000)
			assert_int_equal(
				s.chains[i].v.root_waits[LS_HOLDER_RUNNING],
				21);
	ls_snap_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(fold),
		cmocka_unit_test(fold_every_counter),
		cmocka_unit_test(fold_chains),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
