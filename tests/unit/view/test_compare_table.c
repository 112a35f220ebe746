// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* test_compare_table.c - compare's CSV: names from record files that a
 * spreadsheet would run as formulas are written as text. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "view/compare_table.h"

static void row(struct ls_cmp_row *r, const char *lock, const char *metric)
{
	memset(r, 0, sizeof(*r));
	r->id.lock = lock; /* the rows' strings: string literals here */
	r->id.metric = metric;
	r->id.key = lock;
	r->id.kind = LS_KIND_MUTEX;
	r->mean[0] = r->mean[1] = 1;
	r->present[0] = r->present[1] = 1;
	r->presence = LS_CMP_BOTH;
}

static void csv_no_formulas(void **state)
{
	struct ls_cmp_row rows[6];
	struct ls_cmp c = {.rows = rows, .n = 6};
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	row(&rows[0], "=HYPERLINK(\"http://x/\",\"click\")", "contentions");
	row(&rows[1], "+cmd|' /C calc'!A0", "contentions");
	row(&rows[2], "-2+3", "contentions");
	row(&rows[3], "@SUM(A1)", "contentions");
	row(&rows[4], "\tx", "-sleep");
	row(&rows[5], "mutex@f", "contentions");
	ls_cmp_print_csv(f, &c);
	fclose(f);
	/* quoted (comma, quote): the ' goes inside the quotes */
	assert_non_null(strstr(
		buf, "\n\"'=HYPERLINK(\"\"http://x/\"\",\"\"click\"\")\","));
	assert_non_null(strstr(buf, "\n'+cmd|' /C calc'!A0,'+cmd|"));
	assert_non_null(strstr(buf, "\n'-2+3,'-2+3,mutex,contentions,"));
	assert_non_null(strstr(buf, "\n'@SUM(A1),"));
	assert_non_null(strstr(buf, "\n'\tx,'\tx,mutex,'-sleep,"));
	/* plain names and numbers stay as they are */
	assert_non_null(strstr(buf, "\nmutex@f,mutex@f,mutex,contentions,1,"));
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(csv_no_formulas),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
