/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* options.h - the table of options and the commands that take each. */
#ifndef LS_OPTIONS_H
#define LS_OPTIONS_H

#include <argp.h>
#include <stddef.h>

enum ls_cmd {
	LS_CMD_TOP = 0,
	LS_CMD_HIST,
	LS_CMD_DOCTOR,
	LS_CMD_SERVE,
	LS_CMD_RECORD,
	LS_CMD_COMPARE,
	LS_CMD_REPORT,
	LS_CMD_WHATIF,
	LS_CMD_NR,
};

/* Keys of the options without a short form. */
enum ls_opt_key {
	LS_OPT_ADDR = 1000,
	LS_OPT_JSON,
	LS_OPT_STACK_EVERY,
	LS_OPT_MAX_LOCKS,
	LS_OPT_MAX_TASKS,
	LS_OPT_MAX_CALLERS,
	LS_OPT_MAX_STACKS,
	LS_OPT_KALLSYMS,
	LS_OPT_NO_TP,
	LS_OPT_COST,
	LS_OPT_SOURCE,
	LS_OPT_LISTEN,
	LS_OPT_USER,
	LS_OPT_ALLOW_ROOT,
	LS_OPT_MAX_SERIES,
	LS_OPT_NO_COST,
	LS_OPT_FORMAT,
	LS_OPT_THRESHOLD,
	LS_OPT_MIN_SHARE,
	LS_OPT_FORGET,
	LS_OPT_FOLDED,
	LS_OPT_HOLD,
	LS_OPT_USAGE,
	LS_OPT_BY,
	LS_OPT_CGROUP,
	LS_OPT_MAX_CGROUPS,
	LS_OPT_NO_CHAINS,
	LS_OPT_DELAYS,
	LS_OPT_ROUNDS,
	LS_OPT_METRIC,
	LS_OPT_YES_PERTURB,
	LS_OPT_PLACEBO,
	LS_OPT_BUDGET,
};

#define LS_OPT_MAX 64 /* rows of the table: bits of a uint64_t */
#define LS_CMDS_ALL ((1U << LS_CMD_NR) - 1)
_Static_assert(LS_CMD_NR <= 32, "commands are bits of an unsigned");

/* One option (argp's row; a group header has no name) and the commands
 * that take it, a bit per enum ls_cmd. */
struct ls_opt_def {
	struct argp_option a;
	unsigned cmds;
};

extern const struct ls_opt_def ls_opt_defs[];
extern const size_t ls_opt_ndefs;

extern const char *const ls_cmd_names[LS_CMD_NR];
extern const char *const ls_cmd_about[LS_CMD_NR]; /* one line each */
extern const char *const ls_cmd_args[LS_CMD_NR];  /* usage after options */
extern const char *const ls_examples[];		  /* "lockscope CMD ..." */
extern const size_t ls_nexamples;
/* Help after the options: the exit status rule, kinds (-T), sort keys. */
extern const char ls_help_exit[], ls_help_kinds[], ls_help_sort[];

/* The index in ls_opt_defs of the option with key @key, -1 if none. */
int ls_opt_def_of(int key);

#endif
