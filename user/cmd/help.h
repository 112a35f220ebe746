/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* help.h - the text of --help (cmd/help.c). */
#ifndef LS_HELP_H
#define LS_HELP_H

#include <argp.h>
#include <stddef.h>

/* The options the commands of the mask @cmds take, each group under its
 * header, into @out (room for every option and a zero end). */
void ls_help_options(unsigned cmds, struct argp_option *out);
/* The text around the options into @buf: every command (@cmd < 0), or
 * one. */
void ls_help_doc(char *buf, size_t len, int cmd);

#endif
