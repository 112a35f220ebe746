// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * test_report.c - the HTML report: every part present for a record (run,
 * losses, top locks, histograms, time series, flame graph) and for a
 * compare, text from records escaped, nothing that loads from elsewhere.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "view/report.h"
#include "view/flame_svg.h"

/* A lock named to break out of the page, and a plain one; an interval. */
#define LOCKS(c)                                                               \
	"[{\"name\":\"mutex@<img src=x onerror=alert(1)>\",\"kind\":"          \
	"\"mutex\",\"contentions\":" c ",\"total_ns\":9000,\"spin_ns\":6000,"  \
	"\"sleep_ns\":3000,\"max_ns\":5000,\"spin_won\":1,\"spin_failed\":1,"  \
	"\"gave_up\":0,\"begins\":3,\"peak_waiters\":2,\"hist_log2_ns\":[0,"   \
	"0,0,0,0,0,0,0,0,0,1,2],\"hist_spin_log2_ns\":[0,0,0,0,0,0,0,0,0,0,3]" \
	",\"hist_sleep_log2_ns\":[0,0,0,0,0,0,0,0,0,0,0,1]},{\"name\":"        \
	"\"spinlock@f\",\"kind\":\"spinlock\",\"contentions\":1,\"total_ns\":" \
	"10,\"spin_ns\":10,\"sleep_ns\":0,\"max_ns\":10,\"spin_won\":0,"       \
	"\"spin_failed\":0,\"gave_up\":0,\"begins\":1,\"peak_waiters\":1,"     \
	"\"hist_spin_log2_ns\":[0,0,0,1]}]"
#define SNAP(c)                                                                \
	"\"counters\":{\"begins\":4},\"losses\":{\"stack failed\":2},"         \
	"\"sampler\":{\"samples\":0,\"spin_functions\":[]},\"locks\":" LOCKS(  \
		c)

static void parse(struct ls_rec *r)
{
	char *s, err[256] = "";

	if (asprintf(&s,
		     "{\"schema\":\"lockscope-record\",\"schema_version\":1,"
		     "\"run\":{\"kernel_release\":\"6.1<b>\",\"cpus\":2,"
		     "\"duration_s\":2,\"command\":[\"x\",\"&\"],"
		     "\"exit_status\":0,\"interval_s\":1,"
		     "\"interrupted\":false},\"totals\":{%s,\"stacks\":[{"
		     "\"lock\":\"mutex@<img src=x onerror=alert(1)>\","
		     "\"kind\":\"mutex\",\"frames\":[\"do_syscall_64\","
		     "\"<svg/onload=alert(2)>\"],\"samples\":1,\"wait_ns\":"
		     "3000}]},\"intervals\":[{\"index\":1,\"t_s\":1,"
		     "\"duration_s\":1,%s},{\"index\":2,\"t_s\":2,"
		     "\"duration_s\":1,%s}]}",
		     SNAP("3"), SNAP("1"), SNAP("2")) < 0)
		fail();
	if (ls_rec_parse(s, strlen(s), r, err, sizeof(err)))
		fail_msg("%s", err);
	free(s);
}

static char *render_one(void)
{
	struct ls_rec r;
	char *files[] = {"run<1>.json"};
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	parse(&r);
	assert_int_equal(ls_report_records(f, &r, files, 1, 10), 0);
	fclose(f);
	ls_rec_free(&r);
	return buf;
}

static size_t count(const char *s, const char *what)
{
	size_t n = 0;

	for (; (s = strstr(s, what)); s++)
		n++;
	return n;
}

/* Does a tag of @page (not escaped text) have attribute @attr ("src=")? */
static int tag_has(const char *page, const char *attr)
{
	for (const char *p = strchr(page, '<'); p; p = strchr(p + 1, '<')) {
		const char *end = strchr(p, '>');
		const char *hit = strstr(p, attr);

		if (hit && end && hit < end && hit[-1] == ' ')
			return 1;
	}
	return 0;
}

/* Nothing can run or load: no script, no event handler, no URL. */
static void self_contained(const char *page)
{
	assert_null(strstr(page, "<script"));
	assert_null(strstr(page, "<img"));
	assert_null(strstr(page, "<svg/"));
	assert_null(strstr(page, "<b>"));
	assert_null(strstr(page, "http:"));
	assert_null(strstr(page, "https:"));
	assert_false(tag_has(page, "src="));
	assert_false(tag_has(page, "href="));
	assert_false(tag_has(page, "onerror="));
	assert_false(tag_has(page, "onload="));
	assert_null(strstr(page, "url("));
	assert_non_null(strstr(page, "default-src 'none'"));
}

static void one_record(void **state)
{
	char *page = render_one();

	(void)state;
	self_contained(page);
	/* escaped, not dropped */
	assert_non_null(
		strstr(page, "mutex@&lt;img src=x onerror=alert(1)&gt;"));
	assert_non_null(strstr(page, "&lt;svg/onload=alert(2)&gt;"));
	assert_non_null(strstr(page, "run&lt;1&gt;.json"));
	assert_non_null(strstr(page, "6.1&lt;b&gt;"));
	assert_non_null(strstr(page, "x &amp;"));
	/* every part */
	assert_non_null(strstr(page, "<table class=\"meta\">"));
	assert_non_null(strstr(page, "lost: stack failed</th><td>2"));
	assert_non_null(strstr(page, "<table class=\"top-locks\">"));
	assert_int_equal(count(page, "<svg class=\"ls-hist\""), 2);
	assert_int_equal(count(page, "<svg class=\"ls-series"), 2);
	assert_int_equal(count(page, "<svg class=\"ls-flame\""), 1);
	/* the busier lock first, its spin and sleep bars stacked */
	assert_true(strstr(page, "mutex@&lt;img") <
		    strstr(page, "<td class=\"l\">spinlock@f"));
	assert_non_null(strstr(page, "1.0us to 2.0us: spin 3, sleep 0"));
	assert_non_null(strstr(page, "2.0us to 4.1us: spin 0, sleep 1"));
	/* the time series: 1 then 2 contentions/s */
	assert_non_null(strstr(page, "at 1.00s: 1</title>"));
	assert_non_null(strstr(page, "at 2.00s: 2</title>"));
	free(page);
}

static void compare(void **state)
{
	struct ls_rec base[3], nw[3];
	struct ls_cmp c;
	char *fb[] = {"b1.json", "b2.json", "b3.json"};
	char *fn[] = {"n<1>.json", "n2.json", "n3.json"};
	struct ls_cmp_input in[2] = {{base, fb, 3}, {nw, fn, 3}};
	/* the mutex three times busier in every NEW run, with some noise */
	static const uint64_t cb[3] = {100, 104, 96}, cn[3] = {300, 310, 290};
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	for (int i = 0; i < 3; i++) {
		parse(&base[i]);
		parse(&nw[i]);
		base[i].totals.locks[0].contentions = cb[i];
		nw[i].totals.locks[0].contentions = cn[i];
	}
	assert_int_equal(ls_compare(base, 3, nw, 3, 0, 1, &c), 0);
	f = open_memstream(&buf, &len);
	assert_int_equal(ls_report_compare(f, &c, in, 10), 0);
	fclose(f);
	self_contained(buf);
	assert_non_null(strstr(buf, "n&lt;1&gt;.json"));
	assert_non_null(strstr(buf, "<table class=\"changes\">"));
	/* the change is marked, with its interval and verdict; the rest is
	 * not */
	assert_non_null(strstr(buf, "<tr class=\"regressed\"><td class=\"l\">"
				    "lockscope.mutex@&lt;img"));
	assert_non_null(strstr(buf, "<th>effect [95% interval]</th>"));
	assert_non_null(strstr(buf, "<td class=\"l\">worse</td></tr>"));
	assert_non_null(strstr(buf, "<tr class=\"same\">"));
	assert_int_equal(count(buf, "<svg class=\"ls-overlay\""), 2);
	assert_int_equal(count(buf, "<svg class=\"ls-flame\""), 2);
	free(buf);
	ls_cmp_free(&c);
	for (int i = 0; i < 3; i++) {
		ls_rec_free(&base[i]);
		ls_rec_free(&nw[i]);
	}
}

/* 1 when @s is all UTF-8 (the page declares charset utf-8). */
static int utf8_ok(const unsigned char *s)
{
	while (*s) {
		size_t n = *s < 0x80		 ? 1
			   : (*s & 0xe0) == 0xc0 ? 2
			   : (*s & 0xf0) == 0xe0 ? 3
			   : (*s & 0xf8) == 0xf0 ? 4
						 : 0;

		if (!n)
			return 0;
		for (size_t i = 1; i < n; i++)
			if ((s[i] & 0xc0) != 0x80)
				return 0;
		s += n;
	}
	return 1;
}

/* Frame labels that do not fit their box end in "..", cut between
 * characters: every width of box, over frames of 2-, 3- and 4-byte
 * characters. */
static void flame_labels_cut_between_characters(void **state)
{
	static const char *const ch[] = {"\xc3\xa9", "\xe2\x82\xac",
					 "\xf0\x9f\x94\x92"};
	struct ls_stacks st;
	char frame[200], *buf = NULL;
	size_t len = 0, labels = 0;
	FILE *f;

	(void)state;
	ls_stacks_init(&st);
	assert_int_equal(ls_stacks_add(&st, "big", 5, "a;b", 1, 1000000), 0);
	for (unsigned k = 0; k < 3; k++) {
		frame[0] = '\0';
		strcat(frame, k == 0 ? "x" : k == 1 ? "xy" : "");
		while (strlen(frame) + 4 < 120)
			strcat(frame, ch[k]);
		/* boxes of 8 to 67 pixels: labels of 0 to 8 characters */
		for (uint64_t i = 1; i <= 8; i++) {
			char fr[240];

			snprintf(fr, sizeof(fr), "%s%llu", frame,
				 (unsigned long long)i);
			assert_int_equal(ls_stacks_add(&st, "small", 5, fr, 1,
						       30000 * i),
					 0);
		}
	}
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	assert_int_equal(ls_svg_flame(f, &st, 1), 0);
	fclose(f);
	assert_true(utf8_ok((const unsigned char *)buf));
	for (const char *p = buf; (p = strstr(p, "..</text>")); p++)
		labels++;
	assert_true(labels >= 15);
	free(buf);
	ls_stacks_free(&st);
}

/*
 * A metric that was 0 in every BASE run has no relative change: the page
 * says "(was 0)", as the text compare does (one function decides both),
 * never "+inf%".
 */
static void compare_from_zero(void **state)
{
	struct ls_rec base[3], nw[3];
	struct ls_cmp c;
	char *fb[] = {"b1.json", "b2.json", "b3.json"};
	char *fn[] = {"n1.json", "n2.json", "n3.json"};
	struct ls_cmp_input in[2] = {{base, fb, 3}, {nw, fn, 3}};
	static const uint64_t gn[3] = {50, 52, 48};
	char *buf = NULL, *txt = NULL;
	size_t len = 0, tlen = 0;
	FILE *f;

	(void)state;
	for (int i = 0; i < 3; i++) {
		parse(&base[i]);
		parse(&nw[i]);
		base[i].totals.locks[0].gave_up = 0;
		nw[i].totals.locks[0].gave_up = gn[i];
	}
	assert_int_equal(ls_compare(base, 3, nw, 3, 0, 1, &c), 0);
	f = open_memstream(&buf, &len);
	assert_int_equal(ls_report_compare(f, &c, in, 10), 0);
	fclose(f);
	f = open_memstream(&txt, &tlen);
	ls_cmp_print_text(f, &c, in);
	fclose(f);
	assert_non_null(strstr(txt, "(was 0)"));
	assert_non_null(strstr(buf, "<td>(was 0)</td>"));
	assert_null(strstr(buf, "inf%"));
	assert_null(strstr(txt, "inf%"));
	free(buf);
	free(txt);
	ls_cmp_free(&c);
	for (int i = 0; i < 3; i++) {
		ls_rec_free(&base[i]);
		ls_rec_free(&nw[i]);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(flame_labels_cut_between_characters),
		cmocka_unit_test(one_record),
		cmocka_unit_test(compare),
		cmocka_unit_test(compare_from_zero),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
