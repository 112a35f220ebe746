// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* test_accept.c - /metrics content negotiation: the Accept headers that
 * Prometheus and people send, and the format each gets. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include "serve/accept.h"

static void test_negotiate(void **state)
{
	(void)state;
	assert_int_equal(ls_accept_format(NULL), LS_PROM_TEXT);
	assert_int_equal(ls_accept_format("*/*"), LS_PROM_TEXT);
	assert_int_equal(ls_accept_format("text/plain;version=0.0.4"),
			 LS_PROM_TEXT);
	/* what Prometheus 2.x sends */
	assert_int_equal(
		ls_accept_format("application/"
				 "openmetrics-text;version=1.0.0,application/"
				 "openmetrics-text;version=0.0.1;q=0.75,text/"
				 "plain;version=0.0.4;q=0.5,*/*;q=0.1"),
		LS_PROM_OPENMETRICS);
	assert_int_equal(
		ls_accept_format(
			"application/openmetrics-text;q=0, text/plain"),
		LS_PROM_TEXT);
	assert_int_equal(
		ls_accept_format(
			"text/plain;q=0.9, application/openmetrics-text;q=0.3"),
		LS_PROM_TEXT);
	/* case-insensitive type, spaces before parameters */
	assert_int_equal(ls_accept_format("Application/OpenMetrics-Text; q=1"),
			 LS_PROM_OPENMETRICS);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_negotiate),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
