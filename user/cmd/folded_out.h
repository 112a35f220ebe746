/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* folded_out.h - hist and record --folded FILE: the file opened before the
 * run (a bad path fails at once), the stacks written after it. */
#ifndef LS_FOLDED_OUT_H
#define LS_FOLDED_OUT_H

#include "util/outfile.h"
#include "model/stacks.h"

struct ls_folded_out {
	struct ls_out out;
	int open;
};

/* Open @path (NULL: nothing to do); 0, or the exit status (2 or 1) with
 * the message printed. */
int ls_folded_open(struct ls_folded_out *fo, const char *path);
/* Write @st and commit; 0 or -errno (message printed). */
int ls_folded_finish(struct ls_folded_out *fo, const struct ls_stacks *st);
/* Drop the file (the run failed). */
void ls_folded_abort(struct ls_folded_out *fo);

#endif
