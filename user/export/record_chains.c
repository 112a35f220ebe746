// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* record_chains.c - the wait-for chains of record lock rows (`chains`) as
 * edges for the report's graph: read them, sum the edges of the same two
 * locks, free them. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>
#include "export/record.h"
#include "export/record_int.h"
#include "util/untrusted_text.h"

static int cmp_edge(const void *a, const void *b)
{
	const struct ls_rec_edge *x = a, *y = b;
	int c = strcmp(x->from, y->from);

	if (!c && x->from_kind != y->from_kind)
		c = x->from_kind < y->from_kind ? -1 : 1;
	if (!c)
		c = strcmp(x->to, y->to);
	if (!c && x->to_kind != y->to_kind)
		c = x->to_kind < y->to_kind ? -1 : 1;
	return c;
}

/* String @key of @o (a lock name or kind, checked) into @out. */
static int str_of(struct ls_rd *rd, struct json_object *o, const char *path,
		  const char *key, char *out, size_t len)
{
	struct json_object *v;
	const char *t;

	if (!json_object_object_get_ex(o, key, &v) ||
	    !json_object_is_type(v, json_type_string))
		return ls_rd_bad(rd, "%s.%s: missing or not a string", path,
				 key);
	t = json_object_get_string(v);
	if (!*t || (size_t)json_object_get_string_len(v) >= len ||
	    strlen(t) != (size_t)json_object_get_string_len(v) ||
	    ls_text_unsafe(t))
		return ls_rd_bad(rd,
				 "%s.%s: empty, too long or holds control "
				 "characters",
				 path, key);
	memcpy(out, t, strlen(t) + 1);
	return 0;
}

int ls_rec_read_chains(struct ls_rd *rd, struct json_object *lock,
		       const char *path, struct ls_rec_lock *l,
		       struct ls_rec_snap *s)
{
	struct json_object *o, *a;
	struct ls_rec_edge *e;
	size_t n;
	char p[200], kind[24];

	if (!json_object_object_get_ex(lock, "chains", &o) || !o)
		return 0; /* older file, or --no-chains */
	if (!json_object_is_type(o, json_type_object) ||
	    !json_object_object_get_ex(o, "chains", &a) ||
	    !json_object_is_type(a, json_type_array))
		return ls_rd_bad(rd,
				 "%s.chains: not an object with a chains "
				 "array",
				 path);
	snprintf(p, sizeof(p), "%s.chains", path);
	if (ls_rd_u64(rd, o, p, "waits", &l->chain_waits) ||
	    ls_rd_u64(rd, o, p, "wait_ns", &l->chain_ns))
		return -EINVAL;
	l->has_chains = 1;
	n = json_object_array_length(a);
	if (!n)
		return 0;
	e = realloc(s->edges, (s->nedges + n) * sizeof(*e));
	if (!e)
		return ls_rd_bad(rd, "%s.chains: out of memory", path);
	s->edges = e;
	for (size_t i = 0; i < n; i++) {
		struct json_object *c = json_object_array_get_idx(a, i);
		struct ls_rec_edge *d = &s->edges[s->nedges];
		int err;

		snprintf(p, sizeof(p), "%s.chains.chains[%zu]", path, i);
		if (!json_object_is_type(c, json_type_object))
			return ls_rd_bad(rd, "%s: not an object", p);
		memset(d, 0, sizeof(*d));
		memcpy(d->from, l->name, sizeof(d->from));
		d->from_kind = l->kind;
		err = str_of(rd, c, p, "blocked_on", d->to, sizeof(d->to));
		if (!err)
			err = str_of(rd, c, p, "blocked_on_kind", kind,
				     sizeof(kind));
		if (!err && ls_rd_kind(kind, &d->to_kind))
			err = ls_rd_bad(rd, "%s.blocked_on_kind: unknown", p);
		if (!err)
			err = ls_rd_u64(rd, c, p, "waits", &d->waits);
		if (!err)
			err = ls_rd_u64(rd, c, p, "wait_ns", &d->wait_ns);
		if (!err)
			err = ls_rd_u64(rd, c, p, "cycles", &d->cycles);
		if (err)
			return err;
		ls_rd_strip_addr(d->to);
		s->nedges++;
	}
	return 0;
}

/* @a + @b, at most UINT64_MAX (the figures come from a file) */
static uint64_t add_sat(uint64_t a, uint64_t b)
{
	return a + b < a ? UINT64_MAX : a + b;
}

void ls_rec_chains_merge(struct ls_rec_snap *s)
{
	size_t keep = 0;

	if (!s->nedges)
		return;
	qsort(s->edges, s->nedges, sizeof(*s->edges), cmp_edge);
	for (size_t i = 0; i < s->nedges; i++) {
		struct ls_rec_edge *k = keep ? &s->edges[keep - 1] : NULL;

		if (k && !cmp_edge(k, &s->edges[i])) {
			k->waits = add_sat(k->waits, s->edges[i].waits);
			k->wait_ns = add_sat(k->wait_ns, s->edges[i].wait_ns);
			k->cycles = add_sat(k->cycles, s->edges[i].cycles);
		} else {
			s->edges[keep++] = s->edges[i];
		}
	}
	s->nedges = keep;
}

void ls_rec_chains_free(struct ls_rec_snap *s)
{
	free(s->edges);
	s->edges = NULL;
	s->nedges = 0;
}
