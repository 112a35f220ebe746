/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * outfile.h - output files and streams: a regular file (or a new path) is
 * written atomically, a temporary file beside it renamed over it once
 * complete, so readers see the old file or the whole new one; anything else
 * (a character device, a FIFO, a symbolic link to one, "-" for standard
 * output) is written in place and never replaced.
 *
 * ls_out_open() checks the path and makes the temporary file before any
 * work starts, so a bad path fails at once instead of after a long
 * benchmark.
 */
#ifndef LS_OUTFILE_H
#define LS_OUTFILE_H

#include <stdio.h>

enum ls_out_mode {
	LS_OUT_STDOUT,	 /* "-": standard output */
	LS_OUT_ATOMIC,	 /* regular file or new path: temporary + rename */
	LS_OUT_IN_PLACE, /* character device or FIFO: opened and written */
};

struct ls_sink;

struct ls_out {
	FILE *f; /* write here between open and commit */
	enum ls_out_mode mode;
	struct ls_sink *sink; /* files: f's fd and its first write error */
	char *path;	      /* as given, for messages */
	int dirfd;	      /* LS_OUT_ATOMIC: the directory of the file */
	char *base; /* LS_OUT_ATOMIC: the file's name in dirfd (the target's
		       name when the path is a symbolic link) */
	char *tmp;  /* LS_OUT_ATOMIC: temporary name in dirfd */
};

/* 0 or -errno (message printed).  Opening a FIFO waits for its reader. */
int ls_out_open(struct ls_out *o, const char *path);
/* Exit status for a failed ls_out_open(): 2 when the path is at fault (the
 * user can fix it: empty, a directory, missing, not writable, too long, a
 * block device), 1 otherwise. */
int ls_out_open_status(int err);
/* Flush, sync, close and (atomic) rename into place; 0 or -errno (message
 * printed, temporary file removed). */
int ls_out_commit(struct ls_out *o);
/* Close and remove the temporary file. */
void ls_out_abort(struct ls_out *o);

/* Make standard output, unless it is a terminal (the full-screen view draws
 * through its fd), a stream that keeps the reason of its first failed write:
 * stdio forgets it when a large write bypasses its buffer.  Once, first. */
void ls_out_watch_stdout(void);
/* Flush @f and check that everything written reached it: 0, or -errno
 * after printing "lockscope: failed to write <what>: <reason>" once (the
 * unwritten rest is dropped, so a later flush does not report it again). */
int ls_out_flush(FILE *f, const char *what);

#endif
