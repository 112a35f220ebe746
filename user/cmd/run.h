/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* run.h - signals, the traced PROGRAM, and waiting between reads. */
#ifndef LS_RUN_H
#define LS_RUN_H

#include <signal.h>
#include <stdint.h>
#include <sys/types.h>

extern volatile sig_atomic_t ls_stop; /* set by SIGINT/SIGTERM/SIGHUP */

void ls_install_signals(void);

/* -p @pid names a process that exists (a thread id is not one): 0, or
 * -ESRCH / -EINVAL / -errno with the message printed (bad input). */
int ls_check_pid(uint32_t pid);

/*
 * PROGRAM runs in its own process group and dies with lockscope
 * (PR_SET_PDEATHSIG).  When lockscope ends it (-d expired, Ctrl-C,
 * SIGTERM) or when it ends leaving processes in its group, the group gets
 * SIGTERM, then SIGKILL after this grace.
 */
#define LS_CHILD_GRACE_S 2

struct ls_child {
	pid_t pid;     /* 0: none; also the id of its process group */
	int start_err; /* errno when PROGRAM could not be started */
	int done;
	int status; /* exit code (128+sig when killed) once done */
	int ended;  /* lockscope ended it (-d expired or interrupted) */
};

/* Start @argv; 0 or -errno (message printed, c->start_err set). */
int ls_child_start(struct ls_child *c, char **argv);
/* The same with stdout and stderr on @out_fd and stdin on /dev/null (for a
 * program started under a full-screen view); @out_fd < 0: inherit (stdin
 * too, unless it is a terminal: PROGRAM's group is not the terminal's
 * foreground, so it reads /dev/null instead of being stopped). */
int ls_child_start_io(struct ls_child *c, char **argv, int out_fd);
/* The same, PROGRAM moved into the cgroup whose cgroup.procs is open as
 * @procs_fd (>= 0) before it runs: its children are born there. */
int ls_child_start_cg(struct ls_child *c, char **argv, int out_fd,
		      int procs_fd);
/* Sleep up to @secs; return early when stopped or the child ended.
 * Returns 1 when the caller should stop (signal or child done). */
int ls_wait(double secs, struct ls_child *c);
/* End PROGRAM's process group (SIGTERM, SIGKILL after LS_CHILD_GRACE_S)
 * and reap PROGRAM.  If PROGRAM was still running, lockscope ended it. */
void ls_child_finish(struct ls_child *c);

/*
 * The exit status of a command that ran (or tried to run) PROGRAM, given
 * @rc, the command's own status (0, or non-zero when lockscope failed):
 * 127 when PROGRAM was not found, 126 when it could not be started, else
 * @rc when non-zero, else PROGRAM's status when it ended by itself, else
 * 0 (no PROGRAM, or lockscope ended it because -d expired or it was
 * interrupted).
 */
int ls_exit_status(const struct ls_child *c, int rc);

#endif
