/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* holders_text.h - the holder side of a lock row as text. */
#ifndef LS_VIEW_HOLDERS_TEXT_H
#define LS_VIEW_HOLDERS_TEXT_H

#include <stdio.h>
#include "model/model.h"

/* The holder line (states at wait start), tenure under contention and its
 * histogram (@width: bar width, 0 for none), holder sites, pairs and tids
 * of @r, each line indented by two spaces. */
void ls_print_holders(FILE *f, const struct ls_row *r, int width);
/* The holder states alone, one line, e.g. "running 60%, preempted 40%". */
void ls_print_holder_states(FILE *f, const struct ls_row *r);

#endif
