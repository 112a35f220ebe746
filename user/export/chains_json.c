// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* chains_json.c - a lock's wait-for chains as JSON: the shares of its
 * waits and wait time whose holder waited on another lock, and each chain
 * with its next lock, root cause, waits, time and sources. */
#include <stdio.h>
#include <stdlib.h>
#include "export/chains_json.h"

static void add_u64(struct json_object *o, const char *k, uint64_t v)
{
	json_object_object_add(o, k, json_object_new_uint64(v));
}

static double share(uint64_t part, uint64_t whole)
{
	return whole ? (double)part / (double)whole : 0.0;
}

static void add_addr(struct json_object *o, const char *k, uint64_t a)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "%llx", (unsigned long long)a);
	json_object_object_add(o, k, json_object_new_string(buf));
}

static struct json_object *chain_json(const struct ls_chainrow *c,
				      const struct ls_row *r, int with_addr)
{
	struct json_object *o = json_object_new_object();
	struct json_object *st = json_object_new_object();
	struct json_object *src = json_object_new_array();
	char path[3 * LS_NAME_MAX + LS_FN_MAX + 96];

	json_object_object_add(o, "path",
			       json_object_new_string(ls_chain_path(
				       c, r->name, path, sizeof(path))));
	json_object_object_add(o, "blocked_on",
			       json_object_new_string(c->next_name));
	json_object_object_add(
		o, "blocked_on_kind",
		json_object_new_string(ls_kind_name(c->next.kind)));
	json_object_object_add(o, "root", json_object_new_string(c->root_name));
	json_object_object_add(
		o, "root_kind",
		json_object_new_string(ls_kind_name(c->root.kind)));
	json_object_object_add(
		o, "root_holder",
		json_object_new_string(ls_holder_name(ls_chain_root_state(c))));
	json_object_object_add(o, "root_site",
			       json_object_new_string(c->root_site));
	if (with_addr) {
		add_addr(o, "blocked_on_addr", c->next.addr);
		add_addr(o, "root_addr", c->root.addr);
	}
	for (unsigned h = 0; h < LS_HOLDER_MAX; h++)
		if (c->v.root_waits[h])
			add_u64(st, ls_holder_name(h), c->v.root_waits[h]);
	json_object_object_add(o, "root_holder_waits", st);
	add_u64(o, "waits", c->v.waits);
	add_u64(o, "wait_ns", c->v.wait_ns);
	add_u64(o, "cycles", c->v.cycles);
	add_u64(o, "capped", c->v.capped);
	add_u64(o, "max_depth", c->v.max_depth);
	add_u64(o, "holder_tid", c->v.tid);
	if (c->v.flags & LS_CF_OWN)
		json_object_array_add(src, json_object_new_string("own_wait"));
	if (c->v.flags & LS_CF_BLOCKER)
		json_object_array_add(src,
				      json_object_new_string("task_blocker"));
	json_object_object_add(o, "sources", src);
	return o;
}

struct json_object *ls_chains_to_json(const struct ls_snapshot *s,
				      const struct ls_row *r, int with_addr)
{
	struct json_object *o, *a;
	struct ls_chain_sum sum;
	size_t total, n, *idx;

	if (!s->chains_on)
		return NULL;
	o = json_object_new_object();
	a = json_object_new_array();
	ls_chains_sum(s, &r->key, &sum);
	add_u64(o, "waits", sum.waits);
	add_u64(o, "wait_ns", sum.wait_ns);
	json_object_object_add(
		o, "waits_share",
		json_object_new_double(share(sum.waits, r->st.contentions)));
	json_object_object_add(
		o, "wait_time_share",
		json_object_new_double(share(sum.wait_ns, r->st.total_ns)));
	add_u64(o, "cycles", sum.cycles);
	add_u64(o, "capped", sum.capped);
	add_u64(o, "max_depth", sum.max_depth);
	add_u64(o, "depth_bound", LS_CHAIN_DEPTH);
	idx = sum.nchains ? calloc(sum.nchains, sizeof(*idx)) : NULL;
	n = idx ? ls_chains_ranked(s, &r->key, idx, sum.nchains, &total) : 0;
	for (size_t i = 0; i < n; i++)
		json_object_array_add(
			a, chain_json(&s->chains[idx[i]], r, with_addr));
	free(idx);
	json_object_object_add(o, "chains", a);
	return o;
}
