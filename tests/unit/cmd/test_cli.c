// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "cmd/cli.h"
#include "cmd/numbers.h"

static int parse(struct ls_opts *o, const char *line)
{
	static char buf[512];
	static char *argv[32];
	int argc = 0;

	snprintf(buf, sizeof(buf), "lockscope %s", line);
	for (char *t = strtok(buf, " "); t && argc < 31; t = strtok(NULL, " "))
		argv[argc++] = t;
	argv[argc] = NULL;
	return ls_cli_parse(argc, argv, o);
}

static void numbers(void **state)
{
	uint32_t v;
	double d;
	uint64_t a;

	(void)state;
	assert_int_equal(ls_parse_u32("42", 0, 100, &v), 0);
	assert_int_equal(v, 42);
	assert_int_equal(ls_parse_u32("4294967295", 0, 0xffffffffU, &v), 0);
	assert_int_equal(ls_parse_u32("4294967296", 0, 0xffffffffU, &v),
			 -ERANGE);
	assert_int_equal(ls_parse_u32("99999999999999999999999", 0, 5, &v),
			 -ERANGE);
	assert_int_equal(ls_parse_u32("-1", 0, 100, &v), -EINVAL);
	assert_int_equal(ls_parse_u32("+1", 0, 100, &v), -EINVAL);
	assert_int_equal(ls_parse_u32(" 1", 0, 100, &v), -EINVAL);
	assert_int_equal(ls_parse_u32("1x", 0, 100, &v), -EINVAL);
	assert_int_equal(ls_parse_u32("", 0, 100, &v), -EINVAL);
	assert_int_equal(ls_parse_u32("0", 1, 100, &v), -ERANGE);
	assert_int_equal(ls_parse_seconds("2.5", 0.001, 10, &d), 0);
	assert_true(d == 2.5);
	assert_int_equal(ls_parse_seconds("5s", 0.001, 10, &d), 0);
	assert_true(d == 5.0);
	assert_int_equal(ls_parse_seconds("nan", 0.001, 10, &d), -EINVAL);
	assert_int_equal(ls_parse_seconds("inf", 0.001, 10, &d), -EINVAL);
	assert_int_equal(ls_parse_seconds("0", 0.001, 10, &d), -ERANGE);
	assert_int_equal(ls_parse_seconds("1e9", 0.001, 10, &d), -ERANGE);
	assert_int_equal(ls_parse_seconds("5m", 0.001, 10, &d), -EINVAL);
	assert_int_equal(ls_parse_addr("ffffffff81000000", &a), 0);
	assert_true(a == 0xffffffff81000000ULL);
	assert_int_equal(ls_parse_addr("0x10", &a), 0);
	assert_int_equal(ls_parse_addr("genl", &a), -EINVAL);
	assert_int_equal(ls_parse_addr("11112222333344445", &a), -EINVAL);
}

static void good_lines(void **state)
{
	struct ls_opts o;

	(void)state;
	assert_int_equal(parse(&o, ""), 0);
	assert_int_equal(o.cmd, LS_CMD_TOP);
	assert_int_equal(o.col.sample_hz, 99);
	assert_int_equal(parse(&o, "hist -d 5 -n 3 -p 42 -T mutex -T rwsem:W "
				   "-L genl -s spin -F 0 --addr "
				   "-- stress-ng --netlink-task 2"),
			 0);
	assert_int_equal(o.cmd, LS_CMD_HIST);
	assert_true(o.duration == 5.0);
	assert_int_equal(o.nlocks, 3);
	assert_int_equal(o.col.tgid, 42);
	assert_int_equal(o.filter.kind_mask,
			 (1U << LS_KIND_MUTEX) | (1U << LS_KIND_RWSEM_W));
	assert_string_equal(o.filter.name, "genl");
	assert_int_equal(o.sort, LS_SORT_SPIN);
	assert_int_equal(o.col.sample_hz, 0);
	assert_int_equal(o.col.with_addr, 1);
	assert_int_equal(o.argc, 3);
	assert_string_equal(o.argv[0], "stress-ng");
	assert_string_equal(o.argv[1], "--netlink-task");
	assert_int_equal(parse(&o, "hist -L 0xffffffff83000000"), 0);
	assert_true(o.filter.addr == 0xffffffff83000000ULL);
	assert_null(o.filter.name);
	assert_int_equal(parse(&o, "top -b -n 3 -i 0.5"), 0);
	assert_int_equal(o.count, 3);
	assert_int_equal(o.batch, 1);
	assert_true(o.interval == 0.5);
	assert_int_equal(parse(&o, "doctor"), 0);
	assert_int_equal(o.cmd, LS_CMD_DOCTOR);
}

static void bad_lines(void **state)
{
	static const char *const bad[] = {
		"hist -d abc",	   "hist -d 0",		 "hist -d -1",
		"hist -n 0",	   "hist -n -1",	 "hist -n 99999999999",
		"hist -p 0",	   "hist -p abc",	 "bogus",
		"hist -T nosuch",  "hist -s nosuch",	 "hist --",
		"doctor -- ls",	   "hist extra",	 "top -i 0",
		"top -F 100000",   "hist --max-locks 0", "hist --stack-every x",
		"--HANG=1 doctor", "hist --H",		 "top --forget x",
	};
	struct ls_opts o;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		int r = parse(&o, bad[i]);

		if (r != -EINVAL)
			fail_msg("'%s' parsed (%d)", bad[i], r);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(numbers),
		cmocka_unit_test(good_lines),
		cmocka_unit_test(bad_lines),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
