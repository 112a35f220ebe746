// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Steal time from /proc/stat (model/steal.c): the steal column of each
 * cpu line, gaps in CPU numbers, malformed text, intervals and format. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>
#include "model/steal.h"

/* Taken from this project's 2-vCPU KVM guest (Linux 6.18). */
static const char stat_text[] =
	"cpu  372393 241 246662 624623 826 0 3244 1054 0 0\n"
	"cpu0 186960 91 125394 309606 439 0 1541 541 0 0\n"
	"cpu1 185433 149 121267 315017 387 0 1703 512 0 0\n"
	"intr 1 2 3\n"
	"ctxt 123456\n"
	"btime 1764580000\n"
	"cpus_online 2\n";

static void parse(void **state)
{
	struct ls_steal s;

	(void)state;
	assert_int_equal(ls_steal_parse(stat_text, &s), 0);
	assert_int_equal(s.ncpus, 2);
	assert_int_equal(s.total, 1054);
	assert_int_equal(s.cpu[0], 541);
	assert_int_equal(s.cpu[1], 512);
}

static void gaps_and_errors(void **state)
{
	struct ls_steal s;

	(void)state;
	/* cpu1 offline: absent from /proc/stat; cpu2 still has its slot */
	assert_int_equal(ls_steal_parse("cpu  1 2 3 4 5 6 7 30\n"
					"cpu0 1 2 3 4 5 6 7 10\n"
					"cpu2 0 0 0 0 0 0 0 20\n",
					&s),
			 0);
	assert_int_equal(s.ncpus, 3);
	assert_int_equal(s.cpu[1], 0);
	assert_int_equal(s.cpu[2], 20);
	/* no steal column (kernels before 2.6.11) */
	assert_int_equal(ls_steal_parse("cpu  1 2 3 4 5 6 7\n", &s), -EINVAL);
	assert_int_equal(s.ncpus, 0);
	assert_int_equal(ls_steal_parse("intr 1 2\n", &s), -EINVAL);
	assert_int_equal(ls_steal_parse("", &s), -EINVAL);
	assert_int_equal(ls_steal_parse("cpu0 x 2\ncpu  1 2 3 4 5 6 7 8\n", &s),
			 -EINVAL);
}

static void interval_and_format(void **state)
{
	struct ls_steal a, b, d, none = {0};
	char buf[128];

	(void)state;
	assert_int_equal(ls_steal_parse(stat_text, &a), 0);
	assert_int_equal(ls_steal_parse("cpu  1 1 1 1 1 1 1 1154\n"
					"cpu0 1 1 1 1 1 1 1 600\n"
					"cpu1 1 1 1 1 1 1 1 554\n",
					&b),
			 0);
	ls_steal_sub(&d, &b, &a);
	assert_int_equal(d.total, 100);
	assert_int_equal(d.cpu[0], 59);
	assert_int_equal(d.cpu[1], 42);
	ls_steal_format(buf, sizeof(buf), &d, 100);
	assert_string_equal(buf, "1.00s (cpu0 0.59s, cpu1 0.42s)");
	/* backwards (a CPU's counter reset): 0, never a huge number */
	ls_steal_sub(&d, &a, &b);
	assert_int_equal(d.total, 0);
	assert_int_equal(d.cpu[0], 0);
	/* not known on either side: not known, never 0s */
	ls_steal_sub(&d, &b, &none);
	assert_int_equal(d.ncpus, 0);
	ls_steal_format(buf, sizeof(buf), &d, 100);
	assert_string_equal(buf, "not known");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parse),
		cmocka_unit_test(gaps_and_errors),
		cmocka_unit_test(interval_and_format),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
