// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* test_sort_first.c - ls_rows_sort_first (top -b's partial sort): its first
 * k rows are ls_rows_sort's first k, and every row is still there once. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "model/model.h"

static void fill(struct ls_row *rows, size_t n, unsigned seed)
{
	srand(seed);
	memset(rows, 0, n * sizeof(*rows));
	for (size_t i = 0; i < n; i++) {
		rows[i].key.addr = 0x1000 + i * 64;
		rows[i].key.kind = (unsigned)i % 3;
		rows[i].st.contentions = (uint64_t)(rand() % 50); /* ties */
		rows[i].st.total_ns = (uint64_t)(rand() % 1000) * 1000;
		snprintf(rows[i].name, sizeof(rows[i].name), "lock%05d",
			 rand() % 100000);
	}
}

static int cmp_addr(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

static void first_k_match_full_sort(void **state)
{
	const enum ls_sort keys[] = {LS_SORT_TOTAL, LS_SORT_COUNT, LS_SORT_NAME,
				     LS_SORT_KIND};
	const size_t n = 1000, ks[] = {0, 1, 20, 499};

	(void)state;
	for (size_t ki = 0; ki < sizeof(keys) / sizeof(*keys); ki++)
		for (int rev = 0; rev < 2; rev++)
			for (size_t j = 0; j < sizeof(ks) / sizeof(*ks); j++) {
				struct ls_row *a = malloc(n * sizeof(*a));
				struct ls_row *b = malloc(n * sizeof(*b));
				uint64_t *ad = malloc(n * sizeof(*ad));

				assert_non_null(a);
				assert_non_null(b);
				assert_non_null(ad);
				fill(a, n, (unsigned)(ki * 7 + j));
				memcpy(b, a, n * sizeof(*a));
				ls_rows_sort(a, n, keys[ki], rev);
				ls_rows_sort_first(b, n, keys[ki], rev, ks[j]);
				for (size_t i = 0; i < ks[j]; i++)
					assert_int_equal(a[i].key.addr,
							 b[i].key.addr);
				/* a permutation: every address once */
				for (size_t i = 0; i < n; i++)
					ad[i] = b[i].key.addr;
				qsort(ad, n, sizeof(*ad), cmp_addr);
				for (size_t i = 0; i < n; i++)
					assert_int_equal(ad[i],
							 0x1000 + i * 64);
				free(ad);
				free(b);
				free(a);
			}
}

static void full_sort_is_ordered(void **state)
{
	const size_t n = 1000;
	struct ls_row *a = malloc(n * sizeof(*a));

	(void)state;
	assert_non_null(a);
	fill(a, n, 3);
	ls_rows_sort(a, n, LS_SORT_TOTAL, 0);
	for (size_t i = 1; i < n; i++)
		assert_true(a[i - 1].st.total_ns >= a[i].st.total_ns);
	ls_rows_sort(a, n, LS_SORT_TOTAL, 1);
	for (size_t i = 1; i < n; i++)
		assert_true(a[i - 1].st.total_ns <= a[i].st.total_ns);
	free(a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(first_k_match_full_sort),
		cmocka_unit_test(full_sort_is_ordered),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
