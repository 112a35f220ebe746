// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "analysis/classes.h"

static void add(struct ls_rec_snap *s, const char *name, unsigned kind,
		uint64_t cont, uint64_t max)
{
	struct ls_rec_lock *l = &s->locks[s->nlocks++];

	memset(l, 0, sizeof(*l));
	snprintf(l->name, sizeof(l->name), "%s", name);
	l->kind = kind;
	l->instances = 1;
	l->contentions = cont;
	l->total_ns = cont * 10;
	l->max_ns = max;
	l->peak_waiters = max / 10;
}

/* Instances of a class are summed; kinds and other classes stay apart. */
static void fold(void **state)
{
	struct ls_rec r;
	const struct ls_rec_lock *l;

	(void)state;
	memset(&r, 0, sizeof(r));
	r.totals.locks = calloc(8, sizeof(*r.totals.locks));
	assert_non_null(r.totals.locks);
	add(&r.totals, "task_struct.pi_lock", LS_KIND_SPINLOCK, 5, 100);
	add(&r.totals, "task_struct.pi_lock#2", LS_KIND_SPINLOCK, 7, 300);
	add(&r.totals, "task_struct.pi_lock#13", LS_KIND_SPINLOCK, 1, 20);
	add(&r.totals, "rq.__lock#cpu0", LS_KIND_SPINLOCK, 2, 50);
	add(&r.totals, "rq.__lock#cpu1", LS_KIND_SPINLOCK, 3, 40);
	add(&r.totals, "mm_struct.mmap_lock", LS_KIND_RWSEM_W, 4, 10);
	add(&r.totals, "mm_struct.mmap_lock#2", LS_KIND_RWSEM_R, 6, 10);
	add(&r.totals, "mutex@genl_rcv_msg", LS_KIND_MUTEX, 9, 10);
	ls_rec_fold_classes(&r);
	assert_int_equal(r.totals.nlocks, 5);
	l = ls_rec_find(&r.totals, "task_struct.pi_lock", LS_KIND_SPINLOCK);
	assert_non_null(l);
	assert_int_equal(l->instances, 3);
	assert_int_equal(l->contentions, 13);
	assert_int_equal(l->total_ns, 130);
	assert_int_equal(l->max_ns, 300);
	assert_int_equal(l->peak_waiters, 30);
	l = ls_rec_find(&r.totals, "rq.__lock", LS_KIND_SPINLOCK);
	assert_non_null(l);
	assert_int_equal(l->instances, 2);
	assert_int_equal(l->contentions, 5);
	assert_non_null(
		ls_rec_find(&r.totals, "mm_struct.mmap_lock", LS_KIND_RWSEM_W));
	assert_non_null(
		ls_rec_find(&r.totals, "mm_struct.mmap_lock", LS_KIND_RWSEM_R));
	assert_null(ls_rec_find(&r.totals, "task_struct.pi_lock#2",
				LS_KIND_SPINLOCK));
	assert_non_null(
		ls_rec_find(&r.totals, "mutex@genl_rcv_msg", LS_KIND_MUTEX));
	ls_rec_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(fold),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
