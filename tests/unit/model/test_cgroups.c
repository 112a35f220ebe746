// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* --by cgroup in the model: the cgroup2 mount from mountinfo, the bounded
 * id -> path walk on a fake tree, --cgroup arguments, and the cgroup rows
 * (one lock's rows, ranking, intervals). */
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
#include "model/cgpath.h"
#include "model/model.h"

static uint64_t ino(const char *path)
{
	struct stat st;

	assert_int_equal(stat(path, &st), 0);
	return (uint64_t)st.st_ino;
}

static void mount_from_mountinfo(void **state)
{
	char tmp[] = "/tmp/ls-mountinfo-XXXXXX", out[256];
	int fd = mkstemp(tmp);
	FILE *f;

	(void)state;
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	fputs("25 30 0:22 / /sys rw,nosuid shared:7 - sysfs sysfs rw\n"
	      "33 25 0:29 / /sys/fs/cgroup/cpu rw - cgroup cgroup rw,cpu\n"
	      "41 31 0:38 / /sys/fs/cgroup/my\\040v2 rw,relatime shared:9 - "
	      "cgroup2 cgroup2 rw\n",
	      f);
	fclose(f);
	assert_int_equal(ls_cg_mount(tmp, out, sizeof(out)), 0);
	assert_string_equal(out, "/sys/fs/cgroup/my v2"); /* \040 undone */
	assert_int_equal(ls_cg_mount(tmp, out, 8), -ENAMETOOLONG);
	/* a container: its own subtree at /sys/fs/cgroup, the host's whole
	 * tree mounted later (a hostPath): the whole tree wins */
	f = fopen(tmp, "w");
	fputs("50 40 0:30 /kubepods/pod1/c1 /sys/fs/cgroup ro - cgroup2 "
	      "cgroup rw\n"
	      "51 40 0:30 / /host/cgroup ro - cgroup2 cgroup rw\n"
	      "52 40 0:30 /kubepods /other ro - cgroup2 cgroup rw\n",
	      f);
	fclose(f);
	assert_int_equal(ls_cg_mount(tmp, out, sizeof(out)), 0);
	assert_string_equal(out, "/host/cgroup");
	/* v1 only: no cgroup2 line */
	f = fopen(tmp, "w");
	fputs("33 25 0:29 / /sys/fs/cgroup/cpu rw - cgroup cgroup rw,cpu\n", f);
	fclose(f);
	assert_int_equal(ls_cg_mount(tmp, out, sizeof(out)), -ENOENT);
	unlink(tmp);
	assert_int_equal(
		ls_cg_mount("/nonexistent/mountinfo", out, sizeof(out)),
		-ENOENT);
}

static void walk_fake_tree(void **state)
{
	char root[] = "/tmp/ls-cgtree-XXXXXX", p[4096];
	struct ls_cgmap m;
	uint64_t a, ab, c;
	size_t n;

	(void)state;
	assert_non_null(mkdtemp(root));
	snprintf(p, sizeof(p), "%s/a", root);
	assert_int_equal(mkdir(p, 0755), 0);
	a = ino(p);
	snprintf(p, sizeof(p), "%s/a/b", root);
	assert_int_equal(mkdir(p, 0755), 0);
	ab = ino(p);
	snprintf(p, sizeof(p), "%s/c", root);
	assert_int_equal(mkdir(p, 0755), 0);
	c = ino(p);
	snprintf(p, sizeof(p), "%s/a/cgroup.procs", root); /* a file */
	fclose(fopen(p, "w"));

	ls_cgmap_init(&m, root);
	assert_int_equal(ls_cgmap_scan(&m), 0);
	assert_int_equal(m.n, 4); /* root, a, a/b, c: no files */
	assert_string_equal(ls_cgmap_find(&m, ino(root)), "/");
	assert_string_equal(ls_cgmap_find(&m, a), "/a");
	assert_string_equal(ls_cgmap_find(&m, ab), "/a/b");
	assert_string_equal(ls_cgmap_find(&m, c), "/c");
	assert_int_equal(m.truncated, 0);

	/* c goes: its id is not found again, never another path */
	snprintf(p, sizeof(p), "%s/c", root);
	assert_int_equal(rmdir(p), 0);
	assert_int_equal(ls_cgmap_scan(&m), 0);
	assert_null(ls_cgmap_find(&m, c));
	assert_string_equal(ls_cgmap_find(&m, ab), "/a/b");

	/* the depth bound: a chain deeper than LS_CG_MAX_DEPTH is cut */
	snprintf(p, sizeof(p), "%s", root);
	for (n = 0; n < LS_CG_MAX_DEPTH + 2; n++) {
		strcat(p, "/d");
		assert_int_equal(mkdir(p, 0755), 0);
	}
	assert_int_equal(ls_cgmap_scan(&m), 0);
	assert_int_equal(m.truncated, 1);
	assert_null(ls_cgmap_find(&m, ino(p)));
	assert_int_equal(m.n, 3 + LS_CG_MAX_DEPTH);
	ls_cgmap_free(&m);

	/* a root that cannot be read is an error, not an empty tree */
	ls_cgmap_init(&m, "/nonexistent/cgroup");
	assert_int_equal(ls_cgmap_scan(&m), -ENOENT);
	ls_cgmap_free(&m);
	snprintf(p, sizeof(p), "rm -rf '%s'", root);
	assert_int_equal(system(p), 0);
}

static void path_arguments(void **state)
{
	char out[64];

	(void)state;
	assert_int_equal(
		ls_cg_path_arg("/sys/fs/cgroup", "/a/b", out, sizeof(out)), 0);
	assert_string_equal(out, "/sys/fs/cgroup/a/b");
	assert_int_equal(
		ls_cg_path_arg("/sys/fs/cgroup", "a", out, sizeof(out)), 0);
	assert_string_equal(out, "/sys/fs/cgroup/a");
	assert_int_equal(ls_cg_path_arg("/sys/fs/cgroup", "/sys/fs/cgroup/x",
					out, sizeof(out)),
			 0);
	assert_string_equal(out, "/sys/fs/cgroup/x");
	/* a sibling mount is not under the root: taken below it */
	assert_int_equal(ls_cg_path_arg("/sys/fs/cgroup", "/sys/fs/cgroupx",
					out, sizeof(out)),
			 0);
	assert_string_equal(out, "/sys/fs/cgroup/sys/fs/cgroupx");
	assert_int_equal(
		ls_cg_path_arg("/sys/fs/cgroup", "/a/../..", out, sizeof(out)),
		-EINVAL);
	assert_int_equal(
		ls_cg_path_arg("/sys/fs/cgroup", "..", out, sizeof(out)),
		-EINVAL);
	/* "..x" is a name, not a step up */
	assert_int_equal(
		ls_cg_path_arg("/sys/fs/cgroup", "/..x", out, sizeof(out)), 0);
	assert_int_equal(ls_cg_path_arg("/sys/fs/cgroup", "/a", out, 10),
			 -ENAMETOOLONG);
}

static void cgrow(struct ls_snapshot *s, uint64_t addr, uint64_t cgid,
		  uint64_t waits, uint64_t ns, const char *path)
{
	struct ls_cgrow r = {.key = {.addr = addr, .kind = LS_KIND_MUTEX},
			     .cgid = cgid};

	r.v.begins = waits;
	r.v.waits = waits;
	r.v.wait_ns = ns;
	r.v.max_ns = ns / (waits ? waits : 1);
	snprintf(r.path, sizeof(r.path), "%s", path);
	assert_int_equal(ls_snap_add_cgrow(s, &r), 0);
}

static void rows_of_a_lock(void **state)
{
	struct ls_snapshot a, b, d;
	struct ls_lock_key k = {.addr = 0x2000, .kind = LS_KIND_MUTEX};
	size_t idx[2], total, first;

	(void)state;
	ls_snap_init(&a);
	ls_snap_init(&b);
	ls_snap_init(&d);
	cgrow(&a, 0x2000, 7, 10, 1000, "/b");
	cgrow(&a, 0x1000, 5, 99, 99999, "/x");
	cgrow(&a, 0x2000, 5, 90, 9000, "/a");
	cgrow(&a, 0x2000, 9, 1, 10, LS_CG_GONE);
	cgrow(&a, 0x2000, 5, 70, 0, "/a"); /* held by /a: another role */
	a.cgrows[a.ncgrows - 1].role = LS_CG_HOLDER;
	qsort(a.cgrows, a.ncgrows, sizeof(*a.cgrows), ls_cgrow_cmp);
	assert_int_equal(ls_snap_cgrows_of(&a, &k, LS_CG_WAITER, &first), 3);
	assert_int_equal(first, 1);
	assert_int_equal(ls_snap_cgrows_of(&a, &k, LS_CG_HOLDER, &first), 1);
	assert_int_equal(first, 4);
	assert_int_equal(a.cgrows[first].v.begins, 70);
	/* most wait first, at most 2 */
	assert_int_equal(ls_cgrows_ranked(&a, &k, LS_CG_WAITER, idx, 2, &total),
			 2);
	assert_int_equal(total, 3);
	assert_string_equal(a.cgrows[idx[0]].path, "/a");
	assert_string_equal(a.cgrows[idx[1]].path, "/b");
	k.addr = 0x3000;
	assert_int_equal(ls_snap_cgrows_of(&a, &k, LS_CG_WAITER, &first), 0);

	/* an interval: increases only, rows without any dropped */
	assert_int_equal(ls_snap_copy(&b, &a), 0);
	b.cgrows[1].v.waits += 5; /* 0x2000 in cgroup 5 */
	b.cgrows[1].v.begins += 5;
	b.cgrows[1].v.wait_ns += 500;
	assert_int_equal(ls_snap_delta(&b, &a, &d), 0);
	assert_int_equal(d.ncgrows, 1);
	assert_int_equal(d.cgrows[0].cgid, 5);
	assert_int_equal(d.cgrows[0].v.waits, 5);
	assert_int_equal(d.cgrows[0].v.wait_ns, 500);
	ls_snap_free(&a);
	ls_snap_free(&b);
	ls_snap_free(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(mount_from_mountinfo),
		cmocka_unit_test(walk_fake_tree),
		cmocka_unit_test(path_arguments),
		cmocka_unit_test(rows_of_a_lock),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
