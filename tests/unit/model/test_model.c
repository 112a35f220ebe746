// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "model/hist.h"
#include "model/kallsyms.h"
#include "model/model.h"
#include "model/naming.h"
#include "view/text.h"

static void hist_math(void **state)
{
	__u64 h[LS_HIST_SLOTS] = {0};

	(void)state;
	assert_int_equal(ls_hist_slot(0), 0);
	assert_int_equal(ls_hist_slot(1), 0);
	assert_int_equal(ls_hist_slot(2), 1);
	assert_int_equal(ls_hist_slot(3), 1);
	assert_int_equal(ls_hist_slot(1024), 10);
	assert_int_equal(ls_hist_slot(2047), 10);
	assert_int_equal(ls_hist_slot(~0ULL), LS_HIST_SLOTS - 1);
	assert_int_equal(ls_hist_lo(10), 1024);
	h[ls_hist_slot(1500)] = 90;  /* [1024, 2048) */
	h[ls_hist_slot(70000)] = 10; /* [65536, 131072) */
	assert_int_equal(ls_hist_count(h), 100);
	assert_int_equal(ls_hist_cum(h, 10), 90);
	assert_int_equal(ls_hist_cum(h, 16), 100);
}

static struct ls_row *mkrow(struct ls_snapshot *s, uint64_t addr, unsigned kind,
			    uint64_t n, uint64_t total)
{
	struct ls_lock_key k = {.addr = addr, .kind = kind};
	struct ls_row *r = ls_snap_add_row(s, &k);

	r->st.contentions = n;
	r->st.begins = n;
	r->st.total_ns = total;
	r->st.spin_ns = total / 4;
	r->st.sleep_ns = total - total / 4;
	r->st.min_ns = 100;
	r->st.max_ns = total;
	r->hi.hist[3] = n;
	return r;
}

static void delta_and_rates(void **state)
{
	struct ls_snapshot a, b, d;
	struct ls_lock_key k = {.addr = 0x2000, .kind = LS_KIND_MUTEX};
	struct ls_row *r;

	(void)state;
	ls_snap_init(&a);
	ls_snap_init(&b);
	ls_snap_init(&d);
	mkrow(&a, 0x1000, LS_KIND_SPINLOCK, 10, 1000);
	mkrow(&a, 0x2000, LS_KIND_MUTEX, 5, 5000);
	a.ctr[LS_CTR_BEGIN] = 15;
	a.loss[LS_LOSS_STACK] = 1;
	ls_snap_index(&a);
	mkrow(&b, 0x1000, LS_KIND_SPINLOCK, 10, 1000); /* unchanged */
	mkrow(&b, 0x2000, LS_KIND_MUTEX, 8, 8000);
	mkrow(&b, 0x3000, LS_KIND_RWSEM_W, 2, 200); /* new */
	b.ctr[LS_CTR_BEGIN] = 25;
	b.loss[LS_LOSS_STACK] = 4;
	ls_snap_index(&b);
	assert_int_equal(ls_snap_delta(&b, &a, &d), 0);
	assert_int_equal(d.nrows, 2); /* the unchanged spinlock is dropped */
	assert_int_equal(d.ctr[LS_CTR_BEGIN], 10);
	assert_int_equal(d.loss[LS_LOSS_STACK], 3);
	r = ls_snap_find(&d, &k);
	assert_non_null(r);
	assert_int_equal(r->st.contentions, 3);
	assert_int_equal(r->st.total_ns, 3000);
	assert_int_equal(r->hi.hist[3], 3);
	assert_int_equal(ls_row_avg_ns(r), 1000);
	k.addr = 0x3000;
	k.kind = LS_KIND_RWSEM_W;
	assert_int_equal(ls_snap_find(&d, &k)->st.contentions, 2);
	ls_snap_free(&a);
	ls_snap_free(&b);
	ls_snap_free(&d);
}

static void sort_and_filter(void **state)
{
	struct ls_snapshot s;
	struct ls_filter f = {0};
	enum ls_sort key;

	(void)state;
	ls_snap_init(&s);
	strcpy(mkrow(&s, 0x1, LS_KIND_SPINLOCK, 100, 1000)->name, "spinlock@a");
	strcpy(mkrow(&s, 0x2, LS_KIND_MUTEX, 10, 9000)->name,
	       "mutex@genl_rcv_msg");
	strcpy(mkrow(&s, 0x3, LS_KIND_RWSEM_W, 50, 5000)->name, "mmap_lock");
	ls_rows_sort(s.rows, s.nrows, LS_SORT_TOTAL, 0);
	assert_string_equal(s.rows[0].name, "mutex@genl_rcv_msg");
	assert_string_equal(s.rows[2].name, "spinlock@a");
	ls_rows_sort(s.rows, s.nrows, LS_SORT_COUNT, 0);
	assert_string_equal(s.rows[0].name, "spinlock@a");
	ls_rows_sort(s.rows, s.nrows, LS_SORT_COUNT, 1);
	assert_string_equal(s.rows[0].name, "mutex@genl_rcv_msg");
	ls_rows_sort(s.rows, s.nrows, LS_SORT_NAME, 0);
	assert_string_equal(s.rows[0].name, "mmap_lock");
	assert_int_equal(ls_sort_parse("spin", &key), 0);
	assert_int_equal(key, LS_SORT_SPIN);
	assert_int_equal(ls_sort_parse("bogus", &key), -EINVAL);

	assert_int_equal(ls_kind_parse("rwsem", &f.kind_mask), 0);
	assert_int_equal(f.kind_mask,
			 (1U << LS_KIND_RWSEM_R) | (1U << LS_KIND_RWSEM_W));
	assert_int_equal(ls_kind_parse("nope", &f.kind_mask), -EINVAL);
	f.kind_mask = 0;
	assert_int_equal(ls_kind_parse("mutex", &f.kind_mask), 0);
	f.name = "genl";
	assert_true(ls_row_match(&s.rows[1], &f) ||
		    ls_row_match(&s.rows[0], &f) ||
		    ls_row_match(&s.rows[2], &f));
	ls_snap_filter(&s, &f);
	assert_int_equal(s.nrows, 1);
	assert_string_equal(s.rows[0].name, "mutex@genl_rcv_msg");
	f.name = "zzz";
	ls_snap_filter(&s, &f);
	assert_int_equal(s.nrows, 0);
	ls_snap_free(&s);
}

static void callers_top(void **state)
{
	struct ls_row r;

	(void)state;
	memset(&r, 0, sizeof(r));
	ls_row_add_caller(&r, "a", 1);
	ls_row_add_caller(&r, "b", 5);
	ls_row_add_caller(&r, "c", 3);
	ls_row_add_caller(&r, "d", 2);
	ls_row_add_caller(&r, "e", 1); /* fifth: counted, not kept */
	ls_row_add_caller(&r, "a", 9);
	assert_int_equal(r.ncallers, LS_ROW_CALLERS);
	assert_string_equal(ls_row_top_caller(&r), "a");
	assert_int_equal(r.callers[0].samples, 10);
	assert_string_equal(r.callers[1].fn, "b");
	assert_int_equal(r.caller_samples, 21);
}

/* Sum of @r's kept callers' samples. */
static uint64_t kept_samples(const struct ls_row *r)
{
	uint64_t n = 0;

	for (unsigned i = 0; i < r->ncallers; i++)
		n += r->callers[i].samples;
	return n;
}

/*
 * A changed row's callers are read again whole (collect/read.c clears
 * them with ls_row_clear_sites, then adds the map's cumulative counts):
 * each read's callers are that read's, never added onto an earlier one's,
 * so they never sum above caller_samples.
 */
static void callers_read_again(void **state)
{
	static const char *const fn[] = {"genl_rcv_msg", "__schedule",
					 "netlink_rcv_skb", "genl_rcv",
					 "do_syscall_64"};
	struct ls_row r;

	(void)state;
	memset(&r, 0, sizeof(r));
	for (uint64_t read = 1; read <= 5; read++) {
		ls_row_clear_sites(&r);
		/* the map's counts grow with every read: 10, 20, ... */
		for (unsigned i = 0; i < 5; i++)
			ls_row_add_caller(&r, fn[i], read * 10 * (5 - i));
		assert_int_equal(r.caller_samples, read * 150);
		assert_int_equal(r.ncallers, LS_ROW_CALLERS);
		assert_true(kept_samples(&r) <= r.caller_samples);
		assert_string_equal(r.callers[0].fn, "genl_rcv_msg");
		assert_int_equal(r.callers[0].samples, read * 50);
		assert_int_equal(r.callers[3].samples, read * 20);
	}
	/* fewer callers than before: the slots given up hold nothing */
	ls_row_clear_sites(&r);
	ls_row_add_caller(&r, "genl_rcv", 7);
	ls_row_add_caller(&r, "do_syscall_64", 3);
	assert_int_equal(r.ncallers, 2);
	assert_int_equal(r.callers[0].samples, 7);
	assert_int_equal(r.callers[1].samples, 3);
	assert_int_equal(kept_samples(&r), r.caller_samples);
}

static void naming(void **state)
{
	static const char syms[] = "ffffffff81000000 T _stext\n"
				   "ffffffff83000000 d text_mutex\n"
				   "ffffffff83000100 b jiffies_lock\n"
				   "ffffffff83000200 b last\n";
	struct ls_ksyms ks;
	struct ls_row r;

	(void)state;
	assert_int_equal(ls_ksyms_parse(&ks, syms, sizeof(syms) - 1), 0);
	memset(&r, 0, sizeof(r));
	r.key.kind = LS_KIND_MUTEX;
	r.key.addr = 0xffffffff83000000ULL;
	ls_name_row(&ks, &r, NULL, 0);
	assert_string_equal(r.name, "text_mutex");
	r.key.addr = 0xffffffff83000108ULL;
	ls_name_row(&ks, &r, NULL, 0);
	assert_string_equal(r.name, "jiffies_lock+0x8");
	r.key.addr = 0xffff888012345678ULL; /* heap: caller name, no address */
	ls_row_add_caller(&r, "genl_rcv_msg", 3);
	ls_name_row(&ks, &r, NULL, 0);
	assert_string_equal(r.name, "mutex@genl_rcv_msg");
	assert_null(strstr(r.name, "ffff"));
	ls_name_row(&ks, &r, NULL, 1);
	assert_string_equal(r.name, "mutex@genl_rcv_msg [ffff888012345678]");
	r.key.kind = LS_KIND_RWSEM_W;
	r.st.known = LS_KNOWN_MMAP_LOCK;
	ls_name_row(&ks, &r, NULL, 0);
	assert_string_equal(r.name, "mm_struct.mmap_lock");
	assert_int_equal(r.origin, LS_ORIGIN_TASK);
	memset(&r, 0, sizeof(r));
	r.key.kind = LS_KIND_SPINLOCK;
	r.key.addr = 0xffff888000000000ULL;
	ls_name_row(NULL, &r, NULL, 0);
	assert_string_equal(r.name, "spinlock@?");
	ls_ksyms_free(&ks);
}

static void losses(void **state)
{
	struct ls_snapshot s;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	ls_snap_init(&s);
	f = open_memstream(&buf, &len);
	ls_print_losses(f, &s);
	fflush(f);
	assert_string_equal(buf, "losses: none\n");
	s.loss[LS_LOSS_TASK_MAP_FULL] = 2;
	s.loss[LS_LOSS_LOCK_MAP_FULL] = 3;
	s.loss[LS_LOSS_END_UNMATCHED] = 7;
	s.loss[LS_LOSS_STACK] = 1;
	rewind(f);
	len = 0;
	ls_print_losses(f, &s);
	fputc('\0', f);
	fflush(f);
	assert_string_equal(buf,
			    "losses: 13 (task map full 2, lock map full 3, "
			    "end without begin 7, stack failed 1)\n"
			    "hint: lock table full: raise --max-locks\n");
	fclose(f);
	free(buf);
	for (unsigned i = 0; i < LS_LOSS_MAX; i++)
		assert_string_not_equal(ls_loss_name(i), "?");
	for (unsigned i = 0; i < LS_KIND_MAX; i++)
		assert_non_null(ls_kind_name(i));
	assert_string_equal(ls_kind_base(LS_KIND_RWSEM_W), "rwsem");
	assert_string_equal(ls_kind_name(LS_KIND_RWSEM_W), "rwsem:W");
}

/* A full table's hint: the lost waits first, none without a full table. */
static void loss_hints(void **state)
{
	uint64_t loss[LS_LOSS_MAX] = {0};

	(void)state;
	loss[LS_LOSS_END_UNMATCHED] = 5;
	loss[LS_LOSS_STACK] = 1;
	assert_null(ls_loss_hint(loss));
	loss[LS_LOSS_CALLER_MAP_FULL] = 9;
	assert_string_equal(ls_loss_hint(loss),
			    "caller table full: raise --max-callers");
	loss[LS_LOSS_TASK_MAP_FULL] = 1;
	assert_string_equal(ls_loss_hint(loss),
			    "task table full: raise --max-tasks");
	loss[LS_LOSS_LOCK_MAP_FULL] = 1;
	assert_string_equal(ls_loss_hint(loss),
			    "lock table full: raise --max-locks");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(hist_math),
		cmocka_unit_test(delta_and_rates),
		cmocka_unit_test(sort_and_filter),
		cmocka_unit_test(callers_top),
		cmocka_unit_test(callers_read_again),
		cmocka_unit_test(naming),
		cmocka_unit_test(losses),
		cmocka_unit_test(loss_hints),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
