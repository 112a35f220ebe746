// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* run.c - signals, starting and ending the traced PROGRAM, and waiting
 * between reads. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>
#include "util/log.h"
#include "cmd/run.h"

volatile sig_atomic_t ls_stop;

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

int ls_child_start_io(struct ls_child *c, char **argv, int out_fd)
{
	int pfd[2], err = 0;
	char obj[300];
	pid_t pid;

	memset(c, 0, sizeof(*c));
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
		if (out_fd >= 0) {
			int null = open("/dev/null", O_RDONLY);

			if (null >= 0 && null != STDIN_FILENO) {
				dup2(null, STDIN_FILENO);
				close(null);
			}
			dup2(out_fd, STDOUT_FILENO);
			dup2(out_fd, STDERR_FILENO);
			if (out_fd > STDERR_FILENO)
				close(out_fd);
		}
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		execvp(argv[0], argv);
		err = errno;
		if (write(pfd[1], &err, sizeof(err)) < 0)
			_exit(127);
		_exit(127);
	}
	close(pfd[1]);
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
	snprintf(obj, sizeof(obj), "program '%.256s'", argv[0]);
	ls_fail("run", obj, strerror(err));
	c->start_err = err;
	return -err;
}

static void reap(struct ls_child *c, int flags)
{
	int st;

	if (!c || !c->pid || c->done)
		return;
	if (waitpid(c->pid, &st, flags) == c->pid) {
		c->done = 1;
		c->status = WIFEXITED(st)     ? WEXITSTATUS(st)
			    : WIFSIGNALED(st) ? 128 + WTERMSIG(st)
					      : 1;
	}
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

void ls_child_finish(struct ls_child *c)
{
	if (!c || !c->pid || c->done)
		return;
	kill(c->pid, SIGTERM);
	/* 0.5 s of grace, then SIGKILL: lockscope ends within 1 s */
	for (int i = 0; i < 10 && !c->done; i++) {
		struct timespec step = {0, 50 * 1000000L};

		reap(c, WNOHANG);
		if (!c->done)
			nanosleep(&step, NULL);
	}
	if (!c->done) {
		kill(c->pid, SIGKILL);
		reap(c, 0);
	}
}

int ls_exit_status(const struct ls_child *c, int rc)
{
	if (c && c->start_err)
		return c->start_err == ENOENT || c->start_err == ENOTDIR ? 127
									 : 126;
	if (rc)
		return rc;
	return c && c->pid ? c->status : 0;
}
