/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* hold_text.h - hold times (--hold) of a lock as text. */
#ifndef LS_VIEW_HOLD_TEXT_H
#define LS_VIEW_HOLD_TEXT_H

#include <stdio.h>
#include "model/model.h"

/* The hold lines and histograms of row @r of @s; nothing when it has no
 * holds. */
void ls_print_hold(FILE *f, const struct ls_snapshot *s,
		   const struct ls_row *r);

#endif
