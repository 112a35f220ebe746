// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Unit tests of the Prometheus/OpenMetrics exporter and --listen parsing. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <cmocka.h>
#include <errno.h>
#include "export/prom.h"
#include "export/prom_cgroup.h"
#include "model/hist.h"
#include "serve/netaddr.h"

static struct ls_row *add(struct ls_snapshot *s, uint64_t addr, unsigned kind,
			  const char *name, const char *caller,
			  uint64_t contentions, uint64_t total_ns)
{
	struct ls_lock_key k = {.addr = addr, .kind = kind};
	struct ls_row *r = ls_snap_add_row(s, &k);

	assert_non_null(r);
	snprintf(r->name, sizeof(r->name), "%s", name);
	if (caller)
		ls_row_add_caller(r, caller, 1);
	r->st.contentions = contentions;
	r->st.total_ns = total_ns;
	r->st.min_ns = ~0ULL;
	r->hi.hist[ls_hist_slot(total_ns / (contentions ? contentions : 1))] =
		contentions;
	return r;
}

static char *render(const struct ls_prom *p, const struct ls_snapshot *cur,
		    const struct ls_snapshot *prev, enum ls_prom_format fmt)
{
	struct ls_prom_meta m = {.version = "test", .interval_s = 1};
	char *buf;
	size_t len;

	assert_int_equal(ls_prom_render(&buf, &len, p, cur, prev, &m, fmt), 0);
	assert_int_equal(strlen(buf), len);
	return buf;
}

/* Value of the sample whose line starts with @prefix + " ", or -1. */
static double value(const char *text, const char *prefix)
{
	size_t n = strlen(prefix);

	for (const char *l = text; l && *l;
	     l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
		if (!strncmp(l, prefix, n) && l[n] == ' ')
			return strtod(l + n + 1, NULL);
	return -1;
}

static size_t count_lines(const char *text, const char *prefix)
{
	size_t n = 0, pl = strlen(prefix);

	for (const char *l = text; l && *l;
	     l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
		if (!strncmp(l, prefix, pl))
			n++;
	return n;
}

#define A "lock=\"mutex@genl_rcv_msg\",kind=\"mutex\",caller=\"genl_rcv_msg\""

static void test_histogram_buckets(void **state)
{
	struct ls_snapshot s;
	struct ls_prom p;
	struct ls_row *r;
	char *t;

	(void)state;
	ls_snap_init(&s);
	r = add(&s, 0xffff888001234560ULL, LS_KIND_MUTEX, "mutex@genl_rcv_msg",
		"genl_rcv_msg", 0, 0);
	memset(r->hi.hist, 0, sizeof(r->hi.hist));
	r->hi.hist[5] = 3;  /* 32..63 ns */
	r->hi.hist[9] = 2;  /* 512..1023 ns */
	r->hi.hist[20] = 1; /* 1.05..2.1 ms */
	r->hi.hist[31] = 1; /* >= 2.1 s */
	r->st.contentions = 7;
	r->st.total_ns = 3000000000ULL;
	ls_snap_index(&s);
	ls_prom_init(&p, 10, 0, 1);
	assert_int_equal(ls_prom_update(&p, &s, NULL), 0);
	t = render(&p, &s, NULL, LS_PROM_TEXT);
	assert_true(value(t, "lockscope_lock_wait_seconds_bucket{" A
			     ",le=\"2.56e-07\"}") == 3);
	assert_true(value(t, "lockscope_lock_wait_seconds_bucket{" A
			     ",le=\"1.024e-06\"}") == 5);
	assert_true(value(t, "lockscope_lock_wait_seconds_bucket{" A
			     ",le=\"0.001048576\"}") == 5);
	assert_true(value(t, "lockscope_lock_wait_seconds_bucket{" A
			     ",le=\"0.004194304\"}") == 6);
	assert_true(value(t, "lockscope_lock_wait_seconds_bucket{" A
			     ",le=\"1.073741824\"}") == 6);
	assert_true(value(t, "lockscope_lock_wait_seconds_bucket{" A
			     ",le=\"+Inf\"}") == 7);
	assert_true(value(t, "lockscope_lock_wait_seconds_count{" A "}") == 7);
	assert_true(value(t, "lockscope_lock_wait_seconds_sum{" A "}") == 3.0);
	/* 12 finite buckets (256 ns .. 1.07 s, factor 4) and +Inf */
	assert_int_equal(count_lines(t, "lockscope_lock_wait_seconds_bucket{"),
			 13);
	assert_non_null(
		strstr(t, "# TYPE lockscope_lock_wait_seconds histogram\n"));
	assert_non_null(
		strstr(t, "# TYPE lockscope_lock_contentions_total counter\n"));
	assert_null(strstr(t, "# EOF"));
	free(t);
	ls_prom_free(&p);
	ls_snap_free(&s);
}

/* Holder states as a label, tenure in seconds, summed like the rest. */
static void test_holder_series(void **state)
{
	struct ls_snapshot s;
	struct ls_prom p;
	struct ls_row *r;
	char *t;

	(void)state;
	ls_snap_init(&s);
	r = add(&s, 0x1000, LS_KIND_MUTEX, "mutex@genl_rcv_msg", "genl_rcv_msg",
		5, 5000);
	r->st.holder_waits[LS_HOLDER_PREEMPTED] = 2;
	r->st.holder_waits[LS_HOLDER_RUNNING] = 2;
	r->st.holder_waits[LS_HOLDER_VCPU_PREEMPTED] = 1;
	r->st.holder_ns[LS_HOLDER_PREEMPTED] = 1500000000ULL;
	s.steal.ncpus = 2; /* steal since start: 1 s on cpu1 */
	s.steal.cpu[1] = s.steal.total = (uint64_t)sysconf(_SC_CLK_TCK);
	r->st.tenure_ns = 250000000ULL;
	ls_snap_index(&s);
	ls_prom_init(&p, 10, 0, 1);
	assert_int_equal(ls_prom_update(&p, &s, NULL), 0);
	t = render(&p, &s, NULL, LS_PROM_TEXT);
	assert_true(value(t, "lockscope_lock_holder_waits_total{" A
			     ",holder_state=\"preempted\"}") == 2);
	assert_true(value(t, "lockscope_lock_holder_waits_total{" A
			     ",holder_state=\"running\"}") == 2);
	assert_true(value(t, "lockscope_lock_holder_waits_total{" A
			     ",holder_state=\"vcpu-preempted\"}") == 1);
	assert_true(value(t, "lockscope_cpu_steal_seconds_total{cpu=\"0\"}") ==
		    0);
	assert_true(value(t, "lockscope_cpu_steal_seconds_total{cpu=\"1\"}") ==
		    1);
	assert_true(value(t, "lockscope_lock_holder_waits_total{" A
			     ",holder_state=\"sleeping\"}") == 0);
	assert_true(value(t, "lockscope_lock_holder_wait_seconds_total{" A
			     ",holder_state=\"preempted\"}") == 1.5);
	assert_true(value(t, "lockscope_lock_tenure_seconds_total{" A "}") ==
		    0.25);
	assert_int_equal(count_lines(t, "lockscope_lock_holder_waits_total{"),
			 LS_HOLDER_MAX);
	free(t);
	ls_prom_free(&p);
	ls_snap_free(&s);
}

static void test_max_series_sticky_other(void **state)
{
	struct ls_snapshot s;
	struct ls_prom p;
	struct ls_row *r;
	double other1, other2;
	char *t;

	(void)state;
	ls_snap_init(&s);
	add(&s, 0x1000, LS_KIND_MUTEX, "mutex@a", "a", 30, 300);
	add(&s, 0x2000, LS_KIND_MUTEX, "mutex@b", "b", 20, 200);
	add(&s, 0x3000, LS_KIND_MUTEX, "mutex@c", "c", 10, 100);
	add(&s, 0x4000, LS_KIND_SPINLOCK, "spinlock@d", "d", 5, 50);
	ls_snap_index(&s);
	ls_prom_init(&p, 2, 0, 1);
	assert_int_equal(ls_prom_update(&p, &s, NULL), 0);
	assert_int_equal(p.nseries, 2);
	t = render(&p, &s, NULL, LS_PROM_TEXT);
	/* the two largest by total wait get their own series */
	assert_true(value(t, "lockscope_lock_contentions_total{lock=\"mutex@"
			     "a\",kind=\"mutex\",caller=\"a\"}") == 30);
	assert_true(value(t, "lockscope_lock_contentions_total{lock=\"mutex@"
			     "b\",kind=\"mutex\",caller=\"b\"}") == 20);
	assert_int_equal(
		count_lines(
			t, "lockscope_lock_contentions_total{lock=\"mutex@c\""),
		0);
	/* the rest summed into lock="other" of their kind */
	other1 = value(t, "lockscope_lock_contentions_total{lock=\"other\","
			  "kind=\"mutex\",caller=\"other\"}");
	assert_true(other1 == 10);
	assert_true(value(t, "lockscope_lock_contentions_total{lock=\"other\","
			     "kind=\"spinlock\",caller=\"other\"}") == 5);
	assert_true(value(t, "lockscope_locks{series=\"other\"}") == 2);
	free(t);

	/* c overtakes everyone: it stays in "other", which only grows */
	r = ls_snap_find(&s, &(struct ls_lock_key){.addr = 0x3000,
						   .kind = LS_KIND_MUTEX});
	r->st.contentions = 1000;
	r->st.total_ns = 100000;
	add(&s, 0x5000, LS_KIND_MUTEX, "mutex@e", "e", 7, 1e9);
	ls_snap_index(&s);
	assert_int_equal(ls_prom_update(&p, &s, NULL), 0);
	t = render(&p, &s, NULL, LS_PROM_TEXT);
	other2 = value(t, "lockscope_lock_contentions_total{lock=\"other\","
			  "kind=\"mutex\",caller=\"other\"}");
	assert_true(other2 == 1007);
	assert_true(other2 >= other1);
	assert_int_equal(count_lines(t, "lockscope_lock_contentions_total{"),
			 4);
	free(t);
	ls_prom_free(&p);
	ls_snap_free(&s);
}

static double contentions_of(const char *t, const char *lock)
{
	char key[200];

	snprintf(key, sizeof(key),
		 "lockscope_lock_contentions_total{lock=\"%s\",kind=\"mutex\","
		 "caller=\"%s\"}",
		 lock, strchr(lock, '@') ? strchr(lock, '@') + 1 : "other");
	return value(t, key);
}

static void grow(struct ls_snapshot *s, uint64_t addr, uint64_t dc,
		 uint64_t dns)
{
	struct ls_row *r = ls_snap_find(
		s, &(struct ls_lock_key){.addr = addr, .kind = LS_KIND_MUTEX});

	assert_non_null(r);
	r->st.contentions += dc;
	r->st.total_ns += dns;
	r->hi.hist[ls_hist_slot(dns / dc)] += dc;
}

static void test_promotion_keeps_counters_monotonic(void **state)
{
	struct ls_snapshot s;
	struct ls_prom p;
	char *t;

	(void)state;
	ls_snap_init(&s);
	add(&s, 0x1000, LS_KIND_MUTEX, "mutex@a", "a", 30, 300);
	add(&s, 0x2000, LS_KIND_MUTEX, "mutex@b", "b", 20, 200);
	add(&s, 0x3000, LS_KIND_MUTEX, "mutex@c", "c", 10, 100);
	ls_snap_index(&s);
	ls_prom_init(&p, 2, 0, 1);
	p.min_age = 0; /* series may give way at once */
	assert_int_equal(ls_prom_update(&p, &s, NULL), 0);
	t = render(&p, &s, NULL, LS_PROM_TEXT);
	assert_true(contentions_of(t, "other") == 10);
	free(t);

	/* c becomes the hottest lock: it takes the place of b, the weakest */
	grow(&s, 0x3000, 5, 10000);
	assert_int_equal(ls_prom_update(&p, &s, NULL), 0);
	assert_int_equal(p.promoted, 1);
	assert_int_equal(p.demoted, 1);
	t = render(&p, &s, NULL, LS_PROM_TEXT);
	assert_true(contentions_of(t, "mutex@a") == 30);
	assert_true(contentions_of(t, "mutex@b") == -1); /* series ended */
	assert_true(contentions_of(t, "mutex@c") ==
		    0);				       /* new increments only */
	assert_true(contentions_of(t, "other") == 15); /* c's past stays */
	assert_true(value(t, "lockscope_lock_series_changes_total{change="
			     "\"promoted\"}") == 1);
	free(t);

	/* later increments land in c's series and, for b, in "other" */
	grow(&s, 0x3000, 1, 1000);
	grow(&s, 0x2000, 2, 50);
	assert_int_equal(ls_prom_update(&p, &s, NULL), 0);
	t = render(&p, &s, NULL, LS_PROM_TEXT);
	assert_true(contentions_of(t, "mutex@c") == 1);
	assert_true(contentions_of(t, "other") == 17);
	assert_true(value(t, "lockscope_lock_wait_seconds_count{lock=\"other\","
			     "kind=\"mutex\",caller=\"other\"}") == 17);
	assert_int_equal(p.promoted, 1); /* b is not twice as hot as c */
	free(t);
	ls_prom_free(&p);
	ls_snap_free(&s);
}

static void test_same_labels_share_a_series(void **state)
{
	struct ls_snapshot s;
	struct ls_prom p;
	char *t;

	(void)state;
	ls_snap_init(&s);
	add(&s, 0x1000, LS_KIND_MUTEX, "mutex@genl_rcv_msg", "genl_rcv_msg", 3,
	    30);
	add(&s, 0x2000, LS_KIND_MUTEX, "mutex@genl_rcv_msg", "genl_rcv_msg", 4,
	    40);
	ls_snap_index(&s);
	ls_prom_init(&p, 10, 0, 1);
	assert_int_equal(ls_prom_update(&p, &s, NULL), 0);
	assert_int_equal(p.nseries, 1);
	assert_int_equal(p.series[0].nlocks, 2);
	t = render(&p, &s, NULL, LS_PROM_TEXT);
	/* never two samples with one label set */
	assert_int_equal(count_lines(t, "lockscope_lock_contentions_total{"),
			 1);
	assert_true(value(t, "lockscope_lock_contentions_total{" A "}") == 7);
	assert_true(value(t, "lockscope_lock_wait_seconds_count{" A "}") == 7);
	free(t);
	ls_prom_free(&p);

	/* with --addr each lock is its own series, the address a label */
	ls_prom_init(&p, 10, 1, 1);
	assert_int_equal(ls_prom_update(&p, &s, NULL), 0);
	assert_int_equal(p.nseries, 2);
	t = render(&p, &s, NULL, LS_PROM_TEXT);
	assert_true(value(t, "lockscope_lock_contentions_total{" A
			     ",addr=\"1000\"}") == 3);
	assert_true(value(t, "lockscope_lock_contentions_total{" A
			     ",addr=\"2000\"}") == 4);
	free(t);
	ls_prom_free(&p);
	ls_snap_free(&s);
}

static void test_no_address_unless_asked(void **state)
{
	struct ls_snapshot s;
	struct ls_prom p;
	char *t;

	(void)state;
	ls_snap_init(&s);
	add(&s, 0xffff88800abcdef0ULL, LS_KIND_RWSEM_W, "mmap_lock", "do_mmap",
	    2, 20);
	ls_snap_index(&s);
	ls_prom_init(&p, 10, 0, 1);
	assert_int_equal(ls_prom_update(&p, &s, NULL), 0);
	t = render(&p, &s, NULL, LS_PROM_TEXT);
	assert_null(strstr(t, "abcdef0"));
	assert_null(strstr(t, "addr="));
	assert_true(value(t,
			  "lockscope_lock_contentions_total{lock=\"mmap_"
			  "lock\",kind=\"rwsem:W\",caller=\"do_mmap\"}") == 2);
	free(t);
	ls_prom_free(&p);
	ls_prom_init(&p, 10, 1, 1);
	assert_int_equal(ls_prom_update(&p, &s, NULL), 0);
	t = render(&p, &s, NULL, LS_PROM_TEXT);
	assert_non_null(strstr(t, "addr=\"ffff88800abcdef0\""));
	free(t);
	ls_prom_free(&p);
	ls_snap_free(&s);
}

static void test_pending_until_caller(void **state)
{
	struct ls_snapshot s;
	struct ls_prom p;
	struct ls_row *r;
	char *t;

	(void)state;
	ls_snap_init(&s);
	add(&s, 0x1000, LS_KIND_MUTEX, "mutex@?", NULL, 1, 10);
	add(&s, 0x2000, LS_KIND_SPINLOCK, "spinlock@?", NULL, 1, 10);
	ls_snap_index(&s);
	ls_prom_init(&p, 10, 0, 1);
	assert_int_equal(ls_prom_update(&p, &s, NULL), 0);
	assert_int_equal(p.nseries, 0);
	assert_int_equal(p.npending, 2);
	/* the mutex's first stack arrives: exported with its caller */
	r = ls_snap_find(&s, &(struct ls_lock_key){.addr = 0x1000,
						   .kind = LS_KIND_MUTEX});
	ls_row_add_caller(r, "pipe_write", 1);
	snprintf(r->name, sizeof(r->name), "mutex@pipe_write");
	assert_int_equal(ls_prom_update(&p, &s, NULL), 0);
	assert_int_equal(p.nseries, 1);
	assert_int_equal(p.npending, 1);
	/* the spinlock never gets one: exported as it is after 3 rounds */
	assert_int_equal(ls_prom_update(&p, &s, NULL), 0);
	assert_int_equal(p.npending, 0);
	t = render(&p, &s, NULL, LS_PROM_OPENMETRICS);
	assert_true(
		value(t, "lockscope_lock_contentions_total{lock=\"mutex@pipe_"
			 "write\",kind=\"mutex\",caller=\"pipe_write\"}") == 1);
	assert_true(value(t, "lockscope_lock_contentions_total{lock=\"spinlock@"
			     "?\",kind=\"spinlock\",caller=\"unknown\"}") == 1);
	free(t);
	ls_prom_free(&p);
	ls_snap_free(&s);
}

static void test_probe_counters_only_with_probes(void **state)
{
	struct ls_prom_meta m = {.version = "t", .interval_s = 1};
	struct ls_snapshot s;
	struct ls_prom p;
	struct ls_row *r;
	char *t;
	size_t len;

	(void)state;
	ls_snap_init(&s);
	r = add(&s, 0x1000, LS_KIND_MUTEX, "mutex@genl_rcv_msg", "genl_rcv_msg",
		3, 30);
	r->st.osq_ns = 1500000000ULL;
	r->st.osq_calls = 4;
	r->st.osq_bailouts = 1;
	r->st.slow_ns = 2500000000ULL;
	r->st.slow_calls = 5;
	ls_prom_init(&p, 10, 0, 1);
	assert_int_equal(ls_prom_update(&p, &s, NULL), 0);
	assert_int_equal(
		ls_prom_render(&t, &len, &p, &s, NULL, &m, LS_PROM_TEXT), 0);
	assert_null(strstr(t, "lockscope_lock_osq"));
	assert_null(strstr(t, "lockscope_lock_slowpath"));
	free(t);
	m.probes = 1;
	assert_int_equal(
		ls_prom_render(&t, &len, &p, &s, NULL, &m, LS_PROM_TEXT), 0);
	assert_true(value(t, "lockscope_lock_osq_seconds_total{" A "}") == 1.5);
	assert_true(value(t, "lockscope_lock_osq_calls_total{" A "}") == 4);
	assert_true(value(t, "lockscope_lock_osq_bailouts_total{" A "}") == 1);
	assert_true(value(t, "lockscope_lock_slowpath_seconds_total{" A "}") ==
		    2.5);
	assert_true(value(t, "lockscope_lock_slowpath_calls_total{" A "}") ==
		    5);
	free(t);
	ls_prom_free(&p);
	ls_snap_free(&s);
}

/* bail-outs with the previous vCPU preempted: a counter where the flag was
 * read, absent (not 0) where it was not */
static void test_osq_vcpu_preempted_only_when_known(void **state)
{
	struct ls_prom_meta m = {.version = "t", .interval_s = 1, .probes = 1};
	const char *n =
		"lockscope_lock_osq_bailouts_vcpu_preempted_total{" A "}";
	struct ls_snapshot s;
	struct ls_prom p;
	struct ls_row *r;
	char *t;
	size_t len;

	(void)state;
	ls_snap_init(&s);
	r = add(&s, 0x1000, LS_KIND_MUTEX, "mutex@genl_rcv_msg", "genl_rcv_msg",
		3, 30);
	r->st.osq_calls = 9;
	r->st.osq_bailouts = 5;
	r->osq_prev_read = 4;
	r->osq_prev_preempted = 3;
	ls_prom_init(&p, 10, 0, 1);
	assert_int_equal(ls_prom_update(&p, &s, NULL), 0);
	assert_int_equal(
		ls_prom_render(&t, &len, &p, &s, NULL, &m, LS_PROM_TEXT), 0);
	assert_null(strstr(t, "lockscope_lock_osq_bailouts_vcpu_preempted"));
	free(t);
	s.rows[0].osq_vcpu_known = 1;
	assert_int_equal(
		ls_prom_render(&t, &len, &p, &s, NULL, &m, LS_PROM_TEXT), 0);
	assert_true(value(t, n) == 3);
	free(t);
	/* a counter: the next update adds the increase */
	s.rows[0].osq_prev_preempted = 7;
	assert_int_equal(ls_prom_update(&p, &s, NULL), 0);
	assert_int_equal(
		ls_prom_render(&t, &len, &p, &s, NULL, &m, LS_PROM_TEXT), 0);
	assert_true(value(t, n) == 7);
	free(t);
	ls_prom_free(&p);
	ls_snap_free(&s);
}

static void test_escaping(void **state)
{
	struct ls_snapshot s;
	struct ls_prom p;
	char *t;

	(void)state;
	ls_snap_init(&s);
	add(&s, 0x1000, LS_KIND_MUTEX, "we\"ird\\na\nme", "c", 1, 10);
	ls_snap_index(&s);
	ls_prom_init(&p, 10, 0, 1);
	assert_int_equal(ls_prom_update(&p, &s, NULL), 0);
	t = render(&p, &s, NULL, LS_PROM_TEXT);
	assert_non_null(strstr(t, "{lock=\"we\\\"ird\\\\na\\nme\",kind="
				  "\"mutex\",caller=\"c\"} 1\n"));
	free(t);
	ls_prom_free(&p);
	ls_snap_free(&s);
}

/* Issue 11 item 12: every reason and event label value is one clean
 * snake_case word ("skipped_by_kernel_nested", not
 * "skipped_by_kernel__nested_"), and there is one per loss and counter. */
static void test_snake_case_labels(void **state)
{
	static const char *const labels[] = {"{reason=\"", "{event=\""};
	struct ls_snapshot s;
	struct ls_prom p;
	size_t n[2] = {0, 0};
	char *t;

	(void)state;
	ls_snap_init(&s);
	s.loss[LS_LOSS_RECURSION] = 3;
	ls_prom_init(&p, 10, 0, 1);
	assert_int_equal(ls_prom_update(&p, &s, NULL), 0);
	t = render(&p, &s, NULL, LS_PROM_TEXT);
	assert_non_null(strstr(t, "lockscope_losses_total{reason=\""
				  "skipped_by_kernel_nested\"} 3\n"));
	assert_non_null(strstr(t, "{event=\"spin_to_sleep\"}"));
	assert_non_null(strstr(t, "{event=\"osq_lock_bail_outs\"}"));
	for (int k = 0; k < 2; k++) {
		for (const char *v = strstr(t, labels[k]); v;
		     v = strstr(v, labels[k])) {
			size_t len;

			v += strlen(labels[k]);
			len = strcspn(v, "\"");
			assert_true(len > 0);
			assert_true(strspn(v, "abcdefghijklmnopqrstuvwxyz"
					      "0123456789_") == len);
			assert_true(v[0] != '_' && v[len - 1] != '_');
			for (size_t i = 1; i < len; i++)
				assert_false(v[i] == '_' && v[i - 1] == '_');
			n[k]++;
		}
	}
	assert_int_equal(n[0], LS_LOSS_MAX);
	assert_int_equal(n[1], LS_CTR_MAX);
	free(t);
	ls_prom_free(&p);
	ls_snap_free(&s);
}

static void test_openmetrics_shape(void **state)
{
	struct ls_snapshot s;
	struct ls_prom p;
	char *t;
	size_t n;

	(void)state;
	ls_snap_init(&s);
	add(&s, 0x1000, LS_KIND_MUTEX, "mutex@genl_rcv_msg", "genl_rcv_msg", 1,
	    10);
	ls_snap_index(&s);
	ls_prom_init(&p, 10, 0, 1);
	assert_int_equal(ls_prom_update(&p, &s, NULL), 0);
	t = render(&p, &s, NULL, LS_PROM_OPENMETRICS);
	n = strlen(t);
	assert_true(n > 6 && !strcmp(t + n - 6, "# EOF\n"));
	assert_non_null(
		strstr(t, "# TYPE lockscope_lock_contentions counter\n"));
	assert_non_null(
		strstr(t, "# UNIT lockscope_lock_wait_seconds seconds\n"));
	assert_non_null(strstr(t, "# TYPE lockscope_build info\n"));
	assert_non_null(
		strstr(t, "lockscope_build_info{version=\"test\"} 1\n"));
	assert_null(strstr(t, "\n\n"));
	free(t);
	ls_prom_free(&p);
	ls_snap_free(&s);
}

static void test_spin_share_interval(void **state)
{
	struct ls_snapshot prev, cur;
	struct ls_prom p;
	char *t;

	(void)state;
	ls_snap_init(&prev);
	ls_snap_init(&cur);
	prev.nfuncs = cur.nfuncs = 2;
	strcpy(prev.func_name[0], "osq_lock");
	strcpy(prev.func_name[1], "__pv_queued_spin_lock_slowpath");
	memcpy(cur.func_name, prev.func_name, sizeof(cur.func_name));
	prev.func_samples[0] = 100;
	prev.func_samples[LS_SPIN_FUNC_OTHER] = 900;
	cur.func_samples[0] = 150;		     /* +50 */
	cur.func_samples[1] = 25;		     /* +25 */
	cur.func_samples[LS_SPIN_FUNC_OTHER] = 1000; /* +100 */
	cur.func_samples[LS_SPIN_FUNC_USER] = 25;    /* +25 */
	ls_prom_init(&p, 10, 0, 1);
	assert_int_equal(ls_prom_update(&p, &cur, NULL), 0);
	t = render(&p, &cur, &prev, LS_PROM_TEXT);
	assert_true(
		value(t, "lockscope_spin_share_ratio{function=\"osq_lock\"}") ==
		0.25);
	assert_true(value(t, "lockscope_spin_share_ratio{function=\"__pv_"
			     "queued_spin_lock_slowpath\"}") == 0.125);
	assert_true(
		value(t,
		      "lockscope_spin_samples_total{function=\"osq_lock\"}") ==
		150);
	assert_true(value(t, "lockscope_cpu_samples_total") == 1200);
	free(t);
	ls_prom_free(&p);
	ls_snap_free(&prev);
	ls_snap_free(&cur);
}

static void test_interval_peak(void **state)
{
	struct ls_row r;

	(void)state;
	memset(&r, 0, sizeof(r));
	r.st.peak_epoch = 4;
	r.st.peak_waiters = 7;
	r.st.waiters = 2;
	assert_int_equal(ls_prom_interval_peak(&r, 4), 7);
	/* nobody arrived in interval 5: the peak is who still waits */
	assert_int_equal(ls_prom_interval_peak(&r, 5), 2);
	r.st.waiters = -1;
	assert_int_equal(ls_prom_interval_peak(&r, 5), 0);
}

static void test_float(void **state)
{
	char b[40];

	(void)state;
	assert_string_equal(ls_prom_float(b, sizeof(b), 256 / 1e9), "2.56e-07");
	assert_string_equal(ls_prom_float(b, sizeof(b), 1), "1");
	assert_string_equal(ls_prom_float(b, sizeof(b), 0.1), "0.1");
	assert_string_equal(ls_prom_float(b, sizeof(b), 1.0 / 0.0), "+Inf");
}

static void test_listen_parse(void **state)
{
	struct sockaddr_storage ss;
	struct sockaddr_in *a4 = (struct sockaddr_in *)&ss;
	struct sockaddr_in6 *a6 = (struct sockaddr_in6 *)&ss;
	const char *why;
	socklen_t len;
	char b[64];

	(void)state;
	assert_int_equal(ls_parse_listen("127.0.0.1:9464", &ss, &len, &why), 0);
	assert_int_equal(a4->sin_family, AF_INET);
	assert_int_equal(ntohs(a4->sin_port), 9464);
	assert_string_equal(ls_addr_str((struct sockaddr *)&ss, b, sizeof(b)),
			    "127.0.0.1:9464");
	assert_int_equal(ls_parse_listen("localhost:0", &ss, &len, &why), 0);
	assert_int_equal(ntohl(a4->sin_addr.s_addr), INADDR_LOOPBACK);
	assert_int_equal(ls_parse_listen("[::1]:9100", &ss, &len, &why), 0);
	assert_int_equal(a6->sin6_family, AF_INET6);
	assert_string_equal(ls_addr_str((struct sockaddr *)&ss, b, sizeof(b)),
			    "[::1]:9100");
	assert_int_equal(ls_parse_listen(":9464", &ss, &len, &why), 0);
	assert_int_equal(a6->sin6_family, AF_INET6);
	assert_string_equal(ls_addr_str((struct sockaddr *)&ss, b, sizeof(b)),
			    "[::]:9464");
	assert_int_equal(ls_parse_listen("127.0.0.1", &ss, &len, &why),
			 -EINVAL);
	assert_int_equal(ls_parse_listen("127.0.0.1:65536", &ss, &len, &why),
			 -EINVAL);
	assert_int_equal(ls_parse_listen("127.0.0.1:-1", &ss, &len, &why),
			 -EINVAL);
	assert_int_equal(ls_parse_listen("127.0.0.1:", &ss, &len, &why),
			 -EINVAL);
	assert_int_equal(ls_parse_listen("example.com:80", &ss, &len, &why),
			 -EINVAL);
	assert_int_equal(ls_parse_listen("::1:80", &ss, &len, &why), -EINVAL);
	assert_int_equal(ls_parse_listen("[::1]80", &ss, &len, &why), -EINVAL);
	assert_int_equal(ls_parse_listen("[nope]:80", &ss, &len, &why),
			 -EINVAL);
	assert_int_equal(ls_parse_listen("", &ss, &len, &why), -EINVAL);
}

/* Forgotten locks (serve's default --forget): what they counted stays in
 * their series, own or "other", and their slots go; a lock forgotten and
 * made again (another lock_rows slot, counters from zero) counts on. */
static void test_forgotten_locks_keep_counting(void **state)
{
	struct ls_snapshot s1, s2, s3;
	struct ls_prom p;
	struct ls_row *r;
	char *t;

	(void)state;
	ls_snap_init(&s1);
	ls_snap_init(&s2);
	ls_snap_init(&s3);
	add(&s1, 0x1000, LS_KIND_MUTEX, "mutex@a", "a", 30, 300)->st.slot = 1;
	add(&s1, 0x2000, LS_KIND_MUTEX, "mutex@b", "b", 20, 200)->st.slot = 2;
	add(&s1, 0x3000, LS_KIND_MUTEX, "mutex@c", "c", 10, 100)->st.slot = 3;
	ls_snap_index(&s1);
	ls_prom_init(&p, 1, 0, 1);
	assert_int_equal(ls_prom_update(&p, &s1, NULL), 0);
	assert_int_equal(p.nslots, 3);
	/* a (own series) and c (other) forgotten; b waits on */
	add(&s2, 0x2000, LS_KIND_MUTEX, "mutex@b", "b", 25, 250)->st.slot = 2;
	ls_snap_index(&s2);
	assert_int_equal(ls_prom_update(&p, &s2, &s1), 0);
	assert_int_equal(p.nslots, 1);
	t = render(&p, &s2, NULL, LS_PROM_TEXT);
	assert_true(value(t, "lockscope_lock_contentions_total{lock=\"mutex@"
			     "a\",kind=\"mutex\",caller=\"a\"}") == 30);
	assert_true(value(t, "lockscope_lock_contentions_total{lock=\"other\","
			     "kind=\"mutex\",caller=\"other\"}") == 35);
	free(t);
	/* a made again in another row: 5 more, on top of its 30 */
	add(&s3, 0x1000, LS_KIND_MUTEX, "mutex@a", "a", 5, 50)->st.slot = 7;
	r = add(&s3, 0x2000, LS_KIND_MUTEX, "mutex@b", "b", 26, 260);
	r->st.slot = 2;
	ls_snap_index(&s3);
	assert_int_equal(ls_prom_update(&p, &s3, &s2), 0);
	t = render(&p, &s3, NULL, LS_PROM_TEXT);
	assert_true(value(t, "lockscope_lock_contentions_total{lock=\"mutex@"
			     "a\",kind=\"mutex\",caller=\"a\"}") == 35);
	assert_true(value(t, "lockscope_lock_contentions_total{lock=\"other\","
			     "kind=\"mutex\",caller=\"other\"}") == 36);
	free(t);
	/* the same snapshot again: nothing counted twice */
	assert_int_equal(ls_prom_update(&p, &s3, &s3), 0);
	t = render(&p, &s3, NULL, LS_PROM_TEXT);
	assert_true(value(t, "lockscope_lock_contentions_total{lock=\"mutex@"
			     "a\",kind=\"mutex\",caller=\"a\"}") == 35);
	free(t);
	ls_prom_free(&p);
	ls_snap_free(&s1);
	ls_snap_free(&s2);
	ls_snap_free(&s3);
}

/* serve --by cgroup: a cgroup's counters keep what its forgotten locks'
 * entries counted, and a lock made again counts on from zero. */
static void test_cgroup_keeps_forgotten_waits(void **state)
{
	struct ls_snapshot s1, s2, s3, scratch, carry;
	struct ls_cgrow c = {.role = LS_CG_WAITER, .cgid = 5, .path = "/a"};
	struct ls_prom cg;
	char *t;

	(void)state;
	ls_snap_init(&s1);
	ls_snap_init(&s2);
	ls_snap_init(&s3);
	ls_snap_init(&scratch);
	ls_snap_init(&carry);
	ls_prom_init(&cg, 4, 0, 1);
	c.key = (struct ls_lock_key){.addr = 0x1000, .kind = LS_KIND_MUTEX};
	c.v.waits = 10;
	c.v.wait_ns = 1000;
	assert_int_equal(ls_snap_add_cgrow(&s1, &c), 0);
	c.key.addr = 0x2000;
	c.v.waits = 4;
	assert_int_equal(ls_snap_add_cgrow(&s1, &c), 0);
	assert_int_equal(ls_prom_cg_update(&cg, &s1, NULL, &scratch, &carry),
			 0);
	/* the lock at 0x1000 forgotten, the other waits twice more */
	c.v.waits = 6;
	assert_int_equal(ls_snap_add_cgrow(&s2, &c), 0);
	assert_int_equal(ls_prom_cg_update(&cg, &s2, &s1, &scratch, &carry), 0);
	t = render(&cg, &scratch, NULL, LS_PROM_TEXT);
	assert_true(value(t, "lockscope_lock_contentions_total{lock=\"/a\","
			     "kind=\"unknown\",caller=\"-\"}") == 16);
	free(t);
	/* 0x2000 forgotten and made again: 1 wait since */
	c.v.waits = 1;
	assert_int_equal(ls_snap_add_cgrow(&s3, &c), 0);
	assert_int_equal(ls_prom_cg_update(&cg, &s3, &s2, &scratch, &carry), 0);
	t = render(&cg, &scratch, NULL, LS_PROM_TEXT);
	assert_true(value(t, "lockscope_lock_contentions_total{lock=\"/a\","
			     "kind=\"unknown\",caller=\"-\"}") == 17);
	free(t);
	ls_prom_free(&cg);
	ls_snap_free(&s1);
	ls_snap_free(&s2);
	ls_snap_free(&s3);
	ls_snap_free(&scratch);
	ls_snap_free(&carry);
}

/* --by class: a class row takes its first instance's lock_rows slot; when
 * that changes (a new first instance), nothing is counted twice. */
static void test_class_row_slot_change(void **state)
{
	struct ls_snapshot s1, s2;
	struct ls_prom p;
	struct ls_row *r;
	char *t;

	(void)state;
	ls_snap_init(&s1);
	ls_snap_init(&s2);
	r = add(&s1, 0x1001, LS_KIND_MUTEX, "pipe_inode_info.mutex", "w", 10,
		100);
	r->st.slot = 4;
	r->instances = 2;
	ls_snap_index(&s1);
	ls_prom_init(&p, 4, 0, 1);
	assert_int_equal(ls_prom_update(&p, &s1, NULL), 0);
	r = add(&s2, 0x1001, LS_KIND_MUTEX, "pipe_inode_info.mutex", "w", 12,
		120);
	r->st.slot = 2;
	r->instances = 3;
	ls_snap_index(&s2);
	assert_int_equal(ls_prom_update(&p, &s2, &s1), 0);
	t = render(&p, &s2, NULL, LS_PROM_TEXT);
	assert_true(value(t,
			  "lockscope_lock_contentions_total{lock=\"pipe_"
			  "inode_info.mutex\",kind=\"mutex\",caller=\"w\"}") ==
		    12);
	free(t);
	ls_prom_free(&p);
	ls_snap_free(&s1);
	ls_snap_free(&s2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_histogram_buckets),
		cmocka_unit_test(test_holder_series),
		cmocka_unit_test(test_max_series_sticky_other),
		cmocka_unit_test(test_forgotten_locks_keep_counting),
		cmocka_unit_test(test_cgroup_keeps_forgotten_waits),
		cmocka_unit_test(test_class_row_slot_change),
		cmocka_unit_test(test_promotion_keeps_counters_monotonic),
		cmocka_unit_test(test_same_labels_share_a_series),
		cmocka_unit_test(test_no_address_unless_asked),
		cmocka_unit_test(test_pending_until_caller),
		cmocka_unit_test(test_probe_counters_only_with_probes),
		cmocka_unit_test(test_osq_vcpu_preempted_only_when_known),
		cmocka_unit_test(test_escaping),
		cmocka_unit_test(test_snake_case_labels),
		cmocka_unit_test(test_openmetrics_shape),
		cmocka_unit_test(test_spin_share_interval),
		cmocka_unit_test(test_interval_peak),
		cmocka_unit_test(test_float),
		cmocka_unit_test(test_listen_parse),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
