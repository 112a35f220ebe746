// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * test_folded.c - sampled waiter stacks: frames from a stack (root first,
 * tracing glue left out), merging, folded lines and their weights, and the
 * record's totals.stacks and histograms read back (bad ones refused).
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
#include "export/folded.h"
#include "export/record.h"
#include "model/naming.h"
#include "model/stacks.h"

static const char syms[] = "ffffffff81000000 T bpf_prog_abc_begin\n"
			   "ffffffff81000100 T __traceiter_contention_begin\n"
			   "ffffffff81000200 T __mutex_lock.constprop.0\n"
			   "ffffffff81000300 T genl_rcv_msg\n"
			   "ffffffff81000400 T netlink_rcv_skb\n"
			   "ffffffff81000500 T do_syscall_64\n"
			   "ffffffff81000600 D some_data\n"
			   "ffffffff81000700 T _etext\n";

static void frames_from_stack(void **state)
{
	struct ls_ksyms ks = {0};
	/* leaf first, as bpf_get_stackid gives them */
	uint64_t ips[6] = {0xffffffff81000010, 0xffffffff81000110,
			   0xffffffff81000210, 0xffffffff81000310,
			   0xffffffff81000610, 0xffffffff81000510};
	char buf[256], small[40];

	(void)state;
	assert_int_equal(ls_ksyms_parse(&ks, syms, sizeof(syms) - 1), 0);
	/* the program and the trace hook go, data is unknown code */
	assert_int_equal(ls_stack_frames(&ks, ips, 6, buf, sizeof(buf)), 4);
	assert_string_equal(buf, "do_syscall_64;[unknown];genl_rcv_msg;"
				 "__mutex_lock.constprop.0");
	/* too small a buffer keeps whole frames only */
	assert_int_equal(ls_stack_frames(&ks, ips, 6, small, sizeof(small)), 3);
	assert_string_equal(small, "do_syscall_64;[unknown];genl_rcv_msg");
	ls_ksyms_free(&ks);
}

static void merge_sort_fold(void **state)
{
	struct ls_stacks st;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	uint64_t sum, parsed = 0;

	(void)state;
	ls_stacks_init(&st);
	assert_int_equal(
		ls_stacks_add(&st, "mutex@f", LS_KIND_MUTEX, "a;b;f", 2, 300),
		0);
	assert_int_equal(
		ls_stacks_add(&st, "mmap_lock", LS_KIND_RWSEM_W, "c;d", 1, 900),
		0);
	/* same lock and frames: merged */
	assert_int_equal(
		ls_stacks_add(&st, "mutex@f", LS_KIND_MUTEX, "a;b;f", 1, 50),
		0);
	/* a wait not ended yet: sampled, no weight */
	assert_int_equal(
		ls_stacks_add(&st, "mutex@g", LS_KIND_MUTEX, "x", 1, 0), 0);
	/* a name with the format's separators */
	assert_int_equal(
		ls_stacks_add(&st, "we;ird\tname", LS_KIND_SPINLOCK, "y", 1, 7),
		0);
	assert_int_equal(st.n, 4);
	ls_stacks_sort(&st);
	assert_string_equal(st.v[0].lock, "mmap_lock");
	assert_int_equal(st.v[1].samples, 3);
	assert_int_equal(st.v[1].wait_ns, 350);
	assert_int_equal(ls_stacks_wait_total(&st), 1257);

	f = open_memstream(&buf, &len);
	sum = ls_folded_write(f, &st);
	fclose(f);
	assert_int_equal(sum, 1257);
	assert_string_equal(buf, "mmap_lock(rwsem:W);c;d 900\n"
				 "mutex@f;a;b;f 350\n"
				 "we_ird_name(spinlock);y 7\n");
	/* every line is "frames weight", the weights add up */
	for (char *line = strtok(buf, "\n"); line; line = strtok(NULL, "\n"))
		parsed += strtoull(strrchr(line, ' ') + 1, NULL, 10);
	assert_int_equal(parsed, sum);
	free(buf);
	ls_stacks_free(&st);
}

/* Entries are found through the index, before and after a sort moved
 * them: 3000 stacks of 50 locks, each added twice, make 3000 entries. */
static void stacks_indexed(void **state)
{
	struct ls_stacks st;
	char lock[32], frames[64];

	(void)state;
	ls_stacks_init(&st);
	for (int round = 0; round < 3; round++) {
		for (int i = 0; i < 3000; i++) {
			snprintf(lock, sizeof(lock), "mutex@f%d", i % 50);
			snprintf(frames, sizeof(frames), "a;b%d;c", i);
			assert_int_equal(ls_stacks_add(&st, lock, LS_KIND_MUTEX,
						       frames, 1, (uint64_t)i),
					 0);
		}
		assert_int_equal(st.n, 3000);
		if (round == 1)
			ls_stacks_sort(&st); /* the third round adds again */
	}
	/* the same frames under another kind are another entry */
	assert_int_equal(
		ls_stacks_add(&st, "mutex@f0", LS_KIND_RWSEM_W, "a;b0;c", 1, 1),
		0);
	assert_int_equal(st.n, 3001);
	ls_stacks_sort(&st);
	assert_string_equal(st.v[0].frames, "a;b2999;c");
	assert_int_equal(st.v[0].samples, 3);
	assert_int_equal(st.v[0].wait_ns, 3 * 2999);
	ls_stacks_free(&st);
}

static char *doc(const char *extra)
{
	char *s;

	if (asprintf(&s,
		     "{\"schema\":\"lockscope-record\",\"schema_version\":1,"
		     "\"run\":{\"kernel_release\":\"6.1\",\"cpus\":2,"
		     "\"duration_s\":3.5,\"command\":null,\"interval_s\":null,"
		     "\"interrupted\":false},\"totals\":{\"counters\":{},"
		     "\"losses\":{},\"sampler\":{\"samples\":0,"
		     "\"spin_functions\":[]},\"locks\":[{\"name\":\"mutex@f\","
		     "\"kind\":\"mutex\",\"contentions\":3,\"total_ns\":10,"
		     "\"spin_ns\":6,\"sleep_ns\":4,\"max_ns\":5,\"spin_won\":1,"
		     "\"spin_failed\":1,\"gave_up\":0,\"begins\":3,"
		     "\"peak_waiters\":2,\"hist_log2_ns\":[0,1,2],"
		     "\"hist_spin_log2_ns\":[1,1,1],\"hist_sleep_log2_ns\":[0,"
		     "1]},{\"name\":\"mutex@f [ffff888100001000]\",\"kind\":"
		     "\"mutex\",\"contentions\":1,\"total_ns\":1,\"spin_ns\":1,"
		     "\"sleep_ns\":0,\"max_ns\":1,\"spin_won\":1,"
		     "\"spin_failed\":0,\"gave_up\":0,\"begins\":1,"
		     "\"peak_waiters\":1,\"hist_spin_log2_ns\":[0,0,5]}]%s},"
		     "\"intervals\":[]}",
		     extra) < 0)
		fail();
	return s;
}

static void record_stacks_and_hists(void **state)
{
	char *ok = doc(",\"stacks\":[{\"lock\":\"mutex@f\",\"kind\":\"mutex\","
		       "\"frames\":[\"a\",\"b\"],\"samples\":2,\"wait_ns\":40},"
		       "{\"lock\":\"mutex@f\",\"kind\":\"mutex\",\"frames\":[],"
		       "\"samples\":1,\"wait_ns\":70}]");
	char *old = doc("");
	struct ls_rec r;
	const struct ls_rec_hist *h;
	char err[256] = "";

	(void)state;
	assert_int_equal(ls_rec_parse(ok, strlen(ok), &r, err, sizeof(err)), 0);
	assert_int_equal(r.stacks.n, 2);
	assert_string_equal(r.stacks.v[0].frames, ""); /* heaviest first */
	assert_string_equal(r.stacks.v[1].frames, "a;b");
	assert_int_equal(ls_stacks_wait_total(&r.stacks), 110);
	/* rows of one class: histograms added, address left out */
	h = ls_rec_find_hist(&r, "mutex@f", LS_KIND_MUTEX);
	assert_non_null(h);
	assert_int_equal(r.nhists, 1);
	assert_int_equal(h->spin[2], 6);
	assert_int_equal(h->sleep[1], 1);
	assert_int_equal(h->all[2], 2);
	ls_rec_free(&r);
	/* files written before stacks existed still read */
	assert_int_equal(ls_rec_parse(old, strlen(old), &r, err, sizeof(err)),
			 0);
	assert_int_equal(r.stacks.n, 0);
	ls_rec_free(&r);
	free(ok);
	free(old);
}

static void bad_stacks_refused(void **state)
{
	static const char *const bad[][2] = {
		{",\"stacks\":{}", "totals.stacks: not an array"},
		{",\"stacks\":[{\"lock\":\"m\",\"kind\":\"mutex\",\"frames\":"
		 "[\"a;b\"],\"samples\":1,\"wait_ns\":1}]",
		 "totals.stacks[0].frames[0]"},
		{",\"stacks\":[{\"lock\":\"m\",\"kind\":\"mutex\",\"frames\":"
		 "[\"a\\u001b[2J\"],\"samples\":1,\"wait_ns\":1}]",
		 "control characters"},
		{",\"stacks\":[{\"lock\":\"m\",\"kind\":\"mutex\",\"frames\":"
		 "[],\"samples\":-1,\"wait_ns\":1}]",
		 "not a non-negative integer"},
		{",\"stacks\":[{\"lock\":\"m\",\"kind\":\"lock\",\"frames\":[],"
		 "\"samples\":1,\"wait_ns\":1}]",
		 "lock or kind"},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		char *s = doc(bad[i][0]);
		struct ls_rec r;
		char err[256] = "";

		assert_int_equal(
			ls_rec_parse(s, strlen(s), &r, err, sizeof(err)),
			-EINVAL);
		if (!strstr(err, bad[i][1]))
			fail_msg("error '%s' lacks '%s'", err, bad[i][1]);
		free(s);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(frames_from_stack),
		cmocka_unit_test(merge_sort_fold),
		cmocka_unit_test(stacks_indexed),
		cmocka_unit_test(record_stacks_and_hists),
		cmocka_unit_test(bad_stacks_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
