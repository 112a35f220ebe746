/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* cli.h - the command line parsed into the one struct of options
 * (cmd/opts.h), through argp and the table of options (cmd/options.h). */
#ifndef LS_CLI_H
#define LS_CLI_H

#include "cmd/opts.h"

/*
 * Parse argv into @o.  Returns 0 to run, 1 when --help/--usage/--version
 * printed and the program should exit 0, or -EINVAL after printing one line
 * "lockscope: failed to parse ..." (also for an option the command does not
 * take).
 */
int ls_cli_parse(int argc, char **argv, struct ls_opts *o);

#endif
