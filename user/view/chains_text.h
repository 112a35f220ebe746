/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* chains_text.h - a lock's wait-for chains as text (hist, top's detail). */
#ifndef LS_VIEW_CHAINS_TEXT_H
#define LS_VIEW_CHAINS_TEXT_H

#include <stdio.h>
#include "model/model.h"

#define LS_CHAINS_SHOWN 5 /* chains listed per lock, cycles first */

/* The chain block of lock @r in @s: the share of its waits and wait time
 * whose holder waited on another lock, then its top chains; nothing for a
 * lock without a chain (a line saying why for one with an owner word when
 * chains were not collected). */
void ls_print_chains(FILE *f, const struct ls_snapshot *s,
		     const struct ls_row *r);

#endif
