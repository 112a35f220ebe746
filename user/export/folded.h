/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * folded.h - sampled waiter stacks in the folded-stack format that
 * FlameGraph (flamegraph.pl), speedscope and Grafana's flame graph read:
 * one line per stack, "lock;frame;frame;... weight", root first, the lock
 * as the root frame, weighted by the wait time (ns) of the sampled waits.
 */
#ifndef LS_FOLDED_H
#define LS_FOLDED_H

#include <stdio.h>
#include "model/stacks.h"

/* The root frame of @s: its lock as "mutex@f" or "name(kind)", with ';'
 * and whitespace other than ' ' made '_'. */
void ls_folded_root(const struct ls_stack *s, char *buf, size_t len);
/* Write @st, heaviest first; stacks without wait time are left out (their
 * waits had not ended).  Returns the sum of the weights written. */
uint64_t ls_folded_write(FILE *f, const struct ls_stacks *st);

#endif
