// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The holder side: state names, sampled holder sites, shares, deltas, text
 * and JSON output (the owner-word classification: test_decide.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "export/holders_json.h"
#include "model/model.h"
#include "view/holders_text.h"

/* The classification itself is tested in test_decide.c. */
static void names(void **state)
{
	(void)state;
	assert_string_equal(ls_holder_name(LS_HOLDER_PREEMPTED), "preempted");
	assert_string_equal(ls_holder_name(LS_HOLDER_MAX), "?");
}

static void sites_top(void **state)
{
	struct ls_row r;

	(void)state;
	memset(&r, 0, sizeof(r));
	r.key.kind = LS_KIND_MUTEX;
	ls_row_add_holder(&r, "a_fn", NULL, 10, 100, 1);
	ls_row_add_holder(&r, "b_fn", "a_fn", 11, 300, 2);
	ls_row_add_holder(&r, "a_fn", "b_fn", 10, 250, 1);
	ls_row_add_holder(&r, "c_fn", NULL, 12, 50, 1);
	ls_row_add_holder(&r, "d_fn", NULL, 13, 40, 1); /* not kept */
	ls_row_add_holder(&r, "e_fn", NULL, 14, 60, 1); /* evicts c_fn */
	/* every sampled tenure is counted, kept in the top or not */
	assert_int_equal(r.hold_sampled_ns, 800);
	assert_int_equal(r.hold_sampled, 7);
	assert_int_equal(r.nhsites, 3);
	assert_string_equal(r.hsites[0].fn, "a_fn");
	assert_int_equal(r.hsites[0].tenure_ns, 350);
	assert_int_equal(r.hsites[0].count, 2);
	assert_string_equal(r.hsites[1].fn, "b_fn");
	assert_string_equal(r.hsites[2].fn, "e_fn");
	/* pairs only where the next waiter's site was sampled */
	assert_int_equal(r.nhpairs, 2);
	assert_string_equal(r.hpairs[0].waiter, "a_fn");
	assert_string_equal(r.hpairs[0].holder, "b_fn");
	assert_int_equal(r.hpairs[0].tenure_ns, 300);
	assert_int_equal(r.nhtids, 3);
	assert_int_equal(r.htids[0].tid, 10);
	assert_int_equal(r.htids[0].tenure_ns, 350);
}

static void shares_and_delta(void **state)
{
	struct ls_snapshot a, b, d;
	struct ls_lock_key k = {.addr = 0x1000, .kind = LS_KIND_MUTEX};
	struct ls_lock_key sk = {.addr = 0x2000, .kind = LS_KIND_SPINLOCK};
	struct ls_row *r;

	(void)state;
	ls_snap_init(&a);
	ls_snap_init(&b);
	ls_snap_init(&d);
	r = ls_snap_add_row(&a, &k);
	r->st.contentions = r->st.begins = 4;
	r->st.holder_waits[LS_HOLDER_RUNNING] = 3;
	r->st.holder_waits[LS_HOLDER_PREEMPTED] = 1;
	r->st.tenure_ns = 1000;
	r->hi.hist_tenure[9] = 4;
	assert_true(ls_row_preempted_pct(r) > 24.9 &&
		    ls_row_preempted_pct(r) < 25.1);
	assert_int_equal(ls_row_tenures(r), 4);
	r = ls_snap_add_row(&a, &sk);
	r->st.contentions = 1;
	r->st.holder_waits[LS_HOLDER_UNKNOWN] = 1;
	assert_true(ls_row_preempted_pct(r) < 0);
	ls_snap_index(&a);
	assert_int_equal(ls_snap_copy(&b, &a), 0);
	r = ls_snap_find(&b, &k);
	r->st.contentions = r->st.begins = 10;
	r->st.holder_waits[LS_HOLDER_PREEMPTED] = 7;
	r->st.tenure_ns = 5000;
	r->st.tenure_unseen_ns = 700;
	r->hi.hist_tenure[9] = 10;
	assert_int_equal(ls_snap_delta(&b, &a, &d), 0);
	r = ls_snap_find(&d, &k);
	assert_non_null(r);
	assert_int_equal(r->st.holder_waits[LS_HOLDER_PREEMPTED], 6);
	assert_int_equal(r->st.holder_waits[LS_HOLDER_RUNNING], 0);
	assert_int_equal(r->st.tenure_ns, 4000);
	assert_int_equal(r->st.tenure_unseen_ns, 700);
	assert_int_equal(ls_row_tenures(r), 6);
	assert_true(ls_row_preempted_pct(r) > 99.9);
	ls_snap_free(&a);
	ls_snap_free(&b);
	ls_snap_free(&d);
}

static void outputs(void **state)
{
	struct ls_row r;
	struct json_object *o, *v;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	memset(&r, 0, sizeof(r));
	r.key.kind = LS_KIND_MUTEX;
	r.st.holder_waits[LS_HOLDER_PREEMPTED] = 2;
	r.st.holder_ns[LS_HOLDER_PREEMPTED] = 3000;
	r.st.tenure_ns = 900;
	r.st.tenure_unsampled_ns = 500;
	r.hi.hist_tenure[8] = 2;
	ls_row_add_holder(&r, "holder_fn", "waiter_fn", 42, 400, 1);
	f = open_memstream(&buf, &len);
	ls_print_holders(f, &r, 10);
	fclose(f);
	assert_non_null(strstr(buf, "preempted 100.0%"));
	assert_non_null(strstr(buf, "upper bound"));
	assert_non_null(strstr(buf, "holder_fn 100%"));
	assert_non_null(strstr(buf, "waiter_fn -> holder_fn"));
	assert_non_null(strstr(buf, " 42 100%"));
	free(buf);
	o = ls_holders_to_json(&r);
	assert_true(json_object_object_get_ex(o, "tenure_ns", &v));
	assert_int_equal(json_object_get_uint64(v), 900);
	assert_true(json_object_object_get_ex(o, "waits", &v));
	assert_true(json_object_object_get_ex(v, "preempted", &v));
	assert_int_equal(json_object_get_uint64(v), 2);
	assert_true(json_object_object_get_ex(o, "sampled", &v));
	assert_true(json_object_object_get_ex(v, "tids", &v));
	assert_int_equal(json_object_array_length(v), 1);
	json_object_put(o);
}

/* The vCPU split: measured, vcpu-preempted shows even at 0%; not
 * measured, it is "not known", never 0%; JSON says which. */
static char *states_text(const struct ls_row *r)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ls_print_holder_states(f, r);
	fclose(f);
	return buf;
}

static void vcpu_split(void **state)
{
	struct json_object *o, *v;
	struct ls_row r;
	char *t;

	(void)state;
	memset(&r, 0, sizeof(r));
	r.key.kind = LS_KIND_MUTEX;
	r.st.holder_waits[LS_HOLDER_RUNNING] = 3;
	r.st.holder_waits[LS_HOLDER_VCPU_PREEMPTED] = 1;
	r.vcpu_known = 1;
	t = states_text(&r);
	assert_non_null(strstr(t, "running 75.0%"));
	assert_non_null(strstr(t, "vcpu-preempted 25.0%"));
	free(t);
	r.st.holder_waits[LS_HOLDER_VCPU_PREEMPTED] = 0;
	t = states_text(&r);
	assert_non_null(strstr(t, "vcpu-preempted 0.0%"));
	free(t);
	r.vcpu_known = 0;
	t = states_text(&r);
	assert_non_null(strstr(t, "vcpu-preempted not known"));
	assert_null(strstr(t, "vcpu-preempted 0"));
	free(t);
	o = ls_holders_to_json(&r);
	assert_true(json_object_object_get_ex(o, "vcpu_flag_read", &v));
	assert_false(json_object_get_boolean(v));
	assert_true(json_object_object_get_ex(o, "waits", &v));
	assert_true(json_object_object_get_ex(v, "vcpu-preempted", &v));
	json_object_put(o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(names),
		cmocka_unit_test(sites_top),
		cmocka_unit_test(shares_and_delta),
		cmocka_unit_test(outputs),
		cmocka_unit_test(vcpu_split),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
