// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* index.c - finding a row by lock key: the key order and an open-addressing
 * hash over a snapshot's rows that never moves them. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "model/model.h"

int ls_key_cmp(const struct ls_lock_key *a, const struct ls_lock_key *b)
{
	if (a->addr != b->addr)
		return a->addr < b->addr ? -1 : 1;
	if (a->kind != b->kind)
		return a->kind < b->kind ? -1 : 1;
	return 0;
}

uint64_t ls_key_hash(const struct ls_lock_key *k)
{
	uint64_t h =
		(k->addr ^ ((uint64_t)k->kind << 59)) * 0x9e3779b97f4a7c15ULL;

	return h ^ (h >> 29);
}

/*
 * Open addressing, at most half full: a slot holds row + 1 in its low 32
 * bits (0: empty) and the key's hash in the high 32, so most lookups touch
 * one slot and one row.  Indexing moves no rows (over a kilobyte each).
 * With 10k locks read every second, sorting rows and binary searches over
 * them were most of the agent's time.
 */
/* Slot the key of row @i into the index (room is there). */
static void index_put(struct ls_snapshot *s, size_t i)
{
	uint64_t h = ls_key_hash(&s->rows[i].key);
	size_t cap = s->kidx_cap, j = h & (cap - 1);

	while (s->kidx[j])
		j = (j + 1) & (cap - 1);
	s->kidx[j] = (h & 0xffffffff00000000ULL) | (uint64_t)(i + 1);
}

void ls_snap_index(struct ls_snapshot *s)
{
	size_t cap = 64;

	s->kidx_n = 0;
	if (s->nrows >= UINT32_MAX)
		return; /* ls_snap_find scans */
	while (cap < 2 * s->nrows)
		cap *= 2;
	if (cap > s->kidx_cap) {
		uint64_t *k = realloc(s->kidx, cap * sizeof(*k));

		if (!k)
			return;
		s->kidx = k;
		s->kidx_cap = cap;
	}
	cap = s->kidx_cap;
	memset(s->kidx, 0, cap * sizeof(*s->kidx));
	for (size_t i = 0; i < s->nrows; i++)
		index_put(s, i);
	s->kidx_n = s->nrows;
}

void ls_snap_index_last(struct ls_snapshot *s)
{
	size_t i = s->nrows - 1;

	if (!s->nrows || s->kidx_n != i || !s->kidx_cap ||
	    2 * s->nrows > s->kidx_cap || s->nrows >= UINT32_MAX) {
		s->kidx_n = 0; /* index again before finding */
		return;
	}
	index_put(s, i);
	s->kidx_n = s->nrows;
}

struct ls_row *ls_snap_find(const struct ls_snapshot *s,
			    const struct ls_lock_key *key)
{
	if (s->kidx_n == s->nrows && s->kidx_cap) {
		uint64_t h = ls_key_hash(key), tag = h & 0xffffffff00000000ULL;
		size_t cap = s->kidx_cap, j = h & (cap - 1);
		int moved = 0;

		for (; s->kidx[j]; j = (j + 1) & (cap - 1)) {
			size_t r = (size_t)(s->kidx[j] & 0xffffffffULL) - 1;

			if ((s->kidx[j] & 0xffffffff00000000ULL) != tag)
				continue;
			if (r < s->nrows && !ls_key_cmp(&s->rows[r].key, key))
				return &s->rows[r];
			moved = 1; /* rows sorted since indexing */
		}
		if (!moved)
			return NULL;
	}
	for (size_t i = 0; i < s->nrows; i++)
		if (!ls_key_cmp(&s->rows[i].key, key))
			return &s->rows[i];
	return NULL;
}
