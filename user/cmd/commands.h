/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* commands.h - one entry point per command; each returns the exit status. */
#ifndef LS_COMMANDS_H
#define LS_COMMANDS_H

#include "cmd/cli.h"

struct ls_rec;

int ls_cmd_doctor(const struct ls_opts *o);
int ls_cmd_hist(const struct ls_opts *o);
int ls_cmd_top(const struct ls_opts *o);
int ls_cmd_serve(const struct ls_opts *o);
int ls_cmd_record(const struct ls_opts *o);
int ls_cmd_compare(const struct ls_opts *o);
int ls_cmd_report(const struct ls_opts *o);
int ls_cmd_whatif(const struct ls_opts *o);
/* Read the @n record files of one side of a compare into @recs, folding
 * lock instances into classes with @by_class, keeping the histograms and
 * stacks only for @pictures; the first failure is reported (with a hint
 * for an option after --): 0 or -1. */
int ls_read_side(char *const *files, int n, struct ls_rec *recs, int by_class,
		 int pictures);

#endif
