// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The connection deadlines of serve: headers must be in by a fixed time
 * however the client trickles, the answer has its own deadline, a kept-alive
 * connection starts a new header deadline after each answer, a cut
 * connection is returned once, and the table is bounded.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include "serve/deadline.h"

#define S 1000000000LL

static struct ls_deadlines d;

static int setup(void **state)
{
	(void)state;
	return ls_dl_init(&d, 3, 5 * S, 30 * S);
}

static int teardown(void **state)
{
	(void)state;
	ls_dl_free(&d);
	return 0;
}

static void test_headers_deadline_is_absolute(void **state)
{
	struct ls_conn_slot *s = ls_dl_open(&d, 7, 100 * S);
	int fds[3];

	(void)state;
	assert_non_null(s);
	/* nothing a client sends moves it: only the headers being in do */
	assert_int_equal(ls_dl_expired(&d, 104 * S, fds, 3), 0);
	assert_int_equal(ls_dl_expired(&d, 105 * S, fds, 3), 1);
	assert_int_equal(fds[0], 7);
	assert_int_equal(d.cut[LS_CONN_HEADERS], 1);
	/* returned once, and headers arriving late do not revive it */
	ls_dl_request(&d, s, 105 * S);
	assert_int_equal(ls_dl_expired(&d, 200 * S, fds, 3), 0);
	assert_int_equal(s->phase, LS_CONN_CUT);
	ls_dl_close(s);
	assert_int_equal(s->phase, LS_CONN_FREE);
}

static void test_answer_then_next_request(void **state)
{
	struct ls_conn_slot *s = ls_dl_open(&d, 9, 0);
	int fds[3];

	(void)state;
	ls_dl_request(&d, s, 4 * S);
	/* past the header deadline: the answer's runs now */
	assert_int_equal(ls_dl_expired(&d, 33 * S, fds, 3), 0);
	ls_dl_answered(&d, s, 33 * S);
	/* kept alive: the next request has 5 s from the answer */
	assert_int_equal(ls_dl_expired(&d, 37 * S, fds, 3), 0);
	assert_int_equal(ls_dl_expired(&d, 38 * S, fds, 3), 1);
	assert_int_equal(d.cut[LS_CONN_HEADERS], 1);
	assert_int_equal(d.cut[LS_CONN_ANSWER], 0);
	ls_dl_close(s);
}

static void test_slow_answer_cut(void **state)
{
	struct ls_conn_slot *s = ls_dl_open(&d, 4, 0);
	int fds[3];

	(void)state;
	ls_dl_request(&d, s, 1 * S);
	ls_dl_request(&d, s, 2 * S); /* a second call of the same request */
	assert_int_equal(ls_dl_expired(&d, 30 * S, fds, 3), 0);
	assert_int_equal(ls_dl_expired(&d, 31 * S, fds, 3), 1);
	assert_int_equal(d.cut[LS_CONN_ANSWER], 1);
	ls_dl_close(s);
}

static void test_bounded(void **state)
{
	struct ls_conn_slot *a = ls_dl_open(&d, 1, 0);
	struct ls_conn_slot *b = ls_dl_open(&d, 2, 0);
	struct ls_conn_slot *c = ls_dl_open(&d, 3, 0);
	int fds[2];

	(void)state;
	assert_non_null(a);
	assert_non_null(b);
	assert_non_null(c);
	assert_null(ls_dl_open(&d, 4, 0));
	/* at most @max per call, the rest on the next one */
	assert_int_equal(ls_dl_expired(&d, 6 * S, fds, 2), 2);
	assert_int_equal(ls_dl_expired(&d, 6 * S, fds, 2), 1);
	assert_int_equal(fds[0], 3);
	ls_dl_close(b);
	assert_ptr_equal(ls_dl_open(&d, 5, 7 * S), b);
	ls_dl_close(a);
	ls_dl_close(b);
	ls_dl_close(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(
			test_headers_deadline_is_absolute, setup, teardown),
		cmocka_unit_test_setup_teardown(test_answer_then_next_request,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_slow_answer_cut, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_bounded, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
