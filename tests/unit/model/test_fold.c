// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
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
	snprintf(r->cls, sizeof(r->cls), "%s", cls);
	snprintf(r->name, sizeof(r->name), "%s#%llx", cls,
		 (unsigned long long)addr);
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(fold),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
