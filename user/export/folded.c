// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* folded.c - sampled waiter stacks as folded-stack lines for flame graphs
 * ("lock;frame;frame weight"). */
#include <string.h>
#include "export/metrics.h"
#include "export/folded.h"

/* Frames joined by ';' (no frame holds one: kernel symbols, and frames
 * read from records are checked): no line end or tab may pass. */
static void put_frames(FILE *f, const char *s)
{
	for (; *s; s++)
		fputc((unsigned char)*s < ' ' || *s == 0x7f ? '_' : *s, f);
}

void ls_folded_root(const struct ls_stack *s, char *buf, size_t len)
{
	ls_lock_id(s->lock, s->kind, buf, len);
	for (char *p = buf; *p; p++)
		if (*p == ';' || (unsigned char)*p < ' ' || *p == 0x7f)
			*p = '_';
}

uint64_t ls_folded_write(FILE *f, const struct ls_stacks *st)
{
	char root[LS_NAME_MAX + 32];
	uint64_t sum = 0;

	for (size_t i = 0; i < st->n; i++) {
		const struct ls_stack *s = &st->v[i];

		if (!s->wait_ns)
			continue;
		ls_folded_root(s, root, sizeof(root));
		fputs(root, f);
		if (*s->frames)
			fputc(';', f);
		put_frames(f, s->frames);
		fprintf(f, " %llu\n", (unsigned long long)s->wait_ns);
		sum += s->wait_ns;
	}
	return sum;
}
