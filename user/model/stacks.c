// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* stacks.c - the container of sampled waiter stacks (flame graph data):
 * entries merged by lock class and frames, sorted heaviest first. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/stacks.h"

void ls_stacks_init(struct ls_stacks *st)
{
	memset(st, 0, sizeof(*st));
}

void ls_stacks_free(struct ls_stacks *st)
{
	for (size_t i = 0; i < st->n; i++)
		free(st->v[i].frames);
	free(st->v);
	memset(st, 0, sizeof(*st));
}

static uint64_t sat_add(uint64_t a, uint64_t b)
{
	return a + b < a ? UINT64_MAX : a + b;
}

int ls_stacks_add(struct ls_stacks *st, const char *lock, uint32_t kind,
		  const char *frames, uint64_t samples, uint64_t wait_ns)
{
	struct ls_stack *e;

	for (size_t i = 0; i < st->n; i++) {
		e = &st->v[i];
		if (e->kind == kind && !strcmp(e->lock, lock) &&
		    !strcmp(e->frames, frames)) {
			e->samples = sat_add(e->samples, samples);
			e->wait_ns = sat_add(e->wait_ns, wait_ns);
			return 0;
		}
	}
	if (st->n == st->cap) {
		size_t cap = st->cap ? st->cap * 2 : 64;

		e = realloc(st->v, cap * sizeof(*e));
		if (!e)
			return -ENOMEM;
		st->v = e;
		st->cap = cap;
	}
	e = &st->v[st->n];
	memset(e, 0, sizeof(*e));
	e->frames = strdup(frames);
	if (!e->frames)
		return -ENOMEM;
	snprintf(e->lock, sizeof(e->lock), "%s", lock);
	e->kind = kind;
	e->samples = samples;
	e->wait_ns = wait_ns;
	st->n++;
	return 0;
}

static int cmp_stack(const void *pa, const void *pb)
{
	const struct ls_stack *a = pa, *b = pb;
	int c;

	if (a->wait_ns != b->wait_ns)
		return a->wait_ns > b->wait_ns ? -1 : 1;
	if (a->samples != b->samples)
		return a->samples > b->samples ? -1 : 1;
	c = strcmp(a->lock, b->lock);
	return c ? c : strcmp(a->frames, b->frames);
}

void ls_stacks_sort(struct ls_stacks *st)
{
	if (st->n)
		qsort(st->v, st->n, sizeof(*st->v), cmp_stack);
}

uint64_t ls_stacks_wait_total(const struct ls_stacks *st)
{
	uint64_t t = 0;

	for (size_t i = 0; i < st->n; i++)
		t = sat_add(t, st->v[i].wait_ns);
	return t;
}
