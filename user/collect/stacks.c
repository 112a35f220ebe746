// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * stacks.c - the sampled waiter stacks of lock_callers, whole, for flame
 * graphs: each stack's frames resolved once (kallsyms), its samples and the
 * wait time of its sampled waits (added in BPF at their ends), as the
 * last read saw them, less what they held at a mark (the start of a record),
 * each under its lock's row (--by class: its class's row).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include "collect/collector_int.h"
#include "model/naming.h"
#include "model/stacks.h"

/* Frames of stack @id, root first; "[unknown]" when it cannot be read. */
static const char *frames_of(struct ls_collector *c, __s32 id)
{
	uint64_t ips[LS_STACK_DEPTH] = {};
	char buf[LS_STACK_DEPTH * (LS_FN_MAX + 1)];

	if (id < 0 || (uint32_t)id >= c->o.max_stacks)
		return "[unknown]";
	if (c->stack_frames[id])
		return c->stack_frames[id];
	if (bpf_map_lookup_elem(bpf_map__fd(c->skel->maps.stacks), &id, ips) ||
	    !c->have_ks ||
	    !ls_stack_frames(&c->ks, ips, LS_STACK_DEPTH, buf, sizeof(buf)))
		return "[unknown]"; /* not kept: kallsyms may come later */
	c->stack_frames[id] = strdup(buf);
	return c->stack_frames[id] ? c->stack_frames[id] : "[unknown]";
}

int ls_stacks_keep(struct ls_collector *c, const struct ls_caller_key *k,
		   const struct ls_caller_val *v)
{
	if (c->nraw == c->raw_cap) {
		size_t cap = c->raw_cap ? c->raw_cap * 2 : 256;
		struct ls_raw_caller *p = realloc(c->raw, cap * sizeof(*p));

		if (!p)
			return -ENOMEM;
		c->raw = p;
		c->raw_cap = cap;
	}
	c->raw[c->nraw].k = *k;
	c->raw[c->nraw++].v = *v;
	return 0;
}

static int cmp_class_of(const void *a, const void *b)
{
	return ls_key_cmp(&((const struct ls_class_of *)a)->lock,
			  &((const struct ls_class_of *)b)->lock);
}

int ls_stacks_classes(struct ls_collector *c, const struct ls_snapshot *s)
{
	if (s->nrows > c->class_of_cap) {
		struct ls_class_of *p =
			realloc(c->class_of, s->nrows * sizeof(*p));

		if (!p)
			return -ENOMEM;
		c->class_of = p;
		c->class_of_cap = s->nrows;
	}
	for (size_t i = 0; i < s->nrows; i++) {
		c->class_of[i].lock = s->rows[i].key;
		c->class_of[i].class_addr =
			ls_class_key(s->rows[i].name, s->rows[i].cls_len);
	}
	c->nclass_of = s->nrows;
	qsort(c->class_of, c->nclass_of, sizeof(*c->class_of), cmp_class_of);
	return 0;
}

/* The row of @named that lock @k's stacks go to: its own, or under
 * --by class its class's (NULL: none). */
static const struct ls_row *row_of(const struct ls_collector *c,
				   const struct ls_snapshot *named,
				   struct ls_lock_key k)
{
	if (c->o.by_class) {
		const struct ls_class_of key = {.lock = k}, *e;

		e = c->nclass_of ? bsearch(&key, c->class_of, c->nclass_of,
					   sizeof(key), cmp_class_of)
				 : NULL;
		if (!e)
			return NULL;
		k.addr = e->class_addr;
	}
	return ls_snap_find(named, &k);
}

static int cmp_key(const void *a, const void *b)
{
	return memcmp(&((const struct ls_raw_caller *)a)->k,
		      &((const struct ls_raw_caller *)b)->k,
		      sizeof(struct ls_caller_key));
}

int ls_collector_mark_stacks(struct ls_collector *c,
			     const struct ls_snapshot *s)
{
	struct ls_raw_caller *m = NULL;
	size_t n = 0;

	if (c->nraw) {
		m = malloc(c->nraw * sizeof(*m));
		if (!m)
			return -ENOMEM;
	}
	for (size_t i = 0; i < c->nraw; i++) {
		const struct ls_caller_key *k = &c->raw[i].k;
		struct ls_lock_key lk = {.addr = k->addr, .kind = k->kind};

		if (row_of(c, s, lk))
			m[n++] = c->raw[i];
	}
	if (n)
		qsort(m, n, sizeof(*m), cmp_key);
	free(c->mark);
	c->mark = m;
	c->nmark = n;
	return 0;
}

int ls_collector_stacks(struct ls_collector *c, struct ls_snapshot *named,
			struct ls_stacks *out)
{
	ls_snap_index(named); /* rows may have moved (sort, filter) */
	for (size_t i = 0; i < c->nraw; i++) {
		const struct ls_raw_caller *e = &c->raw[i], *m = NULL;
		struct ls_lock_key lk = {.addr = e->k.addr, .kind = e->k.kind};
		const struct ls_row *r = row_of(c, named, lk);
		uint64_t n = e->v.count, w = e->v.wait_ns;
		int err;

		if (c->nmark)
			m = bsearch(e, c->mark, c->nmark, sizeof(*m), cmp_key);
		if (m) {
			n = n > m->v.count ? n - m->v.count : 0;
			w = w > m->v.wait_ns ? w - m->v.wait_ns : 0;
		}
		if (!r ||
		    (!n && !w)) /* w alone: a wait begun before the mark */
			continue;
		err = ls_stacks_add(out, r->name, e->k.kind,
				    frames_of(c, e->k.stack_id), n, w);
		if (err)
			return err;
	}
	return 0;
}
