/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* stacks.h - sampled waiter stacks for flame graphs: per lock class (name
 * and kind) and stack, how often it was sampled and how long those sampled
 * waits lasted. */
#ifndef LS_STACKS_H
#define LS_STACKS_H

#include <stddef.h>
#include <stdint.h>
#include "model/model.h"

struct ls_stack {
	char lock[LS_NAME_MAX]; /* the lock's display name */
	uint32_t kind;		/* enum ls_kind */
	char *frames;		/* root first, ';' between frames */
	uint64_t samples;	/* sampled waits with this stack */
	uint64_t wait_ns;	/* their whole wait time */
};

struct ls_stacks {
	struct ls_stack *v;
	size_t n, cap;
	/* open-addressing index of v by lock, kind and frames: 1 + the
	 * entry's position, 0 for an empty slot; nidx slots, a power of two
	 * (0: none yet, or v was sorted since and it is built again) */
	size_t *idx, nidx;
};

void ls_stacks_init(struct ls_stacks *st);
void ls_stacks_free(struct ls_stacks *st);
/* Add to the entry of (@lock, @kind, @frames), made if new (found through
 * a hash index: adding n entries costs O(n)); 0 or -ENOMEM. */
int ls_stacks_add(struct ls_stacks *st, const char *lock, uint32_t kind,
		  const char *frames, uint64_t samples, uint64_t wait_ns);
/* Heaviest first (wait time, then samples, then lock and frames). */
void ls_stacks_sort(struct ls_stacks *st);
/* Sum of the wait time of every entry (saturating at 2^64-1). */
uint64_t ls_stacks_wait_total(const struct ls_stacks *st);

#endif
