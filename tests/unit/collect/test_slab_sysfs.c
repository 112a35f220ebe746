// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The sysfs reader of slab aliases over a synthetic /sys/kernel/slab: links
 * to merged caches kept, cache directories and links elsewhere not, a
 * missing directory said; then this machine's, when it has one. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>
#include "collect/slab_sysfs.h"

static char dir[64];

static void in_dir(char *path, size_t len, const char *name)
{
	snprintf(path, len, "%s/%s", dir, name);
}

static void make_link(const char *name, const char *target)
{
	char p[128];

	in_dir(p, sizeof(p), name);
	assert_int_equal(symlink(target, p), 0);
}

static void make_dir(const char *name)
{
	char p[128];

	in_dir(p, sizeof(p), name);
	assert_int_equal(mkdir(p, 0755), 0);
}

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/ls-slab-XXXXXX");
	assert_non_null(mkdtemp(dir));
	make_dir(":0000056");
	make_dir(":A-0001152");
	make_dir("kmalloc-64"); /* not mergeable: a directory, no link */
	make_link("ftrace_event_field", ":0000056");
	make_link("file_lock_ctx", ":0000056");
	make_link("damon_region", ":0000056");
	make_link("signal_cache", ":A-0001152");
	make_link("UNIX", ":A-0001152");
	make_link("task_struct", ":0009920"); /* merged with nothing */
	make_link("elsewhere", "../../etc");  /* no merged cache's directory */
	return 0;
}

static int teardown(void **state)
{
	char cmd[96];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) ? -1 : 0;
}

static void listing(void **state)
{
	struct ls_slab_aliases a;
	char why[200];

	(void)state;
	ls_slab_aliases_read(&a, dir);
	assert_int_equal(a.state, LS_ALIAS_READ);
	assert_int_equal(a.n, 6);
	assert_int_equal(a.skipped, 1); /* elsewhere */
	assert_int_equal(ls_slab_aliases_merged(&a), 2);
	/* sorted by merged cache, then name */
	assert_string_equal(a.v[0].target, ":0000056");
	assert_string_equal(a.v[0].name, "damon_region");
	assert_string_equal(a.v[2].name, "ftrace_event_field");
	assert_string_equal(a.v[3].target, ":0009920");
	assert_string_equal(a.v[4].name, "UNIX");
	ls_slab_aliases_reason(&a, why, sizeof(why));
	assert_non_null(strstr(why, "2 merged caches"));
	ls_slab_aliases_free(&a);
}

static void missing(void **state)
{
	struct ls_slab_aliases a;
	char p[128];

	(void)state;
	in_dir(p, sizeof(p), "nosuch");
	ls_slab_aliases_read(&a, p);
	assert_int_equal(a.state, LS_ALIAS_NO_SYSFS);
	assert_int_equal(a.n, 0);
	ls_slab_aliases_free(&a);
	/* a file, not a directory */
	ls_slab_aliases_read(&a, "/dev/null");
	assert_int_equal(a.state, LS_ALIAS_UNREADABLE);
	assert_int_equal(a.err, ENOTDIR);
	ls_slab_aliases_free(&a);
}

/* This machine's listing has every alias each merged cache's aliases file
 * counts (caches merged into it besides the first; links of destroyed
 * caches may stay, so there may be more). */
static void this_machine(void **state)
{
	struct ls_slab_aliases a;

	(void)state;
	ls_slab_aliases_read(&a, LS_SLAB_SYSFS);
	if (a.state != LS_ALIAS_READ) {
		ls_slab_aliases_free(&a);
		skip();
	}
	for (size_t i = 0; i < a.n;) {
		size_t j = i;
		char p[160];
		FILE *f;
		int n = -1;

		while (j < a.n && !strcmp(a.v[j].target, a.v[i].target))
			j++;
		snprintf(p, sizeof(p), LS_SLAB_SYSFS "/%s/aliases",
			 a.v[i].target);
		f = fopen(p, "r");
		if (f) {
			assert_int_equal(fscanf(f, "%d", &n), 1);
			fclose(f);
			if ((size_t)n + 1 > j - i)
				fail_msg("%s: %d aliases, %zu links",
					 a.v[i].target, n, j - i);
		}
		i = j;
	}
	ls_slab_aliases_free(&a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(listing),
		cmocka_unit_test(missing),
		cmocka_unit_test(this_machine),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
