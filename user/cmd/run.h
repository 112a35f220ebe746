/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* run.h - signals, the traced PROGRAM, and waiting between reads. */
#ifndef LS_RUN_H
#define LS_RUN_H

#include <signal.h>
#include <sys/types.h>

extern volatile sig_atomic_t ls_stop; /* set by SIGINT/SIGTERM/SIGHUP */

void ls_install_signals(void);

struct ls_child {
	pid_t pid;     /* 0: none */
	int start_err; /* errno when PROGRAM could not be started */
	int done;
	int status; /* exit code (128+sig when killed) once done */
};

/* Start @argv; 0 or -errno (message printed, c->start_err set). */
int ls_child_start(struct ls_child *c, char **argv);
/* The same with stdout and stderr on @out_fd and stdin on /dev/null (for a
 * program started under a full-screen view); @out_fd < 0: inherit. */
int ls_child_start_io(struct ls_child *c, char **argv, int out_fd);
/* Sleep up to @secs; return early when stopped or the child ended.
 * Returns 1 when the caller should stop (signal or child done). */
int ls_wait(double secs, struct ls_child *c);
/* Forward a stop to the child and reap it. */
void ls_child_finish(struct ls_child *c);
/*
 * The one exit-status rule (README "Exit status") of a command that ran,
 * or tried to run, PROGRAM, given @rc, the command's own status (0, or
 * non-zero when lockscope failed): 127 when PROGRAM was not found, 126
 * when it could not be started, else @rc when non-zero, else PROGRAM's
 * status (128+N when signal N ended it), 0 without PROGRAM.
 */
int ls_exit_status(const struct ls_child *c, int rc);

#endif
