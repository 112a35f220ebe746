/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* compare_table.h - a comparison as a robot-style table, JSON or CSV. */
#ifndef LS_VIEW_COMPARE_H
#define LS_VIEW_COMPARE_H

#include <stdio.h>
#include <json-c/json.h>
#include "analysis/compare.h"

/* The records of one side and the files they came from. */
struct ls_cmp_input {
	const struct ls_rec *recs;
	char *const *files;
	size_t n;
};

/* Header, the rows that changed, and what was hidden or one-sided. */
void ls_cmp_print_text(FILE *f, const struct ls_cmp *c,
		       const struct ls_cmp_input in[2]);
/* Every row, with its flags ("lockscope-compare" schema version 1). */
struct json_object *ls_cmp_to_json(const struct ls_cmp *c,
				   const struct ls_cmp_input in[2]);
/* The change of the means, "+12.3%", in @b, or a fixed "(new)", "(gone)"
 * or "(was 0)" (no ratio to a zero base): what every view prints. */
const char *ls_cmp_change_text(char *b, size_t n, const struct ls_cmp_row *r);
/* "+12.3% [+8.1%, +16.4%]" in @b (or a fixed "-" / "(base 0)" when the
 * metric was not tested, or its lock is new); returns the text. */
const char *ls_cmp_effect_text(char *b, size_t n, const struct ls_cmp_row *r);
/* What side @side's figure of row @r is under --budget, in @b: "" when
 * exact, "se ±1.2%" (its runs' standard error, percent of the mean),
 * "estimate" (no standard error in the records) or "timed waits" (of the
 * timed waits only); the marker "~" beside a mean says it is not "". */
const char *ls_cmp_est_text(char *b, size_t n, const struct ls_cmp_row *r,
			    int side);
/* Every row, one line each, with a header line. */
void ls_cmp_print_csv(FILE *f, const struct ls_cmp *c);

#endif
