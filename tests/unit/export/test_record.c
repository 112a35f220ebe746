// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * test_record.c - the record file: writer (JSON, CSV, lkp), reader and its
 * one-line errors, the time series, and the atomic output file.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <cmocka.h>
#include "analysis/classes.h"
#include "export/metrics.h"
#include "util/outfile.h"
#include "export/record.h"
#include "export/record_write.h"

/* ---- the reader's errors ------------------------------------------------ */

static void expect_error(const char *json, const char *want)
{
	struct ls_rec r;
	char err[256] = "";

	assert_int_equal(ls_rec_parse(json, strlen(json), &r, err, sizeof(err)),
			 -EINVAL);
	if (!strstr(err, want))
		fail_msg("error '%s' lacks '%s'", err, want);
	assert_null(strchr(err, '\n')); /* one line */
}

/* A valid record with @locks as its totals' lock array. */
static char *doc(const char *run_extra, const char *locks)
{
	char *s;

	if (asprintf(&s,
		     "{\"schema\":\"lockscope-record\",\"schema_version\":1,"
		     "\"run\":{\"kernel_release\":\"6.1\",\"cpus\":2,"
		     "\"duration_s\":3.5,\"command\":null,\"interval_s\":null,"
		     "\"interrupted\":false%s},"
		     "\"totals\":{\"counters\":{\"begins\":1,\"ends\":1,"
		     "\"spin-to-sleep\":0,\"recorded\":1,\"samples\":0,"
		     "\"kernel samples\":0,\"spin samples\":0,"
		     "\"caller stacks\":0},\"losses\":{\"task map full\":0,"
		     "\"lock map full\":0,\"nesting too deep\":0,"
		     "\"end without begin\":0,\"stack failed\":0,"
		     "\"caller map full\":0,\"sample map full\":0,"
		     "\"begin without end\":0},\"sampler\":{\"samples\":0,"
		     "\"spin_functions\":[]},\"locks\":[%s]},\"intervals\":[]}",
		     run_extra, locks) < 0)
		fail();
	return s;
}

#define LOCK(name, kind, cont)                                                 \
	"{\"name\":\"" name "\",\"kind\":\"" kind "\",\"contentions\":" cont   \
	",\"total_ns\":1000,\"spin_ns\":1000,\"sleep_ns\":0,\"max_ns\":900,"   \
	"\"spin_won\":1,\"spin_failed\":0,\"gave_up\":0,\"begins\":1,"         \
	"\"peak_waiters\":1}"

static void test_reader_errors(void **state)
{
	char *ok = doc("", LOCK("mutex@f", "mutex", "1"));
	char *s;
	struct ls_rec r;
	char err[256];

	(void)state;
	/* written before the function-probe counters existed: they read as 0 */
	assert_int_equal(ls_rec_parse(ok, strlen(ok), &r, err, sizeof(err)), 0);
	assert_int_equal(r.totals.nlocks, 1);
	assert_int_equal(r.totals.loss[LS_LOSS_RECURSION], 0);
	assert_int_equal(r.totals.locks[0].slow_ns, 0);
	ls_rec_free(&r);

	expect_error("", "empty file");
	/* cut anywhere inside: truncated */
	for (size_t n = 1; n < strlen(ok) - 1; n += 37) {
		struct ls_rec t;

		assert_int_equal(ls_rec_parse(ok, n, &t, err, sizeof(err)),
				 -EINVAL);
		assert_non_null(strstr(err, "truncated"));
	}
	expect_error("{\"schema\": 1,,}", "malformed JSON at byte");
	expect_error("{} {}", "data after the end");
	expect_error("[1, 2]", "the file holds a JSON array, not a record");
	expect_error("{\"schema\":\"perf\"}", "not a lockscope record");
	expect_error("{\"schema\":\"lockscope-record\",\"schema_version\":2}",
		     "schema version 2 is not supported (this lockscope reads "
		     "version 1)");
	expect_error(
		"{\"schema\":\"lockscope-record\",\"schema_version\":\"1\"}",
		"schema_version: missing or not an integer");
	s = doc("", LOCK("mutex@f", "mutex", "-1"));
	expect_error(s, "totals.locks[0].contentions: missing or not a "
			"non-negative integer");
	free(s);
	s = doc("", LOCK("mutex@f", "mutex", "1") "," LOCK("x", "futex", "1"));
	expect_error(s, "totals.locks[1].kind: unknown lock kind 'futex'");
	free(s);
	/* found by the fuzzer: input echoed in an error must stay one line */
	s = doc("", LOCK("mu", "mu\\n\\u001bx", "1"));
	expect_error(s, "unknown lock kind 'mu??x'");
	free(s);
	s = doc("", LOCK("a\\tb", "mutex", "1"));
	expect_error(s, "totals.locks[0].name: empty, too long or holds "
			"control characters");
	free(s);
	s = doc("", LOCK("", "mutex", "1"));
	expect_error(s, "totals.locks[0].name");
	free(s);
	s = doc(",\"exit_status\":3", "");
	/* command null and an exit status: fine, the status is ignored */
	assert_int_equal(ls_rec_parse(s, strlen(s), &r, err, sizeof(err)), 0);
	assert_int_equal(r.exit_status, -1);
	ls_rec_free(&r);
	free(s);
	/* deeper than the reader allows */
	s = calloc(1, 200);
	memset(s, '[', 100);
	expect_error(s, "malformed JSON");
	free(s);
	free(ok);
}

/* A record with run.command @command (JSON text) and no locks. */
static char *doc_cmd(const char *command)
{
	char *extra, *s;

	if (asprintf(&extra, ",\"exit_status\":0,\"command\":%s", command) < 0)
		fail();
	s = doc(extra, "");
	free(extra);
	return s;
}

static void parse_ok(const char *json, struct ls_rec *r)
{
	char err[256] = "";

	if (ls_rec_parse(json, strlen(json), r, err, sizeof(err)))
		fail_msg("refused: %s", err);
}

/* Issue 11, item 4: files made to break the reader or the terminal.  Not
 * an object: said what it is, not "truncated". */
static void test_reader_not_object(void **state)
{
	(void)state;
	expect_error("null", "the file holds JSON null, not a record");
	expect_error("null\n", "the file holds JSON null, not a record");
	expect_error("123", "the file holds a JSON number");
	expect_error("true", "the file holds a JSON boolean");
	expect_error("\"x\"", "the file holds a JSON string");
	expect_error("nul", "truncated JSON");
	expect_error("{\"a\":", "truncated JSON");
}

/* 2^64 - 1 is the largest count; 2^64 and above are refused. */
static void test_reader_big_integers(void **state)
{
	struct ls_rec r;
	char *s;

	(void)state;
	s = doc("", LOCK("mutex@f", "mutex", "18446744073709551615"));
	parse_ok(s, &r);
	assert_true(r.totals.locks[0].contentions == UINT64_MAX);
	ls_rec_free(&r);
	free(s);
	s = doc("", LOCK("mutex@f", "mutex", "18446744073709551616"));
	expect_error(s, "is above 2^64-1 (18446744073709551615)");
	free(s);
	s = doc("", LOCK("mutex@f", "mutex", "000099999999999999999999"));
	expect_error(s, "is above 2^64-1");
	free(s);
	/* the same digits in a string are a name, not a number */
	s = doc("", LOCK("18446744073709551616", "mutex", "1"));
	parse_ok(s, &r);
	assert_string_equal(r.totals.locks[0].name, "18446744073709551616");
	ls_rec_free(&r);
	free(s);
}

/* Rows of one lock class that would add up past 2^64 - 1 (they wrapped to
 * 18446744073709551614 before), and a run's total. */
static void test_reader_sums(void **state)
{
	char *s;

	(void)state;
	s = doc("", LOCK("mutex@f", "mutex", "18446744073709551615") "," LOCK(
			    "mutex@f", "mutex", "18446744073709551615"));
	expect_error(s, "totals.locks: the contentions of the locks add up to "
			"more than 2^64-1");
	free(s);
	s = doc("", LOCK("mutex@f", "mutex", "18446744073709551615") "," LOCK(
			    "mutex@g", "mutex", "1"));
	expect_error(s, "add up to more than 2^64-1");
	free(s);
}

static void test_reader_unsafe_text(void **state)
{
	struct ls_rec r;
	char *s;

	(void)state;
	/* C1 controls (CSI as U+009B, raw 0xC2 0x9B), bidi overrides and
	 * isolates, bytes that are not UTF-8: a name is refused */
	s = doc("", LOCK("mutex@\\u009b31mx", "mutex", "1"));
	expect_error(s, "totals.locks[0].name: empty, too long or holds "
			"control characters");
	free(s);
	s = doc("", LOCK("mutex@\xc2\x9b"
			 "31m",
			 "mutex", "1"));
	expect_error(s, "holds control characters");
	free(s);
	s = doc("", LOCK("mutex@\\u202egnp.exe", "mutex", "1"));
	expect_error(s, "holds control characters");
	free(s);
	s = doc("", LOCK("mutex@\\u2066x", "mutex", "1"));
	expect_error(s, "holds control characters");
	free(s);
	s = doc("", LOCK("mutex@\xff", "mutex", "1"));
	expect_error(s, "holds control characters");
	free(s);
	/* other UTF-8 is text */
	s = doc("", LOCK("mutex@caf\xc3\xa9", "mutex", "1"));
	parse_ok(s, &r);
	assert_string_equal(r.totals.locks[0].name, "mutex@caf\xc3\xa9");
	ls_rec_free(&r);
	free(s);
	/* ... a command keeps its words, every unsafe character one '?' */
	s = doc_cmd("[\"sh\",\"-c\",\"echo \\u009b31m\\u202eevil\\u0007 "
		    "\xc2\x85\xe2\x81\xa9 caf\xc3\xa9 \xe2\x80\"]");
	parse_ok(s, &r);
	/* a sequence cut short: each of its bytes */
	assert_string_equal(r.command,
			    "sh -c echo ?31m?evil? ?? caf\xc3\xa9 ??");
	ls_rec_free(&r);
	free(s);
	/* ... a command too long for LS_REC_TEXT_MAX is cut between
	 * characters, not into a '?' */
	{
		char cmd[1024] = "[\"";

		for (int i = 0; i < 300; i++)
			strcat(cmd, "\xe2\x82\xac");
		strcat(cmd, "\"]");
		s = doc_cmd(cmd);
		parse_ok(s, &r);
		assert_int_equal(strlen(r.command), 170 * 3);
		assert_null(strchr(r.command, '?'));
		ls_rec_free(&r);
		free(s);
	}
	/* ... and what an error message echoes is made safe too */
	s = doc("", LOCK("mu", "mu\\u009bx\\u202e", "1"));
	expect_error(s, "unknown lock kind 'mu?x?'");
	free(s);
}

static void test_reader_classes(void **state)
{
	/* two locks of one name and kind, one printed with --addr */
	char *s =
		doc(",\"exit_status\":0",
		    LOCK("mutex@f [ffff888100a0b0c0]", "mutex", "2") "," LOCK(
			    "mutex@f", "mutex",
			    "3") "," LOCK("mutex@f", "rwsem:W",
					  "7") "," LOCK("a [x]", "mutex", "1"));
	const struct ls_rec_lock *l;
	struct ls_rec r;
	char err[256];

	(void)state;
	assert_int_equal(ls_rec_parse(s, strlen(s), &r, err, sizeof(err)), 0);
	assert_int_equal(r.totals.nlocks, 3);
	l = ls_rec_find(&r.totals, "mutex@f", LS_KIND_MUTEX);
	assert_non_null(l);
	assert_int_equal(l->contentions, 5);
	assert_int_equal(l->instances, 2);
	assert_int_equal(l->total_ns, 2000);
	assert_int_equal(l->max_ns, 900);
	l = ls_rec_find(&r.totals, "mutex@f", LS_KIND_RWSEM_W);
	assert_non_null(l);
	assert_int_equal(l->contentions, 7);
	/* "[x]" is not an address: the name stays */
	assert_non_null(ls_rec_find(&r.totals, "a [x]", LS_KIND_MUTEX));
	assert_true(r.duration_s == 3.5);
	ls_rec_free(&r);
	free(s);
}

#define HOLDER(pre, ten)                                                       \
	",\"holder\":{\"waits\":{\"unknown\":0,\"running\":1,"                 \
	"\"preempted\":" pre ",\"sleeping\":0,\"free\":0},"                    \
	"\"wait_ns\":{\"unknown\":0,\"running\":10,\"preempted\":90,"          \
	"\"sleeping\":0,\"free\":0},\"tenure_ns\":" ten "}}"

/* The holder object: optional, summed over a class, checked, compared. */
static void test_reader_holder(void **state)
{
	char *s = doc(",\"exit_status\":0",
		      "{\"name\":\"m\",\"kind\":\"mutex\",\"contentions\":4,"
		      "\"total_ns\":100,\"spin_ns\":0,\"sleep_ns\":100,"
		      "\"max_ns\":90,\"spin_won\":0,\"spin_failed\":0,"
		      "\"gave_up\":0,\"begins\":4,\"peak_waiters\":1" HOLDER(
			      "3", "700") "," LOCK("m", "mutex", "2"));
	char *bad = doc(",\"exit_status\":0",
			"{\"name\":\"m\",\"kind\":\"mutex\",\"contentions\":4,"
			"\"total_ns\":100,\"spin_ns\":0,\"sleep_ns\":100,"
			"\"max_ns\":90,\"spin_won\":0,\"spin_failed\":0,"
			"\"gave_up\":0,\"begins\":4,\"peak_waiters\":1" HOLDER(
				"-3", "700"));
	const struct ls_rec_lock *l;
	struct ls_stats st = {0};
	struct ls_rec r;
	char err[256];
	int found = 0;

	(void)state;
	assert_int_equal(ls_rec_parse(s, strlen(s), &r, err, sizeof(err)), 0);
	l = ls_rec_find(&r.totals, "m", LS_KIND_MUTEX);
	assert_non_null(l);
	/* the row without a holder object adds zeros */
	assert_int_equal(l->holder_waits[LS_HOLDER_PREEMPTED], 3);
	assert_int_equal(l->holder_ns[LS_HOLDER_PREEMPTED], 90);
	assert_int_equal(l->tenure_ns, 700);
	assert_int_equal(ls_snap_stats(&r.totals, &st), 0);
	for (size_t i = 0; i < st.n; i++)
		if (!strcmp(st.v[i].metric, "holder_preempted.pct")) {
			assert_true(st.v[i].v == 75.0);
			found = 1;
		}
	assert_true(found);
	ls_stats_free(&st);
	ls_rec_free(&r);
	expect_error(bad, "totals.locks[0].holder.waits.preempted: missing or "
			  "not a non-negative integer");
	free(s);
	free(bad);
}

#define CG(path, waits, ns)                                                    \
	"{\"cgroup\":\"" path "\",\"cgroup_id\":7,\"begins\":" waits           \
	",\"waits\":" waits ",\"wait_ns\":" ns ",\"max_ns\":9}"

static const struct ls_stat *stat_of(const struct ls_stats *st, const char *key)
{
	for (size_t i = 0; i < st->n; i++)
		if (!strcmp(st->v[i].key, key))
			return &st->v[i];
	return NULL;
}

/* --by cgroup records: each lock's cgroups read, summed over its
 * instances and its class, compared only when asked (compare --by
 * cgroup), checked. */
static void test_reader_cgroups(void **state)
{
	char *s = doc(
		",\"exit_status\":0",
		"{\"name\":\"m [ffff888100a0b0c0]\",\"kind\":\"mutex\","
		"\"contentions\":4,\"total_ns\":40,\"spin_ns\":0,"
		"\"sleep_ns\":40,\"max_ns\":9,\"spin_won\":0,"
		"\"spin_failed\":0,\"gave_up\":0,\"begins\":4,"
		"\"peak_waiters\":1,\"cgroups\":[" CG("/a", "3", "30") "," CG(
			"/b", "1",
			"10") "]},"
			      "{\"name\":\"m#2\",\"kind\":\"mutex\","
			      "\"contentions\":2,\"total_ns\":20,\"spin_"
			      "ns\":0,\"sleep_ns\":20,\"max_ns\":9,"
			      "\"spin_won\":0,\"spin_failed\":0,"
			      "\"gave_up\":0,\"begins\":2,\"peak_"
			      "waiters\":1,\"cgroups\":[" CG("/a", "2",
							     "20") "]}");
	char *plain = doc(",\"exit_status\":0", LOCK("m", "mutex", "2"));
	char *bad = doc(",\"exit_status\":0",
			"{\"name\":\"m\",\"kind\":\"mutex\",\"contentions\":4,"
			"\"total_ns\":40,\"spin_ns\":0,\"sleep_ns\":40,"
			"\"max_ns\":9,\"spin_won\":0,\"spin_failed\":0,"
			"\"gave_up\":0,\"begins\":4,\"peak_waiters\":1,"
			"\"cgroups\":[" CG("/a", "-3", "30") "]}");
	struct ls_stats st = {0};
	const struct ls_stat *x;
	struct ls_rec r;
	char err[256];

	(void)state;
	assert_int_equal(ls_rec_parse(s, strlen(s), &r, err, sizeof(err)), 0);
	assert_true(r.totals.has_cgroups);
	/* "m" (its address stripped) and "m#2": two locks until folded */
	assert_int_equal(r.totals.ncgs, 3);
	assert_string_equal(r.totals.cgs[0].lock, "m");
	assert_string_equal(r.totals.cgs[0].path, "/a");
	assert_int_equal(r.totals.cgs[0].waits, 3);
	/* without --by cgroup, no cgroup metric */
	assert_int_equal(ls_snap_stats(&r.totals, &st), 0);
	for (size_t i = 0; i < st.n; i++)
		assert_null(strstr(st.v[i].key, "cgroup["));
	ls_stats_free(&st);
	ls_rec_fold_classes(&r);
	assert_int_equal(r.totals.ncgs, 2);
	r.totals.by_cgroup = 1;
	assert_int_equal(ls_snap_stats(&r.totals, &st), 0);
	x = stat_of(&st, "lockscope.m(mutex).cgroup[/a].waits");
	assert_non_null(x);
	assert_true(x->v == 5 && x->events == 5);
	assert_string_equal(x->lock, "m");
	assert_int_equal(x->kind, LS_KIND_MUTEX);
	x = stat_of(&st, "lockscope.m(mutex).cgroup[/a].wait_time.total.ms");
	assert_non_null(x);
	assert_true(x->v == 50e-6);
	x = stat_of(&st, "lockscope.m(mutex).cgroup[/b].waits");
	assert_non_null(x);
	assert_true(x->v == 1);
	ls_stats_free(&st);
	ls_rec_free(&r);
	assert_int_equal(
		ls_rec_parse(plain, strlen(plain), &r, err, sizeof(err)), 0);
	assert_false(r.totals.has_cgroups);
	ls_rec_free(&r);
	expect_error(bad, "totals.locks[0].cgroups[0].waits: missing or not a "
			  "non-negative integer");
	free(s);
	free(plain);
	free(bad);
}

/* ---- names and numbers ----------------------------------------------- */

static void test_lock_id_and_numbers(void **state)
{
	char b[64];

	(void)state;
	ls_lock_id("mutex@genl_rcv_msg", LS_KIND_MUTEX, b, sizeof(b));
	assert_string_equal(b, "mutex@genl_rcv_msg");
	ls_lock_id("mmap_lock", LS_KIND_RWSEM_W, b, sizeof(b));
	assert_string_equal(b, "mmap_lock(rwsem:W)");
	ls_lock_id("rwsem@vm_mmap_pgoff", LS_KIND_RWSEM_R, b, sizeof(b));
	assert_string_equal(b, "rwsem@vm_mmap_pgoff(rwsem:R)");
	assert_string_equal(ls_fmt_num(b, sizeof(b), 12901), "12901");
	assert_string_equal(ls_fmt_num(b, sizeof(b), 0.21), "0.21");
	assert_string_equal(ls_fmt_num(b, sizeof(b), 0.0053432), "0.005343");
	assert_string_equal(ls_fmt_num(b, sizeof(b), 68.930954), "68.93");
	assert_string_equal(ls_fmt_num(b, sizeof(b), 12.3), "12.3");
	assert_string_equal(ls_fmt_num(b, sizeof(b), 0.00000012), "0.00000012");
	assert_string_equal(ls_fmt_num(b, sizeof(b), -10.0), "-10");
}

/* ---- writer round trip --------------------------------------------------- */

static void fill_snap(struct ls_snapshot *s, uint64_t mult, uint64_t mono)
{
	struct ls_lock_key k1 = {.addr = 0x1000, .kind = LS_KIND_MUTEX};
	struct ls_lock_key k2 = {.addr = 0x2000, .kind = LS_KIND_SPINLOCK};
	struct ls_row *r;

	ls_snap_clear(s);
	s->mono_ns = mono;
	s->nfuncs = 1;
	snprintf(s->func_name[0], sizeof(s->func_name[0]), "osq_lock");
	s->func_samples[0] = 123 * mult;
	s->func_samples[LS_SPIN_FUNC_OTHER] = 877 * mult;
	s->ctr[LS_CTR_BEGIN] = 110 * mult;
	s->loss[LS_LOSS_DEPTH] = mult;
	r = ls_snap_add_row(s, &k1);
	r->st.contentions = 100 * mult;
	r->st.begins = 100 * mult;
	r->st.total_ns = 21000000 * mult; /* 0.21 ms on average */
	r->st.spin_ns = 20000000 * mult;
	r->st.sleep_ns = 1000000 * mult;
	r->st.max_ns = 3000000;
	r->st.min_ns = 100;
	r->st.peak_waiters_all = 2;
	r->st.slow_ns = 25000000 * mult; /* function probes: 25 ms */
	r->st.osq_ns = 4000000 * mult;
	snprintf(r->name, sizeof(r->name), "mutex@genl_rcv_msg");
	r = ls_snap_add_row(s, &k2);
	r->st.contentions = 10 * mult;
	r->st.begins = 10 * mult;
	r->st.total_ns = 5000 * mult;
	r->st.spin_ns = 5000 * mult;
	r->st.max_ns = 900;
	/* a name a CSV reader must see quoted */
	snprintf(r->name, sizeof(r->name), "odd,\"name\"");
	ls_snap_index(s);
}

static char *print(struct json_object *d, enum ls_rec_format fmt)
{
	char *buf = NULL, err[256];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(ls_record_print(f, d, fmt, err, sizeof(err)), 0);
	fclose(f);
	return buf;
}

struct fixture;
static char *write_rec(struct fixture *x, enum ls_rec_format fmt);

struct fixture {
	char *json; /* the record as ls_record_write streams it */
	struct ls_snapshot start, mid, end, d;
	struct ls_series series;
	struct ls_collector_opts col;
	struct ls_source src[1];
	struct ls_filter filter;
	struct ls_rec_meta m;
	char *argv[4];
	struct json_object *doc;
};

static int setup(void **state)
{
	struct fixture *x = calloc(1, sizeof(*x));
	const char *dir;

	assert_non_null(x);
	x->col.sample_hz = 99;
	x->col.stack_every = 64;
	x->argv[0] = "stress-ng";
	x->argv[1] = "--netlink-task";
	x->argv[2] = "2";
	snprintf(x->src[0].name, sizeof(x->src[0].name), "tracepoints");
	x->src[0].available = x->src[0].active = 1;
	x->m = (struct ls_rec_meta){
		.version = "lockscope test",
		.kernel_release = "6.18.0",
		.kernel_version = "#1",
		.machine = "x86_64",
		.cpus = 2,
		.started = 0,
		.ls_argv = x->argv,
		.ls_argc = 3,
		.argv = x->argv,
		.argc = 3,
		.exit_status = 7,
		.duration_s = 2.0,
		.interval_s = 1.0,
		.src = x->src,
		.nsrc = 1,
		.col = &x->col,
		.filter = &x->filter,
	};
	ls_snap_init(&x->start);
	ls_snap_init(&x->mid);
	ls_snap_init(&x->end);
	ls_snap_init(&x->d);
	fill_snap(&x->start, 1, 1000000000ULL);
	fill_snap(&x->mid, 3, 2000000000ULL);
	fill_snap(&x->end, 4, 3000000000ULL);
	/* the spinlock's name changes at the end: the series follows it */
	snprintf(ls_snap_find(&x->end,
			      &(struct ls_lock_key){.addr = 0x2000,
						    .kind = LS_KIND_SPINLOCK})
			 ->name,
		 LS_NAME_MAX, "spinlock@final");
	ls_series_init(&x->series);
	assert_int_equal(ls_series_open(&x->series, &dir), 0);
	assert_string_equal(dir, getenv("TMPDIR") && *getenv("TMPDIR")
					 ? getenv("TMPDIR")
					 : "/tmp");
	assert_int_equal(ls_snap_delta(&x->mid, &x->start, &x->d), 0);
	assert_int_equal(ls_series_add(&x->series, &x->d, 1.0, 1.0, 0), 0);
	assert_int_equal(ls_snap_delta(&x->end, &x->mid, &x->d), 0);
	assert_int_equal(ls_series_add(&x->series, &x->d, 2.0, 1.0, 0), 0);
	assert_int_equal(ls_snap_delta(&x->end, &x->start, &x->d), 0);
	x->json = write_rec(x, LS_REC_JSON);
	x->doc = json_tokener_parse(x->json);
	assert_non_null(x->doc);
	*state = x;
	return 0;
}

/* The record of @x in @fmt, as `record` writes it: the intervals read
 * back from the series' scratch file, named after the end. */
static char *write_rec(struct fixture *x, enum ls_rec_format fmt)
{
	char *buf = NULL, err[256];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(ls_record_write(f, &x->m, &x->d, &x->series, &x->end,
					 &x->filter, fmt, err, sizeof(err)),
			 0);
	fclose(f);
	return buf;
}

static int teardown(void **state)
{
	struct fixture *x = *state;

	json_object_put(x->doc);
	free(x->json);
	ls_series_free(&x->series);
	ls_snap_free(&x->start);
	ls_snap_free(&x->mid);
	ls_snap_free(&x->end);
	ls_snap_free(&x->d);
	free(x);
	return 0;
}

static void test_json_round_trip(void **state)
{
	struct fixture *x = *state;
	char *s = strdup(x->json), *whole = print(x->doc, LS_REC_JSON),
	     err[256];
	const struct ls_rec_lock *l;
	uint64_t sum = 0;
	struct ls_rec r;

	/* the stream is what json-c prints for the whole document */
	assert_string_equal(s, whole);
	free(whole);
	assert_int_equal(ls_rec_parse(s, strlen(s), &r, err, sizeof(err)), 0);
	assert_int_equal(r.version, 1);
	assert_string_equal(r.kernel, "6.18.0");
	assert_string_equal(r.command, "stress-ng --netlink-task 2");
	assert_int_equal(r.exit_status, 7);
	assert_true(r.interval_s == 1.0);
	/* totals are end - start: 3x the start values */
	l = ls_rec_find(&r.totals, "mutex@genl_rcv_msg", LS_KIND_MUTEX);
	assert_non_null(l);
	assert_int_equal(l->contentions, 300);
	assert_int_equal(r.totals.loss[LS_LOSS_DEPTH], 3);
	assert_int_equal(r.totals.samples, 3000);
	assert_int_equal(r.nintervals, 2);
	/* intervals 2x and 1x: they sum to the totals, under the final name */
	for (size_t i = 0; i < r.nintervals; i++) {
		l = ls_rec_find(&r.intervals[i], "spinlock@final",
				LS_KIND_SPINLOCK);
		assert_non_null(l);
		sum += l->contentions;
	}
	assert_int_equal(sum, 30);
	assert_int_equal(
		ls_rec_find(&r.totals, "spinlock@final", LS_KIND_SPINLOCK)
			->contentions,
		30);
	assert_true(r.intervals[1].t_s == 2.0);
	ls_rec_free(&r);
	free(s);
}

/* compare names a metric as the lkp line does, with "lockscope." first */
static void test_lkp_compare_names(void **state)
{
	struct fixture *x = *state;
	char *s = write_rec(x, LS_REC_LKP), err[256], line[LS_KEY_MAX + 4];
	struct ls_stats st = {0};
	struct ls_rec r;

	assert_int_equal(ls_rec_from_json(x->doc, &r, err, sizeof(err)), 0);
	assert_int_equal(ls_snap_stats(&r.totals, &st), 0);
	assert_true(st.n > 10);
	for (size_t i = 0; i < st.n; i++) {
		const char *k = st.v[i].key;

		assert_true(!strncmp(k, LS_METRIC_PREFIX,
				     strlen(LS_METRIC_PREFIX)));
		snprintf(line, sizeof(line),
			 "\n%s: ", k + strlen(LS_METRIC_PREFIX));
		assert_non_null(strstr(s, line));
	}
	ls_stats_free(&st);
	ls_rec_free(&r);
	free(s);
}

static void test_lkp(void **state)
{
	struct fixture *x = *state;
	char *s = write_rec(x, LS_REC_LKP), *doc = print(x->doc, LS_REC_LKP);
	const char *t1, *t2;

	/* read back from the stream as from the whole document */
	assert_string_equal(s, doc);
	free(doc);

	/* 3 * 21 ms / 300 contentions = 0.21 ms; 369 of 3000 samples */
	assert_non_null(
		strstr(s, "\nmutex@genl_rcv_msg.wait_time.avg.ms: 0.21\n"));
	assert_non_null(strstr(s, "\nmutex@genl_rcv_msg.contentions: 300\n"));
	assert_non_null(
		strstr(s, "\nmutex@genl_rcv_msg.sleep_time.total.ms: 3\n"));
	assert_non_null(strstr(s, "\nspin_share.osq_lock: 12.3\n"));
	assert_non_null(strstr(s, "\nloss.nesting_too_deep: 3\n"));
	assert_non_null(strstr(s, "\nloss.skipped_by_kernel_nested: 0\n"));
	assert_non_null(
		strstr(s, "\nmutex@genl_rcv_msg.slow_path.total.ms: 75\n"));
	assert_non_null(
		strstr(s, "\nmutex@genl_rcv_msg.osq_time.total.ms: 12\n"));
	/* no probe metrics for a lock the probes never saw */
	assert_null(strstr(s, "spinlock@final.slow_path"));
	assert_non_null(strstr(s, "\nrun.exit_status: 7\n"));
	/* spinlocks only spin: no spin/sleep split */
	assert_null(strstr(s, "spinlock@final(spinlock).sleep_time"));
	assert_non_null(strstr(s, "\nspinlock@final.contentions: 30\n"));
	/* no "lockscope." prefix: lkp-tests adds it to every key */
	assert_null(strstr(s, "lockscope."));
	assert_true(!strncmp(s, "run.duration_s: ", 16));
	/* the series after the totals: one block per interval, opened by
	 * its end in seconds from the start; 200 + 100 = 300 contentions */
	t1 = strstr(s, "\ntime: 1\nrun.duration_s: 1\n");
	assert_non_null(t1);
	t2 = strstr(t1, "\ntime: 2\nrun.duration_s: 1\n");
	assert_non_null(t2);
	assert_true(strstr(s, "\nmutex@genl_rcv_msg.contentions: 300\n") < t1);
	assert_non_null(strstr(t1, "\nmutex@genl_rcv_msg.contentions: 200\n"));
	assert_non_null(strstr(t2, "\nmutex@genl_rcv_msg.contentions: 100\n"));
	/* every line is "key: value" */
	for (char *line = s; *line;) {
		char *nl = strchr(line, '\n');

		assert_non_null(nl);
		*nl = '\0';
		assert_non_null(strstr(line, ": "));
		assert_null(strchr(strstr(line, ": ") + 2, ' '));
		line = nl + 1;
	}
	free(s);
}

static void test_csv(void **state)
{
	struct fixture *x = *state;
	char *s = write_rec(x, LS_REC_CSV), *doc = print(x->doc, LS_REC_CSV);
	int lines = 0;

	assert_string_equal(s, doc);
	free(doc);

	assert_true(!strncmp(s, "interval,t_s,duration_s,lock,kind,", 34));
	for (char *p = s; *p; p++)
		lines += *p == '\n';
	/* header, totals (2 locks), interval 1 (2), interval 2 (2) */
	assert_int_equal(lines, 7);
	assert_non_null(strstr(
		s, "\n1,1.000000,1.000000,mutex@genl_rcv_msg,mutex,1,200,"));
	assert_non_null(strstr(
		s, "\n2,2.000000,1.000000,spinlock@final,spinlock,1,10,"));
	free(s);
}

static void test_series_filter(void **state)
{
	struct fixture *x = *state;
	struct json_object *doc, *ivs, *locks;
	char *s;

	/* -L final: matches the name the lock has at the end only */
	x->filter.name = "final";
	s = write_rec(x, LS_REC_JSON);
	x->filter.name = NULL;
	doc = json_tokener_parse(s);
	assert_non_null(doc);
	assert_true(json_object_object_get_ex(doc, "intervals", &ivs));
	assert_int_equal(json_object_array_length(ivs), 2);
	assert_true(json_object_object_get_ex(json_object_array_get_idx(ivs, 0),
					      "locks", &locks));
	assert_int_equal(json_object_array_length(locks), 1);
	assert_string_equal(
		json_object_get_string(json_object_object_get(
			json_object_array_get_idx(locks, 0), "name")),
		"spinlock@final");
	/* the spill's keys stay in the spill */
	assert_null(strstr(s, "_keys"));
	json_object_put(doc);
	free(s);
}

/* ---- atomic output --------------------------------------------------- */

static void test_outfile(void **state)
{
	char dir[] = "/tmp/ls-test-out.XXXXXX", path[64], buf[64];
	struct ls_out o;
	FILE *f;
	int n = 0;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/rec.json", dir);
	/* the old file stays whole until the new one is complete */
	f = fopen(path, "w");
	fputs("old\n", f);
	fclose(f);
	assert_int_equal(ls_out_open(&o, path), 0);
	fputs("new\n", o.f);
	f = fopen(path, "r");
	assert_non_null(fgets(buf, sizeof(buf), f));
	fclose(f);
	assert_string_equal(buf, "old\n");
	assert_int_equal(ls_out_commit(&o), 0);
	f = fopen(path, "r");
	assert_non_null(fgets(buf, sizeof(buf), f));
	fclose(f);
	assert_string_equal(buf, "new\n");
	/* abort: the temporary file goes, the old file stays */
	assert_int_equal(ls_out_open(&o, path), 0);
	fputs("half", o.f);
	ls_out_abort(&o);
	f = fopen(path, "r");
	assert_non_null(fgets(buf, sizeof(buf), f));
	fclose(f);
	assert_string_equal(buf, "new\n");
	snprintf(buf, sizeof(buf), "ls -A %s | wc -l", dir);
	f = popen(buf, "r");
	assert_int_equal(fscanf(f, "%d", &n), 1);
	pclose(f);
	assert_int_equal(n, 1); /* no temporary file left */
	/* a directory that does not exist fails at open, before any work */
	snprintf(path, sizeof(path), "%s/no/such/dir.json", dir);
	assert_int_equal(ls_out_open(&o, path), -ENOENT);
	snprintf(path, sizeof(path), "%s/rec.json", dir);
	unlink(path);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reader_errors),
		cmocka_unit_test(test_reader_not_object),
		cmocka_unit_test(test_reader_big_integers),
		cmocka_unit_test(test_reader_sums),
		cmocka_unit_test(test_reader_unsafe_text),
		cmocka_unit_test(test_reader_classes),
		cmocka_unit_test(test_reader_holder),
		cmocka_unit_test(test_reader_cgroups),
		cmocka_unit_test(test_lock_id_and_numbers),
		cmocka_unit_test_setup_teardown(test_json_round_trip, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_lkp, setup, teardown),
		cmocka_unit_test_setup_teardown(test_lkp_compare_names, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_csv, setup, teardown),
		cmocka_unit_test_setup_teardown(test_series_filter, setup,
						teardown),
		cmocka_unit_test(test_outfile),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
