/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * paths.h - what one command writes never names what it reads, nor another
 * of its outputs: `report -o base.json base.json` would turn the record into
 * a page, `record --folded F -o F` one output into the other.  Two paths
 * name the same file when their text is the same, or when they resolve to
 * the same file (device and inode, through symbolic links and ./); a path
 * not there yet, by its directory's identity and its name.
 */
#ifndef LS_CMD_PATHS_H
#define LS_CMD_PATHS_H

#include "cmd/opts.h"

/* 1 when @a and @b name the same file (as above), else 0. */
int ls_path_same(const char *a, const char *b);
/* Check the outputs of @o (-o, --folded) against its inputs (record files,
 * --kallsyms, the PROGRAM when it is a path) and each other: 0, or -EINVAL
 * after the one-line error (bad input). */
int ls_check_paths(const struct ls_opts *o);

#endif
