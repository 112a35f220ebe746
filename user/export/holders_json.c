// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* holders_json.c - the "holder" object of a lock row: waits and wait time
 * by holder state, handoff tenure (an upper bound) with its histogram and
 * conservation parts, sampled holder sites, pairs and tids. */
#include "export/holders_json.h"

static void add_u64(struct json_object *o, const char *k, uint64_t v)
{
	json_object_object_add(o, k, json_object_new_uint64(v));
}

static struct json_object *by_state(const __u64 *v)
{
	struct json_object *o = json_object_new_object();

	for (unsigned i = 0; i < LS_HOLDER_MAX; i++)
		add_u64(o, ls_holder_name(i), v[i]);
	return o;
}

static struct json_object *tenure_of(uint64_t ns, uint64_t count)
{
	struct json_object *o = json_object_new_object();

	add_u64(o, "tenure_ns", ns);
	add_u64(o, "count", count);
	return o;
}

static struct json_object *sampled(const struct ls_row *r)
{
	struct json_object *o = json_object_new_object();
	struct json_object *sites = json_object_new_array();
	struct json_object *pairs = json_object_new_array();
	struct json_object *tids = json_object_new_array();

	add_u64(o, "tenure_ns", r->hold_sampled_ns);
	add_u64(o, "count", r->hold_sampled);
	for (unsigned i = 0; i < r->nhsites; i++) {
		struct json_object *e =
			tenure_of(r->hsites[i].tenure_ns, r->hsites[i].count);

		json_object_object_add(e, "function",
				       json_object_new_string(r->hsites[i].fn));
		json_object_array_add(sites, e);
	}
	for (unsigned i = 0; i < r->nhpairs; i++) {
		struct json_object *e =
			tenure_of(r->hpairs[i].tenure_ns, r->hpairs[i].count);

		json_object_object_add(
			e, "waiter",
			json_object_new_string(r->hpairs[i].waiter));
		json_object_object_add(
			e, "holder",
			json_object_new_string(r->hpairs[i].holder));
		json_object_array_add(pairs, e);
	}
	for (unsigned i = 0; i < r->nhtids; i++) {
		struct json_object *e =
			tenure_of(r->htids[i].tenure_ns, r->htids[i].count);

		add_u64(e, "tid", r->htids[i].tid);
		json_object_array_add(tids, e);
	}
	json_object_object_add(o, "sites", sites);
	json_object_object_add(o, "pairs", pairs);
	json_object_object_add(o, "tids", tids);
	return o;
}

struct json_object *ls_holders_to_json(const struct ls_row *r)
{
	const struct ls_lock_stats *st = &r->st;
	struct json_object *o = json_object_new_object();
	struct json_object *h = json_object_new_array();
	double pre = ls_row_preempted_pct(r);
	int last = -1;

	json_object_object_add(
		o, "has_owner_word",
		json_object_new_boolean(ls_kind_has_owner(r->key.kind)));
	/* false: vcpu-preempted was not measured (running includes it) */
	json_object_object_add(o, "vcpu_flag_read",
			       json_object_new_boolean(r->vcpu_known));
	json_object_object_add(o, "waits", by_state(st->holder_waits));
	json_object_object_add(o, "wait_ns", by_state(st->holder_ns));
	json_object_object_add(o, "preempted_pct",
			       pre >= 0 ? json_object_new_double(pre) : NULL);
	add_u64(o, "tenure_ns", st->tenure_ns);
	add_u64(o, "tenure_count", ls_row_tenures(r));
	add_u64(o, "tenure_unsampled_ns", st->tenure_unsampled_ns);
	add_u64(o, "tenure_unseen_ns", st->tenure_unseen_ns);
	for (int i = 0; i < LS_HIST_SLOTS; i++)
		if (r->hi.hist_tenure[i])
			last = i;
	for (int i = 0; i <= last; i++)
		json_object_array_add(
			h, json_object_new_uint64(r->hi.hist_tenure[i]));
	json_object_object_add(o, "hist_tenure_log2_ns", h);
	json_object_object_add(o, "sampled", sampled(r));
	return o;
}
