// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* test_compare_table.c - compare's CSV: names from record files that a
 * spreadsheet would run as formulas are written as text; estimates under
 * --budget marked, with their standard errors, in text, CSV and JSON. */
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

/* Row 0: an estimate on both sides (se 2 of 40 base, 0.5 of 50 new), a
 * changed one; row 1: a maximum of timed waits, left out as mixed. */
static void estimates_marked(void **state)
{
	struct ls_cmp_row rows[2];
	struct ls_cmp c = {.rows = rows,
			   .n = 2,
			   .runs = {3, 3},
			   .budget_runs = {0, 3},
			   .nmixed = 1,
			   .nchanged = 1};
	const struct ls_rec rec = {.kernel = "6.18", .cpus = 2};
	char *files[] = {"a.json"};
	const struct ls_cmp_input in[2] = {{&rec, files, 1}, {&rec, files, 1}};
	struct json_object *j, *r, *v;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	row(&rows[0], "lockscope.mutex@f.wait_time.total.ms",
	    "wait_time.total.ms");
	rows[0].mean[0] = 40;
	rows[0].mean[1] = 50;
	rows[0].est[0] = rows[0].est[1] = LS_MEST_ESTIMATE;
	rows[0].se[0] = 2;
	rows[0].se[1] = 0.5;
	rows[0].changed = rows[0].regressed = 1;
	rows[0].res.verdict = LS_VERDICT_WORSE;
	rows[0].res.p_adj = 0.01;
	row(&rows[1], "lockscope.mutex@f.wait_time.max.ms", "wait_time.max.ms");
	rows[1].est[1] = LS_MEST_TIMED;
	rows[1].res.verdict = LS_VERDICT_MIXED;
	ls_cmp_print_text(f, &c, in);
	fclose(f);
	assert_non_null(strstr(buf, "\n       ~40 \u00b1"));
	assert_non_null(strstr(buf, "wait_time.total.ms  ~ base se \u00b15.0%, "
				    "new se \u00b11.0%\n"));
	assert_non_null(strstr(buf, "~ estimated under --budget (in 0 of 3 "
				    "base runs, 3 of 3 new)"));
	assert_non_null(strstr(buf, "mixed: exact runs and budget runs; 1 "
				    "metric of the timed waits only"));
	free(buf);
	f = open_memstream(&buf, &len);
	ls_cmp_print_csv(f, &c);
	fclose(f);
	assert_non_null(strstr(buf, ",p_adj,verdict,base_estimate,base_se,"
				    "new_estimate,new_se\n"));
	assert_non_null(strstr(buf, ",worse,estimate,2,estimate,0.5\n"));
	assert_non_null(strstr(buf, ",mixed,exact,0,timed,0\n"));
	free(buf);
	j = ls_cmp_to_json(&c, in);
	r = json_object_array_get_idx(json_object_object_get(j, "rows"), 0);
	assert_string_equal(json_object_get_string(
				    json_object_object_get(r, "base_estimate")),
			    "estimate");
	v = json_object_object_get(r, "new_se");
	assert_true(json_object_get_double(v) == 0.5);
	v = json_object_object_get(json_object_object_get(j, "new"),
				   "budget_runs");
	assert_int_equal(json_object_get_int(v), 3);
	assert_int_equal(
		json_object_get_int(json_object_object_get(j, "mixed")), 1);
	json_object_put(j);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(csv_no_formulas),
		cmocka_unit_test(estimates_marked),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
