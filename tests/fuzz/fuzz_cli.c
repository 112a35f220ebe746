// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * fuzz_cli - libFuzzer harness for the command line parser: the input,
 * split at NUL bytes, is argv[1..].  Errors go to stderr (run with
 * -close_fd_mask=3 to keep the log readable).
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "cmd/cli.h"

#define MAX_ARGS 64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *argv[MAX_ARGS + 2], *buf = malloc(size + 1);
	struct ls_opts o;
	int argc = 1, r;

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	buf[size] = '\0';
	argv[0] = "lockscope";
	for (size_t i = 0; i <= size && argc <= MAX_ARGS;) {
		size_t len = strlen(buf + i);

		argv[argc++] = buf + i;
		i += len + 1;
	}
	argv[argc] = NULL;
	r = ls_cli_parse(argc, argv, &o);
	if (r != 0 && r != 1 && r != -EINVAL)
		__builtin_trap();
	if (r == 0) {
		/* what parsed must be in range */
		if (o.cmd >= LS_CMD_NR || o.interval < 0.05 ||
		    (o.argv && (o.argc < 1 || !o.argv[0])))
			__builtin_trap();
		/* percentages in range; options only where a command takes
		 * them (options.c); no empty values */
		if (o.threshold < 0 || o.threshold > 1e6 || o.min_share < 0 ||
		    o.min_share > 100 || (o.json && o.cmd != LS_CMD_HIST) ||
		    (o.batch && o.cmd != LS_CMD_TOP) ||
		    (o.output &&
		     ((o.cmd != LS_CMD_RECORD && o.cmd != LS_CMD_REPORT) ||
		      !*o.output)) ||
		    (o.count_set && o.cmd != LS_CMD_TOP &&
		     o.cmd != LS_CMD_HIST && o.cmd != LS_CMD_REPORT) ||
		    (o.duration > 0 && o.cmd != LS_CMD_HIST &&
		     o.cmd != LS_CMD_RECORD) ||
		    (o.filter.name && !*o.filter.name))
			__builtin_trap();
	}
	/* kept for the process lifetime by ls_cli_parse */
	free(o.all_argv);
	free(o.files);
	free(buf);
	return 0;
}
