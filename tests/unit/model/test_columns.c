// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "model/columns.h"

/* Every source has a group of columns, and no group is named twice. */
static void every_source_has_columns(void **state)
{
	size_t n;
	const struct ls_column_group *g = ls_column_groups(&n);
	int seen[LS_SRC_MAX] = {0};

	(void)state;
	assert_int_equal(n, LS_SRC_MAX);
	for (size_t i = 0; i < n; i++) {
		assert_true((unsigned)g[i].source < LS_SRC_MAX);
		assert_int_equal(seen[g[i].source]++, 0);
		for (size_t j = 0; j < i; j++)
			assert_string_not_equal(g[i].columns, g[j].columns);
	}
}

static char *print_to_string(const struct ls_source *src)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	ls_columns_print(f, src);
	fclose(f);
	return buf;
}

/* arm64 6.1 as measured: tracepoints, sampler and kprobes on everything. */
static void active_sources_give_their_columns(void **state)
{
	struct ls_source src[LS_SRC_MAX];
	char *out;

	(void)state;
	memset(src, 0, sizeof(src));
	snprintf(src[LS_SRC_TP].name, sizeof(src[0].name), "tracepoints");
	ls_source_set_mech(&src[LS_SRC_TP], LS_MECH_TP_BTF);
	src[LS_SRC_TP].active = 1;
	snprintf(src[LS_SRC_SAMPLER].name, sizeof(src[0].name), "cpu sampler");
	snprintf(src[LS_SRC_PROBE + LS_TGT_RWSEM_W].name, sizeof(src[0].name),
		 "probe rwsem_down_write_slowpath");
	ls_source_set_mech(&src[LS_SRC_PROBE + LS_TGT_RWSEM_W], LS_MECH_KPROBE);
	src[LS_SRC_PROBE + LS_TGT_RWSEM_W].active = 1;
	out = print_to_string(src);
	assert_non_null(strstr(out, "columns on this kernel:\n"));
	assert_non_null(strstr(out, "histograms, waiters"));
	assert_non_null(strstr(out, "from tracepoints (tp_btf)\n"));
	assert_non_null(strstr(out, "missing: cpu sampler not active\n"));
	assert_non_null(
		strstr(out, "from probe rwsem_down_write_slowpath (kprobe)\n"));
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_source_has_columns),
		cmocka_unit_test(active_sources_give_their_columns),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
