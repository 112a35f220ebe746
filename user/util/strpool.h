/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* strpool.h - copies of strings in chunks that never move, freed together:
 * a table of many short strings costs their bytes, not a fixed-size field
 * each. */
#ifndef LS_UTIL_STRPOOL_H
#define LS_UTIL_STRPOOL_H

#include <stddef.h>

struct ls_strchunk;

struct ls_strpool {
	struct ls_strchunk *head; /* the chunk being filled; NULL: empty */
};

/* A copy of @s that lives until ls_pool_free; NULL when out of memory. */
const char *ls_pool_dup(struct ls_strpool *p, const char *s);
void ls_pool_free(struct ls_strpool *p);

#endif
