/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* flame_svg.h - sampled waiter stacks as an SVG flame graph (the data of
 * `--folded`): the lock at the bottom, callers above, widths by wait time. */
#ifndef LS_VIEW_FLAME_SVG_H
#define LS_VIEW_FLAME_SVG_H

#include <stdio.h>
#include "model/stacks.h"

/* Draw @st (several sets merged when @nsets > 1); 0 or -ENOMEM.  The SVG
 * has class "ls-flame"; each frame's title gives its wait time and share. */
int ls_svg_flame(FILE *f, const struct ls_stacks *st, size_t nsets);

#endif
