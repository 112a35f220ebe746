// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/file.h>
#include <sys/stat.h>
#include "util/outfile.h"

static char dir[] = "/tmp/ls-test-outfile.XXXXXX";

static int setup(void **state)
{
	(void)state;
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) ? -1 : 0;
}

static char *at(const char *name)
{
	static char path[1024];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return path;
}

static int entries(void)
{
	char cmd[128];
	FILE *f;
	int n = -1;

	snprintf(cmd, sizeof(cmd), "ls -A '%s' | wc -l", dir);
	f = popen(cmd, "r");
	if (f && fscanf(f, "%d", &n) != 1)
		n = -1;
	if (f)
		pclose(f);
	return n;
}

static void slurp(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	size_t n;

	assert_non_null(f);
	n = fread(buf, 1, len - 1, f);
	buf[n] = '\0';
	fclose(f);
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* a regular file is replaced atomically and keeps its permissions */
static void regular_file_replaced_atomically(void **state)
{
	char path[1024], buf[64];
	struct ls_out o;
	struct stat st;

	(void)state;
	snprintf(path, sizeof(path), "%s", at("rec.json"));
	write_file(path, "old\n");
	chmod(path, 0640);
	assert_int_equal(ls_out_open(&o, path), 0);
	assert_int_equal(o.mode, LS_OUT_ATOMIC);
	fputs("new\n", o.f);
	slurp(path, buf, sizeof(buf));
	assert_string_equal(buf, "old\n"); /* whole until the commit */
	assert_int_equal(ls_out_commit(&o), 0);
	slurp(path, buf, sizeof(buf));
	assert_string_equal(buf, "new\n");
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0640);
	assert_int_equal(entries(), 1); /* no temporary file left */
	unlink(path);
}

/* a symbolic link to a regular file: the target is replaced, the link
 * stays a link */
static void link_to_file_keeps_link(void **state)
{
	char link[1024], target[1024], buf[64];
	struct ls_out o;
	struct stat st;

	(void)state;
	snprintf(target, sizeof(target), "%s", at("target.json"));
	snprintf(link, sizeof(link), "%s", at("link.json"));
	write_file(target, "old\n");
	assert_int_equal(symlink("target.json", link), 0);
	assert_int_equal(ls_out_open(&o, link), 0);
	assert_int_equal(o.mode, LS_OUT_ATOMIC);
	fputs("new\n", o.f);
	assert_int_equal(ls_out_commit(&o), 0);
	assert_int_equal(lstat(link, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	slurp(target, buf, sizeof(buf));
	assert_string_equal(buf, "new\n");
	assert_int_equal(entries(), 2);
	unlink(link);
	unlink(target);
}

/* a character device is written in place: /dev/null stays a device (as
 * root the old rename turned it into a regular file) */
static void char_device_written_in_place(void **state)
{
	struct ls_out o;
	struct stat st;

	(void)state;
	assert_int_equal(ls_out_open(&o, "/dev/null"), 0);
	assert_int_equal(o.mode, LS_OUT_IN_PLACE);
	fputs("record\n", o.f);
	assert_int_equal(ls_out_commit(&o), 0);
	assert_int_equal(stat("/dev/null", &st), 0);
	assert_true(S_ISCHR(st.st_mode));
}

/* a FIFO stays a FIFO and its reader gets the data */
static void fifo_written_in_place(void **state)
{
	char path[1024], buf[64] = "";
	struct ls_out o;
	struct stat st;
	ssize_t n;
	int rd;

	(void)state;
	snprintf(path, sizeof(path), "%s", at("fifo"));
	assert_int_equal(mkfifo(path, 0600), 0);
	rd = open(path, O_RDONLY | O_NONBLOCK); /* the reader is there */
	assert_true(rd >= 0);
	assert_int_equal(ls_out_open(&o, path), 0);
	assert_int_equal(o.mode, LS_OUT_IN_PLACE);
	fputs("through the fifo\n", o.f);
	assert_int_equal(ls_out_commit(&o), 0);
	n = read(rd, buf, sizeof(buf) - 1);
	assert_int_equal(n, 17);
	assert_string_equal(buf, "through the fifo\n");
	close(rd);
	assert_int_equal(stat(path, &st), 0);
	assert_true(S_ISFIFO(st.st_mode));
	assert_int_equal(entries(), 1);
	unlink(path);
}

static void dash_is_stdout(void **state)
{
	struct ls_out o;

	(void)state;
	assert_int_equal(ls_out_open(&o, "-"), 0);
	assert_int_equal(o.mode, LS_OUT_STDOUT);
	assert_ptr_equal(o.f, stdout);
	ls_out_abort(&o);
}

/* every bad path fails at open, with exit status 2, leaving nothing */
static void bad_paths_fail_at_open(void **state)
{
	static const struct {
		const char *name; /* in dir; NULL: the path is "" */
		int err;
	} bad[] = {
		{NULL, -EINVAL},	       /* empty */
		{".", -EISDIR},		       /* an existing directory */
		{"sub/", -EISDIR},	       /* a name ending in / */
		{"missing/rec.json", -ENOENT}, /* no such directory */
		{"dangling", -ENOENT},	       /* a link to nothing */
		{"file/rec.json", -ENOTDIR},   /* a file as a directory */
	};
	char path[1024];
	struct ls_out o;

	(void)state;
	assert_int_equal(mkdir(at("sub"), 0755), 0);
	assert_int_equal(symlink("nothing", at("dangling")), 0);
	write_file(at("file"), "x");
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(path, sizeof(path), "%s",
			 bad[i].name ? at(bad[i].name) : "");
		assert_int_equal(ls_out_open(&o, path), bad[i].err);
		assert_null(o.f);
		assert_int_equal(ls_out_open_status(bad[i].err), 2);
	}
	assert_int_equal(entries(), 3);
	assert_int_equal(ls_out_open_status(-ENOMEM), 1);
	rmdir(at("sub"));
	unlink(at("dangling"));
	unlink(at("file"));
}

/* a valid 255-byte name gets a temporary name that fits (".<name>.XXXXXX"
 * did not: ENAMETOOLONG) */
static void longest_name_works(void **state)
{
	char name[256], path[1024], buf[64];
	struct ls_out o;

	(void)state;
	memset(name, 'n', 255);
	name[255] = '\0';
	snprintf(path, sizeof(path), "%s", at(name));
	assert_int_equal(ls_out_open(&o, path), 0);
	assert_true(strlen(o.tmp) <= 255);
	fputs("long\n", o.f);
	assert_int_equal(ls_out_commit(&o), 0);
	slurp(path, buf, sizeof(buf));
	assert_string_equal(buf, "long\n");
	assert_int_equal(entries(), 1);
	unlink(path);
	/* one byte more is too long, and says so at once */
	strcat(path, "n");
	assert_int_equal(ls_out_open(&o, path), -ENAMETOOLONG);
	assert_int_equal(ls_out_open_status(-ENAMETOOLONG), 2);
}

/* a write error is named by its reason (ENOSPC), even for writes larger
 * than stdio's buffer, and replaces nothing */
static void write_error_names_reason(void **state)
{
	static char big[200000];
	struct ls_out o;

	(void)state;
	memset(big, 'x', sizeof(big));
	assert_int_equal(ls_out_open(&o, "/dev/full"), 0);
	fwrite(big, 1, sizeof(big), o.f);
	assert_int_equal(ls_out_commit(&o), -ENOSPC);
}

/* abort removes the temporary file and keeps the old one */
static void abort_keeps_old(void **state)
{
	char path[1024], buf[64];
	struct ls_out o;

	(void)state;
	snprintf(path, sizeof(path), "%s", at("keep.json"));
	write_file(path, "old\n");
	assert_int_equal(ls_out_open(&o, path), 0);
	fputs("half", o.f);
	ls_out_abort(&o);
	slurp(path, buf, sizeof(buf));
	assert_string_equal(buf, "old\n");
	assert_int_equal(entries(), 1);
	unlink(path);
}

/* a name that became a FIFO during the run is not replaced: the record
 * stays in its temporary file */
static void fifo_made_during_run_is_kept(void **state)
{
	char path[1024];
	struct ls_out o;
	struct stat st;

	(void)state;
	snprintf(path, sizeof(path), "%s", at("late"));
	assert_int_equal(ls_out_open(&o, path), 0);
	assert_int_equal(o.mode, LS_OUT_ATOMIC);
	fputs("record\n", o.f);
	assert_int_equal(mkfifo(path, 0600), 0);
	assert_int_equal(ls_out_commit(&o), -EEXIST);
	assert_int_equal(stat(path, &st), 0);
	assert_true(S_ISFIFO(st.st_mode));
	assert_int_equal(entries(), 2); /* the FIFO and the kept record */
	assert_int_equal(system("rm -f /tmp/ls-test-outfile.*/.late.*"), 0);
	unlink(path);
}

/* Temporary files are ".<name>.lockscope-<pid>.XXXXXX"; opening the same
 * output removes those nobody holds (their lockscope was killed), and
 * keeps one still held, another output's and anything named otherwise. */
static void stale_temporaries_removed(void **state)
{
	static const char *const keep[] = {
		".run.json.lockscope-12.held00",
		".run.json.lockscope-12.toolong7",
		".run.json.lockscope-x.abcdef",
		".run.json.ABCDEF",
		".other.json.lockscope-12.abcdef",
	};
	char want[64], buf[64];
	struct ls_out o;
	int held = -1, fd;

	(void)state;
	fd = open(at(".run.json.lockscope-999999.Stale1"), O_CREAT | O_WRONLY,
		  0600);
	assert_true(fd >= 0);
	close(fd);
	for (size_t i = 0; i < sizeof(keep) / sizeof(*keep); i++) {
		fd = open(at(keep[i]), O_CREAT | O_WRONLY, 0600);
		assert_true(fd >= 0);
		if (i == 0)
			held = fd; /* a lockscope still writing it */
		else
			close(fd);
	}
	assert_int_equal(flock(held, LOCK_EX | LOCK_NB), 0);
	assert_int_equal(ls_out_open(&o, at("run.json")), 0);
	snprintf(want, sizeof(want), ".run.json.lockscope-%d.", (int)getpid());
	assert_non_null(strstr(o.tmp, want));
	assert_int_equal(access(at(".run.json.lockscope-999999.Stale1"), F_OK),
			 -1);
	for (size_t i = 0; i < sizeof(keep) / sizeof(*keep); i++)
		assert_int_equal(access(at(keep[i]), F_OK), 0);
	/* while this one is open, a second open of it leaves its file */
	{
		struct ls_out o2;
		char tmp1[300];

		snprintf(tmp1, sizeof(tmp1), "%s", o.tmp);
		assert_int_equal(ls_out_open(&o2, at("run.json")), 0);
		assert_int_equal(access(at(tmp1), F_OK), 0);
		ls_out_abort(&o2);
	}
	fputs("run\n", o.f);
	assert_int_equal(ls_out_commit(&o), 0);
	slurp(at("run.json"), buf, sizeof(buf));
	assert_string_equal(buf, "run\n");
	close(held);
	for (size_t i = 0; i < sizeof(keep) / sizeof(*keep); i++)
		unlink(at(keep[i]));
	unlink(at("run.json"));
	assert_int_equal(entries(), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(regular_file_replaced_atomically),
		cmocka_unit_test(link_to_file_keeps_link),
		cmocka_unit_test(char_device_written_in_place),
		cmocka_unit_test(fifo_written_in_place),
		cmocka_unit_test(dash_is_stdout),
		cmocka_unit_test(bad_paths_fail_at_open),
		cmocka_unit_test(longest_name_works),
		cmocka_unit_test(write_error_names_reason),
		cmocka_unit_test(abort_keeps_old),
		cmocka_unit_test(fifo_made_during_run_is_kept),
		cmocka_unit_test(stale_temporaries_removed),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
