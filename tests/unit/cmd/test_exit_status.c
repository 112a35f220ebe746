// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include "cmd/run.h"

/* The one exit-status rule: like a shell's for PROGRAM, 1 for lockscope. */
static void exit_status(void **state)
{
	struct ls_child none = {0}, ran = {.pid = 42, .done = 1, .status = 7};
	struct ls_child killed = {.pid = 42, .done = 1, .status = 128 + 10};
	struct ls_child missing = {.start_err = ENOENT};
	struct ls_child notdir = {.start_err = ENOTDIR};
	struct ls_child noexec = {.start_err = EACCES};
	struct ls_child badexe = {.start_err = ENOEXEC};

	(void)state;
	assert_int_equal(ls_exit_status(&none, 0), 0);
	assert_int_equal(ls_exit_status(NULL, 0), 0);
	assert_int_equal(ls_exit_status(&none, 1), 1);
	assert_int_equal(ls_exit_status(&missing, 1), 127);
	assert_int_equal(ls_exit_status(&notdir, 1), 127);
	assert_int_equal(ls_exit_status(&noexec, 1), 126);
	assert_int_equal(ls_exit_status(&badexe, 1), 126);
	assert_int_equal(ls_exit_status(&ran, 0), 7);
	assert_int_equal(ls_exit_status(&killed, 0), 138);
	/* lockscope's own failure is not hidden behind PROGRAM's success */
	ran.status = 0;
	assert_int_equal(ls_exit_status(&ran, 1), 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(exit_status),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
