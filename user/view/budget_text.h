/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* budget_text.h - --budget in plain text: the sampler's line and each
 * estimated row's standard errors. */
#ifndef LS_BUDGET_TEXT_H
#define LS_BUDGET_TEXT_H

#include <stdio.h>
#include "model/model.h"

/* One line: the budget, the N in force, the programs' own cost over
 * @secs; nothing without a budget. */
void ls_print_budget(FILE *f, const struct ls_snapshot *s, double secs);

/* One line under an estimated row: waits timed, standard errors. */
void ls_print_row_estimate(FILE *f, const struct ls_row *r);

#endif
