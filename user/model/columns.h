/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* columns.h - which columns of a lock row this kernel's sources give. */
#ifndef LS_COLUMNS_H
#define LS_COLUMNS_H

#include <stdio.h>
#include "model/sources.h"

/* One group of columns and the source that fills it. */
struct ls_column_group {
	const char *columns;	  /* what a row shows, for display */
	enum ls_source_id source; /* the source that gives it */
};

/* The groups, in row order; @n gets their count. */
const struct ls_column_group *ls_column_groups(size_t *n);
/*
 * Doctor's "columns on this kernel": each group with the source that gives
 * it, or "missing" and that source's name when it is not active.
 */
void ls_columns_print(FILE *f, const struct ls_source *src);

#endif
