// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * test_record_lazy.c - a record read with its large arrays taken one
 * element at a time from the text (ls_rec_parse) is the record read from
 * one whole JSON document (ls_rec_from_json): lock rows of the totals and
 * of every interval, classes merged, cgroups, histograms, stacks; and what
 * the scan does not follow (a key given twice, escapes, bad separators)
 * still reads as json-c reads it, or fails with the same reason.
 */
#include <errno.h>
#include <glob.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "export/record.h"

#define LOCK(name, c)                                                          \
	"{\"name\":\"" name "\",\"kind\":\"mutex\",\"contentions\":" c         \
	",\"total_ns\":900,\"spin_ns\":600,\"sleep_ns\":300,\"max_ns\":500,"   \
	"\"spin_won\":1,\"spin_failed\":1,\"gave_up\":0,\"begins\":3,"         \
	"\"peak_waiters\":2,\"hist_log2_ns\":[0,1,2],\"hist_spin_log2_ns\":"   \
	"[1,1],\"hist_sleep_log2_ns\":[0,0,1]}"
#define CG_LOCK                                                                \
	"{\"name\":\"mutex@g\",\"kind\":\"mutex\",\"contentions\":2,"          \
	"\"total_ns\":9,\"spin_ns\":9,\"sleep_ns\":0,\"max_ns\":5,"            \
	"\"spin_won\":2,\"spin_failed\":0,\"gave_up\":0,\"begins\":2,"         \
	"\"peak_waiters\":1,\"cgroups\":[{\"cgroup\":\"/a\",\"role\":"         \
	"\"waiter\",\"waits\":2,\"wait_ns\":9}]}"
#define SNAP(locks)                                                            \
	"\"counters\":{\"begins\":4},\"losses\":{\"stack failed\":2},"         \
	"\"sampler\":{\"samples\":10,\"spin_functions\":[{\"function\":"       \
	"\"osq_lock\",\"samples\":3}]},\"locks\":" locks
#define STACK(frames, w)                                                       \
	"{\"lock\":\"mutex@f\",\"kind\":\"mutex\",\"frames\":[" frames         \
	"],\"samples\":1,\"wait_ns\":" w "}"

static const char record[] =
	"{\"schema\":\"lockscope-record\",\"schema_version\":1,"
	"\"run\":{\"kernel_release\":\"6.18\",\"cpus\":2,\"duration_s\":2,"
	"\"command\":[\"x\"],\"exit_status\":0,\"interval_s\":1,"
	"\"interrupted\":false},\n \"totals\" : {" SNAP(" [ " LOCK("mutex@f", "3") " ,\n" LOCK("mutex@f [ffff888100001000]", "4") "," CG_LOCK "]") ",\"stacks\":[" STACK(
		"\"a\",\"b\"",
		"40") "," STACK("\"c\"",
				"70") "," STACK("\"a\",\"b\"",
						"5") "]},"
						     "\"intervals\":[{"
						     "\"index\":1,\"t_s\":1,"
						     "\"duration_s\":1," SNAP("[" LOCK("mutex@f", "1") "]") "},{\"index\":2,\"t_s\":2,\"duration_s\":1," SNAP(
							     "[]") "},{"
								   "\"index\":"
								   "3,\"t_s\":"
								   "3,"
								   "\"duration_"
								   "s\":"
								   "1," SNAP("[" CG_LOCK "," LOCK(
									   "mut"
									   "ex@"
									   "h",
									   "2") "]") "}]}\n";

/* @a and @b hold the same snapshot. */
static void same_snap(const struct ls_rec_snap *a, const struct ls_rec_snap *b)
{
	assert_int_equal(a->nlocks, b->nlocks);
	assert_int_equal(a->ncgs, b->ncgs);
	assert_int_equal(a->has_cgroups, b->has_cgroups);
	assert_int_equal(a->samples, b->samples);
	assert_memory_equal(a->ctr, b->ctr, sizeof(a->ctr));
	assert_memory_equal(a->loss, b->loss, sizeof(a->loss));
	if (a->nlocks)
		assert_memory_equal(a->locks, b->locks,
				    a->nlocks * sizeof(*a->locks));
	if (a->ncgs)
		assert_memory_equal(a->cgs, b->cgs, a->ncgs * sizeof(*a->cgs));
}

/* @text read both ways gives one record (or one reason). */
static void both_ways(const char *text, size_t len)
{
	struct ls_rec a, b;
	struct json_tokener *tok = json_tokener_new_ex(32);
	struct json_object *root;
	char ea[256] = "", eb[256] = "";
	size_t end;
	int ra, rb;

	assert_non_null(tok);
	ra = ls_rec_parse(text, len, &a, ea, sizeof(ea));
	root = json_tokener_parse_ex(tok, text, (int)len);
	end = json_tokener_get_parse_end(tok);
	json_tokener_free(tok);
	while (root && end < len && strchr(" \t\r\n", text[end]) && text[end])
		end++;
	if (root && end < len) { /* data after the end: refused */
		json_object_put(root);
		root = NULL;
	}
	if (!root) { /* not JSON: the reader said so */
		assert_int_not_equal(ra, 0);
		return;
	}
	rb = ls_rec_from_json(root, &b, eb, sizeof(eb));
	json_object_put(root);
	assert_int_equal(ra, rb);
	if (ra) {
		assert_string_equal(ea, eb);
		return;
	}
	same_snap(&a.totals, &b.totals);
	assert_int_equal(a.nintervals, b.nintervals);
	for (size_t i = 0; i < a.nintervals; i++)
		same_snap(&a.intervals[i], &b.intervals[i]);
	assert_int_equal(a.nhists, b.nhists);
	if (a.nhists)
		assert_memory_equal(a.hists, b.hists,
				    a.nhists * sizeof(*a.hists));
	assert_int_equal(a.stacks.n, b.stacks.n);
	for (size_t i = 0; i < a.stacks.n; i++) {
		assert_string_equal(a.stacks.v[i].frames, b.stacks.v[i].frames);
		assert_int_equal(a.stacks.v[i].wait_ns, b.stacks.v[i].wait_ns);
	}
	ls_rec_free(&a);
	ls_rec_free(&b);
}

static void same_record(void **state)
{
	struct ls_rec r;
	char err[256] = "";

	(void)state;
	both_ways(record, strlen(record));
	/* and it is the record meant: two rows of one class, three
	 * intervals, stacks merged */
	assert_int_equal(
		ls_rec_parse(record, strlen(record), &r, err, sizeof(err)), 0);
	assert_int_equal(r.totals.nlocks, 2);
	assert_int_equal(r.totals.locks[0].contentions, 7);
	assert_int_equal(r.totals.locks[0].instances, 2);
	assert_int_equal(r.totals.ncgs, 1);
	assert_int_equal(r.nintervals, 3);
	assert_int_equal(r.intervals[2].nlocks, 2);
	assert_int_equal(r.nhists, 2);
	assert_int_equal(r.stacks.n, 2);
	assert_int_equal(ls_stacks_wait_total(&r.stacks), 115);
	ls_rec_free(&r);
}

/* Texts the scan gives up on, and broken ones: read as json-c reads them. */
static void same_when_odd(void **state)
{
	static const struct {
		const char *from, *to;
	} edits[] = {
		{"\"totals\" : {", "\"totals\":{},\"totals\" : {"},
		{"\"intervals\":[", "\"intervals\":[],\"intervals\":["},
		{",\"stacks\":[", ",\"stacks\":[],\"stacks\":["},
		{"\"totals\" : {", "\"tot\\u0061ls\" : {"},
		{" ,\n{", " {"},   /* a comma missing between rows */
		{" ,\n{", " ,,{"}, /* one too many */
		{"\"contentions\":4", "\"contentions\":4 /* c */"},
		{"\"contentions\":4", "\"contentions\":4}"},
		{"\"contentions\":4", "\"contentions\":-4"},
		{"\"c\"],", "\"c\"]]"},
		{"}]}\n", "}]"},
		{"}]}\n", "}]} x"},
	};
	char buf[sizeof(record) + 128];

	(void)state;
	/* nested right up to json-c's depth limit, and one past it, inside
	 * a row read on its own */
	for (int d = 24; d <= 30; d++) {
		const char *at = strstr(record, "\"contentions\":4");
		size_t pre = (size_t)(at - record);

		snprintf(buf, sizeof(buf), "%.*s\"x\":%.*s%.*s,%s", (int)pre,
			 record, d, "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[", d,
			 "]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]", at);
		both_ways(buf, strlen(buf));
	}
	for (size_t i = 0; i < sizeof(edits) / sizeof(*edits); i++) {
		const char *at = strstr(record, edits[i].from);
		size_t pre;

		assert_non_null(at);
		pre = (size_t)(at - record);
		snprintf(buf, sizeof(buf), "%.*s%s%s", (int)pre, record,
			 edits[i].to, at + strlen(edits[i].from));
		both_ways(buf, strlen(buf));
	}
}

/* Every record file of tests/data reads the same both ways. */
static void same_data_files(void **state)
{
	const char *root = getenv("LS_ROOT");
	char pat[4096];
	glob_t g;

	(void)state;
	snprintf(pat, sizeof(pat), "%s/tests/data/{,real/}*.json",
		 root ? root : ".");
	assert_int_equal(glob(pat, GLOB_BRACE, NULL, &g), 0);
	assert_true(g.gl_pathc >= 10);
	for (size_t i = 0; i < g.gl_pathc; i++) {
		FILE *f = fopen(g.gl_pathv[i], "r");
		char *text = NULL;
		size_t cap = 0, len;

		assert_non_null(f);
		len = getdelim(&text, &cap, '\0', f) > 0 ? strlen(text) : 0;
		fclose(f);
		both_ways(text, len);
		free(text);
	}
	globfree(&g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(same_record),
		cmocka_unit_test(same_when_odd),
		cmocka_unit_test(same_data_files),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
