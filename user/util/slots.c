// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* slots.c - a hash index of the positions of an array (slots.h). */
#include "util/slots.h"

uint64_t ls_hash_bytes(uint64_t h, const void *p, size_t len)
{
	const unsigned char *b = p;

	for (size_t i = 0; i < len; i++)
		h = (h ^ b[i]) * 1099511628211ULL;
	return h;
}

size_t *ls_slots_find(size_t *slots, size_t n, uint64_t hash,
		      int (*same)(const void *ctx, size_t pos), const void *ctx)
{
	for (size_t i = (size_t)hash & (n - 1);; i = (i + 1) & (n - 1))
		if (!slots[i] || same(ctx, slots[i] - 1))
			return &slots[i];
}
