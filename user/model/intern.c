// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* intern.c - interned function names: an open-addressing hash set of the
 * distinct names seen, each copied once into arena blocks that live as long
 * as the process.  Names are interned where rows are built (the collector
 * thread, record loading), not per event; a mutex makes it safe anywhere. */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "model/intern.h"

#define BLOCK_SIZE 65536 /* arena block: many names, one allocation */

/* An arena block; the names follow the header.  Blocks are chained so
 * that every one stays reachable (leak checkers see no leak). */
struct block {
	struct block *prev;
	size_t used;
	char data[];
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static const char **slots; /* cap slots, a power of two; NULL: empty */
static size_t cap, count;
static struct block *blocks;

static uint64_t hash(const char *s, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ULL; /* FNV-1a */

	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 0x100000001b3ULL;
	return h;
}

/* The slot holding the @n bytes at @s, or the empty slot where they go. */
static size_t find(const char **tab, size_t tcap, const char *s, size_t n)
{
	size_t m = tcap - 1, i = hash(s, n) & m;

	while (tab[i] && (strncmp(tab[i], s, n) || tab[i][n]))
		i = (i + 1) & m;
	return i;
}

/* Double the table (or make the first one); 0 or -1 without memory. */
static int grow(void)
{
	size_t ncap = cap ? cap * 2 : 1024;
	const char **tab = calloc(ncap, sizeof(*tab));

	if (!tab)
		return -1;
	for (size_t i = 0; i < cap; i++)
		if (slots[i])
			tab[find(tab, ncap, slots[i], strlen(slots[i]))] =
				slots[i];
	free(slots);
	slots = tab;
	cap = ncap;
	return 0;
}

/* A copy of the @n bytes at @s, terminated, in the arena; NULL without
 * memory. */
static const char *copy(const char *s, size_t n)
{
	char *p;

	if (!blocks || BLOCK_SIZE - blocks->used < n + 1) {
		struct block *b = malloc(sizeof(*b) + BLOCK_SIZE);

		if (!b)
			return NULL;
		b->prev = blocks;
		b->used = 0;
		blocks = b;
	}
	p = blocks->data + blocks->used;
	memcpy(p, s, n);
	p[n] = '\0';
	blocks->used += n + 1;
	return p;
}

const char *ls_intern(const char *s)
{
	size_t n = strnlen(s, LS_FN_MAX - 1), i;
	const char *p = NULL;

	pthread_mutex_lock(&lock);
	/* at most half full: probes stay short */
	if ((count + 1) * 2 > cap && grow())
		goto out;
	i = find(slots, cap, s, n);
	if (!slots[i]) {
		slots[i] = copy(s, n);
		if (!slots[i])
			goto out;
		count++;
	}
	p = slots[i];
out:
	pthread_mutex_unlock(&lock);
	return p;
}

const char *ls_intern_fn(const char *s)
{
	const char *p = ls_intern(s);

	return p ? p : "?";
}
