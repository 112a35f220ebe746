// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* test_intern.c - interned function names (model/intern.c): equal strings
 * give one pointer, different ones different pointers, through growth;
 * long names are truncated as rows kept them; rows hold interned names. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "model/intern.h"
#include "model/model.h"

#define NSTR 20000

static void equal_and_different(void **state)
{
	char buf[32];
	const char *a, *b, *c;

	(void)state;
	snprintf(buf, sizeof(buf), "genl_rcv_msg");
	a = ls_intern(buf);
	assert_non_null(a);
	assert_ptr_not_equal(a, buf); /* a copy, not the caller's buffer */
	snprintf(buf, sizeof(buf), "anon_pipe_write");
	assert_string_equal(a, "genl_rcv_msg"); /* the buffer changed, not a */
	b = ls_intern(buf);
	assert_non_null(b);
	assert_ptr_not_equal(a, b);
	c = ls_intern("genl_rcv_msg");
	assert_ptr_equal(a, c);
	assert_ptr_equal(ls_intern("anon_pipe_write"), b);
	assert_ptr_equal(ls_intern(""), ls_intern(""));
	assert_string_equal(ls_intern(""), "");
	assert_ptr_not_equal(ls_intern("genl_rcv"), a); /* a prefix */
	assert_string_equal(ls_intern_fn("x_fn"), "x_fn");
	assert_ptr_equal(ls_intern_fn("x_fn"), ls_intern("x_fn"));
}

/* Many distinct names: the table grows many times, every pointer taken
 * before stays valid and is what the same name gives after. */
static void survives_growth(void **state)
{
	const char **p = malloc(NSTR * sizeof(*p));
	char buf[64];

	(void)state;
	assert_non_null(p);
	for (int i = 0; i < NSTR; i++) {
		snprintf(buf, sizeof(buf), "fn_%d_growth", i);
		p[i] = ls_intern(buf);
		assert_non_null(p[i]);
	}
	for (int i = 0; i < NSTR; i++) {
		snprintf(buf, sizeof(buf), "fn_%d_growth", i);
		assert_string_equal(p[i], buf);
		assert_ptr_equal(ls_intern(buf), p[i]);
		if (i)
			assert_ptr_not_equal(p[i], p[i - 1]);
	}
	free(p);
}

static void truncates(void **state)
{
	char lng[3 * LS_FN_MAX], other[3 * LS_FN_MAX];
	const char *a;

	(void)state;
	memset(lng, 'a', sizeof(lng) - 1);
	lng[sizeof(lng) - 1] = '\0';
	a = ls_intern(lng);
	assert_non_null(a);
	assert_int_equal(strlen(a), LS_FN_MAX - 1);
	assert_memory_equal(a, lng, LS_FN_MAX - 1);
	/* the same first LS_FN_MAX - 1 bytes: the same name as kept */
	memcpy(other, lng, sizeof(other));
	other[LS_FN_MAX + 3] = 'b';
	assert_ptr_equal(ls_intern(other), a);
	lng[LS_FN_MAX - 1] = '\0'; /* exactly the kept length */
	assert_ptr_equal(ls_intern(lng), a);
	lng[LS_FN_MAX - 2] = '\0'; /* one byte shorter: another name */
	assert_ptr_not_equal(ls_intern(lng), a);
}

/* Writers intern: a row's callers, holder sites and pairs and a snapshot's
 * spin callers point at the one copy of each name, not at the caller's
 * buffer, and a long name is kept truncated once, not twice. */
static void writers_intern(void **state)
{
	struct ls_snapshot s;
	struct ls_row r;
	char buf[2 * LS_FN_MAX];

	(void)state;
	memset(&r, 0, sizeof(r));
	snprintf(buf, sizeof(buf), "pipe_write");
	ls_row_add_caller(&r, buf, 2);
	ls_row_add_holder(&r, buf, buf, 7, 100, 1);
	snprintf(buf, sizeof(buf), "changed");
	assert_ptr_equal(r.callers[0].fn, ls_intern("pipe_write"));
	assert_ptr_equal(r.hsites[0].fn, ls_intern("pipe_write"));
	assert_ptr_equal(r.hpairs[0].waiter, ls_intern("pipe_write"));
	assert_ptr_equal(r.hpairs[0].holder, ls_intern("pipe_write"));

	memset(buf, 'z', sizeof(buf) - 1);
	buf[sizeof(buf) - 1] = '\0';
	ls_row_add_caller(&r, buf, 1);
	buf[LS_FN_MAX + 1] = '\0'; /* another length, the same kept name */
	ls_row_add_caller(&r, buf, 1);
	assert_int_equal(r.ncallers, 2);
	assert_int_equal(r.callers[1].samples, 2);
	assert_int_equal(strlen(r.callers[1].fn), LS_FN_MAX - 1);
	ls_row_add_holder(&r, buf, NULL, 7, 50, 1);
	buf[LS_FN_MAX + 5] = 'y';
	ls_row_add_holder(&r, buf, NULL, 7, 60, 1);
	assert_int_equal(r.nhsites, 2);
	assert_int_equal(r.hsites[0].tenure_ns, 110);
	assert_ptr_equal(r.hsites[0].fn, r.callers[1].fn);

	ls_snap_init(&s);
	snprintf(buf, sizeof(buf), "native_queued_spin_lock_slowpath");
	assert_int_equal(ls_snap_add_spin_caller(&s, 1, buf, 3), 0);
	assert_int_equal(ls_snap_add_spin_caller(&s, 1, buf, 4), 0);
	snprintf(buf, sizeof(buf), "other");
	assert_int_equal(s.nspin_callers, 1);
	assert_int_equal(s.spin_callers[0].samples, 7);
	assert_ptr_equal(s.spin_callers[0].fn,
			 ls_intern("native_queued_spin_lock_slowpath"));
	ls_snap_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(equal_and_different),
		cmocka_unit_test(survives_growth),
		cmocka_unit_test(truncates),
		cmocka_unit_test(writers_intern),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
