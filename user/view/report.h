/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * report.h - `lockscope report`: records as one self-contained HTML page of
 * tables and inline SVG pictures.  For records: run metadata and losses,
 * the top locks, wait histograms with spin and sleep stacked, the time
 * series of -i, and a flame graph of the sampled waiter stacks.  For a
 * compare: both sides' wait distributions overlaid, the change table with
 * significant rows marked, and each side's flame graph.
 */
#ifndef LS_VIEW_REPORT_H
#define LS_VIEW_REPORT_H

#include <stdio.h>
#include "export/record.h"
#include "view/compare_table.h"

/* The page of @n records from @files, @nlocks locks drawn each; 0 or
 * -ENOMEM. */
int ls_report_records(FILE *f, const struct ls_rec *recs, char *const *files,
		      size_t n, unsigned nlocks);
/* The page of the comparison @c of @in; 0 or -ENOMEM. */
int ls_report_compare(FILE *f, const struct ls_cmp *c,
		      const struct ls_cmp_input in[2], unsigned nlocks);

/* Locks of @s by total wait, most first: @order gets up to @max indices
 * into s->locks; returns how many. */
size_t ls_report_top(const struct ls_rec_snap *s, size_t *order, size_t max);

#endif
