// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* paths.c - a command's outputs never name its inputs or each other
 * (cmd/paths.h): compared by text and by file identity. */
#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "cmd/paths.h"
#include "util/log.h"
#include "util/untrusted_text.h"

/* The file @path names: its own device and inode, or (not there yet) its
 * directory's and its name in *@name (malloc'd, NULL for an existing file).
 * 0, or -1 when neither can be found (then only the text compares). */
static int ident_of(const char *path, struct stat *st, char **name)
{
	char *d, *b;
	int err;

	*name = NULL;
	if (!stat(path, st))
		return 0;
	if (errno != ENOENT)
		return -1;
	d = strdup(path);
	b = strdup(path);
	err = d && b && !stat(dirname(d), st) ? 0 : -1;
	if (!err)
		*name = strdup(basename(b));
	free(d);
	free(b);
	return err || !*name ? -1 : 0;
}

int ls_path_same(const char *a, const char *b)
{
	struct stat sa, sb;
	char *na, *nb;
	int same = 0;

	if (!strcmp(a, b))
		return 1;
	if (!strcmp(a, "-") || !strcmp(b, "-"))
		return 0; /* standard output is no file name */
	if (!ident_of(a, &sa, &na) && !ident_of(b, &sb, &nb)) {
		same = sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino &&
		       !na == !nb && (!na || !strcmp(na, nb));
		free(nb);
	}
	free(na);
	return same;
}

/* 1 when writing @out replaces a file: a regular file, or a new path
 * (a device or FIFO is written in place, and "-" is standard output). */
static int replaces(const char *out)
{
	struct stat st;

	if (!strcmp(out, "-"))
		return 0;
	return stat(out, &st) ? errno == ENOENT : S_ISREG(st.st_mode);
}

struct use {
	const char *path;
	const char *what; /* "record", "--kallsyms", ... */
};

/* @out (option @opt) against @n paths of @u: 0, or -EINVAL said. */
static int check_one(const char *opt, const char *out, const struct use *u,
		     size_t n)
{
	char obj[300], why[400], a[256], b[256];

	if (!out || !replaces(out))
		return 0;
	for (size_t i = 0; i < n; i++) {
		if (!u[i].path || u[i].path == out ||
		    !ls_path_same(out, u[i].path))
			continue;
		ls_text_copy(a, sizeof(a), out);
		ls_text_copy(b, sizeof(b), u[i].path);
		snprintf(obj, sizeof(obj), "%s '%s'", opt, a);
		snprintf(why, sizeof(why), "it names %s '%s'%s", u[i].what, b,
			 strcmp(u[i].what, "--folded") &&
					 strcmp(u[i].what, "-o")
				 ? ", an input of this command"
				 : ", another output of this command");
		ls_fail("use", obj, why);
		return -EINVAL;
	}
	return 0;
}

int ls_check_paths(const struct ls_opts *o)
{
	size_t n = 0, cap = (size_t)o->nfiles + (size_t)o->argc + 4;
	int tracing = o->cmd == LS_CMD_TOP || o->cmd == LS_CMD_HIST ||
		      o->cmd == LS_CMD_SERVE || o->cmd == LS_CMD_RECORD;
	struct use *u = calloc(cap, sizeof(*u));
	int err;

	if (!u) {
		ls_fail_errno("check", "the file arguments", -ENOMEM);
		return -ENOMEM;
	}
	u[n++] = (struct use){o->output, "-o"};
	u[n++] = (struct use){o->folded, "--folded"};
	if (tracing)
		u[n++] = (struct use){o->col.kallsyms, "--kallsyms"};
	for (int i = 0; i < o->nfiles; i++)
		u[n++] = (struct use){o->files[i], "the record"};
	if (o->argv && (o->cmd == LS_CMD_REPORT || o->cmd == LS_CMD_COMPARE))
		for (int i = 0; i < o->argc; i++)
			u[n++] = (struct use){o->argv[i], "the record"};
	else if (o->argv && strchr(o->argv[0], '/')) /* as execvp runs it */
		u[n++] = (struct use){o->argv[0], "the program"};
	err = check_one("-o", o->output, u, n);
	if (!err)
		err = check_one("--folded", o->folded, u, n);
	free(u);
	return err;
}
