// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "model/sources.h"

/* Every mechanism has a distinct display name; decisions use the enum. */
static void mech_names(void **state)
{
	(void)state;
	for (int i = 0; i < LS_MECH_MAX; i++) {
		const char *n = ls_mech_name((enum ls_mech)i);

		assert_non_null(n);
		assert_true(n[0] != '\0' && strcmp(n, "?"));
		for (int j = 0; j < i; j++)
			assert_string_not_equal(n,
						ls_mech_name((enum ls_mech)j));
	}
	assert_string_equal(ls_mech_name(LS_MECH_TP_BTF), "tp_btf");
	assert_string_equal(ls_mech_name(LS_MECH_NONE), "none");
	assert_string_equal(ls_mech_name(LS_MECH_MAX), "?");
}

static void set_mech_and_active(void **state)
{
	struct ls_source src[LS_SRC_MAX];
	char buf[256];

	(void)state;
	memset(src, 0, sizeof(src));
	assert_string_equal(
		ls_sources_active(src, LS_SRC_MAX, buf, sizeof(buf)), "none");
	snprintf(src[LS_SRC_TP].name, sizeof(src[0].name), "tracepoints");
	ls_source_set_mech(&src[LS_SRC_TP], LS_MECH_RAW_TP);
	assert_int_equal(src[LS_SRC_TP].mech_id, LS_MECH_RAW_TP);
	src[LS_SRC_TP].active = 1;
	snprintf(src[LS_SRC_PROBE].name, sizeof(src[0].name), "probe osq_lock");
	ls_source_set_mech(&src[LS_SRC_PROBE], LS_MECH_FENTRY);
	src[LS_SRC_PROBE].active = 1;
	assert_string_equal(
		ls_sources_active(src, LS_SRC_MAX, buf, sizeof(buf)),
		"tracepoints (raw_tp), probe osq_lock (fentry)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(mech_names),
		cmocka_unit_test(set_mech_and_active),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
