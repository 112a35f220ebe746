// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include "cmd/cli.h"
#include "export/prom_cgroup.h"
#include "cmd/numbers.h"
#include "util/log.h"

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

/* Parse a NULL-terminated list of words (empty ones included). */
static int parsev(struct ls_opts *o, const char *first, ...)
{
	static char *argv[32];
	const char *w = first;
	int argc = 0;
	va_list ap;

	argv[argc++] = "lockscope";
	va_start(ap, first);
	for (; w && argc < 31; w = va_arg(ap, const char *))
		argv[argc++] = (char *)w;
	va_end(ap);
	argv[argc] = NULL;
	return ls_cli_parse(argc, argv, o);
}

/* Parse @line with messages in @msg (what lockscope would print). */
static int parse_msg(struct ls_opts *o, const char *line, char *msg, size_t len)
{
	FILE *f = tmpfile();
	size_t n;
	int r;

	assert_non_null(f);
	ls_log_stream = f;
	r = parse(o, line);
	ls_log_stream = NULL;
	rewind(f);
	n = fread(msg, 1, len - 1, f);
	msg[n] = '\0';
	fclose(f);
	return r;
}

/* Parse @line with standard output in @out (what --help prints). */
static int parse_out(struct ls_opts *o, const char *line, char *out, size_t len)
{
	FILE *f = tmpfile();
	int saved = dup(STDOUT_FILENO), r;
	size_t n;

	assert_non_null(f);
	fflush(stdout);
	dup2(fileno(f), STDOUT_FILENO);
	r = parse(o, line);
	fflush(stdout);
	dup2(saved, STDOUT_FILENO);
	close(saved);
	rewind(f);
	n = fread(out, 1, len - 1, f);
	out[n] = '\0';
	fclose(f);
	return r;
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
	assert_int_equal(ls_parse_percent("5", 0, 100, &d), 0);
	assert_true(d == 5.0);
	assert_int_equal(ls_parse_percent("20%", 0, 100, &d), 0);
	assert_true(d == 20.0);
	assert_int_equal(ls_parse_percent("0.5", 0, 100, &d), 0);
	assert_true(d == 0.5);
	assert_int_equal(ls_parse_percent(".5%", 0, 100, &d), 0);
	assert_true(d == 0.5);
	assert_int_equal(ls_parse_percent("100", 0, 100, &d), 0);
	assert_int_equal(ls_parse_percent("100.5", 0, 100, &d), -ERANGE);
	assert_int_equal(ls_parse_percent("1e2", 0, 1e6, &d), -EINVAL);
	assert_int_equal(ls_parse_percent("5s", 0, 100, &d), -EINVAL);
	assert_int_equal(ls_parse_percent("0x10", 0, 100, &d), -EINVAL);
	assert_int_equal(ls_parse_percent("nan", 0, 100, &d), -EINVAL);
	assert_int_equal(ls_parse_percent("inf", 0, 100, &d), -EINVAL);
	assert_int_equal(ls_parse_percent("-1", 0, 100, &d), -EINVAL);
	assert_int_equal(ls_parse_percent(" 1", 0, 100, &d), -EINVAL);
	assert_int_equal(ls_parse_percent("", 0, 100, &d), -EINVAL);
	assert_int_equal(ls_parse_percent("%", 0, 100, &d), -EINVAL);
	assert_int_equal(ls_parse_percent(".", 0, 100, &d), -EINVAL);
	assert_int_equal(ls_parse_percent("5%%", 0, 100, &d), -EINVAL);
	assert_int_equal(ls_parse_percent("1.2.3", 0, 100, &d), -EINVAL);
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
	/* each command with the options it takes */
	assert_int_equal(parse(&o, "doctor -F 0 --no-tracepoints --source "
				   "none --kallsyms /proc/kallsyms -v"),
			 0);
	assert_int_equal(parse(&o,
			       "serve -i 2 --forget 5 -L genl -T mutex -p 3 "
			       "--listen :0 --user daemon --max-series 3 "
			       "--no-cost --addr --stack-every 8"),
			 0);
	assert_int_equal(o.col.forget, 5);
	assert_int_equal(o.max_series, 3);
	assert_int_equal(parse(&o, "record -o x -d 1 -i 1 --cost --format csv "
				   "-L a -T mutex -p 3 --max-locks 9"),
			 0);
	assert_int_equal(o.col.run_stats, 1);
	assert_int_equal(parse(&o, "compare --format json --threshold 5% "
				   "--min-share 0.5 a -- b"),
			 0);
	assert_true(o.threshold == 5.0);
	assert_true(o.min_share == 0.5);
	assert_int_equal(parse(&o, "top -b -i 2 --forget 0 -s spin --addr"), 0);
	assert_int_equal(o.col.forget, 0);
	/* a long-running server forgets idle locks unless told not to */
	assert_int_equal(parse(&o, "serve --user nobody"), 0);
	assert_int_equal(o.col.forget, LS_DEF_FORGET);
	assert_int_equal(parse(&o, "serve --forget 0"), 0);
	assert_int_equal(o.col.forget, 0);
	/* ... but for --by class, whose counters sum a class's instances */
	assert_int_equal(parse(&o, "serve --by class"), 0);
	assert_int_equal(o.col.forget, 0);
	assert_int_equal(parse(&o, "record -o x"), 0);
	assert_int_equal(o.col.forget, 0);
	assert_int_equal(parse(&o, "hist --json --cost -- prog"), 0);
	assert_int_equal(parse(&o, "hist --folded f -- prog"), 0);
	assert_string_equal(o.folded, "f");
	assert_int_equal(parse(&o, "record -o x --folded - -d 1"), 0);
	assert_int_equal(parse(&o, "report -o r.html -n 3 --threshold 5 "
				   "--min-share 2 a b -- c"),
			 0);
	assert_int_equal(o.cmd, LS_CMD_REPORT);
	assert_int_equal(o.nfiles, 2);
	assert_int_equal(o.argc, 1);
	assert_int_equal(o.count, 3);
	assert_int_equal(parse(&o, "report -o - a"), 0);
	assert_null(o.argv);
	/* cgroups: --by cgroup, --cgroup, serve's class,cgroup */
	assert_int_equal(parse(&o, "hist --by cgroup --cgroup /a/b"), 0);
	assert_true(o.col.by_cgroup && !o.col.by_class);
	assert_string_equal(o.col.cgroup, "/a/b");
	assert_int_equal(parse(&o, "record -o x --by cgroup"), 0);
	assert_true(o.col.by_cgroup);
	assert_int_equal(parse(&o, "serve --by class,cgroup --max-cgroups 3"),
			 0);
	assert_true(o.col.by_cgroup && o.col.by_class);
	assert_int_equal(o.max_cgroups, 3);
	assert_int_equal(parse(&o, "serve"), 0);
	assert_int_equal(o.max_cgroups, LS_PROM_DEF_MAX_CGROUPS);
	assert_false(o.col.by_cgroup);
	assert_int_equal(parse(&o, "top -b --cgroup /a"), 0);
	assert_int_equal(parse(&o, "top -b --by cgroup"), 0);
	assert_true(o.col.by_cgroup && !o.col.by_class);
	assert_int_equal(parse(&o, "compare --by cgroup a -- b"), 0);
	assert_true(o.col.by_cgroup && !o.col.by_class);
}

/* One option each command does not take, and the one line it gets. */
static void misplaced(void **state)
{
	static const struct {
		const char *line, *msg;
	} cases[] = {
		{"top -d 5", "--duration: top does not take this option"},
		{"top -b -d 1", "--duration: top does not take this option"},
		{"top --json", "--json: top does not take this option"},
		{"top --cost", "--cost: top does not take this option"},
		{"hist --listen 127.0.0.1:9464",
		 "--listen: hist does not take this option"},
		{"hist --user nobody",
		 "--user: hist does not take this option"},
		{"hist --max-series 5",
		 "--max-series: hist does not take this option"},
		{"hist -b", "--batch: hist does not take this option"},
		{"hist --forget 3", "--forget: hist does not take this option"},
		{"hist -i 1", "--interval: hist does not take this option"},
		{"doctor --json", "--json: doctor does not take this option"},
		{"doctor -L genl", "--lock: doctor does not take this option"},
		{"serve -d 5", "--duration: serve does not take this option"},
		{"serve --json", "--json: serve does not take this option"},
		{"serve -s spin", "--sort: serve does not take this option"},
		{"record -o x -n 3",
		 "--count: record does not take this option"},
		{"record -o x -b", "--batch: record does not take this option"},
		{"compare -L genl a -- b",
		 "--lock: compare does not take this option"},
		{"compare -T mutex a -- b",
		 "--kind: compare does not take this option"},
		{"compare -p 1 a -- b",
		 "--pid: compare does not take this option"},
		{"compare -n 3 a -- b",
		 "--count: compare does not take this option"},
		{"compare --json a -- b",
		 "--json: compare does not take this option"},
		{"-o x", "--output: top does not take this option"},
		{"hist --threshold 5",
		 "--threshold: hist does not take this option"},
		{"report -o r a -L genl",
		 "--lock: report does not take this option"},
		{"report -o r a --folded f",
		 "--folded: report does not take this option"},
		{"report -o r a --format json",
		 "--format: report does not take this option"},
		{"top --folded f", "--folded: top does not take this option"},
		{"compare --folded f a -- b",
		 "--folded: compare does not take this option"},
		{"report a", "arguments: report needs -o FILE.html"},
		{"report -o r",
		 "arguments: report needs record files (report -o FILE.html "
		 "RECORD.json...)"},
		{"report -o r a --", "arguments: no NEW files after --"},
		{"hist --json --folded -",
		 "--folded '-': --json writes to standard output already"},
		{"record -o - --folded -",
		 "--folded '-': -o writes to standard output already"},
	};
	struct ls_opts o;
	char msg[512], want[256];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		int r = parse_msg(&o, cases[i].line, msg, sizeof(msg));

		snprintf(want, sizeof(want), "lockscope: failed to parse %s\n",
			 cases[i].msg);
		if (r != -EINVAL || strcmp(msg, want))
			fail_msg("'%s': %d, '%s'", cases[i].line, r, msg);
	}
}

/* Empty values, unknown options, missing values: one line each. */
static void one_line_errors(void **state)
{
	static const char *const lines[] = {
		"hist -x",	"--bogus doctor", "hist -d", "hist --json=1",
		"hist --max 3", "hist -bx",	  "top -i",  "--HANG=1 doctor",
	};
	struct ls_opts o;
	char msg[512];

	(void)state;
	assert_int_equal(parsev(&o, "hist", "-L", "", NULL), -EINVAL);
	assert_int_equal(parsev(&o, "hist", "--lock=", NULL), -EINVAL);
	assert_int_equal(parsev(&o, "hist", "--kallsyms", "", NULL), -EINVAL);
	assert_int_equal(parsev(&o, "record", "-o", "", NULL), -EINVAL);
	assert_int_equal(parsev(&o, "serve", "--user", "", NULL), -EINVAL);
	assert_int_equal(parsev(&o, "hist", "-L", "genl", NULL), 0);
	for (size_t i = 0; i < sizeof(lines) / sizeof(*lines); i++) {
		int r = parse_msg(&o, lines[i], msg, sizeof(msg));
		char *nl = strchr(msg, '\n');

		if (r != -EINVAL ||
		    strncmp(msg, "lockscope: failed to parse ", 27) || !nl ||
		    nl[1])
			fail_msg("'%s': %d, '%s'", lines[i], r, msg);
	}
	assert_int_equal(parse_msg(&o, "hist -d", msg, sizeof(msg)), -EINVAL);
	assert_string_equal(msg,
			    "lockscope: failed to parse option '-d': needs "
			    "a value\n");
}

/* --help of a command lists the options it takes, and only those. */
static void help(void **state)
{
	static char out[16384];
	struct ls_opts o;

	(void)state;
	assert_int_equal(parse_out(&o, "hist --help", out, sizeof(out)), 1);
	assert_non_null(strstr(out, "--duration"));
	assert_non_null(strstr(out, "--json"));
	assert_null(strstr(out, "--listen"));
	assert_null(strstr(out, "--batch"));
	assert_int_equal(parse_out(&o, "--help serve", out, sizeof(out)), 1);
	assert_non_null(strstr(out, "--listen"));
	assert_null(strstr(out, "--duration"));
	assert_int_equal(parse_out(&o, "--help", out, sizeof(out)), 1);
	assert_non_null(strstr(out, "--listen"));
	assert_non_null(strstr(out, "--duration"));
	assert_non_null(strstr(out, "lockscope hist -- stress-ng"));
}

static void bad_lines(void **state)
{
	static const char *const bad[] = {
		"hist -d abc",
		"hist -d 0",
		"hist -d -1",
		"hist -n 0",
		"hist -n -1",
		"hist -n 99999999999",
		"hist -p 0",
		"hist -p abc",
		"bogus",
		"hist -T nosuch",
		"hist -s nosuch",
		"hist --",
		"doctor -- ls",
		"hist extra",
		"top -i 0",
		"top -F 100000",
		"hist --max-locks 0",
		"hist --stack-every x",
		"--HANG=1 doctor",
		"hist --H",
		"top --forget x",
		"compare --threshold 5s a -- b",
		"compare --min-share 1e1 a -- b",
		"compare --threshold 0x10 a -- b",
		"hist --by cgroups",
		"hist --by class,cgroup",    /* serve only */
		"compare --by class a -- b", /* it always does */
		"compare --by lock a -- b",
		"serve --max-cgroups x",
		"hist --max-cgroups 3", /* serve only */
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
		cmocka_unit_test(numbers),	   cmocka_unit_test(good_lines),
		cmocka_unit_test(bad_lines),	   cmocka_unit_test(misplaced),
		cmocka_unit_test(one_line_errors), cmocka_unit_test(help),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
