// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * test_symsel.c - the function-probe targets chosen on the kallsyms layouts
 * of 4.19, 5.4, 5.10 and 5.15 (tests/data/kallsyms/, names from those
 * kernels' sources) and Debian 12's 6.1 (captured): never two functions of one
 * slow path, the older kernels' functions where the design's are missing, and
 * what the return value says.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "model/naming.h"
#include "model/symsel.h"

static void load(struct ls_ksyms *ks, const char *release)
{
	const char *root = getenv("LS_ROOT");
	char path[512];

	snprintf(path, sizeof(path), "%s/tests/data/kallsyms/%s.txt",
		 root ? root : ".", release);
	assert_int_equal(ls_ksyms_load(ks, path), 0);
}

/* Check target @t on @ks: its symbols, the reason kind, the return kind. */
static void expect(const struct ls_ksyms *ks, enum ls_target t,
		   const char *list, enum ls_sel_why why, enum ls_ret_kind ret,
		   int single_plain)
{
	struct ls_symsel sel;

	ls_symsel_pick(ks, t, &sel);
	assert_string_equal(sel.list, list);
	assert_int_equal(sel.why, why);
	assert_int_equal(sel.ret, ret);
	assert_int_equal(sel.single_plain, single_plain);
	for (size_t i = 0; i < sel.n; i++)
		assert_true(ls_is_lock_fn_name(sel.syms[i]->name));
}

static void v4_19(void **state)
{
	struct ls_ksyms ks;
	struct ls_symsel sel;

	(void)state;
	load(&ks, "4.19");
	expect(&ks, LS_TGT_OSQ, "osq_lock", LS_SEL_PRIMARY, LS_RET_NONE, 1);
	expect(&ks, LS_TGT_MUTEX,
	       "__mutex_lock_slowpath,__mutex_lock_killable_slowpath,"
	       "__mutex_lock_interruptible_slowpath",
	       LS_SEL_INLINED, LS_RET_NONE, 0);
	expect(&ks, LS_TGT_RWSEM_W,
	       "rwsem_down_write_failed,rwsem_down_write_failed_killable",
	       LS_SEL_PRE_5_3, LS_RET_ERRPTR, 0);
	expect(&ks, LS_TGT_RWSEM_R,
	       "rwsem_down_read_failed,rwsem_down_read_failed_killable",
	       LS_SEL_PRE_5_3, LS_RET_ERRPTR, 0);
	ls_symsel_pick(&ks, LS_TGT_RWSEM_W, &sel);
	assert_non_null(strstr(sel.reason, "before 5.3"));
	ls_ksyms_free(&ks);
}

static void v5_4(void **state)
{
	struct ls_ksyms ks;
	struct ls_symsel sel;

	(void)state;
	load(&ks, "5.4");
	expect(&ks, LS_TGT_MUTEX,
	       "__mutex_lock_slowpath,__mutex_lock_killable_slowpath,"
	       "__mutex_lock_interruptible_slowpath",
	       LS_SEL_INLINED, LS_RET_NONE, 0);
	/* the ww_mutex slow paths are another function: never picked */
	ls_symsel_pick(&ks, LS_TGT_MUTEX, &sel);
	assert_int_equal(sel.n, 3);
	assert_non_null(strstr(sel.reason, "__mutex_lock inlined"));
	expect(&ks, LS_TGT_RWSEM_W, "rwsem_down_write_slowpath", LS_SEL_PRIMARY,
	       LS_RET_ERRPTR, 1);
	expect(&ks, LS_TGT_RWSEM_R, "rwsem_down_read_slowpath", LS_SEL_PRIMARY,
	       LS_RET_ERRPTR, 1);
	ls_ksyms_free(&ks);
}

static void v5_10(void **state)
{
	struct ls_ksyms ks;
	struct ls_symsel sel;

	(void)state;
	load(&ks, "5.10");
	/* the clone carries the slow path: the three callers are not
	 * probed too, which would count every wait twice */
	expect(&ks, LS_TGT_MUTEX, "__mutex_lock.constprop.0", LS_SEL_CLONES,
	       LS_RET_INT, 0);
	expect(&ks, LS_TGT_RWSEM_W, "rwsem_down_write_slowpath", LS_SEL_PRIMARY,
	       LS_RET_ERRPTR, 1);
	expect(&ks, LS_TGT_OSQ, "osq_lock", LS_SEL_PRIMARY, LS_RET_NONE, 1);
	/* fentry's way in where the clone has no BTF entry: its callers */
	ls_symsel_callers(&ks, LS_TGT_MUTEX, &sel);
	assert_string_equal(sel.list, "__mutex_lock_slowpath,"
				      "__mutex_lock_killable_slowpath,"
				      "__mutex_lock_interruptible_slowpath");
	assert_int_equal(sel.why, LS_SEL_CALLERS);
	ls_symsel_callers(&ks, LS_TGT_RWSEM_W, &sel);
	assert_int_equal(sel.n, 0);
	ls_ksyms_free(&ks);
}

static void v5_15(void **state)
{
	struct ls_ksyms ks;

	(void)state;
	load(&ks, "5.15");
	/* two copies of one function: both, by address (kprobes) */
	expect(&ks, LS_TGT_MUTEX, "__mutex_lock.constprop.0,__mutex_lock",
	       LS_SEL_CLONES, LS_RET_INT, 0);
	expect(&ks, LS_TGT_RWSEM_R, "rwsem_down_read_slowpath", LS_SEL_PRIMARY,
	       LS_RET_ERRPTR, 1);
	ls_ksyms_free(&ks);
}

static void v6_1_debian(void **state)
{
	struct ls_ksyms ks;
	struct ls_symsel sel;

	(void)state;
	load(&ks, "6.1-debian"); /* captured in the guest tier */
	expect(&ks, LS_TGT_MUTEX, "__mutex_lock.constprop.0", LS_SEL_CLONES,
	       LS_RET_INT, 0);
	ls_symsel_callers(&ks, LS_TGT_MUTEX, &sel);
	assert_int_equal(sel.n, 3);
	expect(&ks, LS_TGT_RWSEM_W, "rwsem_down_write_slowpath", LS_SEL_PRIMARY,
	       LS_RET_ERRPTR, 1);
	expect(&ks, LS_TGT_RWSEM_R, "rwsem_down_read_slowpath", LS_SEL_PRIMARY,
	       LS_RET_ERRPTR, 1);
	expect(&ks, LS_TGT_OSQ, "osq_lock", LS_SEL_PRIMARY, LS_RET_NONE, 1);
	ls_ksyms_free(&ks);
}

static void absent(void **state)
{
	/* PREEMPT_RT (6.1 rt image): no __mutex_lock, no slow path */
	static const char rt[] =
		"ffffffff810c1a40 T osq_lock\n"
		"ffffffff81a0a5d0 T mutex_lock\n"
		"ffffffff81a0b000 t rt_mutex_slowlock_block.constprop.0\n";
	struct ls_ksyms ks;
	struct ls_symsel sel;

	(void)state;
	assert_int_equal(ls_ksyms_parse(&ks, rt, sizeof(rt) - 1), 0);
	ls_symsel_pick(&ks, LS_TGT_MUTEX, &sel);
	assert_int_equal(sel.n, 0);
	assert_int_equal(sel.why, LS_SEL_ABSENT);
	assert_string_equal(sel.reason, "__mutex_lock is not in this kernel");
	ls_symsel_pick(&ks, LS_TGT_RWSEM_W, &sel);
	assert_int_equal(sel.n, 0);
	/* callers only when all three are there */
	ls_symsel_callers(&ks, LS_TGT_MUTEX, &sel);
	assert_int_equal(sel.n, 0);
	assert_string_equal(ls_target_name(LS_TGT_RWSEM_R),
			    "rwsem_down_read_slowpath");
	ls_ksyms_free(&ks);
	/* stacks through a fexit trampoline skip it for the caller */
	assert_true(ls_is_lock_fn_name("ftrace_trampoline"));
	assert_true(ls_is_lock_fn_name("bpf_trampoline_6442"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(v4_19),       cmocka_unit_test(v5_4),
		cmocka_unit_test(v5_10),       cmocka_unit_test(v5_15),
		cmocka_unit_test(v6_1_debian), cmocka_unit_test(absent),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
