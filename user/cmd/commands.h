/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* commands.h - one entry point per command; each returns the exit status. */
#ifndef LS_COMMANDS_H
#define LS_COMMANDS_H

#include "cmd/cli.h"

int ls_cmd_doctor(const struct ls_opts *o);
int ls_cmd_hist(const struct ls_opts *o);
int ls_cmd_top(const struct ls_opts *o);
int ls_cmd_serve(const struct ls_opts *o);
int ls_cmd_record(const struct ls_opts *o);
int ls_cmd_compare(const struct ls_opts *o);
int ls_cmd_report(const struct ls_opts *o);

#endif
