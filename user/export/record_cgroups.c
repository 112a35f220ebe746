// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* record_cgroups.c - the per-cgroup waits of record lock rows (`cgroups`,
 * written by record --by cgroup) for compare --by cgroup: read them, sum
 * the rows of one lock, kind and cgroup, free them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>
#include "export/record.h"
#include "export/record_int.h"
#include "util/untrusted_text.h"

static int cmp_cg(const void *a, const void *b)
{
	const struct ls_rec_cg *x = a, *y = b;
	int c = strcmp(x->lock, y->lock);

	if (c)
		return c;
	if (x->kind != y->kind)
		return x->kind < y->kind ? -1 : 1;
	return strcmp(x->path, y->path);
}

int ls_rec_read_cgroups(struct ls_rd *rd, struct json_object *lock,
			const char *path, const struct ls_rec_lock *l,
			struct ls_rec_snap *s)
{
	struct json_object *a;
	struct ls_rec_cg *cgs;
	size_t n;
	char p[160];

	if (!json_object_object_get_ex(lock, "cgroups", &a))
		return 0; /* recorded without --by cgroup */
	if (!json_object_is_type(a, json_type_array))
		return ls_rd_bad(rd, "%s.cgroups: not an array", path);
	s->has_cgroups = 1;
	n = json_object_array_length(a);
	if (!n)
		return 0;
	cgs = realloc(s->cgs, (s->ncgs + n) * sizeof(*cgs));
	if (!cgs)
		return ls_rd_bad(rd, "%s.cgroups: out of memory", path);
	s->cgs = cgs;
	for (size_t i = 0; i < n; i++) {
		struct json_object *o = json_object_array_get_idx(a, i), *v;
		struct ls_rec_cg *c = &s->cgs[s->ncgs];
		const char *cg;
		int err;

		snprintf(p, sizeof(p), "%s.cgroups[%zu]", path, i);
		if (!json_object_is_type(o, json_type_object) ||
		    !json_object_object_get_ex(o, "cgroup", &v) ||
		    !json_object_is_type(v, json_type_string))
			return ls_rd_bad(rd,
					 "%s.cgroup: missing or not a "
					 "string",
					 p);
		cg = json_object_get_string(v);
		if (!*cg ||
		    (size_t)json_object_get_string_len(v) >= sizeof(c->path) ||
		    strlen(cg) != (size_t)json_object_get_string_len(v) ||
		    ls_text_unsafe(cg))
			return ls_rd_bad(rd,
					 "%s.cgroup: empty, too long or holds "
					 "control characters",
					 p);
		memset(c, 0, sizeof(*c));
		memcpy(c->path, cg, strlen(cg) + 1);
		memcpy(c->lock, l->name, sizeof(c->lock));
		c->kind = l->kind;
		err = ls_rd_u64(rd, o, p, "waits", &c->waits);
		if (!err)
			err = ls_rd_u64(rd, o, p, "wait_ns", &c->wait_ns);
		if (err)
			return err;
		s->ncgs++;
	}
	return 0;
}

void ls_rec_cgroups_merge(struct ls_rec_snap *s)
{
	size_t keep = 0;

	if (!s->ncgs)
		return;
	qsort(s->cgs, s->ncgs, sizeof(*s->cgs), cmp_cg);
	for (size_t i = 0; i < s->ncgs; i++) {
		if (keep && !cmp_cg(&s->cgs[keep - 1], &s->cgs[i])) {
			s->cgs[keep - 1].waits += s->cgs[i].waits;
			s->cgs[keep - 1].wait_ns += s->cgs[i].wait_ns;
		} else {
			s->cgs[keep++] = s->cgs[i];
		}
	}
	s->ncgs = keep;
}

void ls_rec_cgroups_free(struct ls_rec_snap *s)
{
	free(s->cgs);
	s->cgs = NULL;
	s->ncgs = 0;
}
