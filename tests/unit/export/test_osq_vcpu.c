// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Unit tests of osq_lock bail-outs with the previous vCPU preempted
 * (bpf/osq.bpf.h): the JSON fields (null when unknown, never 0), the hist
 * text, interval deltas and the --by class fold. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <json-c/json.h>
#include "export/json.h"
#include "model/model.h"
#include "view/text.h"

static struct ls_row *mkrow(struct ls_snapshot *s, uint64_t addr,
			    const char *name, uint64_t bail, uint64_t rd,
			    uint64_t pre, int known)
{
	struct ls_lock_key k = {.addr = addr, .kind = LS_KIND_MUTEX};
	struct ls_row *r = ls_snap_add_row(s, &k);

	assert_non_null(r);
	snprintf(r->name, sizeof(r->name), "%s", name);
	r->cls_len = (unsigned)strlen(r->name);
	r->st.contentions = 10 + bail;
	r->st.total_ns = 1000;
	r->st.min_ns = 100;
	r->st.max_ns = 100;
	r->st.osq_calls = 2 * bail;
	r->st.osq_bailouts = bail;
	r->osq_prev_read = rd;
	r->osq_prev_preempted = pre;
	r->osq_vcpu_known = known;
	return r;
}

static struct json_object *field(struct json_object *j, size_t i, const char *k)
{
	struct json_object *locks, *v;

	assert_true(json_object_object_get_ex(j, "locks", &locks));
	assert_true(json_object_object_get_ex(
		json_object_array_get_idx(locks, i), k, &v));
	return v;
}

static void json_known_and_unknown(void **state)
{
	struct ls_snapshot s;
	struct json_object *j;

	(void)state;
	ls_snap_init(&s);
	mkrow(&s, 0x1000, "a", 5, 4, 3, 1);
	mkrow(&s, 0x2000, "b", 5, 4, 0, 0);
	ls_snap_index(&s);
	j = ls_snap_to_json(&s, 0);
	assert_int_equal(
		json_object_get_uint64(field(j, 0, "osq_bailouts_prev_read")),
		4);
	assert_int_equal(json_object_get_uint64(
				 field(j, 0, "osq_bailouts_prev_preempted")),
			 3);
	assert_int_equal(
		json_object_get_uint64(field(j, 1, "osq_bailouts_prev_read")),
		4);
	/* the flag was not read: null, not 0 */
	assert_null(field(j, 1, "osq_bailouts_prev_preempted"));
	json_object_put(j);
	ls_snap_free(&s);
}

static void hist_text(void **state)
{
	struct ls_snapshot s;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	ls_snap_init(&s);
	mkrow(&s, 0x1000, "a", 5, 4, 3, 1);
	mkrow(&s, 0x2000, "b", 6, 4, 0, 0);
	ls_snap_index(&s);
	f = open_memstream(&buf, &len);
	ls_print_hist(f, &s, 1.0, 2, "tracepoints", 0, 0);
	fclose(f);
	assert_non_null(strstr(
		buf, "(5 bailed out, 3 with the previous vCPU preempted,"));
	assert_non_null(strstr(buf, "(6 bailed out, peak"));
	free(buf);
	ls_snap_free(&s);
}

static void delta_and_fold(void **state)
{
	struct ls_snapshot a, b, d;
	struct ls_row *r;

	(void)state;
	ls_snap_init(&a);
	ls_snap_init(&b);
	ls_snap_init(&d);
	mkrow(&a, 0x1000, "a", 5, 4, 3, 1);
	ls_snap_index(&a);
	mkrow(&b, 0x1000, "a", 9, 7, 4, 1);
	mkrow(&b, 0x2000, "a", 2, 2, 2, 1);
	ls_snap_index(&b);
	assert_int_equal(ls_snap_delta(&b, &a, &d), 0);
	r = ls_snap_find(&d, &(struct ls_lock_key){.addr = 0x1000,
						   .kind = LS_KIND_MUTEX});
	assert_non_null(r);
	assert_int_equal(r->st.osq_bailouts, 4);
	assert_int_equal(r->osq_prev_read, 3);
	assert_int_equal(r->osq_prev_preempted, 1);
	assert_true(r->osq_vcpu_known);
	/* one class: both instances add up */
	assert_int_equal(ls_snap_fold_class(&b), 0);
	assert_int_equal(b.nrows, 1);
	assert_int_equal(b.rows[0].osq_prev_read, 9);
	assert_int_equal(b.rows[0].osq_prev_preempted, 6);
	ls_snap_free(&a);
	ls_snap_free(&b);
	ls_snap_free(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(json_known_and_unknown),
		cmocka_unit_test(hist_text),
		cmocka_unit_test(delta_and_fold),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
