// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* stacks.c - the container of sampled waiter stacks (flame graph data):
 * entries merged by lock class and frames, sorted heaviest first. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/stacks.h"
#include "util/slots.h"

void ls_stacks_init(struct ls_stacks *st)
{
	memset(st, 0, sizeof(*st));
}

void ls_stacks_free(struct ls_stacks *st)
{
	for (size_t i = 0; i < st->n; i++)
		free(st->v[i].frames);
	free(st->v);
	free(st->idx);
	memset(st, 0, sizeof(*st));
}

static uint64_t sat_add(uint64_t a, uint64_t b)
{
	return a + b < a ? UINT64_MAX : a + b;
}

/* An entry's identity, as ls_slots_find compares it. */
struct key {
	const struct ls_stacks *st;
	const char *lock, *frames;
	uint32_t kind;
};

static int same_entry(const void *ctx, size_t pos)
{
	const struct key *k = ctx;
	const struct ls_stack *e = &k->st->v[pos];

	return e->kind == k->kind &&
	       !strncmp(e->lock, k->lock, LS_NAME_MAX - 1) &&
	       !strcmp(e->frames, k->frames);
}

/* The index slot of (@lock, @kind, @frames): its entry's, or the empty
 * one where it goes (the lock as kept: at most LS_NAME_MAX - 1 bytes). */
static size_t *slot_of(const struct ls_stacks *st, const char *lock,
		       uint32_t kind, const char *frames)
{
	struct key k = {st, lock, frames, kind};
	size_t n = strnlen(lock, LS_NAME_MAX - 1);
	uint64_t h = ls_hash_bytes(LS_HASH_INIT, &kind, sizeof(kind));

	h = ls_hash_bytes(ls_hash_bytes(h, lock, n), "", 1);
	h = ls_hash_bytes(h, frames, strlen(frames));
	return ls_slots_find(st->idx, st->nidx, h, same_entry, &k);
}

/* Index every entry in a table at least twice their number. */
static int reindex(struct ls_stacks *st, size_t want)
{
	size_t n = 64;

	while (n < 2 * want)
		n *= 2;
	free(st->idx);
	st->idx = calloc(n, sizeof(*st->idx));
	st->nidx = st->idx ? n : 0;
	if (!st->idx)
		return -ENOMEM;
	for (size_t i = 0; i < st->n; i++)
		*slot_of(st, st->v[i].lock, st->v[i].kind, st->v[i].frames) =
			i + 1;
	return 0;
}

int ls_stacks_add(struct ls_stacks *st, const char *lock, uint32_t kind,
		  const char *frames, uint64_t samples, uint64_t wait_ns)
{
	struct ls_stack *e;
	size_t *slot;

	if ((!st->nidx || 2 * (st->n + 1) > st->nidx) && reindex(st, st->n + 1))
		return -ENOMEM;
	slot = slot_of(st, lock, kind, frames);
	if (*slot) {
		e = &st->v[*slot - 1];
		e->samples = sat_add(e->samples, samples);
		e->wait_ns = sat_add(e->wait_ns, wait_ns);
		return 0;
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
	*slot = ++st->n;
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
	st->nidx = 0; /* positions moved: index again on the next add */
}

uint64_t ls_stacks_wait_total(const struct ls_stacks *st)
{
	uint64_t t = 0;

	for (size_t i = 0; i < st->n; i++)
		t = sat_add(t, st->v[i].wait_ns);
	return t;
}
