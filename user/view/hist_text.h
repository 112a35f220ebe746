/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* hist_text.h - log2 histograms as text rows with bars. */
#ifndef LS_VIEW_HIST_TEXT_H
#define LS_VIEW_HIST_TEXT_H

#include <stdio.h>
#include <linux/types.h>
#include "lockscope.h"

/* Print one or two histograms side by side, rows from the first to the last
 * non-empty slot: "range  count1 count2 |bars|", the bars @width characters
 * wide (1 to LS_HIST_BAR_MAX); the lines are 39 (one histogram) or 50 (two)
 * characters plus the bars.  @b may be NULL. */
#define LS_HIST_BAR_MAX 200
void ls_hist_print(FILE *f, const char *la, const __u64 *a, const char *lb,
		   const __u64 *b, int width);
/* The same with @what ("hold") instead of "wait" in the header. */
void ls_hist_print_of(FILE *f, const char *what, const char *la, const __u64 *a,
		      const char *lb, const __u64 *b, int width);

#endif
