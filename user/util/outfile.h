/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * outfile.h - write a file atomically: a temporary file beside it, renamed
 * over it once complete, so readers see the old file or the whole new one.
 *
 * The temporary file is made by ls_out_open() before any work starts, so a
 * bad path fails at once instead of after a long benchmark.
 */
#ifndef LS_OUTFILE_H
#define LS_OUTFILE_H

#include <stdio.h>

struct ls_out {
	FILE *f;    /* write here between open and commit */
	char *path; /* final name; NULL for standard output ("-") */
	char *tmp;  /* temporary name */
};

/* 0 or -errno (message printed). @path "-" writes to standard output. */
int ls_out_open(struct ls_out *o, const char *path);
/* Flush, sync, close and rename into place; 0 or -errno (message printed,
 * temporary file removed). */
int ls_out_commit(struct ls_out *o);
/* Close and remove the temporary file. */
void ls_out_abort(struct ls_out *o);

#endif
