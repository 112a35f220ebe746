// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* help.c - the text of --help (cmd/help.h): the options a command takes,
 * under their group headers, and the text around them: commands, examples,
 * exit status, lock kinds and sort keys. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "cmd/help.h"
#include "cmd/options.h"

/* Does a command of @cmds take an option of the group headed by @hdr? */
static int group_taken(size_t hdr, unsigned cmds)
{
	for (size_t j = hdr + 1; j < ls_opt_ndefs && ls_opt_defs[j].a.name; j++)
		if (ls_opt_defs[j].cmds & cmds)
			return 1;
	return 0;
}

/* The options @cmds take, each group under its header. */
void ls_help_options(unsigned cmds, struct argp_option *out)
{
	size_t n = 0;

	for (size_t i = 0; i < ls_opt_ndefs; i++)
		if (ls_opt_defs[i].a.name ? !!(ls_opt_defs[i].cmds & cmds)
					  : group_taken(i, cmds))
			out[n++] = ls_opt_defs[i].a;
	memset(&out[n], 0, sizeof(out[n]));
}

/* Append to a help text; what does not fit is cut. */
static __attribute__((format(printf, 4, 5))) void
put(char *buf, size_t len, size_t *off, const char *fmt, ...)
{
	va_list ap;

	if (*off >= len)
		return;
	va_start(ap, fmt);
	*off += (size_t)vsnprintf(buf + *off, len - *off, fmt, ap);
	va_end(ap);
}

/* The text around the options: every command (@cmd < 0), or one. */
void ls_help_doc(char *buf, size_t len, int cmd)
{
	static const char prog[] = "lockscope ";
	unsigned cmds = cmd < 0 ? LS_CMDS_ALL : 1U << cmd;
	size_t off = 0;

	if (cmd < 0) {
		put(buf, len, &off,
		    "lockscope -- live kernel lock contention: which lock, who "
		    "waits, how long they spin and sleep.\n\nCommands "
		    "(lockscope COMMAND --help: its options):\n");
		for (int c = 0; c < LS_CMD_NR; c++)
			put(buf, len, &off, "  %-8s %s\n", ls_cmd_names[c],
			    ls_cmd_about[c]);
	} else {
		put(buf, len, &off, "lockscope %s -- %s.\n", ls_cmd_names[cmd],
		    ls_cmd_about[cmd]);
	}
	put(buf, len, &off, "\nExamples:\n");
	for (size_t i = 0; i < ls_nexamples; i++) {
		const char *word = ls_examples[i] + sizeof(prog) - 1;
		size_t n = cmd < 0 ? 0 : strlen(ls_cmd_names[cmd]);

		if (cmd < 0 || (!strncmp(word, ls_cmd_names[cmd], n) &&
				(word[n] == ' ' || !word[n])))
			put(buf, len, &off, "  %s\n", ls_examples[i]);
	}
	put(buf, len, &off, "\v%s", ls_help_exit);
	if (ls_opt_defs[ls_opt_def_of('T')].cmds & cmds)
		put(buf, len, &off, "\n%s", ls_help_kinds);
	if (ls_opt_defs[ls_opt_def_of('s')].cmds & cmds)
		put(buf, len, &off, "\n%s", ls_help_sort);
}
