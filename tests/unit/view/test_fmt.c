// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* test_fmt.c - the one duration and rate formatter of the views: both
 * forms of a duration, unit changes on rounding, rates. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "view/fmt.h"

#define MS 1000000ULL

static const char *dur(uint64_t ns, enum ls_dur_form form)
{
	static char b[32];

	return ls_fmt_dur(b, sizeof(b), ns, form);
}

static void short_form(void **state)
{
	(void)state;
	assert_string_equal(dur(999, LS_DUR_SHORT), "999ns");
	assert_string_equal(dur(1000, LS_DUR_SHORT), "1.00us");
	assert_string_equal(dur(1934, LS_DUR_SHORT), "1.93us");
	assert_string_equal(dur(97700, LS_DUR_SHORT), "97.7us");
	assert_string_equal(dur(627400, LS_DUR_SHORT), "627us");
	/* rounding up crosses into the next unit, never "1000us" */
	assert_string_equal(dur(999600, LS_DUR_SHORT), "1.00ms");
	assert_string_equal(dur(8 * MS, LS_DUR_SHORT), "8.00ms");
	assert_string_equal(dur(12345678, LS_DUR_SHORT), "12.3ms");
	assert_string_equal(dur(1200 * MS, LS_DUR_SHORT), "1.20s");
	assert_string_equal(dur(4000000 * MS, LS_DUR_SHORT), "4000s");
}

/* What hist's report and every histogram's slot bounds print (README). */
static void fixed_form(void **state)
{
	(void)state;
	assert_string_equal(dur(850, LS_DUR_FIXED), "850ns");
	assert_string_equal(dur(1024, LS_DUR_FIXED), "1.0us");
	assert_string_equal(dur(12345, LS_DUR_FIXED), "12.3us");
	assert_string_equal(dur(131072, LS_DUR_FIXED), "131.1us");
	assert_string_equal(dur(524288, LS_DUR_FIXED), "524.3us");
	assert_string_equal(dur(1048576, LS_DUR_FIXED), "1.05ms");
	assert_string_equal(dur(4560000, LS_DUR_FIXED), "4.56ms");
	assert_string_equal(dur(166970000, LS_DUR_FIXED), "166.97ms");
	assert_string_equal(dur(16777216, LS_DUR_FIXED), "16.78ms");
	assert_string_equal(dur(1200 * MS, LS_DUR_FIXED), "1.20s");
	/* no "1000.0us" or "1000.00ms" either */
	assert_string_equal(dur(999960, LS_DUR_FIXED), "1.00ms");
	assert_string_equal(dur(999996000, LS_DUR_FIXED), "1.00s");
}

static void rates(void **state)
{
	char b[32];

	(void)state;
	assert_string_equal(ls_fmt_per_s(b, sizeof(b), 0), "0");
	assert_string_equal(ls_fmt_per_s(b, sizeof(b), 3.46), "3.5");
	assert_string_equal(ls_fmt_per_s(b, sizeof(b), 57691.2), "57691");
	assert_string_equal(ls_fmt_per_s(b, sizeof(b), 571234), "571k");
	assert_string_equal(ls_fmt_per_s(b, sizeof(b), 5.2e8), "520M");
	assert_string_equal(ls_fmt_ms_per_s(b, sizeof(b), 0), "0");
	assert_string_equal(ls_fmt_ms_per_s(b, sizeof(b), 2.544), "2.54");
	assert_string_equal(ls_fmt_ms_per_s(b, sizeof(b), 13.71), "13.7");
	assert_string_equal(ls_fmt_ms_per_s(b, sizeof(b), 307.4), "307");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(short_form),
		cmocka_unit_test(fixed_form),
		cmocka_unit_test(rates),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
