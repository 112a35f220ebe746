// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* folded_out.c - the --folded FILE of hist and record: opened before the
 * run, sampled waiter stacks written as folded lines after it. */
#include "cmd/folded_out.h"
#include "export/folded.h"

int ls_folded_open(struct ls_folded_out *fo, const char *path)
{
	int err;

	fo->open = 0;
	if (!path)
		return 0;
	err = ls_out_open(&fo->out, path);
	if (err)
		return ls_out_open_status(err);
	fo->open = 1;
	return 0;
}

int ls_folded_finish(struct ls_folded_out *fo, const struct ls_stacks *st)
{
	if (!fo->open)
		return 0;
	fo->open = 0;
	ls_folded_write(fo->out.f, st);
	return ls_out_commit(&fo->out);
}

void ls_folded_abort(struct ls_folded_out *fo)
{
	if (fo->open)
		ls_out_abort(&fo->out);
	fo->open = 0;
}
