// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* main.c - parse the command line and run one command. */
#include <stdio.h>
#include "cmd/cli.h"
#include "cmd/commands.h"
#include "cmd/run.h"
#include "util/outfile.h"

static int run(const struct ls_opts *o)
{
	switch (o->cmd) {
	case LS_CMD_DOCTOR:
		return ls_cmd_doctor(o);
	case LS_CMD_HIST:
		return ls_cmd_hist(o);
	case LS_CMD_SERVE:
		return ls_cmd_serve(o);
	case LS_CMD_RECORD:
		return ls_cmd_record(o);
	case LS_CMD_COMPARE:
		return ls_cmd_compare(o);
	case LS_CMD_REPORT:
		return ls_cmd_report(o);
	case LS_CMD_WHATIF:
		return ls_cmd_whatif(o);
	default:
		return ls_cmd_top(o);
	}
}

int main(int argc, char **argv)
{
	struct ls_opts o;
	int err, rc;

	ls_out_watch_stdout();
	err = ls_cli_parse(argc, argv, &o);
	if (err < 0)
		return 2;
	if (err > 0) /* --help, --usage, --version */
		return ls_out_flush(stdout, "standard output") ? 1 : 0;
	if (o.col.tgid && ls_check_pid(o.col.tgid))
		return 2; /* -p: no such process */
	rc = run(&o);
	/* every command's output: a write error is an error (once) */
	if (ls_out_flush(stdout, "standard output"))
		return 1;
	return rc;
}
