// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "util/caps.h"

#define CAP(n) (1ULL << (n))

static void names_what_is_missing(void **state)
{
	char buf[64];

	(void)state;
	assert_int_equal(ls_caps_missing(0, buf, sizeof(buf)), 2);
	assert_string_equal(buf, "CAP_BPF and CAP_PERFMON");
	assert_int_equal(ls_caps_missing(CAP(39), buf, sizeof(buf)), 1);
	assert_string_equal(buf, "CAP_PERFMON");
	assert_int_equal(ls_caps_missing(CAP(38), buf, sizeof(buf)), 1);
	assert_string_equal(buf, "CAP_BPF");
	/* root on this machine: everything but CAP_SYS_RESOURCE */
	assert_int_equal(ls_caps_missing(0x1fffeffffffULL, buf, sizeof(buf)),
			 0);
	assert_string_equal(buf, "");
}

static void sys_admin_is_enough(void **state)
{
	char buf[64];

	(void)state;
	/* kernels before 5.8 have neither CAP_BPF nor CAP_PERFMON */
	assert_int_equal(ls_caps_missing(CAP(21), buf, sizeof(buf)), 0);
	assert_int_equal(ls_caps_missing(CAP(38) | CAP(39), buf, sizeof(buf)),
			 0);
	/* unrelated capabilities do not help */
	assert_int_equal(
		ls_caps_missing(CAP(19) | CAP(24) | CAP(34), buf, sizeof(buf)),
		2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(names_what_is_missing),
		cmocka_unit_test(sys_admin_is_enough),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
