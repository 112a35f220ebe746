// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* strpool.c - copies of strings in chunks that never move (strpool.h). */
#include <stdlib.h>
#include <string.h>
#include "util/strpool.h"

#define CHUNK 65536

struct ls_strchunk {
	struct ls_strchunk *next;
	size_t used, cap;
	char data[];
};

const char *ls_pool_dup(struct ls_strpool *p, const char *s)
{
	size_t n = strlen(s) + 1;
	struct ls_strchunk *c = p->head;
	char *d;

	if (!c || c->cap - c->used < n) {
		size_t cap = n > CHUNK ? n : CHUNK;

		c = malloc(sizeof(*c) + cap);
		if (!c)
			return NULL;
		c->next = p->head;
		c->used = 0;
		c->cap = cap;
		p->head = c;
	}
	d = c->data + c->used;
	memcpy(d, s, n);
	c->used += n;
	return d;
}

void ls_pool_free(struct ls_strpool *p)
{
	while (p->head) {
		struct ls_strchunk *c = p->head;

		p->head = c->next;
		free(c);
	}
}
