/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* cgroup_text.h - a lock's waits by the waiter's cgroup (--by cgroup). */
#ifndef LS_VIEW_CGROUP_TEXT_H
#define LS_VIEW_CGROUP_TEXT_H

#include <stdio.h>
#include "model/model.h"

#define LS_CG_SHOWN 8 /* cgroups listed per lock, most wait first */

/* The "waiters by cgroup" lines of lock @r in @s; nothing without
 * --by cgroup. */
void ls_print_cgroups(FILE *f, const struct ls_snapshot *s,
		      const struct ls_row *r);
/* The same for top, over an interval: @d is the interval's snapshot (a
 * delta), waits and wait time per second of its @secs; each line begins
 * with @indent.  Nothing without --by cgroup. */
void ls_print_cgroups_rate(FILE *f, const struct ls_snapshot *d,
			   const struct ls_row *r, double secs,
			   const char *indent);

#endif
