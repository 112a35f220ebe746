/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* slots.h - a hash index of the positions of an array (open addressing,
 * linear probing): each slot holds a position + 1, or 0 when empty. */
#ifndef LS_UTIL_SLOTS_H
#define LS_UTIL_SLOTS_H

#include <stddef.h>
#include <stdint.h>

#define LS_HASH_INIT 14695981039346656037ULL

/* FNV-1a of @len bytes at @p, going on from @h (LS_HASH_INIT to start). */
uint64_t ls_hash_bytes(uint64_t h, const void *p, size_t len);

/*
 * The slot of the entry that @same finds equal to the key (it is given
 * @ctx and the entry's position), else the empty slot where the key goes.
 * @n is a power of two and at least one slot is empty.
 */
size_t *ls_slots_find(size_t *slots, size_t n, uint64_t hash,
		      int (*same)(const void *ctx, size_t pos),
		      const void *ctx);

#endif
