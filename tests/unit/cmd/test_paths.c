// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* test_paths.c - two paths name the same file by text, through ./ and
 * symbolic links, and (not there yet) by directory and name. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <cmocka.h>
#include "cmd/paths.h"

static void same_file_by_identity(void **state)
{
	char dir[] = "/tmp/ls-paths-XXXXXX", a[300], b[300], c[300];
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(a, sizeof(a), "%s/rec.json", dir);
	f = fopen(a, "w");
	assert_non_null(f);
	fclose(f);
	snprintf(b, sizeof(b), "%s/link.json", dir);
	assert_int_equal(symlink("rec.json", b), 0);
	assert_true(ls_path_same(a, a));
	assert_true(ls_path_same(a, b)); /* a link to it */
	snprintf(c, sizeof(c), "%s/./sub/../rec.json", dir);
	assert_false(ls_path_same(a, c)); /* sub/ does not exist */
	snprintf(c, sizeof(c), "%s/sub", dir);
	assert_int_equal(mkdir(c, 0700), 0);
	snprintf(c, sizeof(c), "%s/./sub/../rec.json", dir);
	assert_true(ls_path_same(a, c));
	/* not there yet: the same directory and name */
	snprintf(a, sizeof(a), "%s/new", dir);
	snprintf(b, sizeof(b), "%s/sub/../new", dir);
	assert_true(ls_path_same(a, b));
	snprintf(b, sizeof(b), "%s/sub/new", dir);
	assert_false(ls_path_same(a, b));
	/* standard output is no file */
	assert_false(ls_path_same("-", a));
	assert_true(ls_path_same("-", "-"));
	snprintf(c, sizeof(c), "rm -r '%s'", dir);
	assert_int_equal(system(c), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(same_file_by_identity),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
