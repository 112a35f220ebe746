// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>
#include "cmd/run.h"

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* no process is left in the group (zombies count: lockscope reaps them) */
static int group_empty(pid_t pgid)
{
	return kill(-pgid, 0) && errno == ESRCH;
}

static void start(struct ls_child *c, const char *script)
{
	char *argv[] = {"sh", "-c", (char *)script, NULL};

	assert_int_equal(ls_child_start(c, argv), 0);
	assert_true(c->pid > 0);
}

/* PROGRAM that ends by itself: its status is lockscope's */
static void own_status_counts(void **state)
{
	struct ls_child c;

	(void)state;
	start(&c, "exit 3");
	assert_int_equal(ls_wait(10, &c), 1);
	ls_child_finish(&c);
	assert_true(c.done);
	assert_false(c.ended);
	assert_int_equal(c.status, 3);
	assert_int_equal(ls_exit_status(&c, 0), 3);
	assert_int_equal(ls_exit_status(&c, 1), 1); /* lockscope failed */
	start(&c, "kill -KILL $$");
	ls_wait(10, &c);
	ls_child_finish(&c);
	assert_int_equal(ls_exit_status(&c, 0), 128 + SIGKILL);
}

/* PROGRAM in its own process group, ended by lockscope at once when it
 * obeys SIGTERM: exit status 0 (not 143) */
static void ended_by_lockscope_is_success(void **state)
{
	struct ls_child c;
	double t0;

	(void)state;
	start(&c, "sleep 30");
	assert_int_equal(getpgid(c.pid), c.pid);
	assert_int_not_equal(getpgid(c.pid), getpgrp());
	assert_int_equal(ls_wait(0.2, &c), 0); /* -d expired */
	t0 = now_s();
	ls_child_finish(&c);
	assert_true(now_s() - t0 < 1.0);
	assert_true(c.done && c.ended);
	assert_int_equal(c.status, 128 + SIGTERM);
	assert_int_equal(ls_exit_status(&c, 0), 0);
	assert_int_equal(ls_exit_status(&c, 1), 1);
	assert_true(group_empty(c.pid));
}

/* a group that ignores SIGTERM gets SIGKILL after the grace: nobody is
 * left, grandchildren included */
static void term_ignored_killed_after_grace(void **state)
{
	struct ls_child c;
	double t0, dt;

	(void)state;
	start(&c, "trap '' TERM; sleep 30 & sleep 30; wait");
	ls_wait(0.3, &c);
	t0 = now_s();
	ls_child_finish(&c);
	dt = now_s() - t0;
	assert_true(dt >= LS_CHILD_GRACE_S - 0.1);
	assert_true(dt < LS_CHILD_GRACE_S + 1.0);
	assert_true(c.done && c.ended);
	assert_int_equal(c.status, 128 + SIGKILL);
	assert_true(group_empty(c.pid));
	assert_int_equal(ls_exit_status(&c, 0), 0);
}

/* PROGRAM ended by itself but left a process in its group: that one is
 * ended too, PROGRAM's status stays */
static void leftovers_of_program_ended(void **state)
{
	struct ls_child c;

	(void)state;
	start(&c, "sleep 30 & exit 4");
	assert_int_equal(ls_wait(10, &c), 1);
	ls_child_finish(&c);
	assert_false(c.ended);
	assert_int_equal(ls_exit_status(&c, 0), 4);
	assert_true(group_empty(c.pid));
}

/* cannot start: 127 not found, 126 not executable */
static void start_failures(void **state)
{
	char path[] = "/tmp/ls-test-run.XXXXXX";
	char *missing[] = {"/nonexistent/program", NULL};
	char *noexec[] = {path, NULL};
	struct ls_child c;
	int fd;

	(void)state;
	assert_int_equal(ls_child_start(&c, missing), -ENOENT);
	assert_int_equal(c.pid, 0);
	assert_int_equal(ls_exit_status(&c, 1), 127);
	fd = mkstemp(path); /* mode 0600: not executable */
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(ls_child_start(&c, noexec), -EACCES);
	assert_int_equal(ls_exit_status(&c, 1), 126);
	unlink(path);
	memset(&c, 0, sizeof(c));
	assert_int_equal(ls_exit_status(&c, 0), 0); /* no PROGRAM */
	assert_int_equal(ls_exit_status(NULL, 0), 0);
}

/* PROGRAM dies with lockscope: an SIGKILLed parent cannot end it, the
 * kernel does (PR_SET_PDEATHSIG) */
static void dies_with_lockscope(void **state)
{
	pid_t parent, prog = 0;
	int pfd[2], st;
	double t0;
	char stat[64], buf[256];

	(void)state;
	assert_int_equal(pipe(pfd), 0);
	parent = fork();
	assert_true(parent >= 0);
	if (!parent) {
		struct ls_child c;
		char *argv[] = {"sleep", "30", NULL};

		if (ls_child_start(&c, argv) ||
		    write(pfd[1], &c.pid, sizeof(c.pid)) != sizeof(c.pid))
			_exit(1);
		pause();
		_exit(0);
	}
	close(pfd[1]);
	assert_int_equal(read(pfd[0], &prog, sizeof(prog)), sizeof(prog));
	close(pfd[0]);
	kill(parent, SIGKILL);
	assert_int_equal(waitpid(parent, &st, 0), parent);
	snprintf(stat, sizeof(stat), "/proc/%d/stat", (int)prog);
	/* gone, or a zombie (dead, waiting for a reaper) within 1 s */
	for (t0 = now_s(); now_s() - t0 < 1.0;) {
		FILE *f = fopen(stat, "r");
		char *p;

		if (!f)
			break;
		p = fgets(buf, sizeof(buf), f);
		fclose(f);
		p = p ? strrchr(buf, ')') : NULL;
		if (p && p[2] == 'Z')
			break;
		usleep(20000);
	}
	assert_true(now_s() - t0 < 1.0);
	waitpid(prog, &st, WNOHANG); /* ours if it came to this subreaper */
	kill(prog, SIGKILL);	     /* in case it was not ended */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(own_status_counts),
		cmocka_unit_test(ended_by_lockscope_is_success),
		cmocka_unit_test(term_ignored_killed_after_grace),
		cmocka_unit_test(leftovers_of_program_ended),
		cmocka_unit_test(start_failures),
		cmocka_unit_test(dies_with_lockscope),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
