// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* run.c - signals, starting and ending the traced PROGRAM (its process
 * group), its exit status, the process of -p, and waiting between reads. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include "util/log.h"
#include "util/untrusted_text.h"
#include "cmd/run.h"

volatile sig_atomic_t ls_stop;

int ls_check_pid(uint32_t pid)
{
	char path[64], line[128], what[64];
	unsigned long tgid = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%u/status", pid);
	snprintf(what, sizeof(what), "process %u (-p)", pid);
	f = fopen(path, "re");
	if (!f) {
		int err = errno;

		ls_fail("find", what,
			err == ENOENT ? "no such process" : strerror(err));
		return err == ENOENT ? -ESRCH : -err;
	}
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Tgid: %lu", &tgid) == 1)
			break;
	fclose(f);
	if (tgid && tgid != pid) {
		ls_fail("find", what, "it is a thread, not a process");
		ls_hint("-p takes a process id: -p %lu (its process)", tgid);
		return -EINVAL;
	}
	return 0;
}

static void on_signal(int sig)
{
	(void)sig;
	ls_stop = 1;
}

void ls_install_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal; /* no SA_RESTART: sleeps end at once */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

int ls_child_start(struct ls_child *c, char **argv)
{
	return ls_child_start_io(c, argv, -1);
}

/* In the child, between fork and exec: its own process group, death with
 * lockscope, stdin and stdout as asked, default signal actions. */
static void child_setup(pid_t parent, int out_fd, int procs_fd)
{
	int null = -1;

	setpgid(0, 0);
	/* into the cgroup asked for, before exec: every child follows */
	if (procs_fd >= 0 && write(procs_fd, "0", 1) != 1)
		_exit(126);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent) /* lockscope died before prctl */
		_exit(127);
	/* a background group reading the terminal would be stopped */
	if (out_fd >= 0 || isatty(STDIN_FILENO))
		null = open("/dev/null", O_RDONLY);
	if (null >= 0 && null != STDIN_FILENO) {
		dup2(null, STDIN_FILENO);
		close(null);
	}
	if (out_fd >= 0) {
		dup2(out_fd, STDOUT_FILENO);
		dup2(out_fd, STDERR_FILENO);
		if (out_fd > STDERR_FILENO)
			close(out_fd);
	}
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
}

int ls_child_start_io(struct ls_child *c, char **argv, int out_fd)
{
	return ls_child_start_cg(c, argv, out_fd, -1);
}

int ls_child_start_cg(struct ls_child *c, char **argv, int out_fd, int procs_fd)
{
	pid_t parent = getpid(), pid;
	int pfd[2], err = 0;
	char obj[300], a[257];

	memset(c, 0, sizeof(*c));
	snprintf(obj, sizeof(obj), "program '%s'",
		 ls_text_safe(a, sizeof(a), argv[0]));
	/* PROGRAM's orphans come to lockscope, which reaps and ends them */
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	if (pipe2(pfd, O_CLOEXEC)) {
		err = errno;
		goto fail;
	}
	pid = fork();
	if (pid < 0) {
		err = errno;
		close(pfd[0]);
		close(pfd[1]);
		goto fail;
	}
	if (!pid) {
		close(pfd[0]);
		child_setup(parent, out_fd, procs_fd);
		execvp(argv[0], argv);
		err = errno;
		if (write(pfd[1], &err, sizeof(err)) < 0)
			_exit(127);
		_exit(127);
	}
	close(pfd[1]);
	setpgid(pid, pid); /* both sides: set before either goes on */
	/* exec succeeded when the CLOEXEC pipe closes without data */
	if (read(pfd[0], &err, sizeof(err)) == sizeof(err)) {
		close(pfd[0]);
		waitpid(pid, NULL, 0);
		goto fail;
	}
	close(pfd[0]);
	c->pid = pid;
	return 0;
fail:
	ls_fail("run", obj, strerror(err));
	c->start_err = err;
	return -err;
}

static void note(struct ls_child *c, int st)
{
	c->done = 1;
	c->status = WIFEXITED(st)     ? WEXITSTATUS(st)
		    : WIFSIGNALED(st) ? 128 + WTERMSIG(st)
				      : 1;
}

static void reap(struct ls_child *c, int flags)
{
	int st;

	if (!c || !c->pid || c->done)
		return;
	if (waitpid(c->pid, &st, flags) == c->pid)
		note(c, st);
}

int ls_wait(double secs, struct ls_child *c)
{
	struct timespec end, now;

	clock_gettime(CLOCK_MONOTONIC, &end);
	end.tv_sec += (time_t)secs;
	end.tv_nsec += (long)((secs - (double)(time_t)secs) * 1e9);
	if (end.tv_nsec >= 1000000000L) {
		end.tv_sec++;
		end.tv_nsec -= 1000000000L;
	}
	for (;;) {
		struct timespec step = {0, 50 * 1000000L};

		reap(c, WNOHANG);
		if (ls_stop || (c && c->pid && c->done))
			return 1;
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec > end.tv_sec ||
		    (now.tv_sec == end.tv_sec && now.tv_nsec >= end.tv_nsec))
			return 0;
		nanosleep(&step, NULL);
	}
}

/* Reap what has ended in PROGRAM's group (PROGRAM included: its status is
 * kept); 1 while a process of the group is left. */
static int group_alive(struct ls_child *c)
{
	pid_t p;
	int st;

	reap(c, WNOHANG);
	while ((p = waitpid(-c->pid, &st, WNOHANG)) > 0)
		if (p == c->pid)
			note(c, st);
	return !kill(-c->pid, 0);
}

/* Wait up to @ms for the group to end; 1 when it did. */
static int group_gone(struct ls_child *c, int ms)
{
	for (int t = 0;; t += 20) {
		struct timespec step = {0, 20 * 1000000L};

		if (!group_alive(c))
			return 1;
		if (t >= ms)
			return 0;
		nanosleep(&step, NULL);
	}
}

void ls_child_finish(struct ls_child *c)
{
	if (!c || !c->pid)
		return;
	reap(c, WNOHANG);
	if (!c->done)
		c->ended = 1; /* still running: lockscope ends it */
	if (!group_alive(c))
		return;
	kill(-c->pid, SIGTERM);
	kill(-c->pid, SIGCONT); /* a stopped process gets it too */
	if (group_gone(c, LS_CHILD_GRACE_S * 1000))
		return;
	kill(-c->pid, SIGKILL);
	reap(c, 0);
	/* the rest dies at once, short of a process stuck in the kernel */
	group_gone(c, 1000);
}

int ls_exit_status(const struct ls_child *c, int rc)
{
	if (c && c->start_err)
		return c->start_err == ENOENT || c->start_err == ENOTDIR ? 127
									 : 126;
	if (rc)
		return rc;
	if (!c || !c->pid || c->ended)
		return 0;
	return c->status;
}
